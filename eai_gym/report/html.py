"""``eai-gym report RESULTS.json [...] --out report.html``: one self-contained HTML page comparing runs.

Sections: the runs; the summary of each run in the reference's layout (its nested summary as a table,
one column per run); error types (bar chart and counts); success by task category (bar chart and
table); progress over steps (mean curve per run); per-task drill-down (one row per task, one column per
run, each cell expandable to the full record). Plots are matplotlib PNGs embedded as data URIs, so the
file needs nothing else (matplotlib is the optional extra ``eai-gym[report]``).
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections import Counter
from typing import Any, Iterable, Sequence

from .. import __version__
from .runs import Run, category, error_types, headline, progress_curve, success, task_key

CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.num{text-align:right;font-variant-numeric:tabular-nums}.ok{color:#17803d}.bad{color:#b3261e}
details summary{cursor:pointer}pre{white-space:pre-wrap;font-size:.8em;max-height:24em;overflow:auto;background:#fafafa}
img{max-width:100%;border:1px solid #eee}.muted{color:#777}
"""


#: record fields left out of the drill-down (large logs; they stay in the results file)
HEAVY = ("task_evaluation_log", "counts", "execution_info", "agentquest_progress", "fsm_progress", "fsm_states",
         "agentboard_progress")


def _plot(draw) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.6), dpi=100)
    try:
        draw(ax)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
    finally:
        plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _bars(ax, groups: Sequence[str], runs: Sequence[Run], values: list[list[float]], ylabel: str) -> None:
    width = 0.8 / max(1, len(runs))
    for i, run in enumerate(runs):
        ax.bar([g + i * width for g in range(len(groups))], values[i], width, label=run.name)
    ax.set_xticks([g + width * (len(runs) - 1) / 2 for g in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    if len(runs) > 1:
        ax.legend(fontsize=8)


def _flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(d, dict):
        for k, v in d.items():
            out.update(_flatten(v, f"{prefix}{k} / " if isinstance(v, dict) else f"{prefix}{k}"))
    else:
        out[prefix.rstrip(" /")] = d
    return out


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f'<td class="num">{v:.4g}</td>'
    if isinstance(v, int) and not isinstance(v, bool):
        return f'<td class="num">{v}</td>'
    if isinstance(v, (list, dict)):
        v = json.dumps(v)
    return f"<td>{html.escape('' if v is None else str(v))}</td>"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_cell(c) if i else f"<th>{html.escape(str(c))}</th>" for i, c in enumerate(r))
                   + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def summary_section(runs: Sequence[Run]) -> str:
    flat = [_flatten(r.summary) for r in runs]
    keys = list(dict.fromkeys(k for f in flat for k in f))
    return _table(["measure"] + [r.name for r in runs], [[k] + [f.get(k) for f in flat] for k in keys])


def errors_section(runs: Sequence[Run]) -> str:
    counts = [Counter(e for rec in r.evaluated() for e in error_types(rec)) for r in runs]
    kinds = sorted(set().union(*counts)) if counts else []
    if not kinds:
        return "<p class='muted'>No errors recorded in these runs.</p>"
    img = _plot(lambda ax: _bars(ax, kinds, runs, [[c[k] for k in kinds] for c in counts], "occurrences"))
    table = _table(["error type"] + [r.name for r in runs], [[k] + [c[k] for c in counts] for k in kinds])
    return f'<img alt="error types" src="{img}">{table}'


def categories_section(runs: Sequence[Run]) -> str:
    per: list[dict[str, list[bool]]] = []
    for r in runs:
        d: dict[str, list[bool]] = {}
        for rec in r.evaluated():
            s = success(rec)
            if s is not None:
                d.setdefault(category(r, rec), []).append(s)
        per.append(d)
    cats = sorted(set().union(*per)) if per else []
    if not cats:
        return "<p class='muted'>No success outcomes in these runs.</p>"
    rate = [[(sum(d[c]) / len(d[c]) if d.get(c) else 0.0) for c in cats] for d in per]
    img = _plot(lambda ax: _bars(ax, cats, runs, rate, "success rate"))
    rows = [[c] + [f"{sum(d[c])}/{len(d[c])} ({sum(d[c]) / len(d[c]):.0%})" if d.get(c) else "–" for d in per]
            for c in cats]
    return f'<img alt="success by category" src="{img}">' + _table(["category"] + [r.name for r in runs], rows)


def progress_section(runs: Sequence[Run]) -> str:
    curves = []
    for r in runs:
        cs = [c for c in (progress_curve(r, rec) for rec in r.evaluated()) if c]
        if not cs:
            curves.append(None)
            continue
        n = max(len(c) for c in cs)
        mean = [sum(c[min(k, len(c) - 1)] for c in cs) / len(cs) for k in range(n)]  # a finished run keeps its value
        curves.append(mean)
    if not any(curves):
        return "<p class='muted'>These records have no per-step progress.</p>"

    def draw(ax):
        for r, c in zip(runs, curves):
            if c:
                ax.plot(range(1, len(c) + 1), c, label=r.name)
        ax.set_xlabel("step")
        ax.set_ylabel("mean progress")
        ax.set_ylim(0, 1.05)
        ax.legend(fontsize=8)
    return (f'<img alt="progress over steps" src="{_plot(draw)}"><p class="muted">ALFWorld: AgentQuest progress; '
            "rearrange: share of propositions satisfied so far; action plans: share of plans still executing.</p>")


def drilldown_section(runs: Sequence[Run]) -> str:
    index = [{task_key(rec): rec for rec in r.records} for r in runs]
    keys = list(dict.fromkeys(k for d in index for k in d))
    rows = []
    for k in keys:
        cells = []
        for d in index:
            rec = d.get(k)
            if rec is None:
                cells.append("<td class='muted'>–</td>")
                continue
            s = success(rec)
            cls = "ok" if s else "bad" if s is not None else ""
            shown = {f: v for f, v in rec.items() if f not in HEAVY}
            text = json.dumps(shown, indent=1, default=str)
            body = html.escape(text if len(text) <= 4000 else text[:4000] + "\n... (cut; the full record is in the results file)")
            cells.append(f"<td class='{cls}'><details><summary>{html.escape(headline(rec))}</summary>"
                         f"<pre>{body}</pre></details></td>")
        rows.append(f"<tr><th>{html.escape(k)}</th>{''.join(cells)}</tr>")
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in runs)
    return f"<table><tr><th>task</th>{head}</tr>{''.join(rows)}</table>"


def build_report(runs: Sequence[Run], title: str = "eai-gym report") -> str:
    if not runs:
        raise ValueError("a report needs at least one run")
    run_rows = [[r.name, r.world, r.mode, r.protocol, len(r.records), len(r.evaluated()), r.path] for r in runs]
    sections = [
        ("Runs", _table(["run", "world", "mode", "protocol", "items", "evaluated", "file"], run_rows)),
        ("Summary", summary_section(runs)),
        ("Error types", errors_section(runs)),
        ("Success by task category", categories_section(runs)),
        ("Progress over steps", progress_section(runs)),
        ("Per-task drill-down", drilldown_section(runs)),
    ]
    body = "".join(f"<h2>{html.escape(t)}</h2>{s}" for t, s in sections)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p class='muted'>eai-gym {__version__}</p>{body}</body></html>\n")

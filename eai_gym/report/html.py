"""``eai-gym report RUN [...] --out report.html``: one self-contained HTML page comparing runs.

Sections (the tables of :mod:`.tables`): the runs (world, mode, protocol, items and those with an outcome; for
``eai-gym evaluate`` runs the model, endpoint, tokens and failed requests); the headline figures of each run's mode;
every summary figure (one column per run; rates in percent, whatever scale the reference's own summary uses); error
types (bar chart and counts); success by task category (bar chart and table); progress over steps (mean curve per
run); per-task drill-down (one row per task, one column per run, each cell expandable to the full record). Plots
are matplotlib PNGs embedded as data URIs, so the file needs nothing else (matplotlib is the optional extra
``eai-gym[report]``).
"""

from __future__ import annotations

import base64
import html
import io
import json
from typing import Any, Iterable, Sequence

from .. import __version__
from .runs import Run, headline, success
from .tables import (
    Table,
    category_outcomes,
    category_table,
    drilldown,
    error_table,
    headline_table,
    progress_curves,
    runs_table,
    summary_table,
)

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
        ax.legend(fontsize=8, loc="upper right")


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f'<td class="num">{v:.4g}</td>'
    if isinstance(v, int) and not isinstance(v, bool):
        return f'<td class="num">{v}</td>'
    if isinstance(v, str) and (v.endswith((" %", " steps")) or v.replace(".", "", 1).isdigit()):
        return f'<td class="num">{html.escape(v)}</td>'
    if isinstance(v, (list, dict)):
        v = json.dumps(v)
    return f"<td>{html.escape('' if v is None else str(v))}</td>"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_cell(c) if i else f"<th>{html.escape(str(c))}</th>" for i, c in enumerate(r))
                   + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _html_table(table: Table) -> str:
    return _table(*table)


def summary_section(runs: Sequence[Run]) -> str:
    return ("<p class='muted'>Every figure of each run's summary; rates in percent (the results files keep each "
            "reference's own scale, percent or fraction, as the mode declares it).</p>"
            + _html_table(summary_table(runs)))


def errors_section(runs: Sequence[Run]) -> str:
    header, rows = error_table(runs)
    if not rows:
        return "<p class='muted'>No errors recorded in these runs.</p>"
    kinds = [r[0] for r in rows]
    img = _plot(lambda ax: _bars(ax, kinds, runs, [[r[i + 1] for r in rows] for i in range(len(runs))],
                                 "occurrences"))
    return f'<img alt="error types" src="{img}">{_table(header, rows)}'


def categories_section(runs: Sequence[Run]) -> str:
    cats, per = category_outcomes(runs)
    if not cats:
        return "<p class='muted'>No success outcomes in these runs.</p>"
    rate = [[(100 * d[c][0] / d[c][1] if c in d else 0.0) for c in cats] for d in per]
    img = _plot(lambda ax: _bars(ax, cats, runs, rate, "success (%)"))
    return f'<img alt="success by category" src="{img}">' + _html_table(category_table(runs))


def progress_section(runs: Sequence[Run]) -> str:
    curves = progress_curves(runs)
    if not any(curves):
        return "<p class='muted'>These records have no per-step progress.</p>"

    def draw(ax):
        for r, c in zip(runs, curves):
            if c:
                ax.plot(range(1, len(c) + 1), [100 * v for v in c], label=r.name)
        ax.set_xlabel("step")
        ax.set_ylabel("mean progress (%)")
        ax.set_ylim(0, 105)
        ax.legend(fontsize=8, loc="lower right")
    return (f'<img alt="progress over steps" src="{_plot(draw)}"><p class="muted">ALFWorld: AgentQuest progress; '
            "rearrange: share of propositions satisfied so far; episodes (eai-gym evaluate): share of goal "
            "propositions holding; action plans: share of plans still executing.</p>")


def drilldown_section(runs: Sequence[Run]) -> str:
    keys, index = drilldown(runs)
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
            try:
                text = json.dumps(shown, indent=1, default=str)
            except (ValueError, RecursionError):
                text = "(this record cannot be shown; it is in the results file)"
            body = html.escape(text if len(text) <= 4000 else text[:4000] + "\n... (cut; the full record is in the results file)")
            cells.append(f"<td class='{cls}'><details><summary>{html.escape(headline(rec))}</summary>"
                         f"<pre>{body}</pre></details></td>")
        rows.append(f"<tr><th>{html.escape(k)}</th>{''.join(cells)}</tr>")
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in runs)
    return f"<table><tr><th>task</th>{head}</tr>{''.join(rows)}</table>"


def runs_section(runs: Sequence[Run]) -> str:
    notes = "".join(f"<p class='muted'>{html.escape(r.name)}: {html.escape(n)}</p>" for r in runs for n in r.notes)
    return _html_table(runs_table(runs)) + notes


def build_report(runs: Sequence[Run], title: str = "eai-gym report") -> str:
    if not runs:
        raise ValueError("a report needs at least one run")
    sections = [
        ("Runs", runs_section(runs)),
        ("Headline figures", _html_table(headline_table(runs))),
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

"""What a report shows, as tables of plain values: the HTML page (:mod:`.html`) and the terminal text
(:mod:`.text`) lay out the same tables.

Figures are on one scale: every rate in percent with its unit named (:mod:`.units`), whatever scale the
reference's own summary uses.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from .runs import Run, category, error_counts, file_label, progress_curve, success, task_key
from .units import leaves, show, value_at

#: a table: its header and its rows (each a label then one value per column)
Table = tuple[list[str], list[list[Any]]]


def _tokens(run: Run) -> str:
    t = run.tokens
    if not t:
        return "–"
    total = t.get("total_tokens", t.get("prompt_tokens", 0) + t.get("completion_tokens", 0))
    return f"{total} ({t.get('prompt_tokens', '?')} prompt, {t.get('completion_tokens', '?')} completion)"


def runs_table(runs: Sequence[Run]) -> Table:
    """One row per run: where it comes from, what it scored, how many items had an outcome; for ``evaluate`` runs
    the model, the endpoint, the tokens and the requests that failed."""
    header = ["run", "world", "mode", "protocol", "items", "evaluated", "source", "model", "endpoint", "tokens",
              "request errors", "file"]
    rows = [[r.name, r.world, r.mode, r.protocol, len(r.records), len(r.evaluated()), r.source, r.model or "–",
             r.endpoint or "–", _tokens(r), "–" if r.request_errors is None else r.request_errors, file_label(r)]
            for r in runs]
    return header, rows


def headline_table(runs: Sequence[Run]) -> Table:
    """The headline figures each run's mode declares, one row per figure, rates in percent."""
    keys = list(dict.fromkeys(k.key for r in runs for k in r.layout.keys))
    rows = []
    for key in keys:
        row: list[Any] = [key]
        for r in runs:
            declared = any(k.key == key for k in r.layout.keys)
            row.append(show(value_at(r.summary, key), r.layout.unit(key)) if declared else "–")
        rows.append(row)
    return ["figure"] + [r.name for r in runs], rows


def summary_table(runs: Sequence[Run]) -> Table:
    """Every figure of each run's summary (its nested fields as dotted paths), rates in percent."""
    flat = [dict(leaves(r.summary)) for r in runs]
    keys = list(dict.fromkeys(k for f in flat for k in f))
    rows = [[k] + [show(f[k], r.layout.unit(k)) if k in f else "–" for r, f in zip(runs, flat)] for k in keys]
    return ["figure"] + [r.name for r in runs], rows


def error_table(runs: Sequence[Run]) -> Table:
    """Occurrences of each error type over the records with an outcome."""
    counts = []
    for r in runs:
        c: Counter[str] = Counter()
        for rec in r.evaluated():
            c.update(error_counts(rec))
        counts.append(c)
    kinds = sorted(set().union(*counts)) if counts else []
    return ["error type"] + [r.name for r in runs], [[k] + [c[k] for c in counts] for k in kinds]


def category_outcomes(runs: Sequence[Run]) -> tuple[list[str], list[dict[str, tuple[int, int]]]]:
    """The task categories, and for each run ``category -> (successes, records with an outcome)``."""
    per: list[dict[str, tuple[int, int]]] = []
    for r in runs:
        d: dict[str, tuple[int, int]] = {}
        for rec in r.evaluated():
            s = success(rec)
            if s is not None:
                cat = category(r, rec)
                ok, n = d.get(cat, (0, 0))
                d[cat] = (ok + s, n + 1)
        per.append(d)
    return sorted(set().union(*per)) if per else [], per


def category_table(runs: Sequence[Run]) -> Table:
    cats, per = category_outcomes(runs)
    rows = [[c] + [f"{d[c][0]}/{d[c][1]} ({100 * d[c][0] / d[c][1]:.2f} %)" if c in d else "–" for d in per]
            for c in cats]
    return ["category"] + [r.name for r in runs], rows


def progress_curves(runs: Sequence[Run]) -> list[list[float] | None]:
    """Each run's mean progress after each step (a record that ended keeps its last value), or None."""
    curves: list[list[float] | None] = []
    for r in runs:
        cs = [c for c in (progress_curve(r, rec) for rec in r.evaluated()) if c]
        if not cs:
            curves.append(None)
            continue
        n = max(len(c) for c in cs)
        curves.append([sum(c[min(k, len(c) - 1)] for c in cs) / len(cs) for k in range(n)])
    return curves


#: the steps at which the text report gives the mean progress
PROGRESS_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def progress_table(runs: Sequence[Run]) -> Table:
    """Mean progress (in percent) after a few steps, and at the end, per run."""
    curves = progress_curves(runs)
    longest = max((len(c) for c in curves if c), default=0)
    steps = [s for s in PROGRESS_STEPS if s < longest] + ([longest] if longest else [])
    rows = [[f"after step {s}"] + [show(c[min(s, len(c)) - 1], "fraction") if c else "–" for c in curves]
            for s in steps]
    return ["mean progress"] + [r.name for r in runs], rows


def drilldown(runs: Sequence[Run]) -> tuple[list[str], list[dict[str, dict[str, Any]]]]:
    """Every task key (in the runs' order) and, per run, its record by task key."""
    index = [{task_key(rec): rec for rec in r.records} for r in runs]
    return list(dict.fromkeys(k for d in index for k in d)), index

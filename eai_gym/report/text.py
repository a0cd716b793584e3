"""The report as plain text for a terminal (``eai-gym report`` prints it): the sections of the HTML page
(:mod:`.html`), as aligned columns, without the plots."""

from __future__ import annotations

from typing import Any, Sequence

from .runs import Run, headline
from .tables import (
    Table,
    category_table,
    drilldown,
    error_table,
    headline_table,
    progress_table,
    runs_table,
    summary_table,
)

#: the widest cell shown (longer values are cut with ``…``), and the widest row label
MAX_CELL = 60
MAX_LABEL = 90


def _cut(value: Any, limit: int = MAX_CELL) -> str:
    text = " ".join(str("–" if value is None else value).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def columns(table: Table, indent: str = "  ") -> str:
    """A table as aligned columns (numbers and figures right-aligned)."""
    header, rows = table
    cells = [[_cut(c, MAX_LABEL if i == 0 else MAX_CELL) for i, c in enumerate(row)] for row in [header] + rows]
    widths = [max(len(r[i]) for r in cells if i < len(r)) for i in range(len(header))]
    lines = []
    for row in cells:
        out = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append(indent + "  ".join(out).rstrip())
    return "\n".join(lines)


def _runs(runs: Sequence[Run]) -> str:
    header, rows = runs_table(runs)
    blocks = []
    for run, row in zip(runs, rows):
        v = dict(zip(header, row))
        text = (f"  {v['run']}: {v['world']} {v['mode']}, protocol {v['protocol']} (eai-gym {v['source']})\n"
                f"    items {v['items']}, evaluated {v['evaluated']}")
        if run.source == "evaluate":
            text += (f"; model {v['model']} at {v['endpoint']}; tokens {v['tokens']}; "
                     f"request errors {v['request errors']}")
        text += f"\n    file {v['file']}"
        for note in run.notes:
            text += f"\n    note: {note}"
        blocks.append(text)
    return "\n".join(blocks)


def _section(title: str, table: Table, empty: str) -> str:
    return f"{title}\n" + (columns(table) if table[1] else f"  {empty}")


def text_report(runs: Sequence[Run], task_lines: int = 20) -> str:
    """The report; ``task_lines``: the tasks listed in the drill-down (the first ones, in the runs' order; -1: all)."""
    if not runs:
        raise ValueError("a report needs at least one run")
    parts = [
        "Runs\n" + _runs(runs),
        _section("Headline figures (rates in percent)", headline_table(runs), "(no headline figures declared)"),
        _section("Summary (every figure; rates in percent)", summary_table(runs), "(empty summaries)"),
        _section("Error types (occurrences)", error_table(runs), "no errors recorded in these runs"),
        _section("Success by task category", category_table(runs), "no success outcomes in these runs"),
        _section("Progress over steps", progress_table(runs), "these records have no per-step progress"),
    ]
    keys, index = drilldown(runs)
    shown = keys if task_lines < 0 else keys[:task_lines]
    rows = [[k] + [headline(d[k]) if k in d else "–" for d in index] for k in shown]
    more = len(keys) - len(shown)
    title = f"Per-task drill-down ({len(shown)} of {len(keys)} tasks" + (
        "; --task-lines N lists more, -1 all" if more else "") + ")"
    parts.append(f"{title}\n" + (_drill(["task"] + [r.name for r in runs], rows) if rows else "  (no tasks)"))
    return "\n\n".join(parts) + "\n"


def _drill(header: list[str], rows: list[list[str]]) -> str:
    """The drill-down: a task per line, then each run's one-line outcome (left-aligned)."""
    width = max(len(_cut(r[0], MAX_LABEL)) for r in rows + [header])
    lines = []
    for row in rows:
        outcomes = " | ".join(f"{name}: {_cut(h)}" if len(header) > 2 else _cut(h) for name, h in zip(header[1:], row[1:]))
        lines.append(f"  {_cut(row[0], MAX_LABEL).ljust(width)}  {outcomes}")
    return "\n".join(lines)

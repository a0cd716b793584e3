"""Summary figures on one scale, with their unit named: what ``eai-gym score`` prints after the summary and what
``eai-gym report`` shows.

Each reference keeps its own scale in the ``summary`` of a results file (VirtualHome's EAI modules in percent,
BEHAVIOR's in fractions, ...); a mode declares the unit of each figure once (:class:`eai_gym.registry.SummaryLayout`)
and everything shown to a reader puts rates in percent: ``99.71 %`` and ``91.00 %``, never ``99.71`` beside ``0.91``.
"""

from __future__ import annotations

import math
from typing import Any, Iterator

from ..registry import SummaryLayout

#: how deep a summary is walked (a results file is the user's input: a deeper summary is shown as text)
MAX_DEPTH = 12


def leaves(summary: Any, prefix: str = "", depth: int = 0) -> Iterator[tuple[str, Any]]:
    """``(dotted path, value)`` of every figure of a nested summary, in its order (a dict nested deeper than
    :data:`MAX_DEPTH` is one value)."""
    if isinstance(summary, dict) and depth < MAX_DEPTH:
        for k, v in summary.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            if isinstance(v, dict) and v and depth + 1 < MAX_DEPTH:
                yield from leaves(v, path, depth + 1)
            else:
                yield path, v
    elif prefix:
        yield prefix, summary


def value_at(summary: Any, path: str) -> Any:
    """The figure at a dotted path (None where there is none)."""
    value = summary
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


def as_percent(value: Any, unit: str) -> float | None:
    """A rate in percent (None: not a rate, or not a finite number)."""
    v = _number(value)
    if v is None or unit not in ("percent", "fraction"):
        return None
    return v * 100.0 if unit == "fraction" else v


def show(value: Any, unit: str) -> str:
    """A figure for a reader: rates in percent with ``%``, counts whole, steps with two decimals and the unit."""
    if value is None:
        return "n/a"
    if isinstance(value, (dict, list)) and not value:
        return "none"
    pct = as_percent(value, unit)
    if pct is not None:
        return f"{pct:.2f} %"
    v = _number(value)
    if v is None:
        return str(value)
    if unit == "count" and v.is_integer():
        return str(int(v))
    if unit == "steps":
        return f"{v:.2f} steps"
    return f"{v:.4g}"


def scale_note(layout: SummaryLayout, where: str = "the summary above") -> str:
    """The scale of the reference's own summary, for its headline rates (``the summary above gives rates as fractions
    of 1, as the reference does``), or ``""`` when they are not rates."""
    units = {layout.unit(k.key) for k in layout.keys} & {"percent", "fraction"}
    if units == {"percent"}:
        return f"{where} gives rates in percent, as the reference does"
    if units == {"fraction"}:
        return f"{where} gives rates as fractions of 1, as the reference does"
    return ""


def headline(summary: Any, layout: SummaryLayout) -> list[tuple[str, str]]:
    """``(name, shown value)`` of each headline figure (named by the last part of its path)."""
    return [(k.key.rsplit(".", 1)[-1], show(value_at(summary, k.key), layout.unit(k.key))) for k in layout.keys]

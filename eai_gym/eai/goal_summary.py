"""Precision, recall and F1 of EAI goal interpretation, computed with each reference's own formulas.

The two eai-eval 1.0.5 evaluators write their ratios differently, and the last bit of a float can
differ between the two forms, so each is kept as its evaluator writes it:

* VirtualHome: ``2 * p * r / (p + r)``, ``0.0`` when undefined, reported in percent rounded to 4 places;
* BEHAVIOR: ``2 * (p * r) / (p + r)``, the integer ``0`` when undefined, reported as fractions.
"""

from __future__ import annotations

from typing import Mapping

#: goal kinds of the VirtualHome summary, in its key order
VIRTUALHOME_KINDS = ("node", "edge", "action")


def precision_recall_f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """VirtualHome's ratios (fractions)."""
    precision = tp / (tp + fp) if tp + fp != 0 else 0.0
    recall = tp / (tp + fn) if tp + fn != 0 else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall != 0 else 0.0
    return precision, recall, f1


def virtualhome_summary(totals: Mapping[str, tuple[int, int, int]]) -> dict[str, float]:
    """The summary dict of eai-eval 1.0.5's VirtualHome goal-interpretation evaluator.

    ``totals`` maps ``"node"``, ``"edge"``, ``"action"`` to summed ``(TP, FP, FN)``; ``all`` is their sum.
    """
    out: dict[str, float] = {}
    rows = {k: totals[k] for k in VIRTUALHOME_KINDS}
    rows["all"] = tuple(sum(totals[k][i] for k in VIRTUALHOME_KINDS) for i in range(3))  # type: ignore[assignment]
    for kind, (tp, fp, fn) in rows.items():
        p, r, f = precision_recall_f1(tp, fp, fn)
        out[f"{kind}_precision"] = round(100 * p, 4)
        out[f"{kind}_recall"] = round(100 * r, 4)
        out[f"{kind}_f1"] = round(100 * f, 4)
    return out


def confusion_metrics(tp: int, fp: int, fn: int) -> dict[str, float]:
    """BEHAVIOR's ``precision``, ``recall``, ``f1_score`` (fractions; the integer 0 when undefined)."""
    precision = tp / (tp + fp) if tp + fp > 0 else 0
    recall = tp / (tp + fn) if tp + fn > 0 else 0
    f1 = 2 * (precision * recall) / (precision + recall) if (precision + recall) > 0 else 0
    return {"precision": precision, "recall": recall, "f1_score": f1}


def rate(count: int, total: int) -> float:
    """``count / total``, or the integer 0 for an empty total (as BEHAVIOR's evaluator writes it)."""
    return count / total if total > 0 else 0

"""Precision/recall/F1 of EAI goal interpretation, in each reference's own form."""

from __future__ import annotations

from eai_gym.eai.goal_summary import confusion_metrics, precision_recall_f1, rate, virtualhome_summary


def test_virtualhome_ratios_and_zero_cases() -> None:
    assert precision_recall_f1(0, 0, 0) == (0.0, 0.0, 0.0)
    p, r, f = precision_recall_f1(3, 1, 2)
    assert (p, r) == (0.75, 0.6) and f == 2 * 0.75 * 0.6 / (0.75 + 0.6)
    # FN can be negative in eai-eval 1.0.5 (a gold goal matched twice): the formula is applied as is
    assert precision_recall_f1(2, 0, -1)[1] == 2.0


def test_virtualhome_summary_keys_rounding_and_all_row() -> None:
    s = virtualhome_summary({"node": (1, 2, 0), "edge": (0, 0, 0), "action": (2, 0, 1)})
    assert list(s) == [f"{k}_{m}" for k in ("node", "edge", "action", "all") for m in ("precision", "recall", "f1")]
    assert s["node_precision"] == 33.3333 and s["edge_f1"] == 0.0
    assert s["all_precision"] == 60.0 and s["all_recall"] == 75.0


def test_behavior_ratios_keep_the_integer_zero() -> None:
    assert confusion_metrics(0, 0, 0) == {"precision": 0, "recall": 0, "f1_score": 0}
    assert isinstance(confusion_metrics(0, 0, 0)["precision"], int)
    m = confusion_metrics(1, 1, 0)
    assert m == {"precision": 0.5, "recall": 1.0, "f1_score": 2 * (0.5 * 1.0) / 1.5}
    assert rate(0, 0) == 0 and isinstance(rate(0, 0), int) and rate(1, 4) == 0.25

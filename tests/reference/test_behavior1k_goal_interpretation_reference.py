"""BEHAVIOR-1K goal interpretation is scored as eai-eval 1.0.5 scores BEHAVIOR's: its evaluator, run unmodified on
BEHAVIOR-1K's gold (tools/reference/behavior1k_goal_interpretation.py), gives eai-gym's summaries and per-activity
analyses on 4,064 generated replies."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest

from eai_gym.envs.behavior1k import interpretation as I
from eai_gym.scoring.behavior1k import goal_interpretation as GI

DATA = Path(__file__).parent / "data" / "behavior1k"


def _load(name: str) -> dict:
    with gzip.open(DATA / name, "rt") as f:
        return json.load(f)


CASES = _load("goal_interpretation_cases.json.gz")
REFERENCE = _load("goal_interpretation_reference.json.gz")


def test_cases_are_eai_gyms_gold():
    assert CASES["node_states"] == list(I.node_states()) and CASES["edge_states"] == list(I.edge_states())
    for a in CASES["activities"]:
        assert CASES["gold"][a] == I.gold_conditions(a), a
        assert list(CASES["gold"][a]) == [str(i) for i in range(1, len(CASES["gold"][a]) + 1)], a  # file order
        assert CASES["objects"][a] == list(I.legal_objects(a)), a


@pytest.mark.parametrize("kind", ["gold", "partial", "noisy", "unreadable"])
def test_summary_and_every_analysis_equal_the_reference(kind):
    ref = REFERENCE["files"][kind]
    records = [GI.score_item(it, "eai-1.0.5") for it in CASES["files"][kind]]
    assert GI.summarize(records, "eai-1.0.5") == ref["summary"]
    final, tally = GI.final_records(records)
    assert tally["missing"] == 0 and tally["invalid_input"] == 0
    ours = {r["identifier"]: hashlib.sha256(json.dumps(r["detail"], sort_keys=True).encode()).hexdigest()
            for r in final}
    assert ours == ref["analyses"]


def test_the_files_exercise_the_reference():
    s = {k: REFERENCE["files"][k]["summary"] for k in REFERENCE["files"]}
    assert s["gold"]["overall"]["overall_confusion_metrics"]["f1_score"] == 1.0
    assert 0 < s["partial"]["overall"]["overall_confusion_metrics"]["recall"] < 1
    assert s["noisy"]["grammatical_errors"]["state_hallucination_num"] > 0
    assert s["noisy"]["grammatical_errors"]["object_hallucination_num"] > 0
    assert s["noisy"]["grammatical_errors"]["format_error_num"] > 0
    records = [GI.score_item(it, "eai-1.0.5") for it in CASES["files"]["unreadable"]]
    assert sum(r["status"] == "format_error" for r in records) > 100

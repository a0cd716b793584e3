"""BEHAVIOR-1K action-sequencing scoring: EAI output items replayed through the world."""

from __future__ import annotations

import json

import pytest

from eai_gym.envs.behavior1k.gold import gold_data
from eai_gym.scoring.behavior1k.action_sequencing import (
    action_sequencing_jobs,
    gold_items,
    score_gold,
    score_item,
    summarize,
)
from eai_gym.scoring.runner import run_items

KNIFE = {"action": "GRASP", "object": "carving_knife.n.01_1"}
CUT = {"action": "CUT", "object": "hard-boiled_egg.n.01_1"}


def item(steps, ident: str = "halve_an_egg") -> dict:
    return {"identifier": ident, "llm_output": json.dumps(steps)}


def test_a_good_plan_succeeds_and_a_missing_step_is_reported() -> None:
    ok = score_item(item([KNIFE, CUT]))
    assert ok["success"] and ok["executable"] and ok["error_type"] is None and ok["message"] == ""
    assert ok["goal_conditions"] == [True, True] and ok["tot_predicates"] == 2.0
    bad = score_item(item([CUT, KNIFE]))
    assert not bad["success"] and not bad["executable"] and bad["error_type"] == "missing_step"
    assert "step 0 CUT(hard-boiled_egg.n.01_1)" in bad["message"] and len(bad["execution_info"]) == 1


@pytest.mark.parametrize("output, error", [
    ("no list here", "parsing"), ("[]", "parsing"), ("[1, 2]", "parsing"),
    (json.dumps([{"action": "FLY", "object": "carving_knife.n.01_1"}]), "hallucination"),
    (json.dumps([{"action": "GRASP", "object": "spoon.n.01_1"}]), "hallucination"),
    (json.dumps([{"action": "GRASP", "object": "carving_knife.n.01_1,countertop.n.01_1"}]), "arguments"),
    (json.dumps([{"action": "OPEN", "object": "carving_knife.n.01_1"}]), "affordance"),
])
def test_error_taxonomy(output: str, error: str) -> None:
    rec = score_item({"identifier": "halve_an_egg", "llm_output": output})
    assert rec["status"] == "evaluated" and rec["error_type"] == error and not rec["success"]


def test_additional_step_is_skipped_not_fatal() -> None:
    rec = score_item(item([KNIFE, KNIFE, CUT]))
    assert rec["success"] and rec["executable"] and rec["error_types"] == ["additional_step"]
    assert rec["error_type"] == "additional_step"


@pytest.mark.parametrize("bad", [5, {"identifier": "halve_an_egg"}, {"identifier": "nope", "llm_output": "[]"},
                                 {"identifier": "halve_an_egg", "llm_output": 3}])
def test_bad_items_are_records_not_crashes(bad) -> None:
    rec = score_item(bad)
    assert rec["status"] == "invalid_input" and rec["message"]


def test_jobs_give_the_serial_records_and_a_summary() -> None:
    items = [item([KNIFE, CUT]), item([CUT]), 7, item([KNIFE, CUT], "loading_the_car")]
    jobs = action_sequencing_jobs(items)
    records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)
    assert [r["identifier"] for r in records] == ["halve_an_egg", "halve_an_egg", None, "loading_the_car"]
    assert records[1]["status"] == "duplicate_identifier"  # the activity's first item is the one scored
    assert records[3]["error_type"] == "hallucination"
    s = jobs.summarize(records)["summary"]
    assert s["items"] == 2 and s["successes"] == 1
    assert s["goal_evaluation"]["task_success_rate"] == round(1 / 2, 4)
    assert s == summarize(records)
    with pytest.raises(ValueError, match="protocol"):
        action_sequencing_jobs(items, "eai-1.0.5")


def test_gold_items_cover_every_activity_and_explain_the_unsolved() -> None:
    items = gold_items()
    assert len(items) == 1016
    if not gold_data()["plans"]:
        pytest.skip("no packaged gold plans")
    records = score_gold()
    solved = [r for r in records if r["success"]]
    assert len(solved) == len(gold_data()["plans"])
    for r in records:
        if not r["success"]:
            assert r["message"].startswith("no gold plan: "), r

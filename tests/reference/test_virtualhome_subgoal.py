"""Agreement with eai-eval 1.0.5's VirtualHome subgoal-decomposition evaluator (seed 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from virtualhome_compare import subgoal_entry, subgoal_problems

from eai_gym.scoring.virtualhome.subgoal_decomposition import score_items

DATA = Path(__file__).parent / "data" / "virtualhome"
RUNS = ["subgoal_goal_and_split", "subgoal_goal_then_split", "subgoal_perturbed"]


@pytest.mark.parametrize("run", RUNS)
def test_subgoal_runs(run):
    items = json.loads((DATA / f"{run}_inputs.json").read_text())
    ref = json.loads((DATA / f"{run}_outputs.json").read_text())
    assert ref["seed"] == 0
    res = score_items(items, "eai-1.0.5", seed=0)
    bad = {}
    for item, rec in zip(items, res["tasks"]):
        problems = subgoal_problems(rec, subgoal_entry(ref["error_info"][item["identifier"]]))
        if problems:
            bad[item["identifier"]] = problems
    assert not bad, bad
    assert res["summary"] == ref["summary"]


def test_fixed_is_deterministic_and_never_less_successful():
    items = json.loads((DATA / "subgoal_goal_and_split_inputs.json").read_text())
    ref = score_items(items, "eai-1.0.5", seed=0)["tasks"]
    a = score_items(items, "fixed", seed=1)
    b = score_items(items, "fixed", seed=2)
    assert a == b
    for r, f in zip(ref, a["tasks"]):
        assert f["success"] or not r["success"], r["identifier"]


def test_duplicate_and_unknown_identifiers():
    items = json.loads((DATA / "subgoal_perturbed_inputs.json").read_text())[:3]
    res = score_items(items + items[:1] + [{"identifier": "scene_1_0_0", "llm_output": "{}"}], "fixed")
    assert [r["status"] for r in res["tasks"]] == ["evaluated"] * 3 + ["duplicate_identifier", "invalid_input"]
    short = score_items([dict(items[0], identifier=items[0]["identifier"][8:])], "fixed")["tasks"][0]
    assert short["status"] == "evaluated" and short["task_id"] == items[0]["identifier"][8:]

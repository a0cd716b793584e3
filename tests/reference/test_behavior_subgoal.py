"""Agreement with eai-eval 1.0.5's BEHAVIOR subgoal-decomposition evaluator (seed 0, run without iGibson
by tools/reference/behavior_subgoal.py over the kit's stand-ins = initial_state="reference-defaults")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eai_gym.envs.behavior.tasks import goal_conditions
from eai_gym.scoring.behavior.subgoal_decomposition import score_items
from eai_gym.scoring.behavior.subgoal_goals import goal_counts

DATA = Path(__file__).parent / "data" / "behavior"
RUNS = ["goal_conditions", "goal_with_prerequisites", "gold_actions", "perturbed_a", "perturbed_b", "quirks"]


def _load(run: str) -> dict:
    return json.loads((DATA / f"subgoal_{run}.json").read_text())


def _per_task(records: list[dict]) -> dict[str, dict]:
    out = {}
    for r in records:
        if r["status"] == "evaluated":
            for rec in [r] + r.get("also_scored_as", []):
                out.setdefault(rec["task_id"], rec)
    return out


def compare(task: str, ours: dict | None, ref: dict) -> list:
    if ours is None:
        return [] if ref["category"] == "NotParseable" else [("no record", ref["category"])]
    problems = []
    if (ours["category"], ours["success"]) != (ref["category"], ref["success"]):
        return [("category/success", ours["category"], ours["success"], ref["category"], ref["success"])]
    if "errors" in ref:
        if ours["executable"] != ref["executable"]:
            problems.append(("executable", ours["executable"], ref["executable"]))
        if ours["errors"] != ref["errors"]:
            problems.append(("errors", ours["errors"], ref["errors"]))
        if ours["actions"] != ref["actions"]:
            problems.append(("actions", ours["actions"], ref["actions"]))
    elif ref["category"] == "Hallucination":
        report = ref["report"]
        if report.get("error_type") == "UnknownPrimitive":
            if ours["hallucination"] != "UnknownPrimitive":
                problems.append(("hallucination", ours["hallucination"]))
        else:  # the reference's flags are True when the check passed
            flags = {k: not report[k] for k in ("IncorrectParamLength", "ObjectNotInScene")}
            if ours.get("hallucination_flags") != flags:
                problems.append(("hallucination_flags", ours.get("hallucination_flags"), flags))
    g = ref["goal_info"]
    if g is None:
        if ours["goal"] is not None:
            problems.append(("goal", ours["goal"], None))
    else:
        expected = dict(g, **goal_counts([c.terms for c in goal_conditions(task)], g["subgoal_success"]))
        if ours["goal"] != expected:
            problems.append(("goal", ours["goal"], expected))
    return problems


@pytest.mark.parametrize("run", RUNS)
def test_reference_runs(run):
    case = _load(run)
    res = score_items(case["inputs"], "eai-1.0.5", "reference-defaults", seed=case["seed"])
    ours = _per_task(res["tasks"])
    bad = {t: p for t, ref in case["results"].items() if (p := compare(t, ours.get(t), ref))}
    assert not bad, bad
    assert res["summary"] == case["summary"]


def test_quirk_statuses():
    case = _load("quirks")
    res = score_items(case["inputs"], "eai-1.0.5", "reference-defaults")
    status = {it.get("perturbation"): r["status"] for it, r in zip(case["inputs"], res["tasks"])}
    assert status["duplicate_identifier"] == "duplicate_identifier"
    assert status["unknown_identifier"] == status["malformed_identifier"] == status["no_llm_output"] == "invalid_input"
    assert status["after_malformed"] == "not_reached"
    two = next(r for it, r in zip(case["inputs"], res["tasks"]) if it.get("perturbation") == "two_activities")
    assert [x["task_id"] for x in two["also_scored_as"]] and two["status"] == "evaluated"
    crash = next(r for it, r in zip(case["inputs"], res["tasks"]) if it.get("perturbation") == "place_inside_floor")
    assert crash["category"] == "NotParseable"


def test_every_category_is_covered():
    cats = {r["category"] for run in RUNS for r in _load(run)["results"].values()}
    assert cats == {"Correct", "GoalUnreachable", "Runtime", "NotParseable", "Hallucination"}
    assert sum(len(_load(run)["inputs"]) for run in RUNS) >= 300

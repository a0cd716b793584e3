"""Per-item and summary agreement with eai-eval 1.0.5 (BEHAVIOR, run without iGibson by the kit's
harness, whose stand-in initial states are initial_state="reference-defaults")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eai_gym.envs.behavior.tasks import task_record
from eai_gym.scoring.behavior import score_item, score_items

DATA = Path(__file__).parent / "data" / "behavior"
RUNS = ["gold", "pert_drop", "pert_swap", "pert_duplicate", "pert_nonexistent_object", "pert_wrong_hand",
        "pert_syntax"]
KEYS = {"parsing": "parsing", "hullucination": "hallucination", "arguments": "arguments",
        "ErrorType.MISSING_STEP": "missing_step", "ErrorType.WRONG_TEMPORAL_ORDER": "wrong_order",
        "ErrorType.AFFORDANCE_ERROR": "affordance", "ErrorType.ADDITIONAL_STEP": "additional_step"}
COUNTS = ("tot_predicates", "tot_edge_predicates", "tot_node_predicates", "satisfied_predicates",
          "satisfied_edge_predicates", "satisfied_node_predicates")


def compare(ours: dict, ref: dict) -> list:
    et, g = ref["error_type"], ref["goal_rst"]
    problems = []
    if ours["status"] != "evaluated":
        problems.append(("status", ours["status"], ours["message"]))
    if ours["execution_success"] != et["execution_success"]:
        problems.append(("execution_success", ours["execution_success"], et["execution_success"]))
    expected = sorted(KEYS[k] for k, v in et.items() if k in KEYS and v is not None)
    if sorted(ours["error_types"]) != expected:
        problems.append(("error_types", ours["error_types"], expected))
    if ours["all_goal_satisfied"] != bool(g["all_goal_satisfied_graph"]):
        problems.append(("all_goal_satisfied", ours["all_goal_satisfied"], g["all_goal_satisfied_graph"]))
    for k in COUNTS:
        if abs(ours[k] - (g[k] or 0)) > 1e-9:
            problems.append((k, ours[k], g[k]))
    steps = [[e["action"], e["execution_success"]] for e in ours["execution_info"]]
    if steps != ref["steps"]:
        problems.append(("steps", steps, ref["steps"]))
    return problems


@pytest.mark.parametrize("run", RUNS)
def test_reference_runs(run):
    case = json.loads((DATA / f"{run}.json").read_text())
    res = score_items(case["inputs"], "eai-1.0.5", "reference-defaults")
    mismatches = {}
    for item, ours in zip(case["inputs"], res["tasks"]):
        assert ours["identifier"] == item["identifier"]
        problems = compare(ours, case["results"][item["identifier"]])
        if problems:
            mismatches[item["identifier"]] = problems
    assert not mismatches, mismatches
    assert res["summary"] == case["summary"]


def test_reference_crash_is_invalid_input_and_keeps_the_rest():
    case = json.loads((DATA / "gold.json").read_text())
    crashed = case["crashes"]
    assert crashed == ["picking_up_take-out_food_0_Ihlen_1_int_0_2021-06-10_22-09-43"]
    item = {"identifier": crashed[0], "llm_output": json.dumps(task_record(crashed[0])["gold_plan"])}
    rec = score_item(item, "eai-1.0.5", "reference-defaults")
    assert rec["status"] == "invalid_input" and "UnboundLocalError" in rec["message"]
    res = score_items([item] + case["inputs"], "eai-1.0.5", "reference-defaults")
    assert res["summary"] == case["summary"]
    fixed = score_item(item, "fixed", "reference-defaults")
    assert fixed["status"] == "evaluated" and fixed["all_goal_satisfied"]

"""Item-by-item comparison of eai-gym's VirtualHome records with eai-eval 1.0.5's, shared by the tests of
the recorded cases and of the EAI paper's published outputs (and by ``tools/reference/published_plans.py``,
which stores the reference's subgoal records in the form :func:`subgoal_entry` gives)."""

from __future__ import annotations

import ast
from typing import Any

GOAL_KEYS = ("node_matched", "node_total", "edge_matched", "edge_total", "action_matched", "action_total")
#: subgoal categories whose reference report lists the errors of the branches it ran
RAN = ("Runtime", "Correct", "GoalUnreachable")


def compare_item(ours: dict, ref: dict) -> list[str]:
    """How an action-sequencing record differs from the harness's record of the same item ([] if it agrees)."""
    problems = []
    for key in ("status", "error_type", "success"):
        if ours[key] != ref.get(key, None if key == "error_type" else False):
            problems.append(f"{key}: {ours[key]!r} != {ref.get(key)!r}")
    if ref["status"] != "skipped_gold_test_failed" and ours["executable"] != ref.get("executable"):
        problems.append(f"executable: {ours['executable']} != {ref.get('executable')}")
    if ref.get("goal_eval"):
        for k in GOAL_KEYS:
            if ours["goal"][k] != ref["goal_eval"][k]:
                problems.append(f"goal.{k}: {ours['goal'][k]} != {ref['goal_eval'][k]}")
    if ours["runtime_errors"] != ref.get("runtime_errors", []):
        problems.append(f"runtime_errors: {ours['runtime_errors']} != {ref.get('runtime_errors')}")
    if "counter_delta" in ref and ours["counts"] != ref["counter_delta"]:
        problems.append(f"counts: {ours['counts']} != {ref['counter_delta']}")
    return problems


def subgoal_entry(raw: dict[str, Any]) -> dict[str, Any]:
    """The parts of a reference subgoal ``error_info`` entry (``{"success", "info": repr(report tuple)}``)
    that eai-gym's record reproduces: category, success, the goal counts, the error types of the branches
    it ran and, for a correct plan, the actions."""
    info = ast.literal_eval(raw["info"])
    category = info[0]
    return {"category": category, "success": raw["success"],
            "goal": info[-1] if isinstance(info[-1], dict) else None,
            "errors": [e["error_info"]["error_type"] for e in info[-2]] if category in RAN else None,
            "actions": info[2][0] if category == "Correct" else None}


def subgoal_problems(rec: dict, entry: dict) -> list[tuple]:
    """How a subgoal record differs from a :func:`subgoal_entry` ([] if it agrees)."""
    problems = []
    if (rec["category"], rec["success"]) != (entry["category"], entry["success"]):
        problems.append(("category/success", rec["category"], rec["success"], entry["category"], entry["success"]))
    if entry["goal"] is not None and rec["goal"] != entry["goal"]:
        problems.append(("goal", rec["goal"], entry["goal"]))
    if entry["errors"] is not None and [e["error_type"] for e in rec["errors"]] != entry["errors"]:
        problems.append(("errors", rec["errors"], entry["errors"]))
    if entry["actions"] is not None and rec["actions"] != entry["actions"]:
        problems.append(("actions", rec["actions"], entry["actions"]))
    return problems

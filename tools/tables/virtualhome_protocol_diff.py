#!/usr/bin/env python
"""List, per documented fix, the gold-plan tasks whose result differs between the two protocols.

Scores the 342 packaged gold plans with ``eai-1.0.5`` and ``fixed`` and attributes every difference
to the fix that causes it (from the reference record and the plan). Prints Markdown for
``docs/virtualhome.md``. Usage: python -m tools.tables.virtualhome_protocol_diff
"""

from __future__ import annotations

import argparse
import sys

from eai_gym.envs.virtualhome.tasks import gold_plan_json, load_task, task_ids
from eai_gym.scoring.virtualhome.action_sequencing import score_item


def attribute(ref: dict, fix: dict, plan: str, task_id: str) -> list[str]:
    reasons = []
    goal = load_task(task_id).goal
    if ref["status"] == "skipped_gold_test_failed":
        reasons.append("edge-goal break")
    elif ref["status"] == "identical_to_gold_shortcut":
        reasons.append("gold short-circuit")
        # what the plan would score once simulated (the reference's own no-shortcut ablation)
        ref = score_item({"identifier": task_id, "llm_output": plan}, "eai-1.0.5", gold_shortcut=False)
    if ref["error_type"] == "hallucination error":
        reasons.append("PLUGIN/PLUGOUT" if ('"PLUGIN"' in plan or '"PLUGOUT"' in plan) else "relevant objects")
    if ": []" in plan and ref["status"] == "evaluated" and not (ref["error_type"] or "").endswith(" error") and (ref["success"] != fix["success"] or ref["executable"] != fix["executable"]):
        reasons.append("empty-argument actions")
    if (ref["status"] == "evaluated" and ref["goal"]["action_matched"] < fix["goal"]["action_matched"]
            and list(goal.action_goals) != list(goal.action_goals_reference_order)
            and ": []" not in plan):
        reasons.append("action-goal order")
    return reasons


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    groups: dict[str, list[str]] = {}
    for tid in task_ids():
        plan = gold_plan_json(tid)
        ref = score_item({"identifier": tid, "llm_output": plan}, "eai-1.0.5")
        fix = score_item({"identifier": tid, "llm_output": plan}, "fixed")
        same = all(ref[k] == fix[k] for k in ("status", "executable", "error_type", "success", "goal"))
        if same:
            continue
        for r in attribute(ref, fix, plan, tid) or ["unattributed"]:
            groups.setdefault(r, []).append(tid)
    for reason, ids in groups.items():
        print(f"| {reason} | {len(ids)} | {', '.join(ids)} |")
    return 1 if "unattributed" in groups else 0


if __name__ == "__main__":
    sys.exit(main())

"""The tiny world's scoring mode: replay each plan's actions."""

from __future__ import annotations

from typing import Any, Mapping

from eai_gym.scoring.jobs import Jobs, same

from .world import data, step_facts


def score_unit(ctx: tuple, item: Any) -> dict:
    ident = item.get("identifier") if isinstance(item, Mapping) else None
    rec: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": ""}
    if ident not in data()["tasks"] or not isinstance(item.get("actions"), list):
        return {**rec, "status": "invalid_input", "message": "an item is {identifier: a task, actions: [...]}"}
    facts, executed = frozenset(), 0
    for a in item["actions"]:
        facts, error = step_facts(facts, a)
        if error:
            break
        executed += 1
    return {**rec, "task_id": ident, "success": data()["tasks"][ident]["goal"] in facts, "executed": executed,
            "actions": list(item["actions"])}


def summarize(records: list) -> dict:
    done = [r for r in records if r["status"] == "evaluated"]
    return {"summary": {"plans": len(done), "success_rate": sum(r["success"] for r in done) / len(done) if done else None}}


def plans_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any) -> Jobs:
    return Jobs(score_unit, list(items), summarize, same, (protocol,))


def plans_gold(options: Mapping[str, Any], mode: Any = None) -> list:
    return [{"identifier": t, "actions": list(v["gold"])} for t, v in sorted(data()["tasks"].items())]

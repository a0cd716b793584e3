"""BEHAVIOR-1K's scoring modes as :mod:`eai_gym.registry` names them: the jobs, the packaged gold items and
the actions plan similarity compares."""

from __future__ import annotations

from typing import Any, Mapping

from ...logic import json_text
from ..jobs import Jobs
from ..similarity import PlanItemError


def action_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .action_sequencing import action_sequencing_jobs

    return action_sequencing_jobs(items, protocol)


def action_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """One item per activity (1,016): its packaged gold plan, ``[]`` where the planner found none."""
    from .action_sequencing import gold_items

    return gold_items()


def similarity_actions(item: Any) -> tuple[str, list[str]]:
    """The activity and the ``ACTION(object)`` texts of an item in EAI's BEHAVIOR output format."""
    if not isinstance(item, dict) or not isinstance(item.get("identifier"), str):
        raise PlanItemError("an item must be an object with a string 'identifier'")
    out = item.get("llm_output")
    try:
        steps = json_text.loads(out) if isinstance(out, str) else out
    except (ValueError, RecursionError) as e:
        raise PlanItemError(f"llm_output is not a JSON list of steps ({e})") from None
    if not isinstance(steps, list) or not all(isinstance(s, dict) and all(isinstance(s.get(k, ""), str)
                                                                            for k in ("action", "object"))
                                              for s in steps):
        raise PlanItemError("llm_output must be a list of {action, object} steps, their values strings")
    return item["identifier"], [f"{s.get('action')}({s.get('object')})" for s in steps]


def gold_actions(key: str, options: Mapping[str, Any]) -> list[str]:
    from ...envs.behavior1k.gold import gold_plan

    return list(gold_plan(key))


def goal_interpretation_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .goal_interpretation import goal_interpretation_jobs as jobs

    return jobs(items, protocol)


def goal_interpretation_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every activity's goal written as the reply that scores perfectly (1,016 items)."""
    from .goal_interpretation import gold_items

    return gold_items()

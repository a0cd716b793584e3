"""BEHAVIOR's scoring modes as :mod:`eai_gym.registry` names them: the jobs, the packaged gold items and the
actions plan similarity compares."""

from __future__ import annotations

import json
from typing import Any, Mapping

from ...eai.action_output import eai_identifier
from ..jobs import Jobs, tagged_identifier
from ..similarity import PlanItemError


def _world(protocol: str, *rest: Any) -> tuple:
    from ...envs.behavior.world import BehaviorWorld

    return (BehaviorWorld(protocol), protocol, *rest)


# ------------------------------------------------------------------------------ action_sequencing
def _action(ctx: tuple, item: Any) -> dict:
    from .action_sequencing import score_item

    world, protocol, initial_state = ctx
    return score_item(item, protocol, initial_state, world)


def action_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    def summarize(records: list) -> dict:
        from ...eai.action_summary import summarize_behavior

        return {"summary": summarize_behavior(r for r in records if r["status"] == "evaluated")}
    from ...eai.action_summary import BEHAVIOR_SUMMARY_FIELDS
    from .action_sequencing import not_scored

    jobs = Jobs(_action, list(items), summarize, _world, (protocol, options["initial_state"]),
                summary_fields=BEHAVIOR_SUMMARY_FIELDS, blank=not_scored)
    return jobs.once_per_identifier(mode="action_sequencing", protocol=protocol)


def action_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every task's human-annotated gold action plan as an EAI output item."""
    from ...envs.behavior.tasks import task_ids, task_record

    return [{"identifier": t, "llm_output": json.dumps(task_record(t)["gold_plan"])} for t in task_ids()]


# ------------------------------------------------------------------------------ subgoal_decomposition
def _subgoal(ctx: tuple, job: tuple) -> dict:
    from .subgoal_decomposition import score_job

    world, protocol, initial_state = ctx
    return score_job(job, protocol, initial_state, world)


def subgoal_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from . import subgoal_decomposition as bs

    initial_state = options["initial_state"]
    return Jobs(_subgoal, bs.plan_items(items, protocol, initial_state, options["seed"]),
                lambda rs: {"summary": bs.summarize(rs, protocol, initial_state)}, _world, (protocol, initial_state),
                blank=bs.not_scored, identify=tagged_identifier)


def subgoal_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """The subgoals read off each task's human-annotated gold action plan."""
    from ...envs.behavior.subgoals import gold_subgoal_plan
    from ...envs.behavior.tasks import task_ids, task_record

    return [{"identifier": t, "llm_output": json.dumps({"output": gold_subgoal_plan(task_record(t))})}
            for t in task_ids()]


# ------------------------------------------------------------------------------ similarity
def similarity_actions(item: Any) -> tuple[str, list[str]]:
    from .action_sequencing import plan_texts, steps_fixed

    key = eai_identifier(item)
    llm_output = item["llm_output"]
    if not isinstance(llm_output, str):
        raise PlanItemError(f"llm_output must be a string, got {type(llm_output).__name__}")
    return key, plan_texts(steps_fixed(llm_output))


def gold_actions(key: str, options: Mapping[str, Any]) -> list[str]:
    from .action_sequencing import gold_texts

    return gold_texts(key)



# ------------------------------------------------------------------------------ goal_interpretation
def goal_interpretation_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .goal_interpretation import goal_interpretation_jobs as jobs

    return jobs(items, protocol)


def goal_interpretation_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every task's gold goals written as the reply that scores perfectly."""
    from .goal_interpretation import gold_items

    return gold_items()

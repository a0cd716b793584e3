"""VirtualHome's scoring modes as :mod:`eai_gym.registry` names them: the jobs, the packaged gold items and
the actions plan similarity compares."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from ..jobs import Jobs


# ------------------------------------------------------------------------------ action_sequencing
def action_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every task's annotated gold script as an EAI output item."""
    from ...envs.virtualhome.tasks import gold_plan_json, task_ids

    return [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()]


# ------------------------------------------------------------------------------ subgoal_decomposition
def subgoal_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """The subgoal plan derived from each task's goal (tasks with a temporal-logic goal)."""
    from ...envs.virtualhome.tasks import task_ids
    from .subgoal_decomposition import gold_subgoals

    return [{"identifier": t, "llm_output": json.dumps({"output": gold})}
            for t in task_ids() for gold in [gold_subgoals(t)] if gold is not None]


# ------------------------------------------------------------------------------ similarity
def script_actions(llm_output: Any) -> list[str]:
    """The actions of an EAI VirtualHome output as script lines (``[WALK] <kitchen> (11)``)."""
    from ...eai.action_output import extract_steps  # imported here: the other modes' entry points need neither
    from ..similarity import PlanItemError
    from .action_sequencing import script_lines

    if not isinstance(llm_output, str):
        raise PlanItemError(f"llm_output must be a string, got {type(llm_output).__name__}")
    return script_lines(extract_steps(llm_output, "fixed").steps or [])  # no readable action: an empty plan


def similarity_actions(item: Any) -> tuple[str, list[str]]:
    from ...eai.action_output import eai_identifier

    return eai_identifier(item), script_actions(item["llm_output"])


def gold_actions(key: str, options: Mapping[str, Any]) -> list[str]:
    from ...envs.virtualhome.tasks import load_task

    return list(load_task(key).metadata["virtualhome"].gold_script)


# ------------------------------------------------------------------------------ goal_interpretation
def goal_interpretation_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .goal_interpretation import goal_interpretation_jobs as jobs

    return jobs(items, protocol)


def goal_interpretation_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every task's gold goals written as the reply that scores perfectly."""
    from .goal_interpretation import gold_items

    return gold_items()

"""Offline action-sequencing scorer for BEHAVIOR: replay EAI LLM outputs through the world.

Input items are ``{"identifier": <demo name>, "llm_output": <text with a JSON list of
{"action", "object"} items>}``. One record per item, in input order; the summary is eai-eval's.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ...core import Action, Episode, ErrorType
from ...core.errors import UnknownTaskError
from ...eai.action_summary import summarize_behavior
from ...eai.behavior_syntax import read_plan
from ...envs.behavior.actions import ACTIONS, TWO_OBJECTS
from ...envs.behavior.goals import GoalCrash, partial_counts
from ...envs.behavior.tasks import check_initial_state, load_task, task_record
from ...envs.behavior.world import BehaviorWorld, check_protocol
from ...logic import json_text
from ...metrics.plan_similarity import similarity_record
from ..items import item_identifier, safe_identifier


class _Invalid(Exception):
    """The item cannot be scored (or the reference raises on it)."""


def steps_fixed(llm_output: str) -> list[dict] | str:
    """The documented intent: the first JSON (or Python literal) list in the text; an item without
    ``action`` and ``object`` is a parsing error rather than silently dropped."""
    start = llm_output.find("[")
    if start < 0:
        return "no action list found"
    try:
        value, _ = json_text.raw_decode(llm_output[start:])
    except (ValueError, RecursionError):
        value = read_plan(llm_output)
        if not value:
            return "the action list is not valid JSON"
    if not isinstance(value, list):
        return "the action list is not a list"
    for i, a in enumerate(value):
        if not isinstance(a, dict) or "action" not in a or "object" not in a:
            return f"step {i} is not an object with 'action' and 'object'"
    return value


def _format_error(steps: list[dict]) -> tuple[ErrorType, str] | None:
    """An empty plan is a parsing error (the rest of the format check is :func:`_check_names`)."""
    if not steps:
        return ErrorType.PARSING, "No actions found"
    return None


def _check_names(steps: list[dict], objects: set[str], protocol: str) -> tuple[ErrorType, str] | None:
    for a in steps:
        name = a["action"]
        if not isinstance(name, str):
            if protocol == "eai-1.0.5" and isinstance(name, (list, dict, set)):
                raise _Invalid(f"TypeError: the reference cannot look up an action name of type {type(name).__name__}")
            return ErrorType.HALLUCINATION, f"action {name} not found"
        if name not in ACTIONS:
            return ErrorType.HALLUCINATION, f"action {name} not found"
        if not isinstance(a["object"], str):
            if protocol == "eai-1.0.5":
                raise _Invalid("AttributeError: the reference calls .strip() on a non-string 'object'")
            return ErrorType.PARSING, f"the object of {name} is not a string"
        for o in a["object"].strip().split(","):
            if o.strip() not in objects:
                return ErrorType.HALLUCINATION, f"object {o.strip()} not found"
    for a in steps:
        n = len(a["object"].strip().split(","))
        if n not in (1, 2) or (n == 2) != (a["action"] in TWO_OBJECTS):
            return ErrorType.ARGUMENTS, f"wrong arguments: {a['object']} for action {a['action']}"
    return None


def score_item(item: Any, protocol: str = "fixed", initial_state: str = "calibrated",
               world: BehaviorWorld | None = None) -> dict[str, Any]:
    """Score one item; never raises for bad input (``status: "invalid_input"`` with a message)."""
    protocol = check_protocol(protocol)
    check_initial_state(initial_state)
    world = world or BehaviorWorld(protocol)
    ident = item_identifier(item)
    rec = _record(ident, "evaluated", "")
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise _Invalid("an item must be an object with 'identifier' and 'llm_output'")
        if item["identifier"] is not None and safe_identifier(item["identifier"]) is None:  # a list, a dict...
            raise _Invalid(f"the identifier must be a string, got {type(item['identifier']).__name__}")
        task = load_task(ident, initial_state)
        if not isinstance(item["llm_output"], str):
            raise _Invalid(f"llm_output must be a string, got {type(item['llm_output']).__name__}")
        fixed = _score(rec, task, item["llm_output"], protocol, world)
        rec["similarity"] = similarity_record(plan_texts(fixed), gold_texts(ident))
    except (_Invalid, UnknownTaskError, GoalCrash) as e:
        rec.update(status="invalid_input", message=str(e), execution_success=False, error_type=None,
                   error_types=[], all_goal_satisfied=False, execution_info=[], similarity=None)
    rec.update(success=rec["all_goal_satisfied"], executable=rec["execution_success"])  # every plan mode's names
    return rec


def _record(identifier: Any, status: str, message: str) -> dict[str, Any]:
    return {"identifier": identifier, "status": status, "execution_success": False, "error_type": None,
            "error_types": [], "all_goal_satisfied": False, "tot_predicates": 0.0, "tot_edge_predicates": 0.0,
            "tot_node_predicates": 0.0, "satisfied_predicates": 0.0, "satisfied_edge_predicates": 0.0,
            "satisfied_node_predicates": 0.0, "execution_info": [], "message": message}


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``, ``duplicate_identifier``)."""
    return {**_record(identifier, status, message), "similarity": None}


def plan_texts(steps: list[dict] | str) -> list[str]:
    """The steps of :func:`steps_fixed` as ``ACTION(object)`` texts, what plan similarity compares (an output with no
    readable action list is an empty plan)."""
    return [] if isinstance(steps, str) else [f"{s.get('action')}({s.get('object')})" for s in steps]


def gold_texts(task_id: str) -> list[str]:
    """A task's annotated gold plan as ``ACTION(object)`` texts."""
    return [f"{s['action']}({s['object']})" for s in task_record(task_id)["gold_plan"]]


def _score(rec: dict, task, llm_output: str, protocol: str, world: BehaviorWorld) -> list[dict] | str:
    """Score the output into ``rec``; returns the steps as :func:`steps_fixed` reads them (for plan similarity)."""
    state0 = task.initial_state
    names = state0.scene.bddl_to_name
    fixed = steps_fixed(llm_output)
    steps = read_plan(llm_output) if protocol == "eai-1.0.5" else fixed
    err = (ErrorType.PARSING, steps) if isinstance(steps, str) else _format_error(steps)
    if err is None:
        err = _check_names(steps, set(state0.scene.objects), protocol)
    if err is not None:
        rec.update(error_type=err[0].value, error_types=[err[0].value], message=err[1])
        rec.update(partial_counts(task.goal, world.satisfied(state0, task.goal, names)))
        return fixed
    ep = Episode(world, task.id, state0)
    types: list[str] = []
    success = True
    fatal = None
    for i, a in enumerate(steps):
        objects = tuple(o.strip() for o in a["object"].strip().split(","))
        action = Action(a["action"], objects, objects, raw=json.dumps({"action": a["action"], "object": a["object"]}))
        step = ep.step_action(action)
        info: dict[str, Any] = {"action": a["action"], "object": a["object"], "execution_success": step.ok}
        if not step.ok:
            info["errors"] = step.details.get("errors", [])
            if "unknown_execution_error" in step.details:
                info["errors"] = [{"error_type": "unknown_execution_error",
                                   "error_reason": step.details["unknown_execution_error"]}]
                success, fatal = False, "unknown_execution_error"
            else:
                if step.error.value not in types:
                    types.append(step.error.value)
                if step.error is not ErrorType.ADDITIONAL_STEP:  # an additional step is skipped
                    success, fatal = False, step.error.value
        info["step"] = i
        rec["execution_info"].append(info)
        if not success:
            break
    final = ep.state
    sat = world.satisfied(final, task.goal, names)
    rec.update(partial_counts(task.goal, sat))
    rec["all_goal_satisfied"] = all(sat)
    rec["execution_success"] = success
    rec["error_types"] = types
    if fatal == "unknown_execution_error":
        rec["error_type"] = None
        rec["message"] = rec["execution_info"][-1]["errors"][0]["error_reason"]
    else:
        rec["error_type"] = fatal or ("additional_step" if "additional_step" in types else None)
    return fixed


def score_items(items: Iterable[Any], protocol: str = "fixed", initial_state: str = "calibrated") -> dict[str, Any]:
    world = BehaviorWorld(protocol)
    records = [score_item(it, protocol, initial_state, world) for it in items]
    summary = summarize_behavior(r for r in records if r["status"] == "evaluated")
    return {"summary": summary, "tasks": records}

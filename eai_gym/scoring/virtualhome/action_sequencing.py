"""Offline action-sequencing scorer for VirtualHome: replay EAI LLM outputs through the world.

``score_item`` produces one record per input item; ``score_items`` scores a list and aggregates the
summary with :func:`eai_gym.eai.action_summary.summarize`. Records keep the reference's error
strings so results can be compared with eai-eval 1.0.5 item by item.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ...core import Action, ActionError, Episode, ErrorType, Task, WorldState
from ...core.errors import UnknownTaskError
from ...eai.action_output import ExtractedPlan, extract_steps
from ...eai.action_summary import empty_counts, summarize
from ...envs.virtualhome.actions import ARITY, REFERENCE_WHITELIST, to_script
from ...envs.virtualhome.goals import evaluate_goals
from ...envs.virtualhome.tasks import final_graph, load_task
from ...envs.virtualhome.world import VirtualHomeWorld, check_protocol
from ...metrics.plan_similarity import similarity_record
from ..items import item_identifier, safe_identifier
from ..jobs import Jobs

#: Error strings of the reference evaluator, by error class.
ERROR_STRINGS = {
    ErrorType.PARSING: "parsing error", ErrorType.HALLUCINATION: "hallucination error",
    ErrorType.ARGUMENTS: "parameter error", ErrorType.WRONG_ORDER: "wrong_temporal_order",
    ErrorType.MISSING_STEP: "missing_step", ErrorType.AFFORDANCE: "affordance_error",
    ErrorType.ADDITIONAL_STEP: "additional_step",
}
_CODE = {ErrorType.WRONG_ORDER: "0", ErrorType.MISSING_STEP: "1", ErrorType.AFFORDANCE: "2",
         ErrorType.ADDITIONAL_STEP: "4"}


class _Abort(Exception):
    """The reference evaluator would raise on this item (it aborts its whole run)."""


def _goal_fields(status, node_total: int, edge_total: int, action_total: int) -> dict[str, int]:
    if status is None:
        return {"node_matched": 0, "node_total": node_total, "edge_matched": 0, "edge_total": edge_total,
                "action_matched": 0, "action_total": action_total}
    p = status.parts
    return {"node_matched": p["node"][0], "node_total": p["node"][1], "edge_matched": p["edge"][0],
            "edge_total": p["edge"][1], "action_matched": p["action"][0], "action_total": p["action"][1]}


def _resolve_reference(steps, relevant: dict[str, int]) -> list[Action] | ErrorType:
    """The reference's name and argument checks: whitelist (upper-cased key), relevant objects
    (``f"{name}_{id}"`` keys), then the argument count looked up with the raw key."""
    if any(k.upper() not in REFERENCE_WHITELIST for k, _ in steps):
        return ErrorType.HALLUCINATION
    for _, vals in steps:
        for i in range(0, len(vals), 2):
            if f"{vals[i]}_{vals[i + 1]}" not in relevant:
                return ErrorType.HALLUCINATION
    for k, vals in steps:
        if "" in vals:
            vals.remove("")
        if k not in ARITY:
            raise _Abort(f"KeyError({k!r}): the reference looks up the argument count of {k!r} "
                         "with the key as written")
        if len(vals) // 2 != ARITY[k]:
            return ErrorType.ARGUMENTS
    actions = []
    for k, vals in steps:
        names = tuple(f"{vals[i]}" for i in range(0, len(vals), 2))
        ids = tuple(relevant[f"{vals[i]}_{vals[i + 1]}"] for i in range(0, len(vals), 2))
        actions.append(Action(k, ids, names))
    return actions


def _resolve_fixed(steps, world: VirtualHomeWorld, state: WorldState) -> list[Action] | tuple[ErrorType, str]:
    names = [str(k).upper() for k, _ in steps]
    bad = next((k for k, n in zip(steps, names) if n not in ARITY), None)
    if bad is not None:
        return ErrorType.HALLUCINATION, f"unknown action {bad[0]!r}"
    for _, vals in steps:
        for i in range(0, len(vals), 2):
            try:
                world.resolve("WALK", [(vals[i], vals[i + 1])], state)
            except ActionError as e:
                return ErrorType.HALLUCINATION, e.message
    actions = []
    for (k, vals), n in zip(steps, names):
        try:
            actions.append(world.resolve(n, [(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)], state))
        except ActionError as e:
            return e.error, e.message
    return actions


def score_item(item: Any, protocol: str = "fixed", world: VirtualHomeWorld | None = None,
               gold_shortcut: bool | None = None) -> dict[str, Any]:
    """Score one ``{"identifier", "llm_output"}`` item. Never raises for bad input: the record's
    ``status`` is then ``invalid_input`` with a ``message``.

    ``gold_shortcut`` (default: on for ``eai-1.0.5``, off for ``fixed``) treats a plan identical to the
    gold script as executable without simulating it or crediting any goal, as the reference does."""
    protocol = check_protocol(protocol)
    world = world or VirtualHomeWorld(protocol)
    ident = item_identifier(item)
    rec = _record(ident, None, "")
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise _Invalid("an item must be an object with 'identifier' and 'llm_output'")
        if item["identifier"] is not None and safe_identifier(item["identifier"]) is None:  # a list, a dict...
            raise _Invalid(f"the identifier must be a string, got {type(item['identifier']).__name__}")
        task = load_task(ident)
        if not isinstance(item["llm_output"], str):
            raise _Invalid(f"llm_output must be a string, got {type(item['llm_output']).__name__}")
        shortcut = protocol == "eai-1.0.5" if gold_shortcut is None else gold_shortcut
        plan = _score(rec, task, item["llm_output"], protocol, world, shortcut)
        if plan is None or protocol != "fixed":  # plan similarity compares the plan as the fixed reader reads it
            plan = extract_steps(item["llm_output"], "fixed")
        rec["similarity"] = plan_similarity(plan, task)
    except (_Invalid, UnknownTaskError, _Abort) as e:
        rec.update(status="invalid_input", message=str(e), counts=empty_counts(), goal=None,
                   executable=False, success=False, error_type=None, similarity=None)
    return rec


def plan_similarity(plan: ExtractedPlan, task: Task) -> dict[str, Any] | None:
    """LCS, Jaccard and edit distance of a plan to the task's gold script (None when its values cannot be written
    as text, e.g. an integer too long for Python to print)."""
    try:
        return similarity_record(script_lines(plan.steps or []), list(task.metadata["virtualhome"].gold_script))
    except ValueError:
        return None


def script_lines(steps: Iterable[tuple[str, list[Any]]]) -> list[str]:
    """Steps of an EAI output as script lines (``[WALK] <kitchen> (11)``), written as the output gives them: what plan
    similarity compares with the gold script."""
    return [f"[{k}]" + "".join(f" <{v[i]}> ({v[i + 1]})" for i in range(0, len(v), 2)) for k, v in steps]


class _Invalid(Exception):
    pass


def _record(identifier: Any, status: str | None, message: str) -> dict[str, Any]:
    return {"identifier": identifier, "status": status, "executable": False, "error_type": None,
            "error_action": None, "success": False, "goal": None, "runtime_errors": [], "actions": None,
            "executed": [], "message": message, "counts": empty_counts()}


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``, ``duplicate_identifier``): nothing counted."""
    return {**_record(identifier, status, message), "similarity": None}


def _score(rec: dict, task: Task, llm_output: str, protocol: str, world: VirtualHomeWorld,
           shortcut: bool) -> ExtractedPlan | None:
    """Score the output into ``rec``; returns the plan as it was read (None: not read, the task was skipped)."""
    goal = task.goal
    extra = task.metadata["virtualhome"]
    n_tot, e_tot = len(goal.node_goals), len(goal.edge_goals)
    a_tot = len(goal.action_goals)
    gold = evaluate_goals(final_graph(task.id), goal, [], protocol, with_actions=False)  # (task.metadata's final
    # state, read from the record: an item that is not executed builds no scene)
    counts = rec["counts"]
    if not gold.success:
        rec.update(status="skipped_gold_test_failed", goal=_goal_fields(None, n_tot, e_tot, a_tot),
                   message="the task's annotated final graph does not satisfy its goal")
        return None
    counts.update(program_num=1, all_node_goals=n_tot, all_edge_goals=e_tot, all_action_goals=a_tot,
                  all_goals=n_tot + e_tot + a_tot)
    rec["goal"] = _goal_fields(None, n_tot, e_tot, a_tot)
    rec["status"] = "evaluated"
    plan = extract_steps(llm_output, protocol)
    if plan.steps is None:
        counts["all_parsing_wrong"] = plan.parsing_errors
        rec.update(error_type=ERROR_STRINGS[ErrorType.PARSING], message=plan.message)
        return plan
    if protocol == "eai-1.0.5":
        relevant = {f"{n}_{i}": i for n, i in sorted(extra.relevant)}
        resolved = _resolve_reference(plan.steps, relevant)
        msg = ""
    else:
        resolved = _resolve_fixed(plan.steps, world, task.initial_state)
        resolved, msg = (resolved, "") if isinstance(resolved, list) else resolved
    if not isinstance(resolved, list):
        key = "all_hallucination" if resolved is ErrorType.HALLUCINATION else "all_parameter_wrong"
        counts[key] = 1
        rec.update(error_type=ERROR_STRINGS[resolved], message=msg or f"{ERROR_STRINGS[resolved]} in the plan")
        return plan
    scripts = [to_script(a) for a in resolved]
    rec["actions"] = scripts
    if shortcut and scripts == list(extra.gold_script):
        counts["all_executable_plan"] = 1
        rec.update(status="identical_to_gold_shortcut", executable=True)
        return plan
    _execute(rec, task, resolved, world, protocol)
    return plan


def _execute(rec: dict, task: Task, actions: list[Action], world: VirtualHomeWorld, protocol: str) -> None:
    counts = rec["counts"]
    ep = Episode(world, task.id, task.initial_state)
    executable = len(actions) > 0
    for action in actions:
        step = ep.step_action(action, raw=to_script(action))
        if step.ok:
            continue
        if "reference_abort" in step.details and protocol == "eai-1.0.5":
            raise _Abort(f"the reference evaluator aborts at {to_script(action)}: {step.details['reference_abort']}")
        counts["error_code_to_number"][_CODE[step.error]] += 1
        rec["runtime_errors"].append(ERROR_STRINGS[step.error])
        if step.error.is_fatal:
            executable = False
            rec.update(error_type=ERROR_STRINGS[step.error], error_action=to_script(action), message=step.message)
            break
    rec["executed"] = [to_script(s.action) for s in ep.trajectory.steps if s.ok]
    rec["executable"] = executable
    status = world.goal_status(ep.trajectory, task.goal)
    rec["goal"] = _goal_fields(status, *(status.parts[k][1] for k in ("node", "edge", "action")))
    rec["success"] = status.success
    counts["all_executable_plan"] = int(executable)
    counts["all_correct_plan"] = int(status.success)
    counts["all_matched_node"] = status.parts["node"][0]
    counts["all_matched_edge"] = status.parts["edge"][0]
    counts["all_matched_action"] = status.parts["action"][0]
    counts["all_matched_all"] = status.matched


def score_items(items: Iterable[Any], protocol: str = "fixed", gold_shortcut: bool | None = None) -> dict[str, Any]:
    """Score every item (in order) and aggregate: ``{"summary", "counters", "tasks"}``."""
    world = VirtualHomeWorld(protocol)
    records = [score_item(it, protocol, world, gold_shortcut) for it in items]
    summary, counters = summarize([r["counts"] for r in records], protocol)
    return {"summary": summary, "counters": counters, "tasks": records}


# ------------------------------------------------------------------------------ eai-gym score (the registry's jobs)
def _context(protocol: str, shortcut: bool | None) -> tuple:
    return VirtualHomeWorld(protocol), protocol, shortcut


def _unit(ctx: tuple, item: Any) -> dict:
    world, protocol, shortcut = ctx
    return score_item(item, protocol, world, shortcut)


def jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    """The work of ``eai-gym score virtualhome --mode action_sequencing`` (``options["gold_shortcut"]``: on, off
    or None, the protocol's default)."""
    shortcut = None if options["gold_shortcut"] is None else options["gold_shortcut"] == "on"

    def summarize_records(records: list) -> dict:
        summary, counters = summarize([r["counts"] for r in records], protocol)
        return {"summary": summary, "counters": counters}
    jobs = Jobs(_unit, list(items), summarize_records, _context, (protocol, shortcut), summary_fields=("counts",),
                blank=not_scored, record_fields=("identifier", "status", "counts"))
    return jobs.once_per_identifier(mode="action_sequencing", protocol=protocol)

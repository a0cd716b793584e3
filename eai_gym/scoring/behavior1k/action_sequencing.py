"""Offline action-sequencing scorer for BEHAVIOR-1K: replay plans in EAI's BEHAVIOR output format through the world.

Items are ``{"identifier": <activity>, "llm_output": "[{\\"action\\": \\"GRASP\\", \\"object\\": \\"apple.n.01_1\\"},
...]"}`` (the object is the instance name; ``""`` for RELEASE/WAIT). One record per item, in input order:
``identifier``, ``success`` (every goal conjunct holds at the end), ``executable`` (no fatal error), ``message``
(why not, or ""), the EAI ``error_type`` of the first fatal error and every ``error_types`` met (an additional
step is skipped, as in EAI), the goal conjunct counts split into state and relation goals as EAI's BEHAVIOR
summary does, ``execution_info`` per step and ``similarity`` to the packaged gold plan. A bad item gives
``status: "invalid_input"`` with a message; the other items are scored.

Protocol: ``"bddl-3.6.0"`` (goals exactly as bddl 3.6.0 evaluates them; the only one).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ...core import Episode, ErrorType
from ...core.errors import UnknownTaskError
from ...eai.action_summary import BEHAVIOR_COUNTS, summarize_behavior
from ...envs.behavior1k.data import activity_names
from ...envs.behavior1k.gold import gold_data, gold_plan
from ...envs.behavior1k.world import Behavior1KWorld, load_task
from ...logic import json_text
from ...metrics.plan_similarity import similarity_record
from ..items import item_identifier, safe_identifier
from ..jobs import Jobs

PROTOCOLS = ("bddl-3.6.0",)
#: unary (state) and binary (relation) predicates of bddl's domain, for EAI's state/relation goal split
RELATION_WORDS = ("ontop", "inside", "nextto", "under", "touching", "overlaid", "attached", "draped", "covered",
                  "filled", "contains", "saturated", "insource")
STATE_WORDS = ("cooked", "frozen", "open", "folded", "unfolded", "toggled_on", "hot", "on_fire", "future", "real",
               "broken")


class _Invalid(Exception):
    pass


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r} for behavior1k; choose one of {', '.join(PROTOCOLS)}")
    return protocol


def _read_steps(llm_output: str) -> list[dict[str, Any]]:
    start = llm_output.find("[")
    if start < 0:
        raise _Steps(ErrorType.PARSING, "no action list found")
    try:
        value, _ = json_text.raw_decode(llm_output[start:])
    except (ValueError, RecursionError):
        raise _Steps(ErrorType.PARSING, "the action list is not valid JSON") from None
    if not isinstance(value, list) or not value:
        raise _Steps(ErrorType.PARSING, "No actions found" if value == [] else "the action list is not a list")
    for i, a in enumerate(value):
        if not isinstance(a, dict) or not isinstance(a.get("action"), str) or not isinstance(a.get("object", ""), str):
            raise _Steps(ErrorType.PARSING, f"step {i} is not an object with a string 'action' and 'object'")
    return value


class _Steps(Exception):
    def __init__(self, error: ErrorType, message: str):
        super().__init__(message)
        self.error, self.message = error, message


def goal_counts(conditions: list[Any], satisfied: list[bool]) -> dict[str, float]:
    """EAI's BEHAVIOR goal counts over the top-level conjuncts: a conjunct reading both relation and state
    predicates counts half as each; one reading neither counts as a state goal."""
    r = {k: 0.0 for k in ("tot_edge_predicates", "tot_node_predicates", "satisfied_edge_predicates",
                          "satisfied_node_predicates")}
    for cond, ok in zip(conditions, satisfied):
        preds = {a[0] for a in cond.atoms}
        e, n = bool(preds & set(RELATION_WORDS)), bool(preds & set(STATE_WORDS)) or not preds & set(RELATION_WORDS)
        r["tot_edge_predicates"] += e / (e + n)
        r["tot_node_predicates"] += n / (e + n)
        if ok:
            r["satisfied_edge_predicates"] += e / (e + n)
            r["satisfied_node_predicates"] += n / (e + n)
    r["tot_predicates"] = r["tot_edge_predicates"] + r["tot_node_predicates"]
    r["satisfied_predicates"] = r["satisfied_edge_predicates"] + r["satisfied_node_predicates"]
    return r


def score_item(item: Any, protocol: str = "bddl-3.6.0", world: Behavior1KWorld | None = None) -> dict[str, Any]:
    """Score one item; never raises for bad input."""
    check_protocol(protocol)
    world = world or Behavior1KWorld()
    ident = item_identifier(item)
    rec = _record(ident, "evaluated", "")
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise _Invalid("an item must be an object with 'identifier' and 'llm_output'")
        if item["identifier"] is not None and safe_identifier(item["identifier"]) is None:  # a list, a dict...
            raise _Invalid(f"the identifier must be a string, got {type(item['identifier']).__name__}")
        if not isinstance(item["llm_output"], str):
            raise _Invalid(f"llm_output must be a string, got {type(item['llm_output']).__name__}")
        task = load_task(ident)
    except (_Invalid, UnknownTaskError) as e:
        rec.update(status="invalid_input", message=str(e), similarity=None)
        return rec
    ep = Episode(world, task.id, task.initial_state)
    try:
        steps = _read_steps(item["llm_output"])
    except _Steps as e:
        rec.update(error_type=e.error.value, error_types=[e.error.value], message=e.message)
        steps = []
    texts = []
    for i, a in enumerate(steps):
        objects = [o.strip() for o in a.get("object", "").split(",") if o.strip()]
        text = f"{a['action']}({', '.join(objects)})"  # a comma list is an arguments error of the world
        texts.append(text)
        step = ep.step_text(text)
        rec["execution_info"].append({"step": i, "action": a["action"], "object": a.get("object", ""),
                                      "execution_success": step.ok, "message": step.message})
        if not step.ok:
            if step.error.value not in rec["error_types"]:
                rec["error_types"].append(step.error.value)
            if step.error is not ErrorType.ADDITIONAL_STEP:
                rec.update(error_type=step.error.value, message=f"step {i} {text}: {step.message}")
                break
    sat = world.satisfied(ep.state, task.goal)
    rec["executable"] = bool(steps) and rec["error_type"] is None
    rec["success"] = rec["executable"] and all(sat)
    if rec["executable"] and not rec["success"]:
        rec["message"] = f"{len(sat) - sum(sat)} of {len(sat)} goal conditions do not hold at the end"
    if rec["error_type"] is None and "additional_step" in rec["error_types"]:
        rec["error_type"] = "additional_step"
    rec["goal_conditions"] = sat
    rec.update(goal_counts(list(task.goal.conditions), sat))
    gold = gold_plan(task.id)
    rec["similarity"] = similarity_record(texts, gold) if gold else None
    return rec


def _record(identifier: Any, status: str, message: str) -> dict[str, Any]:
    return {"identifier": identifier, "status": status, "success": False, "executable": False, "message": message,
            "error_type": None, "error_types": [], "execution_info": [], "goal_conditions": []}


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``, ``duplicate_identifier``)."""
    return {**_record(identifier, status, message), "similarity": None}


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """EAI's BEHAVIOR summary over the evaluated records, plus counts."""
    recs = [r for r in records if r.get("status") == "evaluated"]
    eai = summarize_behavior({"execution_success": r["executable"], "error_types": r["error_types"],
                              "all_goal_satisfied": r["success"], **{k: r[k] for k in r if k.endswith("predicates")}}
                             for r in recs)
    return {**eai, "items": len(recs), "successes": sum(r["success"] for r in recs),
            "executable": sum(r["executable"] for r in recs)}


def gold_items() -> list[dict[str, Any]]:
    """One item per activity (all 1,016): its gold plan in EAI's BEHAVIOR output format (``[]`` where the
    planner found none, so the record says why)."""
    items = []
    for name in activity_names():
        plan = gold_plan(name)
        steps = []
        for text in plan:
            action, _, rest = text.partition("(")
            steps.append({"action": action, "object": rest.rstrip(")")})
        items.append({"identifier": name, "llm_output": json.dumps(steps)})
    return items


def with_gold_reason(rec: dict[str, Any], item: Any) -> dict[str, Any]:
    """A gold item without a plan (``[]``): the record's message says why the planner found none."""
    ident = item_identifier(item)
    reason = gold_data()["unsolved"].get(ident) if isinstance(ident, str) else None
    if reason and item.get("llm_output") == "[]":
        rec["message"] = f"no gold plan: {reason}"
    return rec


def score_gold(protocol: str = "bddl-3.6.0") -> list[dict[str, Any]]:
    """Records for :func:`gold_items` (1,016)."""
    world = Behavior1KWorld()
    return [with_gold_reason(score_item(item, protocol, world), item) for item in gold_items()]


def _world(protocol: str) -> tuple:
    return (Behavior1KWorld(), protocol)


def _score_unit(ctx: tuple, item: Any) -> dict[str, Any]:
    world, protocol = ctx
    return with_gold_reason(score_item(item, protocol, world), item)


def action_sequencing_jobs(items: list, protocol: str = "bddl-3.6.0") -> Jobs:
    """The jobs ``eai-gym score behavior1k`` runs (see :mod:`eai_gym.scoring.jobs`)."""
    check_protocol(protocol)
    return Jobs(_score_unit, list(items), lambda rs: {"summary": summarize(rs)}, _world, (protocol,),
                summary_fields=("executable", "error_types", "success", *BEHAVIOR_COUNTS),
                blank=not_scored).once_per_identifier(mode="action_sequencing", protocol=protocol)

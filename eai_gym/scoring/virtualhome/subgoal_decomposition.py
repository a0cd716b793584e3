"""Offline subgoal-decomposition scorer for VirtualHome (EAI's second offline task).

An LLM output is a JSON object whose ``output`` is a list of subgoal formulas
(``"NEXT_TO(character.65, tv.426)"``, ``"ON(tv.426) and CLOSED(tv.426)"``...). The plan is their
``then`` sequence. It is checked for syntax (unknown primitive → Hallucination, else NotParseable),
semantics (parameter counts, objects in the scene → Hallucination), then run: see
:mod:`eai_gym.envs.virtualhome.subgoals`. Categories: Correct, GoalUnreachable (every subgoal executed,
goal not reached), Runtime, NotParseable, Hallucination.

``protocol="eai-1.0.5"`` follows eai-eval, which picks one disjunct of every ``or`` at random; with
``seed`` (default 0) the picks are those of a run after ``random.seed(seed)`` (the recorded reference
runs). ``protocol="fixed"`` explores every disjunct (success if any branch succeeds), skips a negated
subgoal instead of failing, and is deterministic.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from itertools import islice
from typing import Any, Iterable, Mapping

from ...core.errors import UnknownTaskError
from ...core.safe_repr import bounded_repr
from ...eai.subgoal_output import NotParseable, output_entries, with_plan_fields
from ...eai.subgoal_summary import summarize_subgoal
from ...envs.virtualhome.subgoals import SubgoalCrash, choose, goal_subgoal_plan, search, split, vocabulary
from ...envs.virtualhome.tasks import load_task, object_labels, object_names, task_record
from ...envs.virtualhome.world import VirtualHomeWorld, check_protocol
from ...logic import tl, tl_paths
from ...metrics.plan_similarity import similarity_record
from ..items import item_identifier, plain_record
from ..jobs import Jobs, duplicate_record, invalid_record, tagged_identifier

MAX_PATHS = 256


def task_id_of(identifier: Any) -> str:
    """``scene_1_27_2`` or ``27_2`` → ``27_2``."""
    if not isinstance(identifier, str):
        raise UnknownTaskError(f"identifier must be a string, got {bounded_repr(identifier)}")
    tid = identifier[8:] if identifier.startswith("scene_") else identifier
    task_record(tid)
    return tid


def read_subgoals(llm_output: Any, rng: random.Random | None) -> list[str]:
    """The ``output`` list of the first JSON object in the text, cleaned as the reference does:
    empty entries and entries without a ``NAME(...)`` dropped (bare SLEEP/WAKEUP/STANDUP kept); with
    ``rng`` an entry containing `` or `` is replaced by one of its parts."""
    if not isinstance(llm_output, str):
        raise NotParseable(f"'{type(llm_output).__name__}' object has no attribute 'strip'")
    text = llm_output.strip().replace("}}", "}")
    out = []
    for entry in output_entries(llm_output, text):
        if not entry:
            continue
        if entry in ("SLEEP", "WAKEUP", "STANDUP"):
            out.append(f"{entry}()")
        elif re.search(r"\w+\(.*?\)", entry):
            out.append(rng.choice(entry.split(" or ")) if rng is not None else entry)
    return out


def _semantic(formula: tl.Formula, id_to_name: dict[int, str], names: frozenset[str] | None = None) -> dict | None:
    """Parameter counts and object existence (``names``: the class names of ``id_to_name``); None when both
    pass."""
    v = vocabulary()
    pred_params, act_params = _predicate_params(), v["subgoal_actions"]
    report = {"IncorrectParamLength": False, "ObjectNotInScene": False, "error_info": ""}
    prims = list(tl.primitives(formula))
    for p in [x for x in prims if not x.is_action] + [x for x in prims if x.is_action]:
        want = act_params[p.name] if p.is_action else pred_params[p.name]
        if len(p.args) != want:
            report["IncorrectParamLength"] = True
            report["error_info"] += f"Primitive {p} has incorrect number of parameters\n"
            break
    names = set(id_to_name.values()) if names is None else names
    for arg in sorted({a for p in prims for a in p.args} - {"<wildcard>"}):
        if "." in arg:
            try:
                name, oid = split(arg)
            except ValueError as e:
                raise NotParseable(str(e)) from None
            if id_to_name.get(oid) != name:
                report["ObjectNotInScene"] = True
        elif arg not in names:
            report["ObjectNotInScene"] = True
        if report["ObjectNotInScene"]:
            report["error_info"] += f"Object {arg} is not in the scene\n"
            break
    return report if (report["IncorrectParamLength"] or report["ObjectNotInScene"]) else None


@lru_cache(maxsize=1)
def _predicate_params() -> dict[str, int]:
    v = vocabulary()
    out = {}
    for p in v["tl_predicates"]:
        vh = v["tl_predicates_to_vh"][p]
        n = -1
        if vh in v["properties"]:
            n = 1
        elif vh in v["vh_states"] and v["vh_states_to_tl"][vh] == p:
            n = 1
        elif vh in v["vh_relations"] and v["vh_relations_to_tl"][vh] == p:
            n = 2
        out[p] = n
    return out


def goal_counts(task, actions, state: Any = None) -> dict[str, int]:
    """The reference's goal counts for the chosen action sequence (replayed from the start under eai-1.0.5's
    rules; ``state``: the state that replay ends in, if known)."""
    if state is None:
        world = VirtualHomeWorld("eai-1.0.5")
        state = task.initial_state
        for a in actions:
            res = world.try_action(state, a)
            if not hasattr(res, "kind"):
                state = res
    raw = task.metadata["virtualhome"].raw_goal
    nodes = [g for g in raw["goal"] if {"id", "class_name", "state"} <= g.keys()]
    edges: list[dict] = []
    for g in raw["goal"]:
        if {"from_id", "to_id", "relation_type"} <= g.keys() and g not in edges:
            edges.append(g)
    node_ok = sum(1 for g in nodes if g["id"] in state.scene.objects and state.scene.objects[g["id"]].name ==
                  g["class_name"] and g["state"] in state.states(g["id"]))
    edge_ok = sum(1 for g in edges if state.has_edge(g["from_id"], g["relation_type"], g["to_id"]))
    scripts = [f"[{a.name}]" + "".join(f" <{n}> ({i})" for n, i in zip(a.arg_names, a.args)) for a in actions]
    act_ok = 0
    for g in raw["actions"]:
        if any(opt in s for opt in g.split("|") for s in scripts):
            act_ok += 1
        else:
            break
    counts = {"node_tot_num": len(nodes), "node_success_num": node_ok, "edge_tot_num": len(edges),
              "edge_success_num": edge_ok, "action_tot_num": len(raw["actions"]), "action_success_num": act_ok}
    counts["full_tot_num"] = counts["node_tot_num"] + counts["edge_tot_num"] + counts["action_tot_num"]
    counts["full_success_num"] = node_ok + edge_ok + act_ok
    return counts


def score_item(item: Any, protocol: str, rng: random.Random | None, world: VirtualHomeWorld,
               draws_only: bool = False) -> dict[str, Any]:
    """Score one item. With ``draws_only`` stop once the item has made its random choices (the rest
    of the scoring draws nothing)."""
    rec, task, plan = _choose(item, protocol, rng)
    return rec if draws_only else _finish(rec, task, plan, item, protocol, world)


#: what makes an item NotParseable (the reference reports these as a plan it cannot read or run)
_NOT_PARSEABLE = (NotParseable, SubgoalCrash, tl.TLError, ValueError, NotImplementedError)


def _not_parseable(rec: dict, e: Exception) -> None:
    rec.update(category="NotParseable", message=str(e), success=False, executable=False, errors=[], actions=[],
               goal=None)


def _choose(item: Any, protocol: str, rng: random.Random | None) -> tuple[dict[str, Any], Any, tuple | None]:
    """The first part of scoring an item, up to and including its random choices: the record so far, the task
    (None: the item is invalid) and ``(goal, paths)`` to search (None: the record is complete but for the
    similarity)."""
    rec: dict[str, Any] = {"identifier": item_identifier(item), "status": "evaluated", "success": False,
                           "category": None, "executable": False, "errors": [], "actions": [], "goal": None,
                           "message": "", "hallucination": None}
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise UnknownTaskError("an item must be an object with 'identifier' and 'llm_output'")
        task = load_task(task_id_of(item["identifier"]))
    except UnknownTaskError as e:
        rec.update(status="invalid_input", message=str(e))
        return rec, None, None
    rec["task_id"] = task.id
    try:
        return rec, task, _plan(rec, task, item["llm_output"], protocol, rng)
    except _NOT_PARSEABLE as e:
        _not_parseable(rec, e)
        return rec, task, None


def _finish(rec: dict[str, Any], task: Any, plan: tuple | None, item: Any, protocol: str,
            world: VirtualHomeWorld) -> dict[str, Any]:
    """The rest of scoring an item after :func:`_choose`: the search and the similarity record."""
    if task is None:
        return rec
    if plan is not None:
        try:
            _search(rec, task, *plan, protocol, world)
        except _NOT_PARSEABLE as e:
            _not_parseable(rec, e)
    rec["similarity"] = _similarity(item["llm_output"], task)
    return rec


@lru_cache(maxsize=None)
def _gold_subgoals(task_id: str) -> tuple[str, ...] | None:
    rec = task_record(task_id)
    return tuple(goal_subgoal_plan(rec)) if rec["tl_goal"] else None


def gold_subgoals(task_id: str) -> list[str] | None:
    """The task's gold subgoal plan (its goal split at ``then``; None without a temporal-logic goal), worked
    out once per task (``--gold`` writes it as the item, and each record compares the item with it)."""
    gold = _gold_subgoals(task_id)
    return None if gold is None else list(gold)


@lru_cache(maxsize=4096)
def _plain_subgoals(llm_output: str) -> tuple[str, ...] | NotParseable:
    try:
        return tuple(read_subgoals(llm_output, None))
    except NotParseable as e:
        return e


def _similarity(llm_output: Any, task) -> dict | None:
    """The subgoal list against the task's gold subgoal plan (its goal split at ``then``), if it has one."""
    gold = gold_subgoals(task.id) if task.goal.tl_goal else None
    if gold is None:
        return None
    plan = _plain_subgoals(llm_output) if isinstance(llm_output, str) else NotParseable()
    return similarity_record([] if isinstance(plan, NotParseable) else list(plan), gold)


@lru_cache(maxsize=1024)
def _object_names(task_id: str) -> tuple[dict[int, str], frozenset[str]]:
    """A task's object names by id, and the set of its class names (each item of a task reads them), from its
    record: a plan that fails these checks never builds the task's scene."""
    id_to_name = object_names(task_id)
    return id_to_name, frozenset(id_to_name.values())


@lru_cache(maxsize=16384)
def _parsed(text: str) -> tl.Formula | tl.TLError:
    v = vocabulary()
    try:
        return tl.parse(text, v["tl_predicates"], list(v["subgoal_actions"]))
    except tl.TLError as e:
        return e


def _parse(text: str) -> tl.Formula:
    """:func:`eai_gym.logic.tl.parse` with the subgoal vocabulary, remembered (the parse dominates the
    cost of :func:`plan_items`, and the scoring that follows it parses the same texts)."""
    out = _parsed(text)
    if isinstance(out, tl.TLError):
        raise tl.TLError(str(out), out.unknown_primitive)
    return out


@lru_cache(maxsize=16384)
def _semantics(text: str, task_id: str) -> dict | None | NotParseable:
    try:
        return _semantic(_parse(text), *_object_names(task_id))
    except NotParseable as e:
        return e


def _checked(text: str, task_id: str) -> dict | None:
    """:func:`_semantic` of the parsed ``text`` against the task's objects, remembered (:func:`plan_items` and
    the scoring that follows it check the same plans; the report is only read)."""
    out = _semantics(text, task_id)
    if isinstance(out, NotParseable):
        raise NotParseable(str(out))
    return out


def _plan(rec, task, llm_output, protocol, rng) -> tuple | None:
    """The plan's goal and subgoal paths (the random choices made), or None when the record is complete."""
    subgoals = read_subgoals(llm_output, rng if protocol == "eai-1.0.5" else None)
    try:
        formula = _parse(" then ".join(subgoals))
    except tl.TLError as e:
        if e.unknown_primitive:
            rec.update(category="Hallucination", hallucination="UnknownPrimitive", message=str(e))
            return None
        raise
    sem = _checked(" then ".join(subgoals), task.id)
    if sem is not None:
        kind = "IncorrectParamLength" if sem["IncorrectParamLength"] else "ObjectNotInScene"
        rec.update(category="Hallucination", hallucination=kind, message=sem["error_info"].strip(),
                   hallucination_flags={k: sem[k] for k in ("IncorrectParamLength", "ObjectNotInScene")})
        return None
    if not task.goal.tl_goal:
        raise NotParseable("Failed to get final goal formula (the task has no tl_goal)")
    goal = _parse(task.goal.tl_goal)
    if protocol == "eai-1.0.5":
        paths = tl_paths.subgoal_paths(formula, rng.choice)
    else:
        paths = list(islice(tl_paths.iter_subgoal_paths(formula), MAX_PATHS))
        paths = [[g for g in p if isinstance(g, tl.Primitive)] for p in paths]
    return goal, paths


def _search(rec, task, goal, paths, protocol, world) -> None:
    labels = object_labels(task.id)
    ref = protocol == "eai-1.0.5"
    results = [search(world, task.initial_state, p, goal, reference_crash=ref, labels=labels) for p in paths]
    executable = any(r[0] for r in results)
    feasible = [b for r in results for b in r[1]]
    failed = [b for r in results for b in r[2]]
    best, ok = choose(feasible, failed)
    if best is None:
        raise NotParseable("'SubgoalRuntimeChecker' object has no attribute 'goal_info'")
    rec.update(success=ok, executable=executable,
               category="Correct" if ok else ("GoalUnreachable" if executable else "Runtime"),
               errors=[{"error_type": e["error_type"], "error_info": e["error_info"], "subgoal": e["subgoal"],
                        "action": e["action"]} for e in best.errors],
               actions=[f"[{a.name}]" + "".join(f" <{n}> ({i})" for n, i in zip(a.arg_names, a.args))
                        for a in best.actions],
               goal=goal_counts(task, best.actions, best.state if ref else None))  # (search ran eai-1.0.5's rules)


def plan_items(items: Iterable[Any], protocol: str = "fixed", seed: int = 0) -> list[tuple]:
    """One job per item, in input order, for :func:`score_job`: ``("record", rec)`` for an item whose
    identifier repeats an earlier one (not evaluated, as the reference keys its results by identifier), else
    under fixed ``("item", item)``, under eai-1.0.5 ``("chosen", item, rec, task id, plan)``: the items share
    one RNG seeded with ``seed``, so each item's random choices are made here, in input order (the first part of
    its scoring, :func:`_choose`: reading, parsing and checking the plan, no search), and the job carries what
    they gave; jobs can then be scored apart, in any order, with the serial result."""
    check_protocol(protocol)
    ref = protocol == "eai-1.0.5"
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    jobs: list[tuple] = []
    for i, it in enumerate(items):
        if isinstance(it, dict) and isinstance(it.get("identifier"), str):
            try:
                tid = task_id_of(it["identifier"])
                if tid in seen:
                    jobs.append(("record", duplicate_record(plain_record, i, seen[tid], it["identifier"])))
                    continue
                seen[tid] = i
            except UnknownTaskError:
                pass
        if ref:
            try:
                rec, task, plan = _choose(it, protocol, rng)
            except Exception as e:  # noqa: BLE001 - this item's own failure (its draws are lost with it)
                jobs.append(("record", invalid_record(plain_record, i, item_identifier(it), e)))
                continue
            jobs.append(("chosen", it, rec, None if task is None else task.id, plan))
        else:
            jobs.append(("item", it))
    return jobs


def score_job(job: tuple, protocol: str, world: VirtualHomeWorld) -> dict[str, Any]:
    """The record of one job of :func:`plan_items`."""
    if job[0] == "record":
        return with_plan_fields(dict(job[1]))
    if job[0] == "item":
        return with_plan_fields(score_item(job[1], protocol, None, world))
    _, item, rec, task_id, plan = job
    task = None if task_id is None else load_task(task_id)
    return with_plan_fields(_finish(dict(rec), task, plan, item, protocol, world))  # (a copy: the job can be scored again)


#: the record fields :func:`summarize` reads (with ``status``)
SUMMARY_FIELDS = ("category", "errors", "executable", "goal", "hallucination", "hallucination_flags", "success",
                  "task_id")


def task_goal_totals(task_id: str) -> tuple[int, int, int]:
    """A task's (node, edge, action) goal counts, as the reference counts them from its ``vh_goal``."""
    raw = task_record(task_id)["vh_goal"]
    nodes = sum(1 for g in raw["goal"] if {"id", "class_name", "state"} <= g.keys())
    edges = sum(1 for g in raw["goal"] if {"from_id", "to_id", "relation_type"} <= g.keys()
                and not {"id", "class_name", "state"} <= g.keys())
    return nodes, edges, len(raw["actions"])


def summarize(records: list[dict]) -> dict[str, Any]:
    return summarize_subgoal([r for r in records if r["status"] == "evaluated"], task_goal_totals)


def score_items(items: Iterable[Any], protocol: str = "fixed", seed: int = 0) -> dict[str, Any]:
    """Score every item in order. Items whose identifier repeats an earlier one are not evaluated
    (``status: "duplicate_identifier"``), as the reference keys its results by identifier."""
    world = VirtualHomeWorld(protocol)
    records = [score_job(job, protocol, world) for job in plan_items(items, protocol, seed)]
    return {"summary": summarize(records), "tasks": records}


# ------------------------------------------------------------------------------ eai-gym score (the registry's jobs)
def _context(protocol: str) -> tuple:
    return VirtualHomeWorld(protocol), protocol


def _unit(ctx: tuple, job: tuple) -> dict:
    world, protocol = ctx
    return score_job(job, protocol, world)


def jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    """The work of ``eai-gym score virtualhome --mode subgoal_decomposition`` (``options["seed"]``: the
    eai-1.0.5 RNG's seed)."""
    return Jobs(_unit, plan_items(items, protocol, options["seed"]), lambda rs: {"summary": summarize(rs)},
                _context, (protocol,), summary_fields=SUMMARY_FIELDS, identify=tagged_identifier)

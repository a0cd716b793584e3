"""Offline subgoal-decomposition scorer for BEHAVIOR (EAI's second offline task).

An LLM output is a JSON object whose ``output`` is a list of subgoal formulas over TL object names
(``"holds_rh(rag.0)"``, ``"ontop(plate.1, table.2) and not open(fridge.3)"``...); the plan is their
``then`` sequence. It is checked for syntax (unknown primitive → Hallucination, else NotParseable),
semantics (parameter counts, objects in the scene → Hallucination), then run: see
:mod:`eai_gym.envs.behavior.subgoals`. Categories: Correct, GoalUnreachable (every subgoal executed,
goal not reached), Runtime, NotParseable, Hallucination.

``protocol="eai-1.0.5"`` follows eai-eval, which evaluates every one of the 100 tasks in its own order
(each with the first item whose identifier contains the task's activity name; a task without one is
NotParseable in the summary) and picks one disjunct of every ``or`` at random: with ``seed`` the picks
are those of a run after ``random.seed(seed)``. ``protocol="fixed"`` scores the given items only (one
per task, matched by demo name or activity name), parses each entry whole and explores every disjunct
(the first 256 subgoal sequences; success if any succeeds), reads negations with De Morgan's laws, gives
predicates without a vocabulary parameter count one parameter and counts empty argument lists as wrong
arity instead of failing, lets ``shirt.N`` name a t-shirt, fixes the translator's hand choice, uses the
fixed transition model and goal check, takes the goal status of unscored plans from the scored initial
state, and is deterministic.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from itertools import islice
from typing import Any, Iterable

from ...core.errors import UnknownTaskError
from ...core.safe_repr import bounded_repr
from ...eai.behavior_subgoal_summary import summarize_behavior_subgoal
from ...eai.subgoal_output import NotParseable, output_entries, with_plan_fields
from ...envs.behavior.goals import GoalCrash
from ...envs.behavior.subgoals import (
    ACTION_PARAMS,
    STATE_PARAMS,
    VOCAB_ACTIONS,
    SubgoalCrash,
    Translator,
    choose,
    gold_subgoal_plan,
    sample_path,
    search,
    tl_name,
)
from ...envs.behavior.tasks import check_initial_state, load_task, task_ids, task_record
from ...envs.behavior.world import BehaviorWorld, check_protocol
from ...logic import tl, tl_paths
from ...metrics.plan_similarity import similarity_record
from ..items import item_identifier
from ..jobs import duplicate_record, invalid_record
from .subgoal_goals import goal_counts, reference_initial_counts

MAX_PATHS = 256
QUANTIFIERS = ("forall", "exists", "forpairs", "forn", "fornpairs")


def read_subgoals(llm_output: Any, activity: str, rng: random.Random | None) -> list[str]:
    """The ``output`` list of the first JSON object in the text, cleaned as the reference does: empty
    entries, entries mentioning ``agent`` and entries with a quantifier word dropped; with ``rng`` an
    entry is replaced by one of its `` or ``-separated parts."""
    if llm_output == "":
        raise NotParseable(f"Failed to get the plan string for task {activity}")
    if not isinstance(llm_output, str):
        raise NotParseable(f"'{type(llm_output).__name__}' object has no attribute 'strip'")
    text = llm_output.strip().replace("}}", "}").replace("toggled.on", "toggledon").replace("t-shirt", "shirt")
    out = []
    for entry in output_entries(llm_output, text):
        if entry == "" or "agent" in entry or any(q in entry for q in QUANTIFIERS):
            continue
        picked = rng.choice(entry.split(" or ")) if rng is not None else entry
        if picked != "":
            out.append(picked)
    return out


@lru_cache(maxsize=2048)
def _parsed(text: str, categories: tuple[str, ...]) -> tl.Formula | tl.TLError:
    try:
        return tl.parse(text, list(STATE_PARAMS) + list(categories), VOCAB_ACTIONS)
    except tl.TLError as e:
        return e


def _parse(text: str, categories: tuple[str, ...]) -> tl.Formula:
    """:func:`eai_gym.logic.tl.parse` with the task's predicates, remembered (the parse dominates the
    scoring time, and the same outputs are often scored under both protocols)."""
    out = _parsed(text, categories)
    if isinstance(out, tl.TLError):
        raise tl.TLError(str(out), out.unknown_primitive)
    return out


def _semantic(formula: tl.Formula, objects: set[str], fixed: bool) -> dict | None:
    """Parameter counts and objects in the scene; None when both pass. Raises NotParseable where the
    reference raises (a predicate or action without a parameter count, an empty argument list)."""
    prims = list(tl.primitives(formula))
    ordered = [p for p in prims if not p.is_action] + [p for p in prims if p.is_action]
    flags = {"IncorrectParamLength": False, "ObjectNotInScene": False}
    info = ""
    for p in ordered:
        want = (ACTION_PARAMS if p.is_action else STATE_PARAMS).get(p.name, 1 if fixed else None)
        if want is None:
            raise NotParseable(f"'{p.name}'")
        if not p.args and not fixed:
            raise NotParseable("object of type 'NoneType' has no len()")
        if len(p.args) != want:
            flags["IncorrectParamLength"] = True
            info += f"Primitive {p} has incorrect number of parameters\n"
            break
    if not fixed and any(not p.args for p in prims):
        raise NotParseable("'NoneType' object is not iterable")
    missing = sorted({a for p in prims for a in p.args} - objects)
    if missing:
        flags["ObjectNotInScene"] = True
        info += f"Object {missing[0]} is not in the scene\n"
    return {**flags, "error_info": info} if any(flags.values()) else None


def _goal_info(world: BehaviorWorld, task: Any, state: Any) -> dict[str, Any]:
    sat = world.satisfied(state, task.goal, state.scene.bddl_to_name)
    return {"success": all(sat), "subgoal_success": sat, **goal_counts([c.terms for c in task.goal], sat)}


def _run(rec: dict, task: Any, llm_output: Any, protocol: str, rng: random.Random | None,
         world: BehaviorWorld, draws_only: bool = False) -> None:
    ref = protocol == "eai-1.0.5"
    state0 = task.initial_state
    scene = state0.scene
    named = [n for n in scene.order if scene.objects[n].bddl]
    categories = {"_".join(scene.objects[n].bddl.split("_")[:-1]).replace(".", "_") for n in named}
    subgoals = read_subgoals(llm_output, task.name, rng if ref else None)
    try:
        formula = _parse(" then ".join(subgoals), tuple(sorted(categories)))
    except tl.TLError as e:
        if e.unknown_primitive:
            rec.update(category="Hallucination", hallucination="UnknownPrimitive", message=str(e))
            return
        raise NotParseable(str(e)) from None
    # the reader rewrites "t-shirt" to "shirt" (the grammar has no "-" inside names): the reference then
    # cannot name a t-shirt; fixed names it "shirt.N"
    names = {tl_name(n) if ref else tl_name(n).replace("t-shirt", "shirt"): n for n in named}
    sem = _semantic(formula, set(names), not ref)
    if sem is not None:
        kind = "IncorrectParamLength" if sem["IncorrectParamLength"] else "ObjectNotInScene"
        rec.update(category="Hallucination", hallucination=kind, message=sem["error_info"].strip(),
                   hallucination_flags={k: sem[k] for k in ("IncorrectParamLength", "ObjectNotInScene")})
        return
    if ref:
        paths = [sample_path(formula, rng.choice)]
    else:
        try:
            paths = list(islice(tl_paths.iter_subgoal_paths(formula), MAX_PATHS))
        except (ValueError, NotImplementedError) as e:
            raise NotParseable(str(e)) from None
    if draws_only:
        return
    translator = Translator(ref, None if ref else names)

    def goal(s: Any) -> bool:
        return all(world.satisfied(s, task.goal, scene.bddl_to_name))

    results = [search(world, state0, p, goal, translator) for p in paths]
    executable = any(r[0] for r in results)
    best, ok = choose([b for r in results for b in r[1]], [b for r in results for b in r[2]])
    if best is None:
        raise NotParseable("no branch to report")
    rec.update(success=ok, executable=executable,
               category="Correct" if ok else ("GoalUnreachable" if executable else "Runtime"),
               errors=best.errors, actions=[s.item() for s in best.steps], goal=_goal_info(world, task, best.state))


def _blank(identifier: Any) -> dict[str, Any]:
    return {"identifier": identifier, "task_id": None, "status": "evaluated", "success": False, "category": None,
            "executable": False, "errors": [], "actions": [], "goal": None, "message": "", "hallucination": None}


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``)."""
    return dict(_blank(identifier), status=status, message=message)


def score_task(item: dict, task_id: str, protocol: str = "fixed", initial_state: str = "calibrated",
               rng: random.Random | None = None, world: BehaviorWorld | None = None,
               draws_only: bool = False) -> dict[str, Any]:
    """Score one item (a dict with ``llm_output``) against the task ``task_id``; never raises for a
    bad ``llm_output``. With ``draws_only`` stop once the random choices are made (the rest draws
    nothing): :func:`plan_items` uses it to find each task's RNG state."""
    rec = _blank(item_identifier(item))
    rec["task_id"] = task_id
    world = world or BehaviorWorld(protocol)
    task = load_task(task_id, initial_state)
    try:
        _run(rec, task, item["llm_output"], protocol, rng, world, draws_only)
    except (NotParseable, SubgoalCrash, GoalCrash, tl.TLError, RecursionError) as e:  # the reference: except Exception
        rec.update(category="NotParseable", message=str(e), success=False, executable=False, errors=[],
                   actions=[], goal=None, hallucination=None)
    gold = read_subgoals(json.dumps({"output": gold_subgoal_plan(task_record(task_id))}), task.name, None)
    try:
        rec["similarity"] = similarity_record(read_subgoals(item["llm_output"], task.name, None), gold)
    except NotParseable:
        rec["similarity"] = similarity_record([], gold)
    return rec


def _invalid(item: Any) -> dict[str, Any] | None:
    """The record of an item that cannot be scored, or None."""
    if not isinstance(item, dict) or "llm_output" not in item:
        return dict(_blank(item_identifier(item)), status="invalid_input",
                    message="an item must be an object with 'identifier' and 'llm_output'")
    return None


def resolve(identifier: Any) -> str:
    """The task an identifier names: a demo name, or the first task whose activity name it contains."""
    if not isinstance(identifier, str):
        raise UnknownTaskError(f"identifier must be a string, got {bounded_repr(identifier)}")
    if identifier in task_ids():
        return identifier
    for t in task_ids():
        if task_record(t)["task"] in identifier:
            return t
    raise UnknownTaskError(f"unknown BEHAVIOR task {bounded_repr(identifier)} (expected a demo name such as "
                           f"{task_ids()[0]!r})")


def reference_assignment(items: list) -> dict[str, tuple[int | None, int | None]]:
    """Per task, as eai-eval scans its LLM file: ``(index of the first item whose identifier contains
    the activity name, index of a malformed item met first — the reference raises there)``."""
    out: dict[str, tuple[int | None, int | None]] = {}
    for t in task_ids():
        activity = task_record(t)["task"]
        out[t] = (None, None)
        for i, it in enumerate(items):
            try:
                hit = activity in it["identifier"]
            except (TypeError, KeyError, IndexError):
                out[t] = (None, i)
                break
            if hit:
                out[t] = (i, None)
                break
    return out


def _reference_jobs(items: list, initial_state: str, seed: int,
                    assignment: dict[str, tuple[int | None, int | None]]) -> list[tuple | None]:
    """The eai-1.0.5 jobs (None where the reference uses no item): per used item, the tasks it serves,
    in the reference's task order, each with the state of the shared RNG when that task's turn comes
    (found by replaying the random choices of the tasks before it: parsing only, no search)."""
    jobs: list[tuple | None] = [None] * len(items)
    rng = random.Random(seed)
    world = BehaviorWorld("eai-1.0.5")
    for t, (i, _) in assignment.items():  # the reference's task order: the RNG calls follow it
        if i is None:
            continue
        state = rng.getstate()
        if isinstance(jobs[i], tuple) and jobs[i][0] == "record":
            continue  # the item failed on an earlier task
        if _invalid(items[i]) is None:
            try:
                score_task(items[i], t, "eai-1.0.5", initial_state, rng, world, draws_only=True)
            except Exception as e:  # noqa: BLE001 - this item's own failure (its draws are lost with it)
                jobs[i] = ("record", invalid_record(not_scored, i, item_identifier(items[i]), e))
                continue
        if jobs[i] is None:
            jobs[i] = ("tasks", items[i], [])
        jobs[i][2].append((t, state))
    for t, (_, bad) in assignment.items():
        if bad is None:
            continue
        activity = task_record(t)["task"]
        for j in range(bad + 1, len(items)):
            ident = item_identifier(items[j])
            if jobs[j] is None and isinstance(ident, str) and activity in ident:
                jobs[j] = ("record", dict(_blank(ident), task_id=t, status="not_reached",
                                          message=f"the reference stops at the malformed item {bad} and reports "
                                                  "the task as not parseable"))
                break
    return jobs


def plan_items(items: Iterable[Any], protocol: str = "fixed", initial_state: str = "calibrated",
               seed: int = 0) -> list[tuple]:
    """One job per item, in input order, for :func:`score_job`: ``("record", rec)`` for an item that is
    not scored (unknown task, duplicate, not reached), ``("task", item, task_id)`` (fixed) or
    ``("tasks", item, [(task_id, rng_state), ...])`` (eai-1.0.5: the tasks the item serves)."""
    check_protocol(protocol)
    check_initial_state(initial_state)
    items = list(items)
    ref = protocol == "eai-1.0.5"
    assignment = reference_assignment(items) if ref else {}
    jobs = _reference_jobs(items, initial_state, seed, assignment) if ref else [None] * len(items)
    taken = {t: first for t, (first, _) in assignment.items() if first is not None}  # the item of each task
    for i, it in enumerate(items):
        if jobs[i] is not None:
            continue
        ident = item_identifier(it)
        try:
            t = resolve(it.get("identifier") if isinstance(it, dict) else None)
        except UnknownTaskError as e:
            jobs[i] = ("record", dict(_blank(ident), status="invalid_input", message=str(e)))
            continue
        if t in taken:
            jobs[i] = ("record", dict(duplicate_record(not_scored, i, taken[t], ident), task_id=t))
            continue
        if ref:  # the reference stops at a malformed item before it reaches one for this task
            jobs[i] = ("record", dict(_blank(ident), task_id=t, status="duplicate_identifier",
                                      message=f"task {t} is not scored: the reference stops at a malformed item "
                                              "before it"))
            continue
        taken[t] = i
        jobs[i] = ("task", it, t)
    return jobs


def score_job(job: tuple, protocol: str, initial_state: str, world: BehaviorWorld) -> dict[str, Any]:
    """The record of one job of :func:`plan_items`; an item serving two tasks (eai-1.0.5) lists the
    second under ``also_scored_as``."""
    if job[0] == "record":
        return with_plan_fields(dict(job[1]))
    if job[0] == "task":
        _, it, t = job
        return with_plan_fields(_invalid(it) or score_task(it, t, protocol, initial_state, None, world))
    _, it, tasks = job
    out: dict[str, Any] | None = None
    for t, state in tasks:
        rng = random.Random(0)  # a fixed seed: cheaper than one from the system's randomness, and replaced below
        rng.setstate(state)
        rec = with_plan_fields(_invalid(it) or score_task(it, t, "eai-1.0.5", initial_state, rng, world))
        if out is None:
            out = dict(rec, task_id=t)
        else:
            out.setdefault("also_scored_as", []).append(rec)
    assert out is not None
    return out


def summarize(records: list[dict], protocol: str = "fixed", initial_state: str = "calibrated") -> dict[str, Any]:
    """The reference's summary over the records of :func:`score_job`, in input order."""
    per_task = [{k: v for k, v in rec.items() if k != "also_scored_as"}
                for r in records for rec in (r, *r.get("also_scored_as", ())) if rec["status"] == "evaluated"]
    if protocol == "eai-1.0.5":
        order = {t: k for k, t in enumerate(task_ids())}
        per_task.sort(key=lambda r: order[r["task_id"]])  # the reference's task order
        return summarize_behavior_subgoal(per_task, reference_initial_counts, task_ids())
    world = BehaviorWorld(protocol)

    def fallback(t: str) -> dict:
        task = load_task(t, initial_state)
        return _goal_info(world, task, task.initial_state)
    return summarize_behavior_subgoal(per_task, fallback)


def score_items(items: Iterable[Any], protocol: str = "fixed", initial_state: str = "calibrated",
                seed: int = 0) -> dict[str, Any]:
    """Score every item; one record per item in input order, and the reference's summary."""
    world = BehaviorWorld(protocol)
    records = [score_job(job, protocol, initial_state, world)
               for job in plan_items(items, protocol, initial_state, seed)]
    return {"summary": summarize(records, protocol, initial_state), "tasks": records}

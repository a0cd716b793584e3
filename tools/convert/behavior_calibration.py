#!/usr/bin/env python
"""Infer the unstated initial values of the BEHAVIOR tasks from their gold plans.

The shipped task data leaves out what iGibson sampled when a demonstration was recorded, e.g.
whether a cabinet started open or a plate dusty. ``reference-defaults`` assumes every unstated value
false. This tool finds, per task, the *smallest* set of unstated values to change so that the
human-annotated gold plan executes without any error (additional steps included) and reaches the
goal in the world (``fixed`` protocol), and writes them to ``eai_gym/data/behavior/calibration.json``.

Rule: a breadth-first search over sets of changes, smallest sets first. The candidate changes at a
set are read off the first thing that goes wrong when the gold plan is replayed with it:
* a failing step: any unstated value of the step's objects, of their containers (tree ancestors) and
  of the objects in the hands;
* a plan that executes but misses its goal: any unstated value of the objects named by the
  unsatisfied goal conditions, and any physical relation (``nextto``, ``under``, ``onfloor``) those
  conditions ask for, added to the initial state (iGibson detects such relations from geometry; the
  BDDL ``:init`` leaves most of them out).
A value is *unstated* when no ``:init`` literal sets it (``Slicer`` and ``CleaningTool`` are abilities,
always true, and never changed). Ties between sets of the same size go to the first in the tasks'
object order. When no set makes the plan run without any error, the search is repeated accepting
additional steps (they are not fatal when a plan is scored), and then, for each additional step left,
the first single candidate change that removes it without breaking the plan is added (e.g. UNFREEZE of
an object the annotator saw frozen): status ``additional_steps`` if some remain. Tasks whose gold plan
cannot succeed whatever the values are annotation errors: an unknown action or object name is found
here; the others are listed, with the evidence and a correction, in
``tools/convert/behavior_annotation_errors.py``, and each listed correction is checked to succeed.
Usage: python -m tools.convert.behavior_calibration [--max-changes N (default 3)] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import deque

from eai_gym.core import Episode, ErrorType
from eai_gym.envs.behavior.calibration import apply_changes, corrected_plan
from eai_gym.envs.behavior.state import NEXTTO, ONFLOOR, UNDER, BehaviorState
from eai_gym.envs.behavior.tasks import _scene, goal_conditions, initial_state, task_ids, task_record
from eai_gym.envs.behavior.world import BehaviorWorld
from eai_gym.logic.bddl import literal_parts
from tools.common import PACKAGE_DATA
from tools.convert.behavior_annotation_errors import ANNOTATION_ERRORS

CHANGEABLE = ("Open", "Dusty", "Stained", "Frozen", "Cooked", "Soaked", "ToggledOn", "Sliced", "Burnt")
OUT = os.path.join(PACKAGE_DATA, "behavior", "calibration.json")


def stated(rec: dict, names: dict[str, str]) -> set[tuple[str, str]]:
    from eai_gym.envs.behavior.tasks import UNARY
    out = set()
    for lit in rec["init_bddl"]:
        if lit[0] == "not" and len(lit) == 3:
            out.add((names.get(lit[2], lit[2]), UNARY.get(lit[1], lit[1])))
        elif len(lit) == 2:
            out.add((names.get(lit[1], lit[1]), UNARY.get(lit[0], lit[0])))
    return out


def first_problem(world: BehaviorWorld, task_id: str, state: BehaviorState, plan: list[dict]) -> str:
    """What goes wrong first when the gold plan is replayed from ``state`` (for the report)."""
    ep = Episode(world, task_id, state)
    for i, a in enumerate(plan):
        objs = tuple(o.strip() for o in str(a.get("object", "")).split(","))
        step = ep.step_action(world.resolve(a["action"], objs, state))
        if not step.ok:
            return f"step {i} {a['action']}({a['object']}): {step.error.value}: {step.message}"
    status = world.goal_status(ep.trajectory, goal_conditions(task_id))
    return "the plan executes but the goal is not reached; unsatisfied: " + "; ".join(
        " ".join(map(str, terms)) for _, terms in status.unsatisfied)


def replay(world: BehaviorWorld, task_id: str, state: BehaviorState, plan: list[dict], lenient: bool = False):
    """``(first failing step index or None, involved objects, unsatisfied-goal objects, hard error)``.
    With ``lenient``, additional steps (not fatal when a plan is scored) are not failures."""
    ep = Episode(world, task_id, state)
    for i, a in enumerate(plan):
        objs = tuple(o.strip() for o in str(a.get("object", "")).split(","))
        try:
            action = world.resolve(a.get("action"), objs, state)
        except Exception as e:  # an annotation error: no value can fix it
            return i, set(), set(), f"step {i} {a}: {e}"
        before = ep.state
        step = ep.step_action(action)
        if not step.ok and not (lenient and step.error == ErrorType.ADDITIONAL_STEP):
            return i, involved_objects(before, objs), set(), None
    conds = goal_conditions(task_id)
    sat = world.satisfied(ep.state, conds, state.scene.bddl_to_name)
    if all(sat):
        return None, set(), set(), None
    names = state.scene.bddl_to_name
    wanted: set = set()
    for c, ok in zip(conds, sat):
        if not ok:
            for opt in c.options:
                for lit in opt:
                    neg, pred, args = literal_parts(lit)
                    wanted |= {names[a] for a in args if a in names}
                    if not neg and pred in _RELATIONS and len(args) == 2 and all(a in names for a in args):
                        wanted.add((names[args[0]], _RELATIONS[pred], names[args[1]], True))
    return len(plan), set(), wanted, None


_RELATIONS = {"nextto": NEXTTO, "under": UNDER, "onfloor": ONFLOOR}


def involved_objects(state: BehaviorState, objs) -> set[str]:
    """A step's objects, the objects in the hands, and their containers."""
    involved = set(objs) | {h for h in state.hands if h}
    for o in list(involved):
        involved |= {p for _, p, _ in state.ancestors(o)}
    return involved


def additional_steps(world: BehaviorWorld, task_id: str, state: BehaviorState, plan: list[dict]) -> list[tuple]:
    """``(step index, involved objects)`` of each additional step of a plan that otherwise executes."""
    ep = Episode(world, task_id, state)
    out = []
    for i, a in enumerate(plan):
        objs = tuple(o.strip() for o in str(a.get("object", "")).split(","))
        before = ep.state
        step = ep.step_action(world.resolve(a["action"], objs, state))
        if step.error == ErrorType.ADDITIONAL_STEP:
            out.append((i, involved_objects(before, objs)))
    return out


def candidates(base: BehaviorState, fixed: set, changes: tuple, involved: set, wanted: set,
               order: dict[str, int]) -> list[tuple]:
    """Single changes to try next: wanted relations, then unstated values of the objects."""
    scene = base.scene
    cands: list[tuple] = [w for w in sorted(wanted, key=str) if isinstance(w, tuple)
                          and (w[0], w[2]) not in base.edges]
    objects = {o for o in involved | wanted if isinstance(o, str)}
    for obj in sorted(objects, key=lambda n: order.get(n, 10**6)):
        for key in CHANGEABLE:
            if key in scene.objects[obj].keys and (obj, key) not in fixed and all(c[:2] != (obj, key) for c in changes):
                cands.append((obj, key, not base.values[obj][key]))
    return cands


def search(world: BehaviorWorld, task_id: str, base: BehaviorState, fixed: set, plan: list[dict],
           max_changes: int, lenient: bool):
    """Breadth-first search for the smallest set of changes: ``(changes | None, hard error | None)``."""
    order = {n: i for i, n in enumerate(base.scene.order)}
    queue: deque[tuple[tuple, ...]] = deque([()])
    seen = {()}
    while queue:
        changes = queue.popleft()
        step, involved, wanted, hard = replay(world, task_id, apply_changes(base, changes), plan, lenient)
        if hard is not None:
            return None, hard
        if step is None:
            return changes, None
        if len(changes) >= max_changes:
            continue
        for c in candidates(base, fixed, changes, involved, wanted, order):
            nxt = tuple(sorted(changes + (c,), key=lambda x: (order.get(x[0], 10**6), x[1], str(x[2:]))))
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return None, None


def remove_additional_steps(world: BehaviorWorld, task_id: str, base: BehaviorState, fixed: set,
                            plan: list[dict], changes: tuple) -> tuple:
    """Greedily add, for each additional step in plan order, the first single change (same candidates
    as the search) that leaves fewer additional steps and keeps the plan executing to its goal."""
    order = {n: i for i, n in enumerate(base.scene.order)}
    extra = additional_steps(world, task_id, apply_changes(base, changes), plan)
    skipped: set[int] = set()
    while True:
        todo = [(i, inv) for i, inv in extra if i not in skipped]
        if not todo:
            return changes
        i, involved = todo[0]
        for c in candidates(base, fixed, changes, involved, set(), order):
            trial = changes + (c,)
            state = apply_changes(base, trial)
            if replay(world, task_id, state, plan, lenient=True)[0] is None:
                now = additional_steps(world, task_id, state, plan)
                if len(now) < len(extra):
                    changes, extra = trial, now
                    break
        else:
            skipped.add(i)


def calibrate_task(world: BehaviorWorld, task_id: str, max_changes: int) -> dict:
    result = _calibrate(world, task_id, max_changes)
    known = ANNOTATION_ERRORS.get(task_id)
    if known is None:
        return result
    if result["status"] not in ("unresolved", "annotation_error"):
        raise SystemExit(f"{task_id} is listed as an annotation error but calibrates: {result}")
    rec = task_record(task_id)
    state = initial_state(rec, _scene(rec, category_abilities=True))
    plan = corrected_plan(rec["gold_plan"], known["correction"])
    if replay(world, task_id, state, plan, lenient=True)[0] is not None:
        raise SystemExit(f"the correction listed for {task_id} does not make its gold plan succeed")
    return {"changes": [], "status": "annotation_error", "reason": known["reason"],
            "correction": known["correction"], "first_failure": result["reason"]}


def _calibrate(world: BehaviorWorld, task_id: str, max_changes: int) -> dict:
    rec = task_record(task_id)
    scene = _scene(rec, category_abilities=True)
    base = initial_state(rec, scene)
    fixed = stated(rec, scene.bddl_to_name)
    plan = rec["gold_plan"]
    changes, hard = search(world, task_id, base, fixed, plan, max_changes, lenient=False)
    if hard is not None:
        return {"changes": [], "status": "annotation_error", "reason": hard}
    if changes is not None:
        return {"changes": [list(c) for c in changes], "status": "ok"}
    changes, _ = search(world, task_id, base, fixed, plan, max_changes, lenient=True)
    if changes is not None:
        order = {n: i for i, n in enumerate(scene.order)}
        changes = remove_additional_steps(world, task_id, base, fixed, plan, changes)
        changes = tuple(sorted(changes, key=lambda x: (order.get(x[0], 10**6), x[1], str(x[2:]))))
        left = additional_steps(world, task_id, apply_changes(base, changes), plan)
        if not left:
            return {"changes": [list(c) for c in changes], "status": "ok"}
        return {"changes": [list(c) for c in changes], "status": "additional_steps",
                "reason": "executes and reaches the goal; additional steps left: " + ", ".join(
                    f"step {i} {plan[i]['action']}({plan[i]['object']})" for i, _ in left)}
    return {"changes": [], "status": "unresolved",
            "reason": f"no set of at most {max_changes} changes makes the gold plan succeed; with the "
                      f"defaults: {first_problem(world, task_id, base, plan)}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-changes", type=int, default=3)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args(argv)
    world = BehaviorWorld("fixed")
    result = {}
    for tid in task_ids():
        result[tid] = calibrate_task(world, tid, args.max_changes)
    with open(args.out, "w") as f:
        json.dump({"rule": "smallest set of unstated initial values (BFS, see tools/convert/behavior_calibration.py) "
                           "that makes the gold plan execute without error and reach the goal (fixed protocol); "
                           "else with additional steps, then values that remove them; annotation errors from "
                           "tools/convert/behavior_annotation_errors.py, their corrections checked",
                   "tasks": result}, f, indent=1, sort_keys=True)
        f.write("\n")
    counts: dict[str, int] = {}
    for r in result.values():
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    n_changes = sum(len(r["changes"]) for r in result.values())
    print(f"{len(result)} tasks: {counts}; {n_changes} values set in "
          f"{sum(1 for r in result.values() if r['changes'])} tasks")
    for tid, r in result.items():
        if r["status"] != "ok":
            print(f"  {tid}: {r['status']}: {r['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The length of the subgoal translator's shortest plan from a state to a task's goal.

The subgoal plan is the one read off the task's gold action plan (:func:`.subgoals.gold_subgoal_plan`);
the translator (:func:`.subgoals.search`, fixed protocol) turns it into actions from the given state and
the shortest branch that reaches the goal is the plan. None when no branch reaches it (the progress
measure then falls back to the share of goal conditions).
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from ...logic import tl, tl_paths
from .goals import GoalCrash
from .state import BehaviorState
from .subgoals import STATE_PARAMS, VOCAB_ACTIONS, SubgoalCrash, Translator, choose, gold_subgoal_plan, search, tl_name
from .tasks import task_record
from .world import BehaviorWorld

MAX_PATHS = 16


_PLANS: dict[tuple[str, int], tuple[Any, tuple, Translator]] = {}


def _plan(task_id: str, scene: Any) -> tuple[tuple, Translator]:
    hit = _PLANS.get((task_id, id(scene)))
    if hit is not None and hit[0] is scene:
        return hit[1], hit[2]
    named = [n for n in scene.order if scene.objects[n].bddl]
    categories = sorted({"_".join(scene.objects[n].bddl.split("_")[:-1]).replace(".", "_") for n in named})
    formula = tl.parse(" then ".join(gold_subgoal_plan(task_record(task_id))), list(STATE_PARAMS) + categories,
                       VOCAB_ACTIONS)
    paths = tuple(islice(tl_paths.iter_subgoal_paths(formula), MAX_PATHS))
    translator = Translator(False, {tl_name(n).replace("t-shirt", "shirt"): n for n in named})
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[(task_id, id(scene))] = (scene, paths, translator)
    return paths, translator


def shortest_plan_length(world: BehaviorWorld, task: Any, state: BehaviorState) -> int | None:
    scene = state.scene

    def goal(s: Any) -> bool:
        return all(world.satisfied(s, task.goal, scene.bddl_to_name))

    try:
        paths, translator = _plan(task.id, scene)
        results = [search(world, state, p, goal, translator) for p in paths]
    except (tl.TLError, SubgoalCrash, GoalCrash, ValueError, NotImplementedError, RecursionError):
        return None
    best, ok = choose([b for r in results for b in r[1]], [b for r in results for b in r[2]])
    return len(best.steps) if best is not None and ok else None

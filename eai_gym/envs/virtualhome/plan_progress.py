"""The length of the subgoal translator's shortest plan from a state to a task's goal.

The task's goal (its ``tl_goal``) is the subgoal plan; the translator (:func:`.subgoals.search`) turns it
into actions from the given state, over at most ``MAX_PATHS`` ways through its ``or`` choices, and the
shortest branch that reaches the goal is the plan. None when the task has no ``tl_goal`` or no branch
reaches it (the progress measure then falls back to the share of goal propositions).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice
from typing import Any

from ...core import WorldState
from ...logic import tl, tl_paths
from .subgoals import SubgoalCrash, choose, search, vocabulary
from .world import VirtualHomeWorld

MAX_PATHS = 16


@lru_cache(maxsize=512)
def _goal_paths(tl_goal: str) -> tuple[Any, tuple]:
    v = vocabulary()
    goal = tl.parse(tl_goal, v["tl_predicates"], list(v["subgoal_actions"]))
    paths = [tuple(g for g in p if isinstance(g, tl.Primitive)) for p in islice(tl_paths.iter_subgoal_paths(goal), MAX_PATHS)]
    return goal, tuple(paths)


def shortest_plan_length(world: VirtualHomeWorld, tl_goal: str | None, state: WorldState) -> int | None:
    if not tl_goal:
        return None
    try:
        goal, paths = _goal_paths(tl_goal)
        results = [search(world, state, list(p), goal) for p in paths]
    except (tl.TLError, SubgoalCrash, ValueError, NotImplementedError):
        return None
    best, ok = choose([b for r in results for b in r[1]], [b for r in results for b in r[2]])
    return len(best.actions) if best is not None and ok else None

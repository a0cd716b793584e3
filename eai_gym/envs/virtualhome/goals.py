"""Goal checking for VirtualHome tasks: node (state) goals, edge (relation) goals, action goals.

Two protocols:

* ``eai-1.0.5`` reproduces ``scene_evaluate_wID``: at most one edge goal is ever counted (the loop
  stops at the first satisfied one), and action goals are taken in the evaluator's hash order and
  found by substring search in the executed script text.
* ``fixed`` counts every satisfied edge goal and matches action goals, in their annotated order,
  against the names of the executed actions.

In both, action goals are an ordered sequence: each must occur after the previous match, and
counting stops at the first goal not found. A node goal on an object absent from the state is
neither matched nor unsatisfied (the reference skips it).
"""

from __future__ import annotations

from typing import Sequence

from ...core import Action, GoalStatus, WorldState
from .actions import to_script
from .tasks import VirtualHomeGoal


def node_goal_results(state: WorldState, goal: VirtualHomeGoal) -> tuple[int, list[dict]]:
    matched, unsatisfied = 0, []
    for g in goal.node_goals:
        if g["id"] not in state.scene.objects:
            continue
        if g["state"] in state.states(g["id"]):
            matched += 1
        else:
            unsatisfied.append(g)
    return matched, unsatisfied


def edge_goal_results(state: WorldState, goal: VirtualHomeGoal, protocol: str) -> tuple[int, list[dict]]:
    matched, unsatisfied = 0, []
    for g in goal.edge_goals:
        if state.has_edge(g["from_id"], g["relation_type"], g["to_id"]):
            matched += 1
            if protocol == "eai-1.0.5":
                break
        else:
            unsatisfied.append(g)
    return matched, unsatisfied


def action_goal_results(executed: Sequence[Action], goal: VirtualHomeGoal, protocol: str) -> tuple[int, list[str]]:
    if protocol == "eai-1.0.5":
        goals = goal.action_goals_reference_order
        text = " ".join(to_script(a) for a in executed)
        start, matched = 0, 0
        for g in goals:
            hit = -1
            for option in g.split("|"):
                option = option.upper().replace(" ", "")
                hit = text.find(option, start)
                if hit != -1:
                    start = hit + len(option)
                    break
            if hit == -1:
                return matched, [g]
            matched += 1
        return matched, []
    names = [a.name for a in executed]
    pos, matched = 0, 0
    for g in goal.action_goals:
        options = {o.strip().upper() for o in g.split("|")}
        nxt = next((i for i in range(pos, len(names)) if names[i] in options), None)
        if nxt is None:
            return matched, [g]
        matched += 1
        pos = nxt + 1
    return matched, []


def evaluate_goals(state: WorldState, goal: VirtualHomeGoal, executed: Sequence[Action],
                   protocol: str, with_actions: bool = True) -> GoalStatus:
    """Score ``state`` (and the executed actions) against ``goal``.

    ``with_actions=False`` ignores the action goals (the evaluator's gold test on the final graph).
    """
    n_m, n_u = node_goal_results(state, goal)
    e_m, e_u = edge_goal_results(state, goal, protocol)
    n_goals, e_goals = len(goal.node_goals), len(goal.edge_goals)
    a_goals = len(goal.action_goals) if with_actions else 0
    a_m, a_u = action_goal_results(executed, goal, protocol) if a_goals else (0, [])
    parts = {"node": (n_m, n_goals), "edge": (e_m, e_goals), "action": (a_m, a_goals)}
    success = n_m == n_goals and e_m == e_goals and a_m == a_goals
    return GoalStatus(success=success, parts=parts,
                      unsatisfied=[("node", g) for g in n_u] + [("edge", g) for g in e_u]
                      + [("action", g) for g in a_u])

"""The goal counts of BEHAVIOR's subgoal-decomposition scorer: each goal condition's state and relation parts
(eai-eval 1.0.5's ``goal_eval_stats``), and the counts the reference uses for a task without goal information
(the summary itself is EAI's, :mod:`eai_gym.eai.behavior_subgoal_summary`)."""

from __future__ import annotations

from typing import Sequence

from ...envs.behavior.subgoals import STATE_PARAMS
from ...envs.behavior.tasks import goal_conditions, task_record

#: Per activity, ``(state goals, relation goals, satisfied state goals, satisfied relation goals)``
#: in the initial state as eai-eval 1.0.5 ships them (``resources/error_list_dict.json``, computed with
#: iGibson's sampled scenes), where they differ from "nothing satisfied" for the task's goal; the
#: rearranging_furniture entry comes from an older BDDL goal with a fourth (touching) condition.
REFERENCE_INITIAL_GOALS: dict[str, tuple[float, float, float, float]] = {
    "bottling_fruit": (3, 2, 1, 0), "cleaning_bedroom": (1, 5, 0, 1), "cleaning_closet": (3, 4, 0, 1),
    "cleaning_garage": (3, 2, 1, 0), "cleaning_shoes": (2, 1, 0, 1), "cleaning_sneakers": (2, 6, 0, 2),
    "cleaning_the_hot_tub": (1, 1, 0, 1), "cleaning_the_pool": (1, 3, 0, 2), "cleaning_toilet": (1, 2, 0, 2),
    "cleaning_up_after_a_meal": (7, 2, 2, 0), "cleaning_up_refrigerator": (4, 4, 0, 1),
    "cleaning_up_the_kitchen_only": (2, 6, 0, 1), "defrosting_freezer": (1, 6, 0, 1),
    "filling_an_Easter_basket": (0, 6, 0, 1), "organizing_boxes_in_garage": (0, 2, 0, 1),
    "packing_bags_or_suitcase": (0, 6, 0, 1), "packing_food_for_work": (0, 5, 0, 1),
    "picking_up_take-out_food": (0, 3, 0, 2), "polishing_silver": (4, 5, 0, 4),
    "preparing_a_shower_for_child": (0, 3, 0, 2), "re-shelving_library_books": (0, 8, 0, 4),
    "rearranging_furniture": (0, 4, 0, 0), "serving_hors_d_oeuvres": (0, 4, 0, 1),
    "unpacking_suitcase": (0, 5, 0, 1),
}


def condition_weights(terms: Sequence[str]) -> tuple[float, float]:
    """``(state part, relation part)`` of one goal condition, from the predicates among its terms."""
    node = edge = False
    for t in terms:
        n = STATE_PARAMS.get("toggledon" if t == "toggled_on" else t)
        node, edge = node or n == 1, edge or n == 2
    if node and edge:
        return 0.5, 0.5
    return (0.0, 1.0) if edge else (1.0, 0.0) if node else (0.0, 0.0)


def goal_counts(conditions: Sequence[Sequence[str]], satisfied: Sequence[bool]) -> dict[str, float]:
    """State/relation goal totals and satisfied parts for conditions (their terms) and their status."""
    c = {"node_total": 0.0, "edge_total": 0.0, "node_satisfied": 0.0, "edge_satisfied": 0.0}
    for terms, ok in zip(conditions, satisfied):
        n, e = condition_weights(terms)
        c["node_total"] += n
        c["edge_total"] += e
        if ok:
            c["node_satisfied"] += n
            c["edge_satisfied"] += e
    return c


def reference_initial_counts(task_id: str) -> dict[str, float]:
    """The goal counts eai-eval 1.0.5 uses for a task without goal information."""
    row = REFERENCE_INITIAL_GOALS.get(task_record(task_id)["task"])
    if row is not None:
        return dict(zip(("node_total", "edge_total", "node_satisfied", "edge_satisfied"), map(float, row)))
    conds = goal_conditions(task_id)
    return goal_counts([c.terms for c in conds], [False] * len(conds))

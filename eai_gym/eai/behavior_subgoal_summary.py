"""The EAI subgoal-decomposition summary (BEHAVIOR), from scored records.

eai-eval 1.0.5's definitions (``subgoal_eval_utils.traj_eval_stats`` / ``goal_eval_stats``), fractions of
the number of tasks rounded to 4 decimals: executable = GoalUnreachable + Correct + Runtime with every
subgoal executed; ``hallucination`` excludes wrong parameter counts (``predicate_argument_number``); the
runtime error rates count the errors of the reported branch of Runtime and Correct tasks (an additional
step at most once per task). Goal rates are micro-averages over goal conditions: a condition naming
only unary states counts as one state goal, only relations as one relation goal, both as half of each;
a task without goal information (not parsed, hallucinated) counts with its goal conditions as they
stand in the initial state (the counts the world's scorer gives: ``fallback``). ``action_goal`` is always 0.
Pure functions of the records: no world is imported here.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from .subgoal_summary import count_categories, frac, trajectory_summary


def summarize_behavior_subgoal(records: Iterable[dict], fallback: Callable[[str], dict],
                               all_task_ids: Sequence[str] | None = None) -> dict:
    """The reference summary over scored records (one per task); ``fallback(task_id)``: the goal counts of a task
    whose record has none (the world's scorer knows them). With ``all_task_ids``, every task without a record
    counts as not parsed, as eai-eval counts the tasks its LLM file lacks."""
    recs = list(records)
    if all_task_ids is not None:
        have = {r["task_id"] for r in recs}
        recs += [{"task_id": t, "category": "NotParseable", "success": False, "goal": None}
                 for t in all_task_ids if t not in have]
    n = len(recs)
    c = count_categories(recs, lambda r: bool((r.get("hallucination_flags") or {}).get("IncorrectParamLength")))
    g = dict.fromkeys(("node_total", "edge_total", "node_satisfied", "edge_satisfied"), 0.0)
    for r in recs:
        goal = r.get("goal") or fallback(r["task_id"])
        for k in g:
            g[k] += goal[k]

    return {
        "trajectory_evaluation": trajectory_summary(c, n, ("wrong_order", "missing_step", "affordance",
                                                           "additional_step")),
        "goal_evaluation": {
            "task_success_rate": frac(c["success"], n),
            "state_goal": frac(g["node_satisfied"], g["node_total"]),
            "relation_goal": frac(g["edge_satisfied"], g["edge_total"]),
            "action_goal": 0,
            "total_goal": frac(g["node_satisfied"] + g["edge_satisfied"], g["node_total"] + g["edge_total"]),
        },
    }

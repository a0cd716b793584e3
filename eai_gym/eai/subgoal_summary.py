"""The EAI subgoal-decomposition summary (VirtualHome; the category counts are shared with BEHAVIOR), from scored records.

Fractions of the number of scored tasks, rounded to 4 decimals, with eai-eval's definitions:
executable = GoalUnreachable + Correct + Runtime with every subgoal executed; ``hallucination``
excludes wrong parameter counts (``predicate_argument_number``); the runtime error rates count the
errors of the reported branch of Runtime and Correct tasks (an additional step at most once per task);
goal rates are micro-averages, a task without goal counts contributing its goal totals (given by the world's
scorer: ``task_totals``) and no success. Pure functions of the records: no world is imported here.
"""

from __future__ import annotations

from typing import Callable, Iterable, Sequence


def frac(a: float, b: float) -> float:
    return round(a / b, 4) if b > 0 else 0


def count_categories(recs: list[dict], wrong_param_count: Callable[[dict], bool]) -> dict[str, int]:
    """Per-category counts over scored records (both worlds): parsing, hallucination (and how many
    of those are ``wrong_param_count``), executable, the runtime errors of the reported branch (an
    additional step at most once per task) and successes."""
    c = dict.fromkeys(("parsing", "halluc", "param", "executable", "missing", "additional", "afford", "order",
                       "success"), 0)
    for r in recs:
        cat = r["category"]
        c["success"] += bool(r["success"])
        if cat == "NotParseable":
            c["parsing"] += 1
        elif cat == "Hallucination":
            c["halluc"] += 1
            c["param"] += bool(wrong_param_count(r))
        elif cat == "GoalUnreachable":
            c["executable"] += 1
        else:
            c["executable"] += cat == "Correct" or bool(r.get("executable"))
            additional = False
            for e in r.get("errors", ()):
                for t in e["error_type"]:
                    t = t.lower()
                    if "missing_step" in t:
                        c["missing"] += 1
                    elif "additional_step" in t:
                        c["additional"] += not additional
                        additional = True
                    elif "affordance" in t:
                        c["afford"] += 1
                    elif "wrong_temporal_order" in t:
                        c["order"] += 1
    return c


def trajectory_summary(c: dict[str, int], n: int, runtime_order: Sequence[str]) -> dict:
    """The ``trajectory_evaluation`` part of the summary; ``runtime_order`` orders its runtime keys
    as the reference prints them."""
    runtime = {"wrong_order": frac(c["order"], n), "missing_step": frac(c["missing"], n),
               "affordance": frac(c["afford"], n), "additional_step": frac(c["additional"], n)}
    return {
        "execution_success_rate": frac(c["executable"], n),
        "grammar_error": {"parsing": frac(c["parsing"], n), "hallucination": frac(c["halluc"] - c["param"], n),
                          "predicate_argument_number": frac(c["param"], n)},
        "runtime_error": {k: runtime[k] for k in runtime_order},
    }


def _vh_wrong_param_count(r: dict) -> bool:
    flags = r.get("hallucination_flags") or {}
    return r.get("hallucination") != "UnknownPrimitive" and bool(flags.get("IncorrectParamLength"))


def summarize_subgoal(records: Iterable[dict], task_totals: Callable[[str], tuple[int, int, int]]) -> dict:
    """The VirtualHome summary of scored records; ``task_totals(task_id)`` gives the (node, edge, action) goal counts
    of a task whose record has no goal counts."""
    recs = list(records)
    n = len(recs)
    c = count_categories(recs, _vh_wrong_param_count)
    g = {k: 0 for k in ("node_tot", "node_ok", "edge_tot", "edge_ok", "action_tot", "action_ok", "full_tot",
                        "full_ok")}
    for r in recs:
        goal = r.get("goal")
        if goal is not None:
            for key, name in (("node", "node"), ("edge", "edge"), ("action", "action"), ("full", "full")):
                g[key + "_tot"] += goal[f"{name}_tot_num"]
                g[key + "_ok"] += goal[f"{name}_success_num"]
        else:
            nodes, edges, actions = task_totals(r["task_id"])
            g["node_tot"] += nodes
            g["edge_tot"] += edges
            g["action_tot"] += actions
            g["full_tot"] += nodes + edges + actions

    return {
        "trajectory_evaluation": trajectory_summary(c, n, ("wrong_order", "missing_step", "additional_step",
                                                           "affordance")),
        "goal_evaluation": {
            "task_success_rate": frac(c["success"], n),
            "state_goal": round(g["node_ok"] / g["node_tot"], 4) if g["node_tot"] else 0,
            "relation_goal": round(g["edge_ok"] / g["edge_tot"], 4) if g["edge_tot"] else 0,
            "action_goal": round(g["action_ok"] / g["action_tot"], 4) if g["action_tot"] else 0,
            "overall_goal": round(g["full_ok"] / g["full_tot"], 4) if g["full_tot"] else 0,
        },
    }

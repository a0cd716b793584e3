"""The EAI action-sequencing summary: per-item counts in, the reference's summary dict out.

Each scored item contributes a ``counts`` dict (what it adds to the evaluator's counters); the
summary divides the sums by ``program_num`` (items whose task passed the gold test) or by the goal
totals, as percentages. ``protocol="eai-1.0.5"`` rounds the execution success rate to one decimal as
the reference does; ``"fixed"`` rounds every rate to four. A rate whose denominator is zero is
``None`` (the reference raises ZeroDivisionError and writes no summary at all).
"""

from __future__ import annotations

from typing import Iterable

COUNTER_KEYS = (
    "program_num", "all_parsing_wrong", "all_hallucination", "all_parameter_wrong",
    "all_executable_plan", "all_correct_plan", "all_matched_node", "all_matched_edge",
    "all_matched_action", "all_matched_all", "all_node_goals", "all_edge_goals",
    "all_action_goals", "all_goals",
)
ERROR_CODES = ("0", "1", "2", "4")  # wrong order, missing step, affordance, additional step


def empty_counts() -> dict:
    c: dict = {k: 0 for k in COUNTER_KEYS}
    c["error_code_to_number"] = {k: 0 for k in ERROR_CODES}
    return c


def add_counts(total: dict, delta: dict) -> None:
    for k in COUNTER_KEYS:
        total[k] += delta.get(k, 0)
    for k in ERROR_CODES:
        total["error_code_to_number"][k] += delta.get("error_code_to_number", {}).get(k, 0)


def _rate(num: int, den: int, digits: int) -> float | None:
    return None if den == 0 else round(100.0 * num / den, digits)


def summarize(counts: Iterable[dict], protocol: str = "fixed") -> tuple[dict, dict]:
    """Return ``(summary, counters)`` in the layout of eai-eval's ``summary.json``."""
    c = empty_counts()
    for d in counts:
        add_counts(c, d)
    p = c["program_num"]
    codes = c["error_code_to_number"]
    exec_digits = 1 if protocol == "eai-1.0.5" else 4
    summary = {
        "goal_evaluation": {
            "task_success_rate": _rate(c["all_correct_plan"], p, 4),
            "state_goal": _rate(c["all_matched_node"], c["all_node_goals"], 4),
            "relation_goal": _rate(c["all_matched_edge"], c["all_edge_goals"], 4),
            "action_goal": _rate(c["all_matched_action"], c["all_action_goals"], 4),
            "total_goal": _rate(c["all_matched_all"], c["all_goals"], 4),
        },
        "trajectory_evaluation": {
            "execution_success_rate": _rate(c["all_executable_plan"], p, exec_digits),
            "grammar_error": {
                "parsing": _rate(c["all_parsing_wrong"], p, 4),
                "hallucination": _rate(c["all_hallucination"], p, 4),
                "predicate_argument_number": _rate(c["all_parameter_wrong"], p, 4),
            },
            "runtime_error": {
                "wrong_order": _rate(codes["0"], p, 4),
                "missing_step": _rate(codes["1"], p, 4),
                "affordance_error": _rate(codes["2"], p, 4),
                "additional_step": _rate(codes["4"], p, 4),
            },
        },
    }
    return summary, c


# ------------------------------------------------------------------ BEHAVIOR
#: error names of eai-gym → the keys eai-eval's BEHAVIOR evaluator counts them under
BEHAVIOR_ERROR_KEYS = {
    "parsing": "parsing", "hallucination": "hallucination", "arguments": "predicate_argument_number",
    "wrong_order": "wrong_order", "missing_step": "missing_step", "affordance": "affordance",
    "additional_step": "additional_step",
}
BEHAVIOR_COUNTS = ("tot_predicates", "tot_edge_predicates", "tot_node_predicates", "satisfied_predicates",
                   "satisfied_edge_predicates", "satisfied_node_predicates")
#: the record fields :func:`summarize_behavior` reads
BEHAVIOR_SUMMARY_FIELDS = ("execution_success", "error_types", "all_goal_satisfied", *BEHAVIOR_COUNTS)


def summarize_behavior(records: Iterable[dict]) -> dict:
    """eai-eval's BEHAVIOR action-sequencing summary (fractions, 4 decimals) over scored records
    (each with ``execution_success``, ``error_types``, ``all_goal_satisfied`` and the predicate
    counts). Rates over zero tasks or zero predicates are 0, as in the reference."""
    recs = list(records)
    n = len(recs)
    tot = {k: sum(r[k] for r in recs) for k in BEHAVIOR_COUNTS}
    errs = {k: sum(1 for r in recs if k in r["error_types"]) for k in BEHAVIOR_ERROR_KEYS}

    def rate(num: float, den: float) -> float:
        return round(num / den, 4) if den else 0

    return {
        "goal_evaluation": {
            "task_success_rate": rate(sum(bool(r["all_goal_satisfied"]) for r in recs), n),
            "state_goal": rate(tot["satisfied_node_predicates"], tot["tot_node_predicates"]),
            "relation_goal": rate(tot["satisfied_edge_predicates"], tot["tot_edge_predicates"]),
            "action_goal": 0,
            "total_goal": rate(tot["satisfied_predicates"], tot["tot_predicates"]),
        },
        "trajectory_evaluation": {
            "execution_success_rate": rate(sum(bool(r["execution_success"]) for r in recs), n),
            "grammar_error": {
                "parsing": rate(errs["parsing"], n),
                "hallucination": rate(errs["hallucination"], n),
                "predicate_argument_number": rate(errs["arguments"], n),
            },
            "runtime_error": {
                "wrong_order": rate(errs["wrong_order"], n),
                "missing_step": rate(errs["missing_step"], n),
                "affordance": rate(errs["affordance"], n),
                "additional_step": rate(errs["additional_step"], n),
            },
        },
    }

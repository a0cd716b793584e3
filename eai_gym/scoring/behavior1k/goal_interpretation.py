"""Offline goal-interpretation scorer for BEHAVIOR-1K: EAI's BEHAVIOR scoring against each activity's ``:goal``.

An item is ``{"identifier": activity, "llm_output": reply}``; the reply is EAI's BEHAVIOR format
(``{"node goals": [["cooked", "apple.n.01_1"], ["not", ["open", "jar.n.01_1"]]], "edge goals":
[["inside", "apple.n.01_1", "jar.n.01_1"]]}``, conditions over the activity's instance names). The gold of an
activity is its ``:goal`` grounded as EAI grounds BEHAVIOR goals for this module
(:mod:`eai_gym.envs.behavior1k.interpretation`); node goals are bddl 3.6.0's unary predicates, edge goals its
binary ones. Scoring, per-item records, the per-activity ``detail`` and the summary (``overall``,
``state_goal``, ``relation_goal``, ``grammatical_errors``, over all 1,016 activities: an activity without an
item predicts nothing) are eai-eval 1.0.5's, shared with the BEHAVIOR world
(:mod:`eai_gym.eai.behavior_goals`); so are the protocols (``eai-1.0.5`` flattens every value of the
reply, ``fixed`` only list values). A bad item gives ``status: "invalid_input"`` with a message.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from ...eai import behavior_goals as G
from ..jobs import Jobs

PROTOCOLS = ("fixed", "eai-1.0.5")


@lru_cache(maxsize=1)
def goal_set() -> G.GoalSet:
    """The 1,016 activities as the scorer sees them (built on first use: it reads the packaged data)."""
    from ...envs.behavior1k import interpretation as I
    from ...envs.behavior1k.data import activity_names

    return G.GoalSet(activity_names, I.gold_conditions, I.legal_objects, I.node_states(), I.edge_states(),
                     "one of the 1,016 BEHAVIOR-1K activities")


def score_item(item: Any, protocol: str = "fixed") -> dict[str, Any]:
    """One item's record (see :func:`eai_gym.eai.behavior_goals.score_item`); never raises for bad input."""
    return G.score_item(goal_set(), item, protocol)


def final_records(records: list[dict]) -> tuple[list[dict], dict[str, int]]:
    """The record that counts for each activity, in activity order, and how many items had each outcome."""
    return G.final_records(goal_set(), records)


def summarize(records: Iterable[dict], protocol: str = "fixed") -> dict[str, Any]:
    """EAI's BEHAVIOR goal-interpretation summary over the 1,016 activities."""
    return G.summarize(goal_set(), records, protocol)


def gold_items() -> list[dict[str, str]]:
    """Every activity's goal (the first option of each conjunct) written as a reply; each scores perfectly."""
    return G.gold_items(goal_set())


def _score_unit(protocol: str, item: Any) -> dict:
    return score_item(item, protocol)


def _summarize_records(protocol: str, records: list) -> dict:
    return G.summary_and_counters(goal_set(), records, protocol)


def goal_interpretation_jobs(items: list, protocol: str = "fixed") -> Jobs:
    """Jobs for :func:`eai_gym.scoring.runner.run_items`: one unit per item; the summary covers all 1,016."""
    G.check_protocol(protocol)
    jobs = Jobs(_score_unit, list(items), lambda records: _summarize_records(protocol, records),
                G.check_protocol, (protocol,), summary_fields=("counts",), blank=G.not_scored,
                record_fields=("identifier", "status", "counts"))
    return jobs.once_per_identifier(mode="goal_interpretation", protocol=protocol)

"""Offline goal-interpretation scorer for BEHAVIOR (EAI's first module).

An item is ``{"identifier": demo name, "llm_output": reply}``; the reply is read as eai-eval 1.0.5 reads
it (:func:`.eai_goal_output.read_behavior_reply`) and its conditions (``["cooked", "obj"]``,
``["ontop", "a", "b"]``, ``["not", [...]]``) are compared with the demo's gold conditions (for a goal
that can be met several ways, the way with most conditions predicted). ``summarize`` returns the
summary dict of eai-eval 1.0.5 (``overall``, ``state_goal``, ``relation_goal``, ``grammatical_errors``)
over the 100 demos; ``score_item(...)["detail"]`` is its per-demo analysis.

As in the reference, the last item of a demo wins (``eai-1.0.5``; under ``fixed`` the first is scored and a later
one is a ``duplicate_identifier`` record), an unreadable reply predicts nothing, and items of
other identifiers are ignored. Where the reference aborts its whole run — a demo without an item
(KeyError), a reply that is not a string, a condition its helpers cannot index (``[]``, ``["not"]``,
a number), a value that is not iterable — eai-gym scores that demo as predicting nothing and marks it
(``missing`` / ``invalid_input``).

Protocols: ``eai-1.0.5`` flattens every value of the reply into conditions (a string value gives one
condition per character); ``fixed`` reads only list values. The scoring itself is
:mod:`eai_gym.eai.behavior_goals` over this world's :data:`GOALS`.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from ...eai import behavior_goals as G
from ...envs.behavior.tasks import task_ids, task_record
from ..jobs import Jobs

PROTOCOLS = G.PROTOCOLS
NODE_STATES = ("cooked", "dusty", "frozen", "open", "sliced", "soaked", "stained", "toggled_on")
EDGE_STATES = ("inside", "nextto", "onfloor", "ontop", "touching", "under")
check_protocol = G.check_protocol
condition_objects = G.condition_objects
predicted_conditions = G.predicted_conditions
match = G.match


@lru_cache(maxsize=1)
def _gold_data() -> dict:
    ref = resources.files("eai_gym.data") / "behavior" / "goal_interpretation.json.gz"
    with ref.open("rb") as f:
        return json.loads(gzip.decompress(f.read()))["demos"]


def gold_conditions(demo: str) -> dict[str, list]:
    """The demo's gold: per goal conjunct (``"1"``, ``"2"``, ...), its options, each a list of conditions."""
    return _gold_data()[demo]


@lru_cache(maxsize=128)
def legal_objects(demo: str) -> tuple[str, ...]:
    """The BDDL object names of the demo (the names a condition may use)."""
    return tuple(o["bddl"] for o in task_record(demo)["objects"])


#: the 100 demos, their gold (eai-eval 1.0.5's ``all_conditions.json``) and the reference's state lists
GOALS = G.GoalSet(task_ids, gold_conditions, legal_objects, NODE_STATES, EDGE_STATES,
                  "one of the 100 EAI BEHAVIOR demos")


def is_node_condition(c: Any) -> bool:
    return GOALS.is_node_condition(c)


def is_edge_condition(c: Any) -> bool:
    return GOALS.is_edge_condition(c)


def analyse(demo: str, predicted: list) -> tuple[dict, dict]:
    """``(counts, detail)`` of one demo's predicted conditions (see :func:`.eai_behavior_goals.analyse`)."""
    return G.analyse(GOALS, demo, predicted)


def score_item(item: Any, protocol: str = "eai-1.0.5") -> dict[str, Any]:
    """One item's record (see :func:`.eai_behavior_goals.score_item`); never raises for bad input."""
    return G.score_item(GOALS, item, protocol)


def final_records(records: list[dict]) -> tuple[list[dict], dict[str, int]]:
    """The record that counts for each demo, in demo order, and how many items had each outcome."""
    return G.final_records(GOALS, records)


def summarize(records: Iterable[dict], protocol: str = "eai-1.0.5") -> dict[str, Any]:
    """The summary eai-eval 1.0.5 writes to ``summary/<model>_performance_scores.json``."""
    return G.summarize(GOALS, records, protocol)


def gold_reply(demo: str) -> str:
    """The demo's gold (the first way of meeting each goal conjunct) written as a reply."""
    return G.gold_reply(GOALS, demo)


def gold_items() -> list[dict[str, str]]:
    """Every demo's gold conditions as an item (for ``--gold``); each scores perfectly."""
    return G.gold_items(GOALS)


def _score_unit(protocol: str, item: Any) -> dict:
    return score_item(item, protocol)


def _summarize_records(protocol: str, records: list) -> dict:
    return G.summary_and_counters(GOALS, records, protocol)


def goal_interpretation_jobs(items: list, protocol: str = "eai-1.0.5") -> Jobs:
    """Jobs for :func:`eai_gym.scoring.runner.run_items`: one unit per item; the summary covers all 100 demos."""
    check_protocol(protocol)
    jobs = Jobs(_score_unit, list(items), lambda records: _summarize_records(protocol, records),
                check_protocol, (protocol,), summary_fields=("counts",), blank=G.not_scored,
                record_fields=("identifier", "status", "counts"))
    return jobs.once_per_identifier(mode="goal_interpretation", protocol=protocol)

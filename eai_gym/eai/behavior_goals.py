"""EAI's BEHAVIOR goal-interpretation scorer (eai-eval 1.0.5), over any world's gold goals.

A world describes its tasks once as a :class:`GoalSet` — the ids the summary covers, each task's gold (per
top-level goal conjunct, its options: alternative lists of conditions such as ``["cooked", "obj"]``,
``["ontop", "a", "b"]``, ``["not", [...]]``), the object names a condition may use, and its unary (node) and
binary (edge) state names — and the functions here score replies against it exactly as eai-eval 1.0.5's
``behavior_eval/evaluation/goal_interpretation/scripts/evaluate_results.py`` scores BEHAVIOR's 100 demos:
the reply read by :func:`.eai_goal_output.read_behavior_reply`, every value flattened into predicted
conditions (``fixed``: list values only), each conjunct matched by its option with most conditions
predicted, the node/edge split and grammatical checks of its helpers, and its summary dict
(``overall``, ``state_goal``, ``relation_goal``, ``grammatical_errors``) over every task of the set.

As in the reference, the last item of a task wins (under ``fixed`` the jobs score only the first, see
:meth:`eai_gym.scoring.jobs.Jobs.once_per_identifier`), an unreadable reply predicts nothing, and items of other
identifiers are ignored. Where the reference aborts its whole run — a task without an item (KeyError), a reply
that is not a string, a condition its helpers cannot index (``[]``, ``["not"]``, a number), a value that is not
iterable — the task is scored as predicting nothing and marked (``missing`` / ``invalid_input``).
Used by :mod:`eai_gym.scoring.behavior.goal_interpretation` and :mod:`eai_gym.scoring.behavior1k.goal_interpretation`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..scoring.items import item_identifier
from .goal_output import frozen, read_behavior_reply
from .goal_summary import confusion_metrics, rate

PROTOCOLS = ("eai-1.0.5", "fixed")
SECTIONS = (("overall", "overall_confusion_metrics", ""), ("state_goal", "state_goal_confusion_metrics", "node_"),
            ("relation_goal", "relation_goal_confusion_metrics", "edge_"))


@dataclass(frozen=True)
class GoalSet:
    """A world's tasks as the scorer sees them.

    Attributes:
        ids: every task id the summary covers, in the order records are listed.
        gold: a task's gold: ``{conjunct key: [option, ...]}``, an option being a list of conditions.
        legal_objects: the object names a condition of that task may use.
        node_states, edge_states: the lower-case unary and binary state names (the reference's lists).
        what: how a task is named in messages (``"one of the 100 EAI BEHAVIOR demos"``).
    """

    ids: Callable[[], Sequence[str]]
    gold: Callable[[str], Mapping[str, list]]
    legal_objects: Callable[[str], Sequence[str]]
    node_states: tuple[str, ...]
    edge_states: tuple[str, ...]
    what: str

    def known(self, ident: Any) -> bool:
        return isinstance(ident, str) and ident in id_set(self)

    # --- the reference's condition helpers, as operations that raise where its helpers raise ----------
    def kind_is(self, c: Any, states: tuple[str, ...], arity: int) -> bool:
        try:
            return head(c) in states
        except Exception:  # the reference falls back on the length, and may raise again
            return len(c[1]) == arity if c[0] == "not" else len(c) == arity

    def is_node_condition(self, c: Any) -> bool:
        return self.kind_is(c, self.node_states, 2)

    def is_edge_condition(self, c: Any) -> bool:
        return self.kind_is(c, self.edge_states, 3)

    def valid_state(self, c: Any) -> bool:
        return head(c) in self.node_states or head(c) in self.edge_states


@lru_cache(maxsize=8)
def id_set(goals: GoalSet) -> frozenset[str]:
    return frozenset(goals.ids())


@lru_cache(maxsize=1024)
def gold_keys(goals: GoalSet, task: str) -> tuple[tuple[tuple, ...], ...]:
    """Hashable stand-ins of a task's gold options (cached)."""
    return tuple(tuple(tuple(frozen(c) for c in option) for option in options)
                 for options in goals.gold(task).values())


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol


def head(c: Any) -> Any:
    return c[1][0] if c[0] == "not" else c[0]


def correct_length(c: Any) -> bool:
    return len(c[1]) in (2, 3) if c[0] == "not" else len(c) in (2, 3)


def condition_objects(c: Any) -> list:
    """The object names a condition uses, as the reference reads them (raises where it raises)."""
    if c[0] == "not":
        return [c[1][1]] if len(c[1]) == 2 else [c[1][1], c[1][2]] if len(c[1]) == 3 else []
    return [c[1]] if len(c) == 2 else [c[1], c[2]] if len(c) == 3 else []


class ReferenceAbort(Exception):
    """eai-eval 1.0.5 aborts its whole run on this item."""


def predicted_conditions(reply: dict, protocol: str) -> tuple[list, list[str]]:
    """The reply's conditions, and the keys whose values were skipped (``fixed``: values that are not lists)."""
    out: list = []
    skipped: list[str] = []
    for key, value in reply.items():
        if protocol == "fixed" and not isinstance(value, list):
            skipped.append(key)
            continue
        try:
            out.extend(value)
        except TypeError:
            raise ReferenceAbort(f"the value of {key!r} is not a list ({json.dumps(value)})") from None
    return out, skipped


def match(predicted: list, gold: Mapping[str, list], keys: Iterable | None = None) -> tuple[list, list, list]:
    """``(satisfied, unsatisfied, false positives)`` as the reference computes them (its list
    membership tests, done on hashable stand-ins; ``keys``: the stand-ins of ``gold``, if known)."""
    predicted_keys = {frozen(c) for c in predicted}
    if keys is None:
        keys = [[[frozen(c) for c in option] for option in options] for options in gold.values()]
    satisfied, unsatisfied, hit = [], [], set()
    for options, option_keys in zip(gold.values(), keys):
        counts = [sum(1 for k in ks if k in predicted_keys) for ks in option_keys]
        best = counts.index(max(counts))
        for c, k in zip(options[best], option_keys[best]):
            if k in predicted_keys:
                satisfied.append(c)
                hit.add(k)
            else:
                unsatisfied.append(c)
    return satisfied, unsatisfied, [c for c in predicted if frozen(c) not in hit]


def analyse(goals: GoalSet, task: str, predicted: list) -> tuple[dict, dict]:
    """``(counts, detail)`` of one task's predicted conditions: the integer counts the summary adds up
    and the reference's per-demo analysis. Raises :class:`ReferenceAbort` where the reference raises."""
    sat, unsat, fps = match(predicted, goals.gold(task), gold_keys(goals, task))
    legal = goals.legal_objects(task)
    try:
        grammar = [(goals.valid_state(c), correct_length(c), all(o in legal for o in condition_objects(c)))
                   for c in predicted]
        split = {"node_": goals.is_node_condition, "edge_": goals.is_edge_condition}
        lists = {"": (predicted, sat, unsat, fps)}
        for prefix, test in split.items():
            lists[prefix] = tuple([c for c in xs if test(c)] for xs in (predicted, sat, unsat, fps))
    except Exception as e:
        raise ReferenceAbort(f"a predicted condition is not a list the reference can read "
                             f"({type(e).__name__}: {e})") from None
    counts: dict[str, int] = {}
    detail: dict[str, Any] = {}
    for section, metric_key, prefix in SECTIONS:
        p, s, u, f = lists[prefix]
        counts.update({f"{prefix}predicted": len(p), f"{prefix}satisfied": len(s),
                       f"{prefix}unsatisfied": len(u), f"{prefix}false_positive": len(f)})
        detail[section] = {"num_predicted_conditions": len(p), "num_GT_conditions": len(s) + len(u),
                           "num_satisfied_conditions": len(s), "num_unsatisfied_conditions": len(u),
                           "num_false_positive_conditions": len(f),
                           metric_key: {**confusion_metrics(len(s), len(f), len(u)),
                                        "all_satisfied_conditions": s, "all_unsatisfied_conditions": u,
                                        "predicted_conditions": p, "false_positive_conditions": f}}
    counts["valid"] = sum(1 for v, n, o in grammar if v and n and o)
    counts["valid_ignoring_objects"] = sum(1 for v, n, _ in grammar if v and n)
    counts["format_error"] = sum(1 for _, n, _ in grammar if not n)
    counts["state_hallucination"] = sum(1 for v, _, _ in grammar if not v)
    counts["object_hallucination"] = sum(1 for _, _, o in grammar if not o)
    detail["grammatical_errors"] = grammar_summary(counts, "valid", counts["object_hallucination"])
    return counts, detail


def grammar_summary(counts: Mapping[str, int], valid_key: str, objects: int) -> dict[str, Any]:
    n = counts["predicted"]
    return {"grammatically_valid_num": counts[valid_key], "grammatically_valid_rate": rate(counts[valid_key], n),
            "format_error_num": counts["format_error"], "format_error_rate": rate(counts["format_error"], n),
            "state_hallucination_num": counts["state_hallucination"],
            "state_hallucination_rate": rate(counts["state_hallucination"], n),
            "object_hallucination_num": objects, "object_hallucination_rate": rate(objects, n)}


def score_item(goals: GoalSet, item: Any, protocol: str = "eai-1.0.5") -> dict[str, Any]:
    """One item's record: ``status`` (``evaluated``, ``format_error`` — unreadable, predicts nothing —,
    ``ignored`` — not a task of the set —, or ``invalid_input``), ``counts``, ``detail``, ``message``,
    ``parse_error`` and ``skipped_keys``. Never raises for bad input."""
    check_protocol(protocol)
    ident = item_identifier(item)
    rec = not_scored(ident, None, "")
    task = ident if goals.known(ident) else None
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise ReferenceAbort("an item must be an object with 'identifier' and 'llm_output'")
        if not isinstance(item["llm_output"], str):
            raise ReferenceAbort(f"llm_output must be a string, got {type(item['llm_output']).__name__}")
        try:
            hash(item["identifier"])
        except TypeError:
            raise ReferenceAbort("the identifier must be a string, got "
                                 f"{type(item['identifier']).__name__}") from None
        reply, why = read_behavior_reply(item["llm_output"])
        if task is None:
            shown = repr(ident) if ident is not None or item["identifier"] is None else \
                f"a {type(item['identifier']).__name__}"
            rec.update(status="ignored", message=f"{shown} is not {goals.what}; eai-eval 1.0.5 ignores it")
            return rec
        predicted, rec["skipped_keys"] = predicted_conditions(reply, protocol)
        rec["counts"], rec["detail"] = analyse(goals, task, predicted)
        rec.update(status="evaluated" if why is None else "format_error", parse_error=why, message=why or "")
    except ReferenceAbort as e:
        rec.update(status="invalid_input", message=f"{e}; eai-eval 1.0.5 aborts its whole run on this item, "
                                                   "eai-gym scores the demo as predicting nothing")
        if task is not None:
            rec["counts"], rec["detail"] = analyse(goals, task, [])
    return rec


def not_scored(identifier: Any, status: str | None, message: str) -> dict[str, Any]:
    """The record of an item that predicts nothing for any task (``invalid_input`` before it names one,
    ``duplicate_identifier``)."""
    return {"identifier": identifier, "status": status, "message": message, "parse_error": None,
            "skipped_keys": [], "counts": None, "detail": None}


def _last_records(records: Iterable[dict]) -> tuple[dict[str, dict], dict[str, int]]:
    """The last record of each task, and how many items had each outcome."""
    last: dict[str, dict] = {}
    tally = {"evaluated": 0, "format_error": 0, "invalid_input": 0, "ignored": 0, "superseded": 0, "missing": 0}
    for r in records:
        tally[r["status"]] = tally.get(r["status"], 0) + 1
        if r["counts"] is not None:
            if r["identifier"] in last:
                tally["superseded"] += 1
            last[r["identifier"]] = r
    return last, tally


def final_records(goals: GoalSet, records: list[dict]) -> tuple[list[dict], dict[str, int]]:
    """The record that counts for each task, in task order (the last item of the task; a task without
    one predicts nothing), and how many items had each outcome."""
    last, tally = _last_records(records)
    out = []
    for task in goals.ids():
        if task not in last:
            tally["missing"] += 1
            counts, detail = analyse(goals, task, [])
            last[task] = {"identifier": task, "status": "missing", "counts": counts, "detail": detail,
                          "message": "no item for this demo; eai-eval 1.0.5 aborts (KeyError), "
                                     "eai-gym scores it as predicting nothing"}
        out.append(last[task])
    return out, tally


@lru_cache(maxsize=None)
def _nothing_predicted(goals: GoalSet, task: str) -> tuple[tuple[str, int], ...]:
    """The counts of a task for which nothing is predicted (what a task without an item counts, run after run)."""
    return tuple(analyse(goals, task, [])[0].items())


def _final_counts(goals: GoalSet, records: Iterable[dict]) -> tuple[list[dict], dict[str, int]]:
    """The counts of :func:`final_records` (without its per-task detail), and the tally."""
    last, tally = _last_records(records)
    tally["missing"] = sum(1 for task in goals.ids() if task not in last)
    return [last[t]["counts"] if t in last else dict(_nothing_predicted(goals, t)) for t in goals.ids()], tally


def summarize(goals: GoalSet, records: Iterable[dict], protocol: str = "eai-1.0.5") -> dict[str, Any]:
    """The summary eai-eval 1.0.5 writes to ``summary/<model>_performance_scores.json``, over every task."""
    check_protocol(protocol)
    return _summary(_final_counts(goals, records)[0])


def _summary(final: list[dict]) -> dict[str, Any]:
    total: dict[str, int] = {}
    for counts in final:
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    out: dict[str, Any] = {}
    for section, metric_key, prefix in SECTIONS:
        s, u, f = (total[f"{prefix}{k}"] for k in ("satisfied", "unsatisfied", "false_positive"))
        out[section] = {"num_predicted_conditions": total[f"{prefix}predicted"], "num_GT_conditions": s + u,
                        "num_satisfied_conditions": s, "num_unsatisfied_conditions": u,
                        "num_false_positive_conditions": f, metric_key: confusion_metrics(s, f, u)}
    out["grammatical_errors"] = grammar_summary(total, "valid_ignoring_objects", total["object_hallucination"])
    return out


def summary_and_counters(goals: GoalSet, records: list, protocol: str) -> dict[str, Any]:
    """What a ``Jobs.summarize`` returns: the summary and the item counters."""
    check_protocol(protocol)
    final, tally = _final_counts(goals, records)
    return {"summary": _summary(final), "counters": tally}


def gold_reply(goals: GoalSet, task: str) -> str:
    """The task's gold (the first option of each goal conjunct) written as a reply."""
    conds = [c for options in goals.gold(task).values() for c in options[0]]
    return json.dumps({"node goals": [c for c in conds if goals.is_node_condition(c)],
                       "edge goals": [c for c in conds if not goals.is_node_condition(c)]})


def gold_items(goals: GoalSet) -> list[dict[str, str]]:
    """Every task's gold conditions as an item (for ``--gold``); each scores perfectly."""
    return [{"identifier": t, "llm_output": gold_reply(goals, t)} for t in goals.ids()]

"""Offline goal-interpretation scorer for VirtualHome (EAI's first module).

An item is ``{"identifier": task id, "llm_output": reply}``; the reply names node goals
(``{"name", "state"}``), edge goals (``{"from_name", "relation", "to_name"}``) and action goals
(``{"action"}``). Names are resolved to the task's relevant objects and compared with the task's gold
goals. ``summarize`` returns the summary dict of eai-eval 1.0.5 (``node_precision`` ... ``all_f1``, percent
rounded to 4 places).

Protocols (differences in ``docs/goal_interpretation.md``):

* ``eai-1.0.5``: as eai-eval 1.0.5 run with ``PYTHONHASHSEED=0``. Every valid predicted goal that equals
  a gold goal is a TP, so repeated matches of one gold goal all count (TP can exceed the gold count and
  FN go negative); a class name with several relevant objects resolves to the one id the reference's
  set iteration ends on under hash seed 0.
* ``fixed``: predictions are deduplicated by what is compared (name and state; names and relation;
  upper-cased action), TP counts the distinct gold goals they denote (a name denotes every relevant
  object of that name), FP the predictions that denote none, FN the gold goals left; independent of
  hash seed.

Items the reference aborts its whole run on (unknown task id, a reply that is JSON but not an object, a
goal of the wrong type ...) are ``invalid_input`` records, left out of the summary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from ...core.errors import UnknownTaskError
from ...core.safe_repr import bounded_repr
from ...eai.goal_output import read_virtualhome_reply, unique_values
from ...eai.goal_summary import VIRTUALHOME_KINDS, virtualhome_summary
from ...envs.virtualhome.tasks import task_ids, task_record
from ..items import item_identifier
from ..jobs import Jobs

PROTOCOLS = ("eai-1.0.5", "fixed")
_KEYS = {"node": ("node goals", ("name", "state")),
         "edge": ("edge goals", ("from_name", "to_name", "relation")),
         "action": ("action goals", ("action",))}


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol


@lru_cache(maxsize=1)
def _hash0_names() -> dict[str, dict[str, int]]:
    ref = resources.files("eai_gym.data") / "virtualhome" / "goal_interpretation_names.json"
    return json.loads(ref.read_text())["tasks"]


@dataclass(frozen=True)
class GoldGoals:
    """A task's gold goals as eai-eval 1.0.5 compares them, and its object names."""

    node: tuple[dict, ...]
    edge: tuple[dict, ...]
    #: unique action goals; an entry may hold alternatives, ``"LOOKAT|WATCH"``
    action: tuple[str, ...]
    #: name -> id as the reference resolves it (hash seed 0 for names with several objects)
    name_to_id: dict[str, int]
    #: name -> every relevant id of that name (ascending)
    name_to_ids: dict[str, tuple[int, ...]]
    id_to_name: dict[int, str]


@lru_cache(maxsize=512)
def gold_goals(task_id: str) -> GoldGoals:
    """The gold goals of a VirtualHome task. Raises UnknownTaskError for an unknown id."""
    rec = task_record(task_id)
    scene_goals = rec["vh_goal"]["goal"]
    node = unique_values(g for g in scene_goals if {"id", "class_name", "state"} <= g.keys())
    edge = unique_values(g for g in scene_goals if {"from_id", "relation_type", "to_id"} <= g.keys()
                         and not {"id", "class_name", "state"} <= g.keys())
    actions = tuple(dict.fromkeys(rec["vh_goal"]["actions"]))
    relevant = sorted((n, i) for n, i in rec["relevant"])
    ids: dict[str, list[int]] = {}
    for n, i in relevant:
        ids.setdefault(n, []).append(i)
    name_to_id = {n: v[0] for n, v in ids.items()}
    name_to_id.update(_hash0_names().get(task_id, {}))
    return GoldGoals(tuple(node), tuple(edge), actions, name_to_id,
                     {n: tuple(v) for n, v in ids.items()}, {i: n for n, i in relevant})


class _Invalid(Exception):
    """Input the reference evaluator aborts its whole run on."""


def _empty_record(ident: Any) -> dict[str, Any]:
    return {"identifier": ident, "status": None, "message": "", "parse_error": None,
            "counts": {k: [0, 0, 0] for k in VIRTUALHOME_KINDS},
            "matched": {k: [] for k in VIRTUALHOME_KINDS}, "unmatched": {k: [] for k in VIRTUALHOME_KINDS},
            "false_positives": {k: [] for k in VIRTUALHOME_KINDS}, "goal_format_errors": [],
            "hallucinations": []}


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``, ``duplicate_identifier``): nothing counted."""
    return {**_empty_record(identifier), "status": status, "message": message}


def score_item(item: Any, protocol: str = "eai-1.0.5") -> dict[str, Any]:
    """Score one item. Never raises for bad input: ``status`` is then ``invalid_input``.

    ``counts[kind]`` is ``[TP, FP, FN]``; ``matched``/``unmatched`` list the gold goals, ``false_positives``
    the predicted goals (resolved to ids) that match none; ``goal_format_errors`` and ``hallucinations``
    the predicted goals the reference skips (missing keys; names that are not relevant objects).
    """
    check_protocol(protocol)
    ident = item_identifier(item)
    rec = _empty_record(ident)
    try:
        if not isinstance(item, dict) or "identifier" not in item or "llm_output" not in item:
            raise _Invalid("an item must be an object with 'identifier' and 'llm_output'")
        if not isinstance(ident, str) or ident not in task_ids():
            raise _Invalid(f"unknown VirtualHome task id {bounded_repr(item['identifier'])}")
        if not isinstance(item["llm_output"], str):
            raise _Invalid(f"llm_output must be a string, got {type(item['llm_output']).__name__}")
        gold = gold_goals(ident)
        reply, why = read_virtualhome_reply(item["llm_output"])
        if why is not None:
            rec.update(status="format_error", parse_error=why, message=why)
            return rec
        if not isinstance(reply, dict):
            raise _Invalid(f"the reply is JSON but not an object ({type(reply).__name__})")
        predicted = {}
        for kind, (key, _) in _KEYS.items():
            value = reply.get(key, [])
            if isinstance(value, (int, float)) or value is None:
                raise _Invalid(f"{key!r} must be a list, got {json.dumps(value)}")
            predicted[kind] = unique_values(value)
        if protocol == "eai-1.0.5":
            _score_reference(rec, predicted, gold)
        else:
            _score_fixed(rec, predicted, gold)
        rec["status"] = "evaluated"
    except (_Invalid, UnknownTaskError) as e:
        rec = _empty_record(ident)
        rec.update(status="invalid_input", message=f"{e} (eai-eval 1.0.5 aborts its whole run on this item)")
    return rec


def _usable(goal: Any, kind: str, rec: dict) -> bool:
    """The reference's checks before a predicted goal is resolved: skip empty ones, count ones without
    the keys as format errors; the same Python operations, so what makes it raise makes this raise."""
    try:
        if len(goal) == 0:
            return False
        if any(k not in goal for k in _KEYS[kind][1]):
            rec["goal_format_errors"].append(goal)
            return False
        values = [goal[k] for k in _KEYS[kind][1]]
        if kind == "action":
            values[0].upper()
        return True
    except (TypeError, AttributeError, KeyError) as e:
        raise _Invalid(f"a predicted {kind} goal is not an object with string values: {json.dumps(goal)} ({e})")


def _known(names: Iterable[Any], table: dict[str, Any]) -> bool:
    try:
        return all(n in table for n in names)
    except TypeError:
        raise _Invalid(f"an object name must be a string, got {json.dumps(list(names))}") from None


def _score_reference(rec: dict, predicted: dict[str, list], gold: GoldGoals) -> None:
    n2i = gold.name_to_id
    for kind in ("node", "edge"):
        golds = gold.node if kind == "node" else gold.edge
        tp = fp = 0
        for g in predicted[kind]:
            if not _usable(g, kind, rec):
                continue
            names = (g["name"],) if kind == "node" else (g["from_name"], g["to_name"])
            if not _known(names, n2i):
                rec["hallucinations"].append(g)
                continue
            if kind == "node":
                resolved = {"id": n2i[g["name"]], "class_name": g["name"], "state": g["state"]}
            else:
                resolved = {"from_id": n2i[g["from_name"]], "to_id": n2i[g["to_name"]],
                            "relation_type": g["relation"]}
            if resolved in golds:
                tp += 1
                if resolved not in rec["matched"][kind]:
                    rec["matched"][kind].append(resolved)
            else:
                fp += 1
                rec["false_positives"][kind].append(resolved)
        rec["counts"][kind] = [tp, fp, len(golds) - tp]
        rec["unmatched"][kind] = [g for g in golds if g not in rec["matched"][kind]]
    tp = fp = 0
    groups = [[a.upper() for a in g.split("|")] for g in gold.action]
    for g in predicted["action"]:
        if not _usable(g, "action", rec):
            continue
        name = g["action"].upper()
        hit = next((gold.action[i] for i, alts in enumerate(groups) if name in alts), None)
        if hit is None:
            fp += 1
            rec["false_positives"]["action"].append(name)
        else:
            tp += 1
            if hit not in rec["matched"]["action"]:
                rec["matched"]["action"].append(hit)
    rec["counts"]["action"] = [tp, fp, len(gold.action) - tp]
    rec["unmatched"]["action"] = [a for a in gold.action if a not in rec["matched"]["action"]]


def _score_fixed(rec: dict, predicted: dict[str, list], gold: GoldGoals) -> None:
    n2is = gold.name_to_ids
    for kind in ("node", "edge"):
        golds = gold.node if kind == "node" else gold.edge
        hit: set[int] = set()
        seen: set[str] = set()
        fp = 0
        for g in predicted[kind]:
            if not _usable(g, kind, rec):
                continue
            key = json.dumps([g[k] for k in _KEYS[kind][1]], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            names = (g["name"],) if kind == "node" else (g["from_name"], g["to_name"])
            if not _known(names, n2is):
                rec["hallucinations"].append(g)
                continue
            if kind == "node":
                denoted = [i for i, x in enumerate(golds) if x.get("class_name") == g["name"]
                           and x.get("id") in n2is[g["name"]] and x.get("state") == g["state"]]
            else:
                denoted = [i for i, x in enumerate(golds) if x.get("relation_type") == g["relation"]
                           and x.get("from_id") in n2is[g["from_name"]] and x.get("to_id") in n2is[g["to_name"]]]
            if denoted:
                hit.update(denoted)
            else:
                fp += 1
                rec["false_positives"][kind].append(g)
        rec["matched"][kind] = [golds[i] for i in sorted(hit)]
        rec["unmatched"][kind] = [x for i, x in enumerate(golds) if i not in hit]
        rec["counts"][kind] = [len(hit), fp, len(golds) - len(hit)]
    groups = [[a.upper() for a in g.split("|")] for g in gold.action]
    hit = set()
    fp = 0
    for name in dict.fromkeys(g["action"].upper() for g in predicted["action"] if _usable(g, "action", rec)):
        denoted = [i for i, alts in enumerate(groups) if name in alts]
        if denoted:
            hit.update(denoted)
        else:
            fp += 1
            rec["false_positives"]["action"].append(name)
    rec["matched"]["action"] = [gold.action[i] for i in sorted(hit)]
    rec["unmatched"]["action"] = [a for i, a in enumerate(gold.action) if i not in hit]
    rec["counts"]["action"] = [len(hit), fp, len(gold.action) - len(hit)]


def summarize(records: Iterable[dict], protocol: str = "eai-1.0.5") -> dict[str, float]:
    """The summary eai-eval 1.0.5 returns, over the ``evaluated`` records (format errors add nothing)."""
    check_protocol(protocol)
    totals = {k: [0, 0, 0] for k in VIRTUALHOME_KINDS}
    for r in records:
        if r["status"] == "evaluated":
            for k in VIRTUALHOME_KINDS:
                for i in range(3):
                    totals[k][i] += r["counts"][k][i]
    return virtualhome_summary({k: tuple(v) for k, v in totals.items()})  # type: ignore[misc]


def counters(records: Iterable[dict]) -> dict[str, int]:
    """How many items had each status."""
    out = {"evaluated": 0, "format_error": 0, "invalid_input": 0}
    for r in records:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def gold_reply(task_id: str) -> str:
    """The task's gold goals written as a reply: one name per object and the first of each action's
    alternatives. It scores perfectly under ``fixed``; under ``eai-1.0.5`` it does not where a goal
    object shares its name with another relevant object that the reference's name lookup ends on."""
    gold = gold_goals(task_id)
    name = gold.id_to_name
    reply = {"node goals": [{"name": g["class_name"], "state": g["state"]} for g in gold.node],
             "edge goals": [{"from_name": name[g["from_id"]], "relation": g["relation_type"],
                             "to_name": name[g["to_id"]]} for g in gold.edge],
             "action goals": [{"action": a.split("|")[0], "description": ""} for a in gold.action]}
    return json.dumps(reply)


def gold_items() -> list[dict[str, str]]:
    """Every task's gold goals as an item (for ``--gold``)."""
    return [{"identifier": t, "llm_output": gold_reply(t)} for t in task_ids()]


def _score_unit(protocol: str, item: Any) -> dict:
    return score_item(item, protocol)


def _context(protocol: str) -> str:
    return check_protocol(protocol)


def goal_interpretation_jobs(items: list, protocol: str = "eai-1.0.5") -> Jobs:
    """Jobs for :func:`eai_gym.scoring.runner.run_items`: one unit per item."""
    check_protocol(protocol)
    jobs = Jobs(_score_unit, list(items),
                lambda rs: {"summary": summarize(rs, protocol), "counters": counters(rs)},
                _context, (protocol,), summary_fields=("counts",), blank=not_scored,
                record_fields=("identifier", "status", "counts"))
    return jobs.once_per_identifier(mode="goal_interpretation", protocol=protocol)

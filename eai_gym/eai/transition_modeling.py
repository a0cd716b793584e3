"""EAI transition modeling, world-agnostic: score an LLM's PDDL operators against the gold ones
(predicate precision/recall/F1 by predicate category, by operator and by predicate; hallucinated
operators; unreadable replies) and ask a planner whether the predicted operators, completed with the
gold ones, still solve the item's PDDL problem. The world modules
(:mod:`.virtualhome.transition_modeling`, :mod:`.behavior.transition_modeling`) hold the data.

``protocol="eai-1.0.5"`` reproduces eai-eval 1.0.5's ``evaluate_results``; ``protocol="fixed"`` differs
where it has a bug (see ``docs/transition_modeling.md``): operator names with ``-`` (read whole), the
logic score's unmatched-argument test, the overall planner success rate (each item once, not once per
category it belongs to), and predicates without a category (ignored instead of stopping the run).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from ..logic.pddl_logic_score import logic_score
from ..logic.pddl_operators import OperatorFormatError, complete_domain, extract_operators
from ..scoring.items import item_identifier
from ..scoring.jobs import DUPLICATE, Jobs
from .planner import PLANNER_HINT, Planner, choose_planner, make_planner

PROTOCOLS = ("eai-1.0.5", "fixed")
PARTS = (("precond", "action_preconditions"), ("effect", "action_effects"))


@dataclass(frozen=True)
class TransitionData:
    """One world's transition-modeling data (``eai_gym/data/<world>/transition_modeling.json.gz``)."""

    world: str
    gold_operators: dict[str, dict[str, str]]
    base_domain: str
    task_ids: tuple[str, ...]
    task_operators: dict[str, list[str]]
    task_categories: dict[str, list[str]]
    predicate_categories: dict[str, str]
    problems: dict[str, str]
    planner_timeout: float

    @classmethod
    def load(cls, world: str, planner_timeout: float) -> "TransitionData":
        ref = resources.files("eai_gym.data") / world / "transition_modeling.json.gz"
        with ref.open("rb") as f:
            d = json.loads(gzip.decompress(f.read()))
        return cls(world, d["gold_operators"], d["base_domain"], tuple(d["task_ids"]), d["task_operators"],
                   d["task_categories"], d["predicate_categories"], d["problems"], planner_timeout)


def check_protocol(protocol: str) -> None:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; expected one of {', '.join(PROTOCOLS)}")


def read_reply(llm_output: str, protocol: str = "eai-1.0.5") -> dict[str, dict[str, str]]:
    """The operators of one reply, read as eai-eval 1.0.5 reads them: a leading ```` ```json ```` fence
    and backticks cut, newlines removed, ``'`` turned into ``"``; if that is JSON, its ``"output"`` text;
    otherwise the text itself. Raises :class:`OperatorFormatError` when no operator text is found."""
    text = llm_output
    if text.startswith("```json"):
        text = text[7:].strip("`")
    text = text.strip().replace("\n", "").replace("'", '"')
    content: Any = text
    try:
        content = json.loads(text)
        content = content["output"]
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):
        pass
    if not isinstance(content, str):
        raise OperatorFormatError(f"the reply is JSON ({type(content).__name__}) without an \"output\" text")
    return extract_operators(content, protocol)


def _counts() -> dict[str, Any]:
    return {"precond_predicate_type_res": {}, "effect_predicate_type_res": {}, "precond_action_type": {},
            "effect_action_type": {}, "precond_predicate_score": {}, "effect_predicate_score": {},
            "success_by_task_type": {}, "action_variate_control": {}, "format_wrong_num": 0,
            "hallucination_num": 0, "total_predict_action_num": 0}


def _bump(table: dict, key: str, index: int, size: int = 3) -> None:
    row = table.setdefault(key, [0] * size)
    row[index] += 1


def _item_error(ident: Any, message: str, status: str = "invalid_input") -> dict:
    return {"identifier": ident, "status": status, "message": message}


def score_item(item: Any, data: TransitionData, protocol: str, planner: Planner | None,
               timeout: float | None = None) -> dict:
    """One item's record: ``status`` ``scored`` (with per-operator matches, the reference's counters in
    ``counts`` and the planner's verdict), ``format_error`` (the reply's operators cannot be read),
    ``invalid_input`` (a malformed item or an identifier that is not a transition-modeling item) or
    ``error`` (under eai-1.0.5, an item on which eai-eval 1.0.5 stops the whole run)."""
    check_protocol(protocol)
    if not isinstance(item, Mapping):
        return _item_error(None, f"expected an object with identifier and llm_output, got {type(item).__name__}")
    ident = item_identifier(item)
    if not isinstance(item.get("identifier"), str):
        return _item_error(ident, "the item has no text \"identifier\"")
    reply = item.get("llm_output")
    if not isinstance(reply, str):
        return _item_error(ident, f"{ident}: \"llm_output\" must be text, got {type(reply).__name__}")
    if ident not in data.task_operators:
        return _item_error(ident, f"{ident}: not one of the {len(data.task_ids)} {data.world} "
                           "transition-modeling items")
    try:
        predicted = read_reply(reply, protocol)
    except OperatorFormatError as e:
        return {"identifier": ident, "status": "format_error", "message": str(e),
                "counts": {"format_wrong_num": 1}}
    gold_names = data.task_operators[ident]
    counts = _counts()
    operators = []
    cats = data.predicate_categories
    for name, op in predicted.items():
        counts["total_predict_action_num"] += 1
        if name not in gold_names:
            counts["hallucination_num"] += 1
            operators.append({"name": name, "hallucinated": True})
            continue
        entry: dict[str, Any] = {"name": name, "hallucinated": False}
        for part, key in PARTS:
            s = logic_score(op[key], data.gold_operators[name][key], protocol)
            entry[part] = {"matched": sorted(s.matched), "unmatched_predicted": sorted(s.unmatched_predicted),
                           "unmatched_gold": sorted(s.unmatched_gold)}
            for index, preds in ((0, s.matched), (1, s.unmatched_predicted), (2, s.unmatched_gold)):
                for pred in sorted(preds):
                    if pred == "()":
                        continue
                    if pred not in cats:
                        if index == 1 or protocol == "fixed":
                            continue  # the reference ignores unknown predicted predicates (false positives)
                        return _item_error(ident, f"{ident}: predicate {pred!r} of {name} has no category; "
                                           "eai-eval 1.0.5 stops the whole run here (KeyError)", "error")
                    _bump(counts[f"{part}_predicate_type_res"], cats[pred], index)
                    _bump(counts[f"{part}_action_type"], name, index)
                    _bump(counts[f"{part}_predicate_score"], pred, index)
        operators.append(entry)
    for cat in data.task_categories[ident]:
        _bump(counts["success_by_task_type"], cat, 1, 2)
    for name in gold_names:
        _bump(counts["action_variate_control"], name, 1, 2)
    record = {"identifier": ident, "status": "scored", "categories": list(data.task_categories[ident]),
              "operators": operators, "counts": counts, "planner": None}
    if planner is not None:
        domain = complete_domain(data.base_domain, predicted, data.gold_operators)
        verdict = planner.solve(domain, data.problems[ident], data.planner_timeout if timeout is None else timeout)
        record["planner"] = {"name": planner.name, "version": planner.version(), **verdict}
        if verdict["verdict"] == "solved":
            for cat in data.task_categories[ident]:
                counts["success_by_task_type"][cat][0] += 1
    record["message"] = ""  # every record's fields (the other statuses' records have their message)
    return record


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    precision = tp / (tp + fp) if tp + fp != 0 else 0
    recall = tp / (tp + fn) if tp + fn != 0 else 0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall != 0 else 0
    return precision, recall, f1


def _pct(x: float) -> float:
    return round(100 * x, 4)


def _table(rows: Mapping[str, list[int]]) -> dict[str, dict]:
    """Counts -> {key: {tp, fp, fn, precision, recall, f1}} (percent), all-zero rows left out as the
    reference leaves them out, keys sorted."""
    out = {}
    for k in sorted(rows):
        tp, fp, fn = rows[k]
        if tp == fp == fn == 0:
            continue
        p, r, f = _prf(tp, fp, fn)
        out[k] = {"tp": tp, "fp": fp, "fn": fn, "precision": _pct(p), "recall": _pct(r), "f1": _pct(f)}
    return out


def _add(total: dict, rows: Mapping[str, list[int]]) -> None:
    for k, v in rows.items():
        row = total.setdefault(k, [0] * len(v))
        for i, x in enumerate(v):
            row[i] += x


def summarize(records: list[dict], protocol: str, planner_info: Mapping[str, Any] | None = None) -> dict:
    """Everything eai-eval 1.0.5 reports for a model's replies. ``summary`` is its summary dict (per
    task category present and ``overall``: ``precision``, ``recall``, ``f1`` of precondition and effect
    predicates together, ``planner_success_rate``; percent rounded to 4 places); the other keys hold
    what it logs (format errors, hallucinations, scores by category, operator and predicate).
    ``planner_success_rate`` is None when no planner ran (``planner.computed`` is False)."""
    check_protocol(protocol)
    records = [r for r in records if r.get("status") != DUPLICATE]  # each task once (docs/scoring.md)
    total = _counts()
    scored = [r for r in records if r.get("status") == "scored"]
    fmt = [r for r in records if r.get("status") == "format_error"]
    for r in scored:
        for key, value in r["counts"].items():
            if isinstance(value, dict):
                _add(total[key], value)
            else:
                total[key] += value
    total["format_wrong_num"] = len(fmt)
    full_cat: dict[str, list[int]] = {}
    _add(full_cat, total["precond_predicate_type_res"])
    _add(full_cat, total["effect_predicate_type_res"])
    overall = [sum(v[i] for v in full_cat.values()) for i in range(3)]
    computed = bool(scored) and all(r.get("planner") is not None for r in scored)
    attempts = {c: v for c, v in sorted(total["success_by_task_type"].items()) if v[1] > 0}
    summary: dict[str, dict] = {}
    for cat, (succ, n) in attempts.items():
        p, r, f = _prf(*full_cat.get(cat, [0, 0, 0]))
        summary[cat] = {"precision": _pct(p), "recall": _pct(r), "f1": _pct(f),
                        "planner_success_rate": _pct(succ / n) if computed else None}
    p, r, f = _prf(*overall)
    if protocol == "eai-1.0.5":
        succ, n = sum(v[0] for v in attempts.values()), sum(v[1] for v in attempts.values())
    else:
        succ = sum(1 for rec in scored if (rec.get("planner") or {}).get("verdict") == "solved")
        n = len(scored)
    summary["overall"] = {"precision": _pct(p), "recall": _pct(r), "f1": _pct(f),
                          "planner_success_rate": (_pct(succ / n) if n else 0.0) if computed else None}
    verdicts: dict[str, list[str]] = {}
    for rec in scored:
        v = (rec.get("planner") or {}).get("verdict")
        if v is not None:
            verdicts.setdefault(v, []).append(rec["identifier"])
    info = dict(planner_info or {})
    names = sorted({str((rec.get("planner") or {}).get("name")) for rec in scored if rec.get("planner")})
    if computed and info.get("name") in (None, "none"):
        info.update(name=", ".join(names), version=None)  # records scored with a planner not named here
    info["computed"] = computed
    if not computed:
        info.setdefault("hint", PLANNER_HINT)
    n_items = len(records)
    return {
        "summary": summary,
        "format_wrong_num": total["format_wrong_num"],
        "format_wrong_rate": _pct(total["format_wrong_num"] / n_items) if n_items else 0.0,
        "hallucination_num": total["hallucination_num"],
        "total_predict_action_num": total["total_predict_action_num"],
        "hallucination_rate": (_pct(total["hallucination_num"] / total["total_predict_action_num"])
                               if total["total_predict_action_num"] else 0.0),
        "by_category": {"precondition": _table(total["precond_predicate_type_res"]),
                        "effect": _table(total["effect_predicate_type_res"]),
                        "full": {**_table(full_cat), **_table({"overall": overall})}},
        "by_action": {"precondition": _table(total["precond_action_type"]),
                      "effect": _table(total["effect_action_type"]),
                      "full": _table(_summed(total["precond_action_type"], total["effect_action_type"]))},
        "by_predicate": {"precondition": _table(total["precond_predicate_score"]),
                         "effect": _table(total["effect_predicate_score"]),
                         "full": _table(_summed(total["precond_predicate_score"], total["effect_predicate_score"]))},
        "planner_success_by_category": {c: [s, n_, _pct(s / n_) if computed else None]
                                        for c, (s, n_) in attempts.items()},
        "planner": {**info, "verdicts": {k: len(v) for k, v in sorted(verdicts.items())},
                    "timed_out": sorted(verdicts.get("timeout", [])), "errors": sorted(verdicts.get("error", []))},
        "items": {"total": n_items, "scored": len(scored), "format_error": len(fmt),
                  "invalid_input": sorted(str(r.get("identifier")) for r in records
                                          if r.get("status") == "invalid_input"),
                  "error": sorted(str(r.get("identifier")) for r in records if r.get("status") == "error")},
    }


def _summed(a: Mapping[str, list[int]], b: Mapping[str, list[int]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    _add(out, a)
    _add(out, b)
    return out


def gold_reply(data: TransitionData, ident: str) -> str:
    """The gold operators of an item as a reply in the published format (a JSON ``{"output": ...}``)."""
    ops = data.gold_operators
    text = "\n".join(f"(:action {n}\n  :parameters {ops[n]['action_parameters']}\n  :precondition "
                     f"{ops[n]['action_preconditions']}\n  :effect {ops[n]['action_effects']}\n)"
                     for n in data.task_operators[ident])
    return json.dumps({"output": text})


@lru_cache(maxsize=None)
def load_data(world: str, planner_timeout: float) -> TransitionData:
    return TransitionData.load(world, planner_timeout)


def planner_info(planner: str | Planner | None, world: str) -> dict:
    """What a results file says about the planner: its name and version (None when no planner runs)."""
    p = make_planner(planner) if isinstance(planner, str) or planner is None else planner
    if p is None:
        return {"name": "none", "version": None, "world": world}
    return {"name": p.name, "version": p.version(), "world": world}


def _context(world: str, planner_timeout: float, protocol: str, planner: str, timeout: float) -> tuple:
    return (load_data(world, planner_timeout), protocol, make_planner(planner), timeout)


def _score_unit(ctx: tuple, item: Any) -> dict:
    data, protocol, planner, timeout = ctx
    return score_item(item, data, protocol, planner, timeout)


class TransitionModelingWorld:
    """One world's transition-modeling scorer: its data file and the reference's planner timeout."""

    def __init__(self, world: str, planner_timeout: float) -> None:
        self.world = world
        self.planner_timeout = float(planner_timeout)

    def data(self) -> TransitionData:
        """The world's items, gold operators, base domain and PDDL problems."""
        return load_data(self.world, self.planner_timeout)

    def score_item(self, item: Any, protocol: str = "fixed", planner: str | Planner | None = "none",
                   timeout: float | None = None) -> dict:
        """One item's record (:func:`score_item`); ``planner``: ``fast-downward``, ``none``
        (logic scores only) or a planner object; ``timeout`` defaults to the reference's."""
        return score_item(item, self.data(), protocol, make_planner(planner),
                          self.planner_timeout if timeout is None else timeout)

    def summarize(self, records: list[dict], protocol: str = "fixed",
                  planner: str | Planner | None = None) -> dict:
        """Everything eai-eval 1.0.5 reports (:func:`summarize`), naming ``planner`` and its version."""
        return summarize(records, protocol, planner_info(planner, self.world))

    def gold_items(self) -> list[dict]:
        """The gold operators of every item, as replies in the published format."""
        data = self.data()
        return [{"identifier": i, "llm_output": gold_reply(data, i)} for i in data.task_ids]

    def jobs(self, items: list, protocol: str, planner: str = "none", planner_timeout: float | None = None) -> Jobs:
        """Jobs for :func:`eai_gym.scoring.runner.run_items`: one unit per item; each worker makes its
        own planner calls, so ``--workers N`` runs N planner processes at a time."""
        check_protocol(protocol)
        info = planner_info(planner, self.world)
        timeout = self.planner_timeout if planner_timeout is None else float(planner_timeout)
        jobs = Jobs(_score_unit, list(items), lambda rs: summarize(rs, protocol, info), _context,
                    (self.world, self.planner_timeout, protocol, planner, timeout),
                    summary_fields=("counts", "planner"))
        return jobs.once_per_identifier(mode="transition_modeling", protocol=protocol)


def world_scorer(world: str) -> TransitionModelingWorld:
    """``world``'s scorer, with the reference's planner timeout its ``transition_modeling`` mode declares (the mode's
    ``planner_timeout`` parameter)."""
    from .. import registry

    return TransitionModelingWorld(world, registry.mode(world, "transition_modeling").parameter("planner_timeout"))


def mode_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any) -> Jobs:
    """The registry's jobs entry point of a world's transition-modeling mode: ``options`` carries ``--planner`` and
    ``--planner-timeout`` (unset: the mode's ``planner_timeout`` parameter, the reference's)."""
    scorer = TransitionModelingWorld(mode.world, mode.parameter("planner_timeout"))
    return scorer.jobs(items, protocol, choose_planner(options["planner"]),
                       float(options["planner_timeout"] or scorer.planner_timeout))


def mode_gold(options: Mapping[str, Any], mode: Any) -> list[dict]:
    """The registry's gold entry point: every item's gold operators written as the reply (each scores perfectly)."""
    return TransitionModelingWorld(mode.world, mode.parameter("planner_timeout")).gold_items()

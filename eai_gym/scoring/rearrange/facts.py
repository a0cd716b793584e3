"""Fact replay: score per-step world facts (or per-step proposition truths) against an episode's
evaluation spec, the way PARTNR's measures score a rollout.

A case (the format of ``reference/cases/partnr/*.input.json``)::

    {"case_id": ..., "propositions" | "evaluation_propositions": [...],
     "dependencies" | "evaluation_proposition_dependencies": [...],
     "constraints" | "evaluation_constraints": [...], "object_states": {...},
     "final_extra_update": true,            # default true, as the reference's runner does
     "entities": [...], "rooms": [...],      # default: every handle / room the worlds mention
     "worlds": [world_0, world_1, ...]       # world_0 is the state right after reset
     # or "truths": [[bool | {"is_satisfied", "info"}, ... one per proposition], ... one per step]
    }

Each case gives one record; a malformed case or a case the evaluation raises on gets an ``error``
(with the per-step values computed before it) and never stops the others.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping

from ...logic.propositions import EvaluationSpec, FactsError, PropositionTracker, SpecError, TruthFacts, WorldFacts
from ..input_json import UnreadableItem, load_json_text
from ..items import safe_identifier
from ..jobs import DUPLICATE

RECORD_FIELDS = ("case_id", "per_step", "final_extra_update_step", "task_percent_complete", "task_state_success",
                 "task_evaluation_log", "error")


class CaseError(ValueError):
    """A case that is not in the fact-replay format."""


def _steps(case: Mapping[str, Any], spec: EvaluationSpec) -> list:
    if ("worlds" in case) == ("truths" in case):
        raise CaseError("a case needs exactly one of 'worlds' (per-step facts) or 'truths' (per-step proposition values)")
    if "truths" in case:
        rows = case["truths"]
        if not isinstance(rows, list) or not rows:
            raise CaseError("'truths' must be a non-empty list of steps")
        return [TruthFacts(r, len(spec.propositions), f"truths[{t}]") for t, r in enumerate(rows)]
    worlds = case["worlds"]
    if not isinstance(worlds, list) or not worlds:
        raise CaseError("'worlds' must be a non-empty list of steps")
    entities = case.get("entities")
    rooms = case.get("rooms")
    for name, value in (("entities", entities), ("rooms", rooms)):
        if value is not None and not (isinstance(value, list) and all(isinstance(h, str) for h in value)):
            raise CaseError(f"'{name}' must be a list of handles")
    ents = frozenset(entities or ())
    rms = frozenset(rooms or ())
    facts = [WorldFacts(w, ents, rms, spec.object_states, f"worlds[{t}]") for t, w in enumerate(worlds)]
    if entities is None or rooms is None:
        seen_ents = set().union(*(f.mentioned() for f in facts)) | {h for v in spec.object_states.values() for h in v}
        seen_rooms = {r for w in worlds for _, r in w.get("in_room", [])}
        for f in facts:
            f.entities = ents if entities is not None else frozenset(seen_ents)
            f.rooms = rms if rooms is not None else frozenset(seen_rooms)
    return facts


def with_common_fields(record: dict) -> dict:
    """``record`` with the fields every mode's records carry besides the reference's (:data:`RECORD_FIELDS`):
    ``identifier`` (the case id), ``message`` (the error, else empty) and ``success`` (the task state reached)."""
    record.update(identifier=record.get("case_id"), message=record.get("error") or "",
                  success=record.get("status") == "evaluated" and bool(record.get("task_state_success")))
    return record


def evaluate_case(case: Any, protocol: str = "fixed", case_id: Any = None) -> dict:
    """Score one case dict; returns its record (see RECORD_FIELDS and :func:`with_common_fields`)."""
    return with_common_fields(_evaluate_case(case, protocol, case_id))


def _evaluate_case(case: Any, protocol: str, case_id: Any) -> dict:
    if case_id is None:
        case_id = case.get("case_id") if isinstance(case, Mapping) else None
    record: dict[str, Any] = {"case_id": safe_identifier(case_id), "protocol": protocol, "per_step": []}
    try:
        if not isinstance(case, Mapping):
            raise CaseError(f"a case must be a JSON object, got {type(case).__name__}")
        spec = EvaluationSpec.from_json(case, protocol)
        steps = _steps(case, spec)
        extra = case.get("final_extra_update", True)
        if not isinstance(extra, bool):
            raise CaseError("'final_extra_update' must be true or false")
    except (SpecError, FactsError, CaseError, RecursionError) as e:  # (a case nested too deep to read)
        record.update(status="invalid_input", error=f"{type(e).__name__}: {e}")
        return record
    try:
        tracker = PropositionTracker(spec, protocol)
        record["per_step"].append(tracker.reset(steps[0]).to_json())
        for facts in steps[1:]:
            record["per_step"].append(tracker.update(facts).to_json())
        if extra:
            record["final_extra_update_step"] = tracker.final_update().to_json()
    except Exception as e:  # noqa: BLE001 - the evaluation raised (as the reference does on some inputs)
        record.update(status="evaluation_error", error=f"{type(e).__name__}: {e}")
        return record
    record.update(status="evaluated", task_percent_complete=tracker.task_percent_complete,
                  task_state_success=tracker.task_state_success, explanation=tracker.explain(),
                  task_evaluation_log=tracker.evaluation_log())
    return record


def summarize(records: list[dict]) -> dict:
    """Means of the final metrics over the evaluated cases (PARTNR's aggregate_measures), and counts (a case whose
    ``case_id`` an earlier case has is left out)."""
    records = [r for r in records if r.get("status") != DUPLICATE]
    done = [r for r in records if r.get("status") == "evaluated"]
    mean = (lambda key: sum(r[key] for r in done) / len(done)) if done else (lambda key: None)
    return {"n_cases": len(records), "n_evaluated": len(done),
            "n_invalid_input": sum(r.get("status") == "invalid_input" for r in records),
            "n_evaluation_error": sum(r.get("status") == "evaluation_error" for r in records),
            "task_percent_complete": mean("task_percent_complete"),
            "task_state_success": mean("task_state_success")}


def score_cases(cases: Iterable[Any], protocol: str = "fixed") -> dict:
    """Score case dicts (or ``(case_id, case)`` pairs); returns ``{"summary", "tasks"}``."""
    records = []
    for i, item in enumerate(cases):
        if isinstance(item, tuple) and len(item) == 2:
            case_id, case = item
            if isinstance(case, Mapping) and "case_id" in case:
                case_id = case["case_id"]
            records.append(evaluate_case(case, protocol, case_id))
        else:
            records.append(evaluate_case(item, protocol, item.get("case_id", i) if isinstance(item, Mapping) else i))
    return {"summary": summarize(records), "tasks": records}


def load_cases(paths: Iterable[str]) -> list[tuple[Any, Any]]:
    """``(default case id, case or unreadable-file error)`` for each case found in ``paths``: a JSON
    file holding one case or a list of cases, or a folder, whose ``*.input.json`` files (else
    ``*.json`` files) are read in name order. An unreadable file yields one error entry."""
    out: list[tuple[Any, Any]] = []
    for path in paths:
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
            inputs = [n for n in names if n.endswith(".input.json")]
            files = [os.path.join(path, n) for n in (inputs or names)]
            if not files:
                out.append((path, _Unreadable(f"{path}: no .json files in this folder")))
        else:
            files = [path]
        for f in files:
            name = os.path.basename(f)
            try:
                with open(f, encoding="utf-8") as fh:
                    data = load_json_text(fh.read())
            except FileNotFoundError:
                out.append((name, _Unreadable(f"{f}: no such file")))
                continue
            except (OSError, UnicodeDecodeError, ValueError) as e:
                out.append((name, _Unreadable(f"{f}: cannot read ({e})")))
                continue
            if isinstance(data, list):
                out.extend((f"{name}[{k}]", _Unreadable(f"{f}[{k}]: {c.reason}") if isinstance(c, UnreadableItem)
                            else c) for k, c in enumerate(data))
            else:
                out.append((name, data))
    return out


class _Unreadable(str):
    """Stands in for a case whose file could not be read; scoring it records the reason."""


def score_loaded(entry: tuple[Any, Any], protocol: str = "fixed") -> dict:
    """The record of one ``(default case id, case)`` entry of :func:`load_cases`."""
    case_id, case = entry
    if isinstance(case, _Unreadable):
        return with_common_fields({"case_id": case_id, "protocol": protocol, "per_step": [], "status": "invalid_input",
                                   "error": f"InputFileError: {case}"})
    if isinstance(case, Mapping) and "case_id" in case:
        case_id = case["case_id"]
    return evaluate_case(case, protocol, case_id)


def entry_case_id(entry: tuple[Any, Any]) -> Any:
    """The case id a ``(default case id, case)`` entry's record shows: the case's own, else the default."""
    case_id, case = entry
    if isinstance(case, Mapping) and "case_id" in case:
        return safe_identifier(case["case_id"])
    return safe_identifier(case_id)


def explicit_case_id(entry: tuple[Any, Any]) -> Any:
    """The ``case_id`` a case gives itself (what :meth:`Jobs.once_per_identifier` compares), else None."""
    case = entry[1]
    return safe_identifier(case.get("case_id")) if isinstance(case, Mapping) else None


def not_scored(protocol: str, case_id: Any, status: str, message: str) -> dict[str, Any]:
    """The record of a case that is not scored (``invalid_input``, ``duplicate_identifier``)."""
    return {"case_id": case_id, "protocol": protocol, "per_step": [], "status": status, "error": message}


def score_paths(paths: Iterable[str], protocol: str = "fixed") -> dict:
    records = [score_loaded(entry, protocol) for entry in load_cases(paths)]
    return {"summary": summarize(records), "tasks": records}

"""Reading an EAI subgoal-decomposition LLM output: the ``output`` list of its first JSON object; and the common
fields of a subgoal record (:func:`with_plan_fields`).

Shared by the VirtualHome and BEHAVIOR subgoal scorers; each then filters the entries as its
reference does."""

from __future__ import annotations

import re
from typing import Any, Iterator

from ..logic import json_text

_JSON_OBJECT = re.compile(r"{[^{}]*}", re.DOTALL)


class NotParseable(Exception):
    """The plan cannot be read; the message is what the reference reports."""


def output_entries(llm_output: Any, text: str) -> Iterator[str]:
    """The stripped string entries of the ``output`` list of the first ``{...}`` in ``text`` (the
    output after the caller's clean-up); errors name ``llm_output`` as the reference does. Lazy, as the
    reference's loop: a non-string entry raises only when reached (after the caller has handled, and
    possibly drawn random choices for, the entries before it)."""
    m = _JSON_OBJECT.search(text)
    obj = None
    if m:
        try:
            obj = json_text.loads(m.group(0))
        except (ValueError, RecursionError):  # not JSON, a number of more than 4,300 digits, lists nested deep
            obj = None
    if not isinstance(obj, dict) or not isinstance(obj.get("output"), list):
        raise NotParseable(f"Failed to extract json object from the plan string: {llm_output}")
    for entry in obj["output"]:
        if not isinstance(entry, str):
            raise NotParseable(f"'{type(entry).__name__}' object has no attribute 'strip'")
        yield entry.strip()


#: the subgoal scorers' execution error names (their ``errors``' ``error_type``, lower-cased) as EAI error types
_EXECUTION_ERRORS = (("missing_step", "missing_step"), ("affordance", "affordance"),
                     ("wrong_temporal_order", "wrong_order"))
#: the record categories that are errors of the plan's text
_TEXT_ERRORS = {"NotParseable": "parsing", "Hallucination": "hallucination"}


def with_plan_fields(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` with the fields every plan-replaying mode's records carry (:data:`eai_gym.registry.PLAN_RECORD_FIELDS`):
    ``success`` and ``executable`` (False where the record was not scored), and ``error_type``, the EAI error type of
    its outcome: ``parsing`` (NotParseable), ``hallucination``, else the first execution error of the reported
    branch (an additional step only when no other error occurred), None when there was none."""
    rec.setdefault("success", False)
    rec.setdefault("executable", False)
    kind = _TEXT_ERRORS.get(str(rec.get("category")))
    additional = False
    errors = rec.get("errors") if isinstance(rec.get("errors"), list) else []
    for err in errors if kind is None else ():
        names = err.get("error_type") if isinstance(err, dict) else None
        for name in [names] if isinstance(names, str) else names if isinstance(names, list) else ():
            low = str(name).lower()
            additional = additional or "additional_step" in low
            kind = kind or next((k for key, k in _EXECUTION_ERRORS if key in low), None)
        if kind is not None:
            break
    rec["error_type"] = kind or ("additional_step" if additional else None)
    return rec

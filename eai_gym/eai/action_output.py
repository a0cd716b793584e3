"""Reading EAI action-sequencing LLM outputs: a JSON-like object whose (possibly repeated) keys are
action names, in execution order, and whose values are ``[name, id, name, id, ...]`` lists.

``extract_steps`` reproduces the reference reader exactly for ``protocol="eai-1.0.5"`` and applies
the documented fixes for ``protocol="fixed"`` (see ``docs/virtualhome.md``):

* reference: a leading ```` ```json ```` is cut, newlines removed, ``'`` replaced by ``"``, then every
  ``"KEY": [ ... ]`` with a non-empty bracket body is taken; ``"STANDUP": []`` is silently dropped, and
  a value that is not valid JSON counts as two parsing errors;
* fixed: fences are removed at both ends, empty lists are kept, and a bad value counts once.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

_WS = re.compile(r"\s+")
_PAIR_REFERENCE = re.compile(r'"(\w+)"\s*:\s*(\[[^\]]+\])')
_PAIR_FIXED = re.compile(r'"(\w+)"\s*:\s*(\[[^\]]*\])')
_FENCE_OPEN = re.compile(r"^\s*```[A-Za-z]*")
_FENCE_CLOSE = re.compile(r"```\s*$")


@dataclass(slots=True)
class ExtractedPlan:
    """The steps read from an LLM output.

    ``steps`` is None when the output could not be read; ``parsing_errors`` is the number of parsing
    errors the reader charges (the reference can charge 2 for one output); ``message`` says why.
    """

    steps: list[tuple[str, list[Any]]] | None
    parsing_errors: int = 0
    message: str = ""
    raw_steps: list[dict] = field(default_factory=list)


def extract_steps(llm_output: str, protocol: str) -> ExtractedPlan:
    """Read ``(action_key, values)`` steps from one LLM output string."""
    if protocol == "eai-1.0.5":
        text = llm_output[7:] if llm_output.startswith("```json") else llm_output
        text = text.strip().replace("\n", "").replace("'", '"')
        pattern = _PAIR_REFERENCE
    else:
        text = _FENCE_CLOSE.sub("", _FENCE_OPEN.sub("", llm_output, count=1))
        text = text.strip().replace("\n", " ").replace("'", '"')
        pattern = _PAIR_FIXED
    text = _WS.sub(" ", text.strip())
    steps: list[tuple[str, list[Any]]] = []
    errors = 0
    message = ""
    try:
        for key, value in pattern.findall(text):
            steps.append((key, json.loads(value)))
    except (ValueError, RecursionError) as e:
        errors += 1
        message = f"an argument list is not valid JSON ({e})"
        if protocol != "eai-1.0.5":
            return ExtractedPlan(None, errors, message)
        result: list[tuple[str, list[Any]]] | None = None
    else:
        result = steps
    if result is None or len(result) == 0:
        errors += 1
        message = message or "no action found (expected {\"ACTION\": [name, id, ...], ...})"
        return ExtractedPlan(None, errors, message)
    odd = next((k for k, v in result if len(v) % 2), None)
    if odd is not None:
        return ExtractedPlan(None, errors + 1, f"the arguments of {odd} are not name/id pairs",
                             [{k: v} for k, v in result])
    return ExtractedPlan(result, errors, message, [{k: v} for k, v in result])


def eai_identifier(item: Any) -> str:
    """The identifier of an EAI output item ``{"identifier", "llm_output"}`` (raises
    :class:`eai_gym.scoring.similarity.PlanItemError` for anything else)."""
    from ..scoring.similarity import PlanItemError

    if not isinstance(item, Mapping) or not isinstance(item.get("identifier"), str) or "llm_output" not in item:
        raise PlanItemError("an item must be an object with 'identifier' and 'llm_output'")
    return item["identifier"]

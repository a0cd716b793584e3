"""Reading an EAI subgoal-decomposition LLM output: the ``output`` list of its first JSON object.

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

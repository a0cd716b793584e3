"""EAI's BEHAVIOR action syntax, which BEHAVIOR and BEHAVIOR-1K agents both write.

* one EAI item: ``{"action": "LEFT_GRASP", "object": "candle_0"}`` (two objects comma-separated:
  ``{"action": "LEFT_PLACE_NEXTTO_ONTOP", "object": "plate_0,table_1"}``);
* call syntax: ``LEFT_GRASP(candle_0)``, ``LEFT_PLACE_NEXTTO_ONTOP(plate_0, table_1)``.

``read_plan`` reads a whole LLM output the way eai-eval 1.0.5 does: the text from the first ``[`` to
the first ``]`` read as a Python literal (the reference ``eval``s it; eai-gym never evaluates code, so
only literals are read), keeping the dicts that have both an ``action`` and an ``object`` key. Each world has its
own action vocabulary (:mod:`eai_gym.envs.behavior.actions`, BEHAVIOR-1K's primitives).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ..core import ActionError, ErrorType
from ..logic import json_text

_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$", re.S)



def read_plan(llm_output: str) -> list[dict[str, Any]]:
    """The steps of an LLM output as the reference reads them (see the module docstring)."""
    start, end = llm_output.find("["), llm_output.find("]")
    try:
        value = ast.literal_eval(llm_output[start:end + 1])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return []
    if not isinstance(value, (list, tuple)):
        return []
    return [a for a in value if isinstance(a, dict) and "action" in a and "object" in a]


def parse_step(text: str) -> tuple[str, list[str]]:
    """One action written by an agent → ``(name, [object, ...])``; raises ActionError (parsing)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            item = json_text.loads(stripped)
        except (ValueError, RecursionError):
            try:
                item = ast.literal_eval(stripped)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise ActionError(ErrorType.PARSING, f"cannot parse action {text!r}") from None
        if not isinstance(item, dict) or "action" not in item or "object" not in item:
            raise ActionError(ErrorType.PARSING,
                              f"an action item needs 'action' and 'object' keys, got {text!r}")
        if not isinstance(item["action"], str) or not isinstance(item["object"], str):
            raise ActionError(ErrorType.PARSING, f"'action' and 'object' must be strings in {text!r}")
        return item["action"], [o.strip() for o in item["object"].strip().split(",")]
    m = _CALL.match(stripped)
    if m is None:
        raise ActionError(ErrorType.PARSING,
                          f"cannot parse action {text!r}: expected ACTION(object) or a JSON item")
    return m.group(1), [o.strip() for o in m.group(2).split(",")]


def to_text(name: str, objects: tuple[str, ...] | list[str]) -> str:
    return f"{name}({', '.join(objects)})"


def to_item(name: str, objects: tuple[str, ...] | list[str]) -> dict[str, str]:
    return {"action": name, "object": ",".join(objects)}

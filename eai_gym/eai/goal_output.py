"""Reading EAI goal-interpretation replies: the JSON object an LLM writes, in each evaluator's dialect.

* VirtualHome (``{"node goals": [{"name", "state"}], "edge goals": [{"from_name", "relation",
  "to_name"}], "action goals": [{"action"}]}``): ``<|eot_id|>`` is removed; a reply that starts with
  ```` ```json ```` loses those 7 characters and every backtick at both ends; surrounding whitespace
  and every newline are removed, ``'`` becomes ``"``, and the rest must be one JSON document.
* BEHAVIOR (``{"node goals": [[state, obj]], "edge goals": [[relation, obj, obj]]}``): the reply is
  lower-cased, ``'`` becomes ``"``, ``toggledon`` becomes ``toggled_on``, and the first ``{...}``
  without nested braces is parsed; a reply with none, or one that is not JSON, predicts nothing.

Both are eai-eval 1.0.5's readers; the ``fixed`` protocol reads replies the same way (the documented
fixes are in how the goals are matched, see ``docs/goal_interpretation.md``).
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ..logic import json_text

_FIRST_FLAT_OBJECT = re.compile(r"{[^{}]*}", re.DOTALL)


def clean_virtualhome_reply(text: str) -> str:
    """The text eai-eval 1.0.5 hands to ``json.loads`` for a VirtualHome reply."""
    text = text.replace("<|eot_id|>", "")
    if text.startswith("```json"):
        text = text[7:].strip("`")
    return text.strip().replace("\n", "").replace("'", '"')


def read_virtualhome_reply(text: str) -> tuple[Any, str | None]:
    """``(parsed JSON value, None)`` or ``(None, why it is not JSON)``."""
    try:
        return json_text.loads(clean_virtualhome_reply(text)), None
    except (ValueError, RecursionError) as e:
        return None, f"the reply is not JSON after cleaning ({e})"


def read_behavior_reply(text: str) -> tuple[dict, str | None]:
    """``(parsed object, None)``, or ``({"node goals": [], "edge goals": []}, why)`` when unreadable."""
    text = text.lower().replace("'", '"').replace("toggledon", "toggled_on")
    m = _FIRST_FLAT_OBJECT.search(text)
    if m is None:
        why = "the reply holds no {...} object without nested braces"
    else:
        try:
            return json_text.loads(m.group(0)), None
        except (ValueError, RecursionError) as e:
            why = f"the first {{...}} of the reply is not JSON ({e})"
    return {"node goals": [], "edge goals": []}, why


def frozen(value: Any) -> Any:
    """A hashable stand-in for a JSON value: equal values (``==``) give equal stand-ins."""
    if isinstance(value, dict):
        return frozenset((k, frozen(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


def unique_values(values: Iterable[Any]) -> list[Any]:
    """Values without repeats, as eai-eval's ``remove_duplicate_dicts`` keeps them: equal values (dicts
    compared as key/value sets, lists element-wise, ``1 == 1.0 == True``) keep the position of the
    first and the object of the last."""
    kept: dict[Any, Any] = {}
    for v in values:
        kept[frozen(v)] = v
    return list(kept.values())

"""VirtualHome action vocabulary and the two action syntaxes agents write.

* script syntax: ``[WALK] <kitchen> (11)``, ``[PUTBACK] <soap> (1002) <washing_machine> (1001)``,
  ``[STANDUP]`` (an id written ``(1.417)`` is read as 417, as in the shipped scripts);
* one EAI JSON item: ``{"WALK": ["kitchen", "11"]}``, ``{"STANDUP": []}``.
"""

from __future__ import annotations

import re
from typing import Any

from ...core import Action, ActionError, ErrorType
from ...logic import json_text

#: Number of objects each action takes: every action the evolving-graph simulator executes,
#: plus the LOOKAT duration variants its action enum declares.
ARITY: dict[str, int] = {
    "CLOSE": 1, "DRINK": 1, "FIND": 1, "WALK": 1, "GRAB": 1, "LOOKAT": 1, "LOOKAT_SHORT": 1,
    "LOOKAT_MEDIUM": 1, "LOOKAT_LONG": 1, "OPEN": 1, "POINTAT": 1, "PUTBACK": 2, "PUTIN": 2,
    "PUTOBJBACK": 1, "RUN": 1, "SIT": 1, "STANDUP": 0, "SWITCHOFF": 1, "SWITCHON": 1, "TOUCH": 1,
    "TURNTO": 1, "WATCH": 1, "WIPE": 1, "PUTON": 1, "PUTOFF": 1, "GREET": 1, "DROP": 1, "READ": 1,
    "LIE": 1, "POUR": 2, "TYPE": 1, "PUSH": 1, "PULL": 1, "MOVE": 1, "WASH": 1, "RINSE": 1,
    "SCRUB": 1, "SQUEEZE": 1, "PLUGIN": 1, "PLUGOUT": 1, "CUT": 1, "EAT": 1, "SLEEP": 0,
    "WAKEUP": 0, "RELEASE": 1,
}

#: The action names the eai-eval 1.0.5 action-sequencing evaluator accepts (its grammar whitelist):
#: everything above except PLUGIN, PLUGOUT and RELEASE.
REFERENCE_WHITELIST: frozenset[str] = frozenset(ARITY) - {"PLUGIN", "PLUGOUT", "RELEASE"}

#: Names that execute as another action (the simulator's enum aliases LOOKAT_MEDIUM to LOOKAT).
ALIASES: dict[str, str] = {"LOOKAT_MEDIUM": "LOOKAT", "RUN": "WALK", "RELEASE": "DROP"}

#: object ids have at most this many digits: a longer digit string names no object (and is never converted,
#: which costs time quadratic in its length and which Python refuses beyond 4,300 digits)
MAX_ID_DIGITS = 18

_LINE = re.compile(r"^\s*\[\s*(\w+)\s*\](.*)$", re.S)
_ARG = re.compile(r"\s*<([^<>]+)>\s*\(\s*([0-9]+(?:\.[0-9]+)*)\s*\)")


def object_id(digits: str) -> int | None:
    """The object id a string of decimal digits names; None for anything else (a longer string, a sign, ``²``)."""
    return int(digits) if digits.isdecimal() and len(digits) <= MAX_ID_DIGITS else None


def parse_script_line(text: str) -> tuple[str, list[tuple[str, int]]]:
    """Split ``[NAME] <obj> (id) ...`` into ``("NAME", [("obj", id), ...])``.

    The action name is upper-cased; object names are lower-cased with spaces as underscores (as the
    simulator reads them). Raises :class:`ActionError` (parsing) for anything else.
    """
    m = _LINE.match(text)
    if m is None:
        raise ActionError(ErrorType.PARSING, f"cannot parse action {text!r}: expected '[ACTION] <object> (id)'")
    name = m.group(1).upper()
    rest = m.group(2)
    args = []
    pos = 0
    while True:
        a = _ARG.match(rest, pos)
        if a is None:
            break
        oid = object_id(a.group(2).split(".")[-1])
        if oid is None:
            raise ActionError(ErrorType.HALLUCINATION, f"no object <{a.group(1).strip()}> with an id of "
                                                       f"{len(a.group(2)):,} digits in the scene")
        args.append((a.group(1).strip().lower().replace(" ", "_"), oid))
        pos = a.end()
    if rest[pos:].strip():
        raise ActionError(ErrorType.PARSING, f"cannot parse the arguments of {text!r}: expected '<object> (id)' pairs")
    return name, args


def parse_json_item(text: str) -> tuple[str, list[Any]]:
    """Parse one EAI JSON item ``{"NAME": [name, id, ...]}`` into ``("NAME", [name, id, ...])``."""
    try:
        obj = json_text.loads(text)
    except (ValueError, RecursionError) as e:
        raise ActionError(ErrorType.PARSING, f"cannot parse action {text!r} as JSON: {e}") from None
    if not isinstance(obj, dict) or len(obj) != 1:
        raise ActionError(ErrorType.PARSING, f"an action item must be a JSON object with one key, got {text!r}")
    (name, values), = obj.items()
    if not isinstance(values, list):
        raise ActionError(ErrorType.PARSING, f"the value of {name!r} must be a list [name, id, ...]")
    return name, values


def pairs_from_values(name: str, values: list[Any]) -> list[tuple[str, Any]]:
    """``[name1, id1, name2, id2]`` → ``[(name1, id1), (name2, id2)]``; odd lengths are parsing errors."""
    if len(values) % 2:
        raise ActionError(ErrorType.PARSING, f"{name}: arguments must be name/id pairs, got {values!r}")
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def to_script(action: Action) -> str:
    """Render an action in script syntax, e.g. ``[PUTBACK] <soap> (1002) <washing_machine> (1001)``."""
    parts = [f"[{action.name}]"]
    for n, i in zip(action.arg_names, action.args):
        parts.append(f"<{n}> ({i})")
    return " ".join(parts)

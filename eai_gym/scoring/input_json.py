"""Reading the JSON files a user gives (plans, cases) whatever they hold.

Python's JSON reader refuses an integer of more than 4,300 digits (``ValueError``) and recurses once per nesting
level (``RecursionError`` past about a thousand). :func:`load_json_text` reads such integers as floats, and reads
a list or object whose elements nest too deep element by element, an element too deep standing as an
:class:`UnreadableItem` that the scorers record as that item's ``invalid_input``: one item never costs the
others. Time is linear in the text.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: integers of more digits than this are read as floats (Python converts at most 4,300 digits to an integer)
MAX_INT_DIGITS = 4000


class UnreadableItem:
    """Stands in for a value of a plans file that cannot be read (nested too deep for Python's JSON reader):
    scoring an item that is (or holds) one gives the item's ``invalid_input`` record."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"UnreadableItem({self.reason!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UnreadableItem) and other.reason == self.reason

    def __hash__(self) -> int:
        return hash(self.reason)

    def __reduce__(self) -> tuple:
        return (UnreadableItem, (self.reason,))


#: in a value too deep to read: a JSON string (its end optional, so that no match fails and the scan stays
#: linear), or a run of opening or of closing brackets and braces
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]+|[\]}]+', re.DOTALL)
_SPACE = re.compile(r"\s*")


def _number(text: str) -> int | float:
    """A JSON integer literal: an int, or a float for one too long to convert (infinity beyond a float's range)."""
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return float(text)
    try:
        return int(text)
    except ValueError:  # a limit set lower than ours (sys.set_int_max_str_digits)
        return float(text)


_DECODER = json.JSONDecoder(parse_int=_number)


def load_json_text(text: str) -> Any:
    """The JSON value of a plans or cases file, read whatever it holds: integers too long to convert become
    floats (:func:`_number`), and in a list or object whose elements nest too deep for Python's reader (about a
    thousand levels) each such element becomes an :class:`UnreadableItem` (the others are read). Raises
    :class:`json.JSONDecodeError` (a :class:`ValueError`) for text that is not JSON."""
    try:
        return json.loads(text, parse_int=_number)
    except RecursionError:
        return _load_elements(text)


def _load_elements(text: str) -> Any:
    """The top-level list or object of ``text``, element by element (see :func:`load_json_text`): each is read
    by Python's reader, and one too deep for it is skipped by counting brackets."""
    at = _SPACE.match(text).end()
    opener = text[at:at + 1]
    if opener not in ("[", "{"):
        raise json.JSONDecodeError("nested too deep to read", text, at)
    closer = "]" if opener == "[" else "}"
    values: list = []
    keys: list = []
    at = _SPACE.match(text, at + 1).end()
    while text[at:at + 1] != closer or values or keys:
        if opener == "{":
            key, at = _DECODER.raw_decode(text, at)
            at = _SPACE.match(text, at).end()
            if not isinstance(key, str) or text[at:at + 1] != ":":
                raise json.JSONDecodeError("expected a key and ':'", text, at)
            keys.append(key)
            at = _SPACE.match(text, at + 1).end()
        try:
            value, at = _DECODER.raw_decode(text, at)
        except RecursionError:
            value, at = UnreadableItem(f"value {len(values)} of the file is nested too deep to read (over a "
                                       "thousand levels)"), _skip_value(text, at)
        values.append(value)
        at = _SPACE.match(text, at).end()
        if text[at:at + 1] == closer:
            break
        if text[at:at + 1] != ",":
            raise json.JSONDecodeError(f"expected ',' or '{closer}'", text, at)
        at = _SPACE.match(text, at + 1).end()
    if text[_SPACE.match(text, at + 1).end():]:
        raise json.JSONDecodeError("extra data", text, at + 1)
    return values if opener == "[" else dict(zip(keys, values))


def _skip_value(text: str, at: int) -> int:
    """Where the list or object that starts at ``at`` ends (brackets in strings do not count)."""
    depth = 0
    for m in _TOKEN.finditer(text, at):
        c = text[m.start()]
        if c == "[" or c == "{":
            depth += m.end() - m.start()
        elif c == "]" or c == "}":
            if depth <= m.end() - m.start():
                return m.start() + depth
            depth -= m.end() - m.start()
    raise json.JSONDecodeError("a list or object is not closed", text, at)

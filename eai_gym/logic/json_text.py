"""Reading JSON that a model wrote: :func:`json.loads` with a nesting limit.

Python's JSON reader recurses once per nesting level and raises :class:`RecursionError` past about a thousand
levels, and whatever walks the value afterwards recurses the same way. A value nested more than
:data:`MAX_DEPTH` levels deep is therefore refused up front, with a :class:`ValueError` like any other text that
is not JSON (numbers of more than 4,300 digits already are). The check costs nothing for a text with at most
:data:`MAX_DEPTH` brackets and braces, and one pass over the brackets, braces and strings otherwise.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: JSON nested deeper than this is not read (no reply or plan nests more than a few levels)
MAX_DEPTH = 100

#: a string (its end optional: an unterminated string runs to the end of the text, so no match fails and the
#: scan stays linear), or a bracket or brace
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class TooDeep(ValueError):
    """JSON nested more than :data:`MAX_DEPTH` levels deep."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"JSON nested more than {limit} levels deep")


def nesting_exceeds(text: str, start: int = 0, limit: int = MAX_DEPTH) -> bool:
    """True if the first JSON value at or after ``start`` nests more than ``limit`` levels deep (brackets in
    strings do not count)."""
    if text.count("[", start) + text.count("{", start) <= limit:
        return False
    first = _SPACE.match(text, start).end()
    if text[first:first + 1] not in ("[", "{"):  # a string, number or word: nothing nests
        return False
    depth = 0
    for m in _TOKENS.finditer(text, start):
        c = text[m.start()]
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return True
        elif c == "]" or c == "}":
            depth -= 1
            if depth <= 0:
                return False
    return False


def loads(text: str, limit: int = MAX_DEPTH) -> Any:
    """:func:`json.loads`; raises :class:`ValueError` for text that is not JSON, holds a number of more than
    4,300 digits, or nests more than ``limit`` levels deep."""
    if nesting_exceeds(text, 0, limit):
        raise TooDeep(limit)
    return json.loads(text)


def raw_decode(text: str, limit: int = MAX_DEPTH) -> tuple[Any, int]:
    """:meth:`json.JSONDecoder.raw_decode` of the JSON value that starts ``text`` (and where it ends), with the
    errors of :func:`loads`."""
    if nesting_exceeds(text, 0, limit):
        raise TooDeep(limit)
    return _DECODER.raw_decode(text)

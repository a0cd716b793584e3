"""``repr`` for messages about input: bounded in length, and made for any value (nested 100,000 levels deep, an
integer of more digits than Python writes out, a megabyte of text)."""

from __future__ import annotations

import reprlib
from typing import Any

#: characters of a value's ``repr`` a message shows
LIMIT = 1000


class _ShortRepr(reprlib.Repr):
    """:mod:`reprlib`'s bounded ``repr`` (a few levels, a few elements, long texts cut), wide integers too."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * self.maxlong:
            return f"<an integer of {x.bit_length():,} bits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()
_SHORT.maxstring = _SHORT.maxother = 120


def short_repr(value: Any) -> str:
    """A ``repr`` of a few levels, elements and characters of ``value``."""
    try:
        return _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails: its type
        return f"<{type(value).__name__}>"


def bounded_repr(value: Any, limit: int = LIMIT) -> str:
    """``repr(value)`` when that can be made and is at most ``limit`` characters (cut there otherwise); for a
    value nested too deep or an integer too wide to write out, :func:`short_repr`."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        return short_repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit:,} more characters)"

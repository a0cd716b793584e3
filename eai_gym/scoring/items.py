"""What every scorer says about an input item it cannot score: its identifier as a record can hold it, and a
message naming the item (its index, its identifier) and the cause.

An item's identifier is echoed into its record only as a value every later step can handle (JSON-encode,
hash, print): a string, a boolean, a float or an integer of at most :data:`MAX_INT_BITS` bits; anything else
(a list, an object, a 5,000-digit number) is recorded as None and described by its type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.safe_repr import short_repr

__all__ = ["MAX_INT_BITS", "describe_error", "describe_item", "item_identifier", "plain_record", "quote",
           "safe_identifier", "short_repr"]

#: integers wider than this are not echoed (Python converts at most 4,300 digits to text by default)
MAX_INT_BITS = 4_000
#: characters of an identifier or of an error's text quoted in a message
MAX_QUOTE = 120


def safe_identifier(value: Any) -> str | int | float | bool | None:
    """``value`` if a record can hold it as an identifier (see the module's docstring), else None."""
    if value is None or isinstance(value, (str, bool, float)):
        return value
    if isinstance(value, int) and value.bit_length() <= MAX_INT_BITS:
        return value
    return None


def item_identifier(item: Any, fields: tuple[str, ...] = ("identifier",)) -> str | int | float | bool | None:
    """The safe identifier of an item: the first of ``fields`` it has (None for an item that is not an object)."""
    if type(item) is not dict and not isinstance(item, Mapping):
        return None
    for name in fields:
        if name in item:
            return safe_identifier(item[name])
    return None


def quote(text: str, limit: int = MAX_QUOTE) -> str:
    """``repr(text)``, cut to ``limit`` characters (with how many more there were)."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text) - limit:,} more characters)"


def describe_item(index: int | None, identifier: Any) -> str:
    """``item 3 (identifier 'abc')``: how messages name an item."""
    name = "item" if index is None else f"item {index}"
    if identifier is None:
        return name
    shown = quote(identifier) if isinstance(identifier, str) else repr(identifier)
    return f"{name} (identifier {shown})"


def describe_error(error: BaseException) -> str:
    """``RecursionError: maximum recursion depth exceeded``: an exception's type and the start of its text."""
    try:
        text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    except Exception:  # noqa: BLE001 - an exception whose text cannot be made
        text = ""
    if len(text) > 2 * MAX_QUOTE:
        text = text[:2 * MAX_QUOTE] + f"... ({len(text) - 2 * MAX_QUOTE:,} more characters)"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def plain_record(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item a mode does not score, for a mode whose summary reads only ``status``."""
    return {"identifier": identifier, "status": status, "message": message}

"""Hostile input for every scorer: what a careless or hostile plans file holds, derived from valid items.

:func:`hostile_variants` turns a valid item into items that are wrong in one place each: the whole item, or one
value at any level (of the item, and of the JSON texts it holds) replaced by a value of another type, a
100,000-level nesting, a 5,000-digit number, a lone surrogate, a NUL byte or a 1 MB string, and texts with
those inside. The shared test modules import it (``tests/scoring``, ``tests/envs``).
"""

from __future__ import annotations

import gzip
import itertools
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest

from eai_gym import registry

#: nesting depth of the deep values (far beyond Python's recursion limit)
DEPTH = 100_000
#: a number with more digits than Python converts to or from text by default (4,300)
DIGITS = 5_000
MB = 1_000_000


def nested_list(depth: int = DEPTH) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def nested_dict(depth: int = DEPTH) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def big_number() -> int:
    return 10 ** DIGITS - 1  # made without converting text (which Python refuses beyond 4,300 digits)


@lru_cache(maxsize=1)
def _values() -> tuple:
    return tuple(_make_values())


def hostile_values() -> list[tuple[str, Any]]:
    """``(name, value)``: values of every JSON type, and the hostile ones (made once: do not change them)."""
    return list(_values())


def _make_values() -> list[tuple[str, Any]]:
    return [("null", None), ("true", True), ("zero", 0), ("negative", -7), ("float", 2.5),
            ("digits", big_number()), ("empty", ""), ("surrogate", "\ud800"), ("nul", "a\x00b"),
            ("megabyte", "x" * MB), ("list", []), ("dict", {}), ("list_of_str", ["x"]),
            ("deep_list", nested_list()), ("deep_dict", nested_dict())]


def hostile_texts() -> list[tuple[str, str]]:
    """``(name, text)``: texts a parser meets in a model's reply."""
    digits = "9" * DIGITS
    return [("brackets", "[" * DEPTH), ("braces", "{" * DEPTH), ("parens", "(" * DEPTH),
            ("closed_brackets", "[" * DEPTH + "]" * DEPTH), ("action_keys", '{"action": ' * 1000),
            ("output_keys", '{"output": [' * 1000), ("digit_text", digits), ("digit_list", f"[{digits}]"),
            ("digit_id", f'{{"WALK": ["kitchen", "{digits}"]}}'),
            ("digit_object", f'[{{"action": "OPEN", "object": "a.{digits}"}}]'),
            ("digit_call", f"OPEN(fridge.{digits})"), ("surrogate", "\ud800"), ("nul", "\x00"),
            ("megabyte", "[" + "x" * MB + "]"), ("megabyte_words", "open fridge " * (MB // 12))]


def _paths(value: Any, prefix: tuple = (), depth: int = 0) -> Iterator[tuple]:
    """Paths to the values inside ``value``: every key of each object, the first and last element of each list."""
    if depth > 6:
        return
    if isinstance(value, dict):
        keys = list(value)
    elif isinstance(value, list):
        keys = sorted({0, len(value) - 1}) if value else []
    else:
        return
    for k in keys:
        yield (*prefix, k)
        yield from _paths(value[k], (*prefix, k), depth + 1)


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


def _get(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def _json_text(value: Any) -> Any:
    """The JSON value a string holds (an object or a list), else None."""
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return None
    try:
        inner = json.loads(value)
    except ValueError:
        return None
    return inner if isinstance(inner, (dict, list)) else None


def hostile_variants(item: Any, limit_paths: int = 12) -> list[tuple[str, Any]]:
    """``(name, item)``: ``item`` wrong in one place each (see the module's docstring)."""
    return list(iter_variants(item, limit_paths))


def iter_variants(item: Any, limit_paths: int = 12) -> Iterator[tuple[str, Any]]:
    """:func:`hostile_variants`, made one at a time."""
    values = hostile_values()
    yield from ((f"item={n}", v) for n, v in values)
    for path in list(_paths(item))[:limit_paths]:
        where = "/".join(map(str, path))
        yield from ((f"{where}={n}", _replace(item, path, v)) for n, v in values)
        leaf = _get(item, path)
        if isinstance(leaf, str):
            yield from ((f"{where}+={n}", _replace(item, path, leaf + t)) for n, t in hostile_texts())
            yield from ((f"{where}:={n}", _replace(item, path, t)) for n, t in hostile_texts())
            inner = _json_text(leaf)
            if inner is not None:  # a JSON text: wrong types inside it too
                for inner_path in list(_paths(inner))[:limit_paths]:
                    iw = "/".join(map(str, inner_path))
                    yield from ((f"{where}>{iw}={n}", _replace(item, path, json.dumps(_replace(inner, inner_path, v))))
                                for n, v in values if n not in ("deep_list", "deep_dict", "digits", "megabyte"))


def hostile_batch(valid: Sequence[Any], count: int | None = None) -> list[tuple[str, Any]]:
    """``(name, item)``: every variant of :func:`hostile_variants`, the ``j``-th made from valid item
    ``j % len(valid)``, so that variants that keep their item's identifier name different tasks where there are
    enough valid items (a later item naming the task of an earlier one is not scored)."""
    n = variant_count(valid[0]) if count is None else count
    out = []
    for j in range(n):
        base = valid[j % len(valid)]
        out.append(next(itertools.islice(iter_variants(base), j % variant_count(base), None)))
    return out


def variant_count(item: Any, limit_paths: int = 12) -> int:
    """How many variants :func:`iter_variants` makes of ``item``."""
    n_values, n_texts = len(hostile_values()), len(hostile_texts())
    n_inner = sum(1 for name, _ in hostile_values() if name not in ("deep_list", "deep_dict", "digits", "megabyte"))
    count = n_values
    for path in list(_paths(item))[:limit_paths]:
        count += n_values
        leaf = _get(item, path)
        if isinstance(leaf, str):
            count += 2 * n_texts
            inner = _json_text(leaf)
            if inner is not None:
                count += n_inner * len(list(_paths(inner))[:limit_paths])
    return count


def dumps(value: Any) -> str:
    """JSON text of an item made by this module, the deep values and wide numbers included (which
    :func:`json.dumps` refuses): what a plans file holding them says."""
    values = dict(_values())
    deep_list, deep_dict = values["deep_list"], values["deep_dict"]
    if value is deep_list:
        return "[" * DEPTH + "]" * DEPTH
    if value is deep_dict:
        return '{"a": ' * DEPTH + "{}" + "}" * DEPTH
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 10_000:
        return "9" * DIGITS
    if isinstance(value, list):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


# --------------------------------------------------------------------------- the registry's modes and their valid items
PARTNR = Path(__file__).parents[1] / "reference" / "data" / "partnr" / "recorded_cases.json.gz"
MODES = [(w.name, m.name, p) for w in registry.worlds() for m in w.modes for p in m.protocols]
IDS = ["/".join(c) for c in MODES]
#: what the runner's per-item boundary writes: a record made there means the scorer raised
BOUNDARY = "cannot be scored:"


def options_of(spec: registry.ModeSpec) -> dict:
    """The mode's option defaults, without a planner (the planner's own tests cover it)."""
    options = {o.name: o.default for o in spec.options}
    if "planner" in options:
        options["planner"] = "none"
    return options


def flags_of(spec: registry.ModeSpec) -> list[str]:
    return ["--planner", "none"] if spec.option("planner") else []


@lru_cache(maxsize=None)
def valid_items(world: str, mode: str) -> tuple:
    """Valid items of the mode: its packaged gold items (the fact-replay mode, which has none: recorded cases)."""
    spec = registry.mode(world, mode)
    if spec.gold is not None:
        return tuple(spec.gold_items(options_of(spec)))
    if (world, mode) == ("rearrange", "facts"):
        with gzip.open(PARTNR, "rt", encoding="utf-8") as f:
            return tuple(c["input"] for c in json.load(f)[:80])
    pytest.skip(f"{world} {mode}: no valid items to start from")


def units_of(world: str, mode: str, items: list) -> list:
    """What the mode's reader makes of items (the fact-replay mode reads ``(default case id, case)`` pairs)."""
    return [(f"case[{k}]", it) for k, it in enumerate(items)] if (world, mode) == ("rearrange", "facts") else items

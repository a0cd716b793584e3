"""The packaged BEHAVIOR-1K data (``eai_gym/data/behavior1k``, written by ``tools/convert/behavior1k.py``)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ...core import UnknownTaskError


@lru_cache(maxsize=1)
def raw() -> dict[str, Any]:
    """The whole data file (loaded once per process)."""
    ref = resources.files("eai_gym.data") / "behavior1k" / "behavior1k.json.gz"
    with ref.open("rb") as f:
        data: dict[str, Any] = json.loads(gzip.decompress(f.read()))
    return data


def activity_names() -> tuple[str, ...]:
    return tuple(raw()["activities"])


def activity_record(activity: str) -> dict[str, Any]:
    """``{"objects": {category: [instances]}, "init": [...], "goal": [...]}``; unknown names raise."""
    if not isinstance(activity, str):
        raise UnknownTaskError(f"BEHAVIOR-1K activity must be a string, got {activity!r}")
    try:
        rec: dict[str, Any] = raw()["activities"][activity]
    except KeyError:
        raise UnknownTaskError(f"unknown BEHAVIOR-1K activity {activity!r} (there are {len(activity_names())}, "
                               f"e.g. {activity_names()[0]!r})") from None
    return rec


def predicate_arity() -> dict[str, int]:
    """Predicates of bddl's ``domain_omnigibson.bddl`` and their arities."""
    out: dict[str, int] = raw()["predicates"]
    return out

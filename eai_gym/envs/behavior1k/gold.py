"""The packaged gold plans (``eai_gym/data/behavior1k/gold_plans.json.gz``, written by
``tools/convert/behavior1k_gold_plans.py``): one plan per activity the planner solved, and the reason for the others."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from .data import activity_record


@lru_cache(maxsize=1)
def gold_data() -> dict[str, Any]:
    ref = resources.files("eai_gym.data") / "behavior1k" / "gold_plans.json.gz"
    if not ref.is_file():
        return {"plans": {}, "unsolved": {}}
    with ref.open("rb") as f:
        data: dict[str, Any] = json.loads(gzip.decompress(f.read()))
    return data


def gold_plan(activity: str) -> list[str]:
    """The gold plan of ``activity`` as action texts (``[]`` when the planner found none)."""
    activity_record(activity)  # unknown names raise
    plan: list[str] = gold_data()["plans"].get(activity, [])
    return plan

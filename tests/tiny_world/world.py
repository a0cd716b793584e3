"""The tiny world's transition model: facts, and what each action needs and adds (read from ``tasks.json``)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=1)
def data() -> dict[str, Any]:
    return json.loads((Path(__file__).parent / "tasks.json").read_text())


def task_ids() -> list[str]:
    return sorted(data()["tasks"])


def step_facts(facts: frozenset, action: Any) -> tuple[frozenset, str | None]:
    """The facts after ``action`` and the error (None: it executed)."""
    rules = data()["rules"]
    text = action.strip().lower() if isinstance(action, str) else None
    if text not in rules:
        return facts, "unknown action"
    needs, adds = rules[text]
    missing = [f for f in needs if f not in facts]
    return (facts, f"needs {missing[0]}") if missing else (facts | {adds}, None)

"""The tiny world's task set, for ``eai-gym list``, ``show`` and ``play``."""

from __future__ import annotations

from typing import Any

from .world import data, task_ids

ENV_ID = "eai_gym_tests/Tiny-v0"


def ids() -> list[str]:
    return task_ids()


def names() -> list[str]:
    return [data()["tasks"][t]["instruction"] for t in task_ids()]


def card(task: str) -> dict[str, Any]:
    t = data()["tasks"][task]
    return {"id": task, "name": task, "instruction": t["instruction"], "goal": [t["goal"]],
            "objects": ["box", "key", "door"], "gold_plan": t["gold"], "gold_plan_source": "annotated"}


def play(task: str, protocol: str) -> tuple[str, dict, None]:
    return ENV_ID, {"task_id": task, "protocol": protocol}, None


def legal_actions(env: Any) -> list[str]:
    return sorted(data()["rules"])


def category(task: str) -> None:
    return None

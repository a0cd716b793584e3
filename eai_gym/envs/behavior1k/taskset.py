"""BEHAVIOR-1K's activities as ``eai-gym list``, ``show``, ``play`` and ``report`` see them (named by its
:mod:`.spec`)."""

from __future__ import annotations

from typing import Any


def ids() -> list[str]:
    from .data import activity_names

    return list(activity_names())


def names() -> list[str]:
    return [a.replace("_", " ") for a in ids()]


def card(t: str) -> dict[str, Any]:
    from .gold import gold_data
    from .world import load_task

    task = load_task(t)
    objects = sorted({a for f in task.initial_state.facts for a in f[1:]})
    plan = list(task.gold_plan)
    reason = gold_data()["unsolved"].get(t)
    return {"id": t, "name": task.name, "instruction": task.instruction,
            "goal": list(task.metadata["behavior1k"]["goal_bddl"]), "objects": objects, "gold_plan": plan,
            "gold_plan_source": "symbolic planner" if plan else f"none: {reason}"}


def play(t: str | None, protocol: str) -> tuple[str, dict, dict | None]:
    return "eai_gym/Behavior1K-v0", {}, None if t is None else {"activity": t}


def legal_actions(env: Any) -> list[str]:
    """The env's legal actions, from its kept mask (:meth:`~.env.Behavior1KEnv.legal_actions`)."""
    return env.unwrapped.legal_actions()


def category(t: str) -> None:
    return None

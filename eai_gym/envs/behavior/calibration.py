"""The ``calibrated`` initial states: the reference defaults plus the values inferred from the gold
plans by ``tools/convert/behavior_calibration.py`` (see that tool for the rule; ``docs/behavior.md`` lists them)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from .state import NEXTTO, BehaviorState


@lru_cache(maxsize=1)
def calibration() -> dict:
    """``{task_id: {"changes": [...], "status": ..., "reason": ..., "correction": ...}}``; status ``ok``
    (the gold plan runs without any error), ``additional_steps`` (it executes and reaches the goal with the
    additional steps the reason lists), ``annotation_error`` (no initial state helps; ``correction`` fixes
    the plan) or ``unresolved``."""
    ref = resources.files("eai_gym.data") / "behavior" / "calibration.json"
    return json.loads(ref.read_text())["tasks"]


def calibrate(task_id: str, state: BehaviorState) -> BehaviorState:
    """``state`` with the task's inferred values applied (unary ``[object, key, value]`` or relation
    ``[a, relation, b, true]`` changes)."""
    changes = calibration().get(task_id, {}).get("changes", [])
    return apply_changes(state, changes) if changes else state


def apply_changes(state: BehaviorState, changes) -> BehaviorState:
    """A copy of ``state`` with the changes applied."""
    s = state.copy()
    for change in changes:
        if len(change) == 3:
            obj, key, value = change
            s.set_value(obj, key, value)
        else:
            a, rel, b, _ = change
            s.add_edge(a, rel, b)
            if rel == NEXTTO:
                s.add_edge(b, rel, a)
    return s


def corrected_plan(plan: list[dict], correction: list[list]) -> list[dict]:
    """``plan`` with an annotation error corrected: each ``[step, action, object]`` replaces a step,
    ``[step, None, None]`` drops it (steps numbered as in ``plan``)."""
    fix = {}
    for entry in correction:
        if len(entry) != 3 or not isinstance(entry[0], int) or not 0 <= entry[0] < len(plan):
            raise ValueError(f"a correction is [step, action, object] with a step of the plan, got {entry!r}")
        fix[entry[0]] = (entry[1], entry[2])
    out = []
    for i, step in enumerate(plan):
        if i in fix:
            if fix[i][0] is None:
                continue
            step = {"action": fix[i][0], "object": fix[i][1]}
        out.append(step)
    return out

"""Preconditions of the BEHAVIOR evolving graph, in the reference's order.

A precondition is a function ``(state) -> (error, message) | None``. An action's precondition list is
checked in order and stops at the first failure. ``check`` also runs the list on earlier states when
the action uses the temporal check: if it held in one of them, a wrong-order error is recorded too.
The error strings are the reference's ``ErrorType`` names.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...core.answers import state_query
from .state import INSIDE, BehaviorState

AFF, MISSING, ADD, ORDER = "AFFORDANCE_ERROR", "MISSING_STEP", "ADDITIONAL_STEP", "WRONG_TEMPORAL_ORDER"

Check = Callable[[BehaviorState], "tuple[str, str] | None"]


class Errors:
    """The errors an action records, in order (``(type, reason)``)."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def add(self, kind: str, reason: str) -> None:
        self.items.append((kind, reason))


def run_checks(state: BehaviorState, checks: Sequence[Check]) -> tuple[str, str] | None:
    for c in checks:
        r = c(state)
        if r is not None:
            return r
    return None


def check(errors: Errors, state: BehaviorState, history: Sequence[BehaviorState],
          checks: Sequence[Check], temporal: bool) -> bool:
    """Check ``checks`` on ``state``; on failure record it and, with ``temporal``, a wrong order if
    the checks all passed in some earlier state."""
    r = run_checks(state, checks)
    if r is None:
        return True
    errors.add(*r)
    if temporal:
        for old in history:
            if run_checks(old, checks) is None:
                errors.add(ORDER, "Temporal order is wrong")
                break
    return False


# ------------------------------------------------------------------ queries (kept as facts by the index mask)
@state_query
def both_hands_full(s: BehaviorState) -> bool:
    return s.hands[0] is not None and s.hands[1] is not None


@state_query
def holding_with(s: BehaviorState, key: str) -> bool:
    """A hand holds an object that has the state ``key`` (a slicer, a cleaning tool)."""
    return any(h is not None and s.value(h, key) is not None for h in s.hands)


@state_query
def holding_soaked_cleaner(s: BehaviorState) -> bool:
    """A hand holds a soaked cleaning tool, or detergent (CLEAN_STAIN's cleaner in the hands)."""
    for h in s.hands:
        if h is None:
            continue
        if s.value(h, "CleaningTool") is not None and s.value(h, "Soaked"):
            return True
        if "detergent" in h:
            return True
    return False


@state_query
def interactivity_error(s: BehaviorState, obj: str) -> tuple[str, str] | None:
    """Inside a closed container (along the tree), or a sliced whole object: the error; else None."""
    if s.scene.is_floor(obj):
        return None
    for node, par, link in s.ancestors(obj):
        if s.value(par, "Open") is False and link == INSIDE:
            return MISSING, f"{par} is closed, open first"
    if s.value(obj, "Sliced") and "part" not in obj:
        return AFF, f"{obj} is sliced, you need to interact with parts of it"
    return None


# ------------------------------------------------------------------ what the hand actions' checks read
def in_a_hand(s: BehaviorState, obj: str) -> bool:
    return obj in s.hands


def has_contents(s: BehaviorState, held: str) -> bool:
    """Something is inside or on top of ``held`` (it has children in the tree)."""
    return bool(s.children.get(held))


def too_big_content(s: BehaviorState, held: str, target: str) -> str | None:
    """The first of ``held``'s children with a larger volume than ``target`` (None if none)."""
    objects = s.scene.objects
    limit = objects[target].volume
    return next((c for c in s.children.get(held, ()) if objects[c].volume > limit), None)


# ------------------------------------------------------------------ shared checks
def interactivity(obj: str) -> Check:
    """Not inside a closed container (along the tree), and not a sliced whole object."""
    def c(s: BehaviorState):
        return interactivity_error(s, obj)
    return c


def high_level(obj: str, key: str, target: bool, hands_free: bool = True) -> Check:
    """One hand free (unless ``hands_free`` is off), the object has the state, not already there."""
    def c(s: BehaviorState):
        if hands_free and both_hands_full(s):
            return MISSING, "Robot's both hands are full (HIGH_LEVEL_ACTION)"
        v = s.value(obj, key)
        if v is None:
            return AFF, f"Object {obj} does not have target state (HIGH_LEVEL_ACTION)"
        if v == target:
            return ADD, "Object's state is already satisfied (HIGH_LEVEL_ACTION)"
        return None
    return c


def place(obj: str, hand: str) -> Check:
    """Something in the hand, and the target is neither it nor among what it carries."""
    def c(s: BehaviorState):
        return place_failure(s, obj, hand)
    return c


def place_failure(s: BehaviorState, obj: str, hand: str) -> tuple[str, str] | None:
    """:func:`place`'s check: the error, or None."""
    held = s.held(hand)
    if held is None:
        return MISSING, "Robot is not holding anything (PLACE)"
    return placing_error(s, obj, held)


def placing_error(s: BehaviorState, obj: str, held: str) -> tuple[str, str] | None:
    """Why ``obj`` cannot take what the hand holds (``held``, with what it carries), or None."""
    if obj == held:
        return MISSING, "Release target obj first before place (PLACE)"
    if obj in s.subtree(held):
        return MISSING, f"Release target obj {obj} first before place (PLACE)"
    return None


def ancestor_named(s: BehaviorState, obj: str, names: Sequence[str],
                   condition: Callable[[BehaviorState, str], bool] = lambda s, p: True) -> bool:
    """Some tree ancestor of ``obj`` whose name contains one of ``names`` and meets ``condition``."""
    for _, par, _ in s.ancestors(obj):
        if any(n in par for n in names) and condition(s, par):
            return True
    return False


def toggled_on(s: BehaviorState, name: str) -> bool:
    return s.value(name, "ToggledOn") is True


def not_toggled_off(s: BehaviorState, name: str) -> bool:
    return s.value(name, "ToggledOn") is not False


# (kept as facts: an object's ancestors change at many steps, whether one of them is a cooker far more rarely)
@state_query
def in_named_ancestor(s: BehaviorState, obj: str, names: tuple[str, ...]) -> bool:
    """:func:`ancestor_named` with any ancestor (COOK's cooker)."""
    return ancestor_named(s, obj, names)


@state_query
def in_toggled_on_ancestor(s: BehaviorState, obj: str, names: tuple[str, ...]) -> bool:
    """:func:`ancestor_named` with an ancestor toggled on (CLEAN's dishwasher or sink)."""
    return ancestor_named(s, obj, names, toggled_on)


@state_query
def in_not_toggled_off_ancestor(s: BehaviorState, obj: str, names: tuple[str, ...]) -> bool:
    """:func:`ancestor_named` with an ancestor not toggled off (SOAK's sink or teapot)."""
    return ancestor_named(s, obj, names, not_toggled_off)

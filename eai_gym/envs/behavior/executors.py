"""One function per BEHAVIOR action: preconditions (see :mod:`.dynamics`) then effects.

Each executor is called as ``fn(state, history, args, errors, rules)`` and returns the new state, or
None when a precondition failed (the errors are then in ``errors``). The input state is not changed.
It raises :class:`ExecutionCrash` where the reference raises (the action then fails with an
"unknown execution error" and the state may be left as the reference leaves it, in ``crash.state``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .dynamics import (
    ADD,
    AFF,
    MISSING,
    Errors,
    check,
    has_contents,
    in_a_hand,
    interactivity,
    place,
    run_checks,
    too_big_content,
)
from .state import INSIDE, NEXTTO, ONFLOOR, ONTOP, UNDER, BehaviorState


@dataclass(frozen=True, slots=True)
class Rules:
    """Where the reference and the documented intent differ in the transition model."""

    #: TRANSFER_CONTENTS with contents raises after moving the first item (reference) or moves all.
    transfer_moves_all: bool = False
    #: PLACE_INSIDE a room floor raises (reference) or is an affordance error.
    place_inside_floor_is_affordance: bool = False
    #: every state-changing action but CLEAN needs a free hand (the evolving graph), or only OPEN, CLOSE,
    #: TOGGLE_ON and TOGGLE_OFF do (iGibson's action environment in eai-eval, ``transition_model/action_env.py``)
    free_hand_for_every_state_action: bool = True
    #: stop once the action is known to execute and return the input state (no copy, no effects): what the
    #: index-mode mask asks. The result differs from a full run only in the state returned.
    dry_run: bool = False


REFERENCE_RULES = Rules()
FIXED_RULES = Rules(transfer_moves_all=True, place_inside_floor_is_affordance=True,
                    free_hand_for_every_state_action=False)


class ExecutionCrash(Exception):
    """The reference raises here; ``state`` is the state it leaves behind."""

    def __init__(self, message: str, state: BehaviorState) -> None:
        super().__init__(message)
        self.state = state


def _vol(s: BehaviorState, name: str) -> float:
    return s.scene.objects[name].volume


#: the largest volume GRASP takes
GRASP_VOLUME = 1.5


# ------------------------------------------------------------------ hands
def grasp_failure(st: BehaviorState, obj: str, hand: str) -> tuple[str, str] | None:
    """GRASP's own check (before the interactivity of ``obj``): the error, or None."""
    if st.scene.is_floor(obj):
        return AFF, f"Cannot grasp floor {obj}"
    if _vol(st, obj) > GRASP_VOLUME:
        return AFF, f"Object {obj} too big to grasp"
    if st.held(hand) == obj:
        return ADD, f"Object {obj} already in hand"
    if in_a_hand(st, obj):
        return ADD, f"Object {obj} already in other hand"
    if st.held(hand) is not None:
        return MISSING, f"{hand} hand full, release first before grasp"
    return None


def grasp(s, history, args, errors, rules, hand):
    obj = args[0]

    def grasp_check(st: BehaviorState):
        return grasp_failure(st, obj, hand)

    if not check(errors, s, history, [grasp_check, interactivity(obj)], temporal=True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.remove_edges_of(obj)
    n.set_hand(hand, obj)
    n.detach(obj)
    for child in n.children.get(obj, ()):
        if _vol(n, child) > 5 * _vol(n, obj):
            n.detach(child)
    return n


def release(s, history, args, errors, rules, hand):
    obj = args[0]

    def release_check(st: BehaviorState):
        if st.held(hand) is None:
            if st.has_any_edge(obj):
                return MISSING, f"Object {obj} not in hand"
            return ADD, "Robot is not holding anything"
        if st.held(hand) != obj:
            return MISSING, "Robot is not holding target object"
        return None

    if not check(errors, s, history, [release_check, interactivity(obj)], temporal=True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_hand(hand, None)
    return n


def _inherit_placement(n: BehaviorState, held: str, target: str) -> None:
    """NEXTTO / UNDER: the held object takes the target's support (its parent, or its floor)."""
    if n.scene.is_floor(target):
        n.add_edge(held, ONFLOOR, target)
    elif target in n.parent:
        par, link = n.parent[target]
        n.attach(held, par, link)
    else:
        for succ, rel in n.successors(target):
            if rel == ONFLOOR:
                n.add_edge(held, ONFLOOR, succ)
                break


def place_ontop(s, history, args, errors, rules, hand):
    target = args[0]
    if run_and_record(errors, s, [place(target, hand), interactivity(target)]):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    held = s.held(hand)
    if s.scene.is_floor(target):
        n.add_edge(held, ONFLOOR, target)
    else:
        n.attach(held, target, ONTOP)
    n.set_hand(hand, None)
    return n


def place_inside(s, history, args, errors, rules, hand):
    target = args[0]

    def inside_check(st: BehaviorState):
        held = st.held(hand)
        if held is None:
            return None
        if _vol(st, held) > _vol(st, target):
            return AFF, f"Object {held} too big to place inside {target}"
        if st.value(target, "Open") is False:
            return MISSING, f"Target object {target} is closed"
        return None

    if run_and_record(errors, s, [inside_check, place(target, hand), interactivity(target)]):
        return None
    held = s.held(hand)
    if s.scene.is_floor(target):
        if rules.place_inside_floor_is_affordance:
            errors.add(AFF, f"Cannot place inside floor {target}")
            return None
        raise ExecutionCrash(f"{target} has no node in the relation tree", s)
    if rules.dry_run:
        return s
    n = s.copy()
    n.attach(held, target, INSIDE)
    n.set_hand(hand, None)
    return n


def place_nextto(s, history, args, errors, rules, hand):
    target = args[0]
    if run_and_record(errors, s, [place(target, hand), interactivity(target)]):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    held = s.held(hand)
    n.add_edge(target, NEXTTO, held)
    n.add_edge(held, NEXTTO, target)
    n.set_hand(hand, None)
    _inherit_placement(n, held, target)
    return n


def place_under(s, history, args, errors, rules, hand):
    target = args[0]
    if run_and_record(errors, s, [place(target, hand), interactivity(target)]):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    held = s.held(hand)
    n.add_edge(held, UNDER, target)
    n.set_hand(hand, None)
    _inherit_placement(n, held, target)
    return n


def place_nextto_ontop(s, history, args, errors, rules, hand):
    t1, t2 = args
    if run_and_record(errors, s, [place(t1, hand), interactivity(t1)]):
        return None
    if run_and_record(errors, s, [place(t2, hand), interactivity(t2)]):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    held = s.held(hand)
    n.add_edge(held, NEXTTO, t1)
    n.add_edge(t1, NEXTTO, held)
    if s.scene.is_floor(t2):
        n.add_edge(held, ONFLOOR, t2)
    else:
        n.attach(held, t2, ONTOP)
    n.set_hand(hand, None)
    return n


def _transfer(s, rules, hand, target, link):
    held = s.held(hand)
    if rules.dry_run:
        if not rules.transfer_moves_all and has_contents(s, held):
            raise ExecutionCrash("dictionary changed size during iteration", s)
        return s
    n = s.copy()
    contents = list(n.children.get(held, ()))
    for i, child in enumerate(contents):
        n.attach(child, target, link)
        if not rules.transfer_moves_all and i == 0:
            # the reference re-parents while iterating the children dict and raises after one move
            raise ExecutionCrash("dictionary changed size during iteration", n)
    return n


def transfer_inside(s, history, args, errors, rules, hand):
    target = args[0]

    def pour_inside_check(st: BehaviorState):
        held = st.held(hand)
        if held is None:
            return None
        child = too_big_content(st, held, target)  # (the first child with a larger volume than the target)
        if child is not None:
            return AFF, f"Object {child} too big to pour inside {target}"
        if st.value(target, "Open") is False:
            return MISSING, f"Target object {target} is closed"
        return None

    if run_and_record(errors, s, [pour_inside_check, place(target, hand), interactivity(target)]):
        return None
    return _transfer(s, rules, hand, target, INSIDE)


def transfer_ontop(s, history, args, errors, rules, hand):
    target = args[0]

    def pour_check(st: BehaviorState):
        held = st.held(hand)  # (len(in_hand_objects(hand)) == 1: something held, with nothing in or on it)
        if held is not None and not has_contents(st, held):
            return AFF, f"Only holding one obj in {hand}, nothing to pour"
        return None

    if run_and_record(errors, s, [pour_check, place(target, hand), interactivity(target)]):
        return None
    return _transfer(s, rules, hand, target, ONTOP)


def run_and_record(errors: Errors, s: BehaviorState, checks) -> bool:
    """Check without the temporal test (PLACE and TRANSFER actions); True if a check failed."""
    r = run_checks(s, checks)
    if r is not None:
        errors.add(*r)
        return True
    return False

"""BEHAVIOR actions that change an object's state (open, toggle, slice, clean, soak, freeze, cook),
and the table from action names to executors."""

from __future__ import annotations

from functools import partial

from . import executors as X
from .dynamics import (
    ADD,
    AFF,
    MISSING,
    check,
    high_level,
    holding_soaked_cleaner,
    holding_with,
    in_named_ancestor,
    in_not_toggled_off_ancestor,
    in_toggled_on_ancestor,
    interactivity,
)
from .state import BehaviorState


def open_close(s, history, args, errors, rules, target: bool):
    obj = args[0]

    def not_toggled(st: BehaviorState):
        if target and st.value(obj, "ToggledOn"):
            return MISSING, f"Object {obj} is toggled on, cannot open"
        return None

    if not check(errors, s, history, [high_level(obj, "Open", target), interactivity(obj), not_toggled], True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "Open", target)
    return n


def toggle(s, history, args, errors, rules, target: bool):
    obj = args[0]

    def closed(st: BehaviorState):
        if target and st.value(obj, "Open"):
            return MISSING, f"Object {obj} is open, close first to toggle on"
        return None

    if not check(errors, s, history, [high_level(obj, "ToggledOn", target), interactivity(obj), closed], True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "ToggledOn", target)
    if target and "dishwasher" in obj:
        for child in n.children.get(obj, ()):
            for key in ("Dusty", "Stained"):
                if n.value(child, key) is not None:
                    n.set_value(child, key, False)
    return n


def slice_(s, history, args, errors, rules):
    obj = args[0]

    def has_slicer(st: BehaviorState):
        if holding_with(st, "Slicer"):
            return None
        return MISSING, "No slicer in inventory (SLICE)"

    free = rules.free_hand_for_every_state_action
    if not check(errors, s, history, [has_slicer, high_level(obj, "Sliced", True, free), interactivity(obj)], True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "Sliced", True)
    parts = s.scene.parts_of(obj)
    whole_values = n.values.get(obj, {})
    for p in parts:
        merged = dict(n.values.get(p, {}))
        merged.update(whole_values)
        n.set_values(p, merged)
    for succ, rel in s.successors(obj):
        n.remove_edge(obj, succ)
        for p in parts:
            n.add_edge(p, rel, succ)
    for pred, rel in s.predecessors(obj):
        n.remove_edge(pred, obj)
        for p in parts:
            n.add_edge(pred, rel, p)
    if obj in n.parent:
        par, link = n.parent[obj]
        for p in parts:
            n.attach(p, par, link)
        n.detach(obj)
    return n


def _clean_dust(s, history, obj, errors):
    def cleaner(st: BehaviorState):
        in_cleaner = not st.scene.is_floor(obj) and in_toggled_on_ancestor(st, obj, ("dishwasher", "sink"))
        has_tool = holding_with(st, "CleaningTool")
        if not in_cleaner and not has_tool:
            return MISSING, "No cleaner in inventory or object not in toggled on cleaner (CLEAN_DUST)"
        return None

    checks = [high_level(obj, "Dusty", False, hands_free=False), interactivity(obj), cleaner]
    return check(errors, s, history, checks, True)


def _clean_stain(s, history, obj, errors):
    def cleaner(st: BehaviorState):
        in_cleaner = not st.scene.is_floor(obj) and in_toggled_on_ancestor(st, obj, ("sink",))
        if not in_cleaner and not holding_soaked_cleaner(st):
            return MISSING, "No soaked cleaner in inventory or object not in toggled on cleaner (CLEAN_STAIN)"
        return None

    checks = [high_level(obj, "Stained", False, hands_free=False), interactivity(obj), cleaner]
    return check(errors, s, history, checks, True)


def clean(s, history, args, errors, rules):
    obj = args[0]
    if s.value(obj, "Dusty") is None and s.value(obj, "Stained") is None:
        errors.add(AFF, f"Object {obj} does not have target state (CLEAN)")
        return None
    n = s
    ok_dust = ok_stain = False
    tried = False
    if s.value(obj, "Dusty"):
        tried = True
        if _clean_dust(n, history, obj, errors):
            ok_dust = True
            n = n.copy()
            n.set_value(obj, "Dusty", False)
    if n.value(obj, "Stained"):
        tried = True
        if _clean_stain(n, history, obj, errors):
            ok_stain = True
            if n is s:  # (a copy made for the dust is this step's own: changed in place, one copy in all)
                n = n.copy()
            n.set_value(obj, "Stained", False)
    if not tried:
        errors.add(ADD, f"Object {obj} is not dusty or stained (CLEAN)")
        return None
    return n if (ok_dust or ok_stain) else None


def soak_dry(s, history, args, errors, rules, target: bool):
    obj = args[0]

    def in_soaker(st: BehaviorState):
        if not target:
            return None
        ok = in_not_toggled_off_ancestor(st, obj, ("sink", "teapot"))
        return None if ok else (MISSING, f"Object {obj} not in toggled on sink or in a teapot(SOAK)")

    checks = [high_level(obj, "Soaked", target, rules.free_hand_for_every_state_action), interactivity(obj), in_soaker]
    if not check(errors, s, history, checks, True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "Soaked", target)
    return n


def freeze(s, history, args, errors, rules, target: bool):
    obj = args[0]
    checks = [high_level(obj, "Frozen", target, rules.free_hand_for_every_state_action), interactivity(obj)]
    if not check(errors, s, history, checks, True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "Frozen", target)
    return n


def cook(s, history, args, errors, rules):
    obj = args[0]

    def in_cooker(st: BehaviorState):
        return None if in_named_ancestor(st, obj, ("saucepan",)) else (MISSING, f"Object {obj} not in a cooker (COOK)")

    checks = [high_level(obj, "Cooked", True, rules.free_hand_for_every_state_action), interactivity(obj), in_cooker]
    if not check(errors, s, history, checks, True):
        return None
    if rules.dry_run:
        return s
    n = s.copy()
    n.set_value(obj, "Cooked", True)
    return n


EXECUTORS = {
    "LEFT_GRASP": partial(X.grasp, hand="left_hand"), "RIGHT_GRASP": partial(X.grasp, hand="right_hand"),
    "LEFT_RELEASE": partial(X.release, hand="left_hand"), "RIGHT_RELEASE": partial(X.release, hand="right_hand"),
    "LEFT_PLACE_ONTOP": partial(X.place_ontop, hand="left_hand"),
    "RIGHT_PLACE_ONTOP": partial(X.place_ontop, hand="right_hand"),
    "LEFT_PLACE_INSIDE": partial(X.place_inside, hand="left_hand"),
    "RIGHT_PLACE_INSIDE": partial(X.place_inside, hand="right_hand"),
    "LEFT_PLACE_NEXTTO": partial(X.place_nextto, hand="left_hand"),
    "RIGHT_PLACE_NEXTTO": partial(X.place_nextto, hand="right_hand"),
    "LEFT_PLACE_UNDER": partial(X.place_under, hand="left_hand"),
    "RIGHT_PLACE_UNDER": partial(X.place_under, hand="right_hand"),
    "LEFT_PLACE_NEXTTO_ONTOP": partial(X.place_nextto_ontop, hand="left_hand"),
    "RIGHT_PLACE_NEXTTO_ONTOP": partial(X.place_nextto_ontop, hand="right_hand"),
    "LEFT_TRANSFER_CONTENTS_INSIDE": partial(X.transfer_inside, hand="left_hand"),
    "RIGHT_TRANSFER_CONTENTS_INSIDE": partial(X.transfer_inside, hand="right_hand"),
    "LEFT_TRANSFER_CONTENTS_ONTOP": partial(X.transfer_ontop, hand="left_hand"),
    "RIGHT_TRANSFER_CONTENTS_ONTOP": partial(X.transfer_ontop, hand="right_hand"),
    "OPEN": partial(open_close, target=True), "CLOSE": partial(open_close, target=False),
    "TOGGLE_ON": partial(toggle, target=True), "TOGGLE_OFF": partial(toggle, target=False),
    "SLICE": slice_, "CLEAN": clean, "SOAK": partial(soak_dry, target=True),
    "DRY": partial(soak_dry, target=False), "FREEZE": partial(freeze, target=True),
    "UNFREEZE": partial(freeze, target=False), "COOK": cook,
}

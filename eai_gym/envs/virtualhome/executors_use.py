"""Executors for using objects: open/close, switches, plugs, looking, cleaning, eating, and the
table that maps every action name to its executor."""

from __future__ import annotations

from ...core import WorldState
from . import executors as E
from .dynamics import (
    FACING,
    LH,
    ON,
    RH,
    Failure,
    Rules,
    Unsupported,
    already_satisfied,
    cname,
    hands_full,
    holding_hand,
    inside_closed,
    is_close,
    is_facing,
    label,
    missing_close,
    missing_facing,
    missing_free_hand,
    missing_holding,
    missing_open,
    no_affordance,
    not_modelled,
    props,
    replace_state,
    room_of,
)


def _open_close(closing: bool):
    def run(s: WorldState, c, args, rules: Rules):
        x = args[0]
        if "CAN_OPEN" not in props(s, x) and cname(s, x) not in ("desk", "window"):
            return no_affordance(f"{label(s, x)} can not be opened")
        if not is_close(s, c, x):
            return missing_close(s, c, x)
        if not closing and hands_full(s, c):
            return missing_free_hand(s, c)
        need = "OPEN" if closing else "CLOSED"
        if need not in s.states(x):
            return already_satisfied(f"{label(s, x)} is not {need.lower()}")
        if not closing and "ON" in s.states(x):
            return already_satisfied(f"{label(s, x)} is still on")
        if rules.dry_run:
            return s
        n = s.copy()
        replace_state(n, x, (need,), "CLOSED" if closing else "OPEN")
        return n
    return run


def _switch(on: bool):
    def run(s: WorldState, c, args, rules: Rules):
        x = args[0]
        need = "OFF" if on else "ON"
        if "HAS_SWITCH" not in props(s, x):
            return no_affordance(f"{label(s, x)} does not have a switch")
        if not is_close(s, c, x):
            return missing_close(s, c, x)
        if need not in s.states(x):
            return already_satisfied(f"{label(s, x)} is not {need.lower()}")
        if on and "PLUGGED_OUT" in s.states(x):
            if rules.switchon_unplugged_is_missing:
                return Failure("missing", f"{label(s, x)} is unplugged", [(False, ("node", x, "PLUGGED_IN"))])
            return already_satisfied(f"{label(s, x)} is unplugged")
        if rules.dry_run:
            return s
        n = s.copy()
        replace_state(n, x, (need,), "ON" if on else "OFF")
        return n
    return run


def _plug(plug_in: bool):
    def run(s: WorldState, c, args, rules: Rules):
        x = args[0]
        need = "PLUGGED_OUT" if plug_in else "PLUGGED_IN"
        if "HAS_PLUG" not in props(s, x):
            return no_affordance(f"{label(s, x)} does not have a plug")
        if not is_close(s, c, x):
            return missing_close(s, c, x)
        if hands_full(s, c):
            return missing_free_hand(s, c)
        if need not in s.states(x):
            return already_satisfied(f"{label(s, x)} is not {need.lower()}")
        if rules.dry_run:
            return s
        n = s.copy()
        replace_state(n, x, (need,), "PLUGGED_IN" if plug_in else "PLUGGED_OUT")
        return n
    return run


def _holding_required(prop_ok):
    """DRINK and READ: an affordance check on the object, then it must be held."""
    def run(s: WorldState, c, args, rules: Rules):
        x = args[0]
        err = prop_ok(s, x)
        if err:
            return no_affordance(f"{label(s, x)} {err}")
        if holding_hand(s, c, x) is None:
            return missing_holding(s, c, x)
        return s
    return run


def _drinkable(s, x):
    p = props(s, x)
    return "" if ("DRINKABLE" in p or "RECIPIENT" in p) else "is not drinkable or not recipient"


def _readable(s, x):
    return "" if "READABLE" in props(s, x) else "is not readable"


def lookat(s: WorldState, c, args, rules: Rules):
    return s if is_facing(s, c, args[0]) else missing_facing(s, c, args[0])


def lookat_variant(s: WorldState, c, args, rules: Rules):
    if not rules.lookat_variants_execute:
        raise Unsupported("the evolving-graph simulator has no executor for this LOOKAT variant")
    return lookat(s, c, args, rules)


def wipe(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if not s.targets(c, RH) and not s.targets(c, LH):
        return Failure("missing", f"{label(s, c)} does not hold anything in hands",
                       [(False, ("edge", c, "HOLDS", -1))], "or")
    if rules.dry_run:
        return s
    n = s.copy()
    replace_state(n, x, ("DIRTY",), "CLEAN")
    return n


def wash(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if rules.dry_run:
        return s
    n = s.copy()
    replace_state(n, x, ("DIRTY",), "CLEAN")
    return n


def touch(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if inside_closed(s, x):
        return missing_open(s, x)
    return s


def greet(s: WorldState, c, args, rules: Rules):
    x = args[0]
    return s if "PERSON" in props(s, x) else no_affordance(f"{label(s, x)} is not person")


def type_(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if cname(s, x) == "keyboard" or "HAS_SWITCH" in props(s, x):
        return s
    return no_affordance(f"{label(s, x)} does not have switch")


def watch(s: WorldState, c, args, rules: Rules):
    x = args[0]
    char_room, node_room = room_of(s, c), room_of(s, x)
    if "LOOKABLE" not in props(s, x):
        return no_affordance(f"{label(s, x)} not lookable")
    if node_room is None or char_room is None:
        return (no_affordance if rules.roomless_is_affordance else not_modelled)(f"{label(s, x)} is in no room")
    if node_room != char_room:
        return no_affordance(f"char room {label(s, char_room)} is not node room {label(s, node_room)}")
    if not is_facing(s, c, x):
        return missing_facing(s, c, x)
    st = s.states(c)
    if (cname(s, x) != "computer" and ("SITTING" in st or "LYING" in st)
            and x not in s.targets(c, FACING)):
        return missing_facing(s, c, x)
    if inside_closed(s, x):
        return missing_open(s, x)
    return s


def move(s: WorldState, c, args, rules: Rules, push: bool = False):
    x = args[0]
    if ("MOVABLE" not in props(s, x) and (not push and cname(s, x) != "button")
            and cname(s, x) not in ("chair", "curtain")):
        return no_affordance(f"{label(s, x)} is not movable")
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if inside_closed(s, x):
        return missing_open(s, x)
    if hands_full(s, c):
        return missing_free_hand(s, c)
    return s


def push(s: WorldState, c, args, rules: Rules):
    return move(s, c, args, rules, push=True)


def squeeze(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if hands_full(s, c):
        return missing_free_hand(s, c)
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if "CLOTHES" not in props(s, x) and cname(s, x) not in E.SQUEEZABLE:
        return no_affordance(f"{label(s, x)} is not clothes")
    return s


def cut(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if hands_full(s, c):
        return missing_free_hand(s, c)
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if "EATABLE" not in props(s, x):
        return no_affordance(f"{label(s, x)} is not eatable")
    if "CUTTABLE" not in props(s, x):
        return no_affordance(f"{label(s, x)} is not cuttable")
    hands = list(s.targets(c, LH)) + list(s.targets(c, RH))
    if not any("knife" in cname(s, h) for h in hands):
        return Failure("missing", f"{label(s, c)} is not holding a knife")
    return s


def eat(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if "EATABLE" in props(s, x):
        return s
    on_x = s.sources(x, ON)
    if not on_x:
        return no_affordance(f"{label(s, x)} is not eatable")
    if any("EATABLE" in props(s, n) for n in on_x):
        return s
    return no_affordance(f"none of object on {label(s, x)} is eatable")


#: Action name → executor. Names absent here have no executor in the simulator.
EXECUTORS = {
    "WALK": E.walk, "RUN": E.walk, "FIND": E.find, "SIT": E.sit, "STANDUP": E.standup,
    "GRAB": E.grab, "OPEN": _open_close(False), "CLOSE": _open_close(True), "PUTBACK": E.putback,
    "PUTIN": E.putin, "SWITCHON": _switch(True), "SWITCHOFF": _switch(False),
    "DRINK": _holding_required(_drinkable), "LOOKAT": lookat, "LOOKAT_MEDIUM": lookat,
    "LOOKAT_SHORT": lookat_variant, "LOOKAT_LONG": lookat_variant, "TURNTO": E.turnto, "WIPE": wipe,
    "PUTON": E.puton, "PUTOFF": E.putoff, "GREET": greet, "DROP": E.drop, "RELEASE": E.drop,
    "READ": _holding_required(_readable), "POINTAT": lookat, "TOUCH": touch, "LIE": E.lie,
    "PUTOBJBACK": E.putobjback, "POUR": E.pour, "TYPE": type_, "WATCH": watch, "PUSH": push,
    "PULL": move, "MOVE": move, "RINSE": wash, "WASH": wash, "SCRUB": wash, "SQUEEZE": squeeze,
    "PLUGIN": _plug(True), "PLUGOUT": _plug(False), "CUT": cut, "EAT": eat, "SLEEP": E.sleep,
    "WAKEUP": E.sleep,
}

def _passes(check):
    return lambda s, c, args, rules: check(s, c, args, rules) is None


#: Action name -> whether its executor would succeed, answered without building the next state (for
#: actions whose executor is its checks followed by a change that cannot fail; the index-mode mask asks
#: this for every catalogue entry). Each reads the same checks as the executor.
LEGALITY = {
    "WALK": _passes(E.walk_failure), "RUN": _passes(E.walk_failure), "FIND": _passes(E.find_failure),
    "TURNTO": lambda s, c, args, rules: True,
    "LOOKAT": lambda s, c, args, rules: is_facing(s, c, args[0]),
    "LOOKAT_MEDIUM": lambda s, c, args, rules: is_facing(s, c, args[0]),
    "POINTAT": lambda s, c, args, rules: is_facing(s, c, args[0]),
    "LOOKAT_SHORT": lambda s, c, args, rules: rules.lookat_variants_execute and is_facing(s, c, args[0]),
    "LOOKAT_LONG": lambda s, c, args, rules: rules.lookat_variants_execute and is_facing(s, c, args[0]),
    "GREET": lambda s, c, args, rules: "PERSON" in props(s, args[0]),
}

"""One function per VirtualHome action: check the preconditions in the simulator's order, then apply.

Each executor takes ``(state, character, args, rules)`` and returns the new state or a
:class:`~.dynamics.Failure`. The input state is never modified.
"""

from __future__ import annotations

from ...core import WorldState
from .dynamics import (
    CLOSE,
    FACING,
    HANDS,
    INSIDE,
    LH,
    ON,
    RH,
    ROOMS,
    Failure,
    Rules,
    already_satisfied,
    body_parts,
    category,
    cname,
    drop_edges,
    free_hand,
    grab_origin,
    held,
    holding_hand,
    in_a_room,
    inside_closed,
    is_close,
    label,
    make_close,
    missing_close,
    missing_free_hand,
    missing_holding,
    missing_open,
    no_affordance,
    not_modelled,
    props,
    replace_state,
    room_of,
)

SIT_CAPACITY = {"couch": 4, "bed": 4, "chair": 1, "loveseat": 2, "sofa": 4, "toilet": 1,
                "pianobench": 2, "bench": 2}
LIE_CAPACITY = {"couch": 2, "bathtub": 2, "bed": 3, "loveseat": 2, "sofa": 2, "bench": 1}
SQUEEZABLE = {"cleaning_solution", "tooth_paste", "shampoo", "food_peanut_butter", "dish_soap",
              "soap", "towel", "rag", "paper", "sponge", "food_lemon", "check"}


# ------------------------------------------------------------------ moving
def walk_failure(s: WorldState, c, args, rules: Rules) -> Failure | None:
    """Why WALK to ``args[0]`` fails, or None: once these checks pass, :func:`walk` always succeeds."""
    x = args[0]
    st = s.states(c)
    if "SITTING" in st or "LYING" in st:
        return Failure("missing", f"{label(s, c)} is sitting or lying",
                       [(True, ("node", c, "SITTING")), (True, ("node", c, "LYING"))], "and")
    if not in_a_room(s, c):
        return not_modelled(f"{label(s, c)} is in no room")
    if not in_a_room(s, x):
        return (no_affordance if rules.roomless_is_affordance else not_modelled)(f"{label(s, x)} is in no room")
    return None


def walk(s: WorldState, c, args, rules: Rules):
    fail = walk_failure(s, c, args, rules)
    if fail is not None:
        return fail
    if rules.dry_run:
        return s
    x = args[0]
    room, old_room = room_of(s, x), room_of(s, c)
    hands = held(s, c)
    n = s.copy()
    drop_edges(n, c, (INSIDE, CLOSE, FACING))
    n.add_edge(c, INSIDE, room)
    if room != x:
        for b in [t for t in n.targets(x, INSIDE) if category(n, t) != ROOMS]:
            make_close(n, c, b)
        for b in body_parts(n):
            make_close(n, c, b)
        make_close(n, c, x)
    for h in hands:
        drop_edges(n, h, (INSIDE, CLOSE, FACING))
    for h in hands:
        make_close(n, c, h)
        n.add_edge(h, INSIDE, old_room)
    if "CAN_OPEN" in props(n, x):
        for m in list(n.sources(x, INSIDE)):
            make_close(n, c, m)
    for t in list(n.targets(x, ON)):
        make_close(n, c, t)
    return n


def _find_in_place(s: WorldState, c, x) -> bool:
    """FIND without walking: x is on the character, a body part, or already close."""
    return c in s.targets(x, ON) or "BODY_PART" in props(s, x) or is_close(s, c, x)


def find_failure(s: WorldState, c, args, rules: Rules) -> Failure | None:
    """Why FIND ``args[0]`` fails, or None: once these checks pass, :func:`find` always succeeds."""
    x = args[0]
    if _find_in_place(s, c, x):
        return None if is_close(s, c, x) else missing_close(s, c, x)
    return walk_failure(s, c, args, rules)


def find(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if _find_in_place(s, c, x):
        if not is_close(s, c, x):
            return missing_close(s, c, x)
        if rules.dry_run:
            return s
        n = s.copy()
        n.remove_edges_from(c, FACING)
        make_close(n, c, x)
        return n
    return walk(s, c, args, rules)


def _rest(posture: str, other: str, prop: str, capacity: dict[str, int], face: bool):
    """SIT and LIE: close to x, not already in that posture, x affords it, x has room left."""
    def run(s: WorldState, c, args, rules: Rules):
        x = args[0]
        if not is_close(s, c, x):
            return missing_close(s, c, x)
        if posture in s.states(c):
            return already_satisfied(f"{label(s, c)} is {posture.lower()}")
        if prop not in props(s, x):
            return no_affordance(f"{label(s, x)} is not {prop.lower()}")
        if len(s.sources(x, ON)) >= capacity.get(cname(s, x), 1):
            return Failure("missing", f"Too many things on {label(s, x)}")
        if rules.dry_run:
            return s
        n = s.copy()
        n.add_edge(c, ON, x)
        if face:
            for f in list(n.targets(x, FACING)):
                n.add_edge(c, FACING, f)
        replace_state(n, c, (other,), posture)
        return n
    return run


sit = _rest("SITTING", "LYING", "SITTABLE", SIT_CAPACITY, face=True)
lie = _rest("LYING", "SITTING", "LIEABLE", LIE_CAPACITY, face=False)


def standup(s: WorldState, c, args, rules: Rules):
    st = s.states(c)
    if "SITTING" in st or "LYING" in st:
        if rules.dry_run:
            return s
        n = s.copy()
        n.set_states(c, st - {"SITTING", "LYING"})
        return n
    return already_satisfied(f"{label(s, c)} is not sitting")


def turnto(s: WorldState, c, args, rules: Rules):
    if rules.dry_run:
        return s
    n = s.copy()
    n.remove_edges_from(c, FACING)
    n.add_edge(c, FACING, args[0])
    return n


def sleep(s: WorldState, c, args, rules: Rules):
    st = s.states(c)
    if "LYING" not in st and "SITTING" not in st:
        return Failure("missing", f"{label(s, c)} is not lying or sitting",
                       [(False, ("node", c, "LYING")), (False, ("node", c, "SITTING"))])
    return s


# ------------------------------------------------------------------ hands
def grab(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if "GRABBABLE" not in props(s, x) and cname(s, x) not in ("water", "child"):
        return no_affordance(f"{label(s, x)} is not grabbable")
    if ("GRAB", x) in s.data:
        return already_satisfied(f"{label(s, x)} already grabbed")
    if not is_close(s, c, x):
        return missing_close(s, c, x)
    if inside_closed(s, x):
        return missing_open(s, x)
    hand = free_hand(s, c)
    if hand is None:
        return missing_free_hand(s, c)
    if rules.dry_run:
        return s
    origin, rel = grab_origin(s, x)
    room = room_of(s, c)
    n = s.copy()
    drop_edges(n, x, (ON, INSIDE, CLOSE, LH, RH))
    make_close(n, c, x)
    n.add_edge(c, hand, x)
    n.add_edge(x, INSIDE, room)
    if origin is not None:
        make_close(n, c, origin)
        n.data[("GRAB", x)] = (origin, rel)
    return n


def _check_put(s, c, x, dest, rel) -> Failure | None:
    if holding_hand(s, c, x) is None:
        return missing_holding(s, c, x)
    if not is_close(s, c, dest):
        return missing_close(s, c, dest)
    if rel == INSIDE and "CAN_OPEN" in props(s, dest) and "OPEN" not in s.states(dest):
        return no_affordance(f"{label(s, dest)} is not open or is not openable")
    return None


def _put(s, c, x, dest, rel) -> WorldState:
    n = s.copy()
    for h in HANDS:
        n.remove_edge(c, h, x)
    make_close(n, c, dest)
    make_close(n, x, dest)
    n.add_edge(x, rel, dest)
    n.data.pop(("GRAB", x), None)
    return n


def putback(s: WorldState, c, args, rules: Rules):
    fail = _check_put(s, c, args[0], args[1], ON)
    return fail if fail is not None else s if rules.dry_run else _put(s, c, args[0], args[1], ON)


def putin(s: WorldState, c, args, rules: Rules):
    fail = _check_put(s, c, args[0], args[1], INSIDE)
    return fail if fail is not None else s if rules.dry_run else _put(s, c, args[0], args[1], INSIDE)


def putobjback(s: WorldState, c, args, rules: Rules):
    x = args[0]
    origin = s.data.get(("GRAB", x))
    if origin is None:
        if rules.putobjback_not_grabbed_is_missing:
            return missing_holding(s, c, x)
        return not_modelled(f"{label(s, x)} not grabbed")
    dest, rel = origin
    fail = _check_put(s, c, x, dest, rel)
    if fail is not None:
        return s if rules.putobjback_failure_succeeds else fail
    return s if rules.dry_run else _put(s, c, x, dest, rel)


def drop(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if x not in s.targets(c, LH) and x not in s.targets(c, RH):
        return missing_holding(s, c, x)
    if rules.dry_run:
        return s
    room = room_of(s, c)
    n = s.copy()
    for h in HANDS:
        n.remove_edge(c, h, x)
    n.add_edge(x, INSIDE, room)
    n.data.pop(("GRAB", x), None)
    return n


def puton(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if x not in s.targets(c, LH) and x not in s.targets(c, RH):
        return missing_holding(s, c, x)
    if "CLOTHES" not in props(s, x):
        return no_affordance(f"{label(s, x)} is not clothes")
    if rules.dry_run:
        return s
    n = s.copy()
    n.add_edge(x, ON, c)
    for h in HANDS:
        n.remove_edge(c, h, x)
    return n


def putoff(s: WorldState, c, args, rules: Rules):
    x = args[0]
    if c not in s.targets(x, ON):
        return Failure("missing", f"{label(s, x)} is not on {label(s, c)}", [(False, ("edge", x, ON, c))])
    if "CLOTHES" not in props(s, x):
        return no_affordance(f"{label(s, x)} is not clothes")
    if rules.dry_run:
        return s
    n = s.copy()
    n.remove_edge(x, ON, c)
    return n


def pour(s: WorldState, c, args, rules: Rules):
    x, y = args
    if "POURABLE" not in props(s, x) and "DRINKABLE" not in props(s, x):
        return no_affordance(f"{label(s, x)} is not pourable or drinkable")
    if "RECIPIENT" not in props(s, y) and cname(s, y) not in ("hands_both", "sponge", "face"):
        return no_affordance(f"{label(s, y)} is not recipient")
    if holding_hand(s, c, x) is None:
        return missing_holding(s, c, x)
    if not is_close(s, c, y):
        return missing_close(s, c, y)
    if rules.dry_run:
        return s
    n = s.copy()
    n.add_edge(x, INSIDE, y)
    if cname(s, x) == "water":
        for h in HANDS:
            n.remove_edge(c, h, x)
    return n

"""The evolving-graph transition model of VirtualHome: preconditions and effects of every action.

Semantics follow the eai-eval 1.0.5 simulator (``simulation/evolving_graph/execution.py``): the
order of the precondition checks decides the failure class, so it is kept exactly. A failed check
returns a :class:`Failure` whose ``kind`` is the simulator's code:

* ``"missing"``   – a precondition does not hold (→ missing step, or wrong order if it held before);
* ``"afford"``    – the object cannot take part in the action (→ affordance error);
* ``"satisfied"`` – the effect already holds (→ additional step: skipped, execution continues);
* ``None``        – the simulator fails without a code (it then aborts the reference evaluator).

``preconds`` lists the missing preconditions as ``(negated, fact)`` with fact ``("edge", from, rel, to)``
(``to = -1`` for "anything") or ``("node", id, state)``, combined by ``connective`` (``"and"``,
``"or"`` or None = the first one only), which is what the temporal-order check searches the history for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ...core import WorldState
from ...core.answers import state_query

CLOSE, FACING, INSIDE, ON, BETWEEN = "CLOSE", "FACING", "INSIDE", "ON", "BETWEEN"
RH, LH = "HOLDS_RH", "HOLDS_LH"
HANDS = (LH, RH)
ROOMS = "Rooms"


@dataclass(slots=True)
class Failure:
    kind: str | None
    message: str
    preconds: list[tuple[bool, tuple]] = field(default_factory=list)
    connective: str | None = None


@dataclass(frozen=True, slots=True)
class Rules:
    """Behaviour that differs between the reference simulator and the documented intent."""

    #: PUTOBJBACK whose put-check fails "succeeds" as a no-op (reference) instead of failing.
    putobjback_failure_succeeds: bool = True
    #: SWITCHON of an unplugged device: additional step (reference) or missing step (PLUGGED_IN).
    switchon_unplugged_is_missing: bool = False
    #: LOOKAT_SHORT / LOOKAT_LONG: no executor in the reference (it raises) or executed as LOOKAT.
    lookat_variants_execute: bool = False
    #: PUTOBJBACK of an object never grabbed: no failure code (reference) or a missing step.
    putobjback_not_grabbed_is_missing: bool = False
    #: An object in no room (WALK/FIND/WATCH): no failure code (reference) or an affordance error.
    roomless_is_affordance: bool = False
    #: stop once the action is known to execute and return the input state (no copy, no effects): what the
    #: index-mode mask asks. The result differs from a full run only in the state returned.
    dry_run: bool = False


REFERENCE_RULES = Rules()
FIXED_RULES = Rules(putobjback_failure_succeeds=False, switchon_unplugged_is_missing=True,
                    lookat_variants_execute=True, putobjback_not_grabbed_is_missing=True,
                    roomless_is_affordance=True)


class Unsupported(Exception):
    """The reference simulator has no executor for this action (it raises)."""


# ------------------------------------------------------------------ queries
def category(s: WorldState, x) -> str:
    o = s.scene.objects.get(x)
    return "" if o is None else o.category


def props(s: WorldState, x) -> frozenset:
    return s.scene.objects[x].properties


def cname(s: WorldState, x) -> str:
    return s.scene.objects[x].name


def label(s: WorldState, x) -> str:
    return f"<{cname(s, x)}> ({x})"


@state_query
def room_of(s: WorldState, x):
    """The room an object is in: itself for a room, else along its INSIDE edges (None if none)."""
    if category(s, x) == ROOMS:
        return x
    inside = s.targets(x, INSIDE)
    if len(inside) > 1:
        return next((n for n in sorted(inside) if category(s, n) == ROOMS), None)
    seen = {x}
    while inside:
        rooms = [n for n in inside if category(s, n) == ROOMS]
        n = rooms[0] if rooms else min(inside)
        if rooms or n in seen:
            return n if rooms else None
        seen.add(n)
        inside = s.targets(n, INSIDE)
    return None


@state_query
def in_a_room(s: WorldState, x) -> bool:
    """``room_of(s, x) is not None`` (kept as a fact of its own: it changes far less often than the room)."""
    return room_of(s, x) is not None


def close_set(s: WorldState, c) -> set:
    """Every x with ``is_close(s, c, x)``, in one pass (x is on something close when it is a source of its ON)."""
    near = s.targets(c, CLOSE)
    out = set(near)
    for n in near:
        out |= s.targets(n, CLOSE)
        out |= s.sources(n, ON)
    return out


def faced_set(s: WorldState, c) -> set:
    """Every x with ``is_facing(s, c, x)``, in one pass."""
    facing = s.targets(c, FACING)
    out = set(facing)
    for f in facing:
        out |= s.targets(f, FACING)
    return out


def _character_arg(c, x) -> tuple:
    return (c,)


def _in_basis(basis: set, c, x) -> bool:
    return x in basis


@state_query(bulk=(close_set, _character_arg, _in_basis))
def is_close(s: WorldState, c, x) -> bool:
    """Character close to x: directly, or close to something that is close to x or that x is on."""
    near = s.targets(c, CLOSE)
    if x in near:
        return True
    on_x = s.targets(x, ON)
    for n in near:
        if x in s.targets(n, CLOSE) or n in on_x:
            return True
    return False


@state_query(bulk=(faced_set, _character_arg, _in_basis))
def is_facing(s: WorldState, c, x) -> bool:
    facing = s.targets(c, FACING)
    if x in facing:
        return True
    return any(x in s.targets(f, FACING) for f in facing)


def free_hand(s: WorldState, c) -> str | None:
    if not s.targets(c, RH):
        return RH
    if not s.targets(c, LH):
        return LH
    return None


@state_query
def hands_full(s: WorldState, c) -> bool:
    """``free_hand(s, c) is None`` (kept as a fact of its own: it changes far less often than which hand is
    free)."""
    return free_hand(s, c) is None


def holding_hand(s: WorldState, c, x) -> str | None:
    if x in s.targets(c, RH):
        return RH
    if x in s.targets(c, LH):
        return LH
    return None


def held(s: WorldState, c) -> list:
    return sorted(s.targets(c, LH)) + sorted(s.targets(c, RH))


@state_query
def inside_closed(s: WorldState, x) -> bool:
    """Inside a closed container (kept as a fact of its own: what x is inside changes far more often than this)."""
    return any("CLOSED" in s.states(t) and category(s, t) != ROOMS for t in s.targets(x, INSIDE))


def grab_origin(s: WorldState, x) -> tuple[object, str] | tuple[None, None]:
    """Where a grabbed object came from: the first non-room it is ON, else INSIDE, else CLOSE to.

    "First" is the order in which the reference simulator meets the candidates: the iteration order
    of a CPython ``set`` of the ids, which :func:`int_set_order` computes explicitly (so the choice
    does not depend on the interpreter running eai-gym). It matters only for PUTOBJBACK and for the
    character being close to the origin after the grab.
    """
    for rel in (ON, INSIDE, CLOSE):
        targets = s.targets(x, rel)
        if not targets:
            continue
        order = int_set_order(sorted(targets)) if all(type(t) is int and t >= 0 for t in targets) \
            else sorted(targets, key=str)
        first = next((n for n in order if category(s, n) != ROOMS), None)
        if first is not None:
            return first, rel
    return None, None


def int_set_order(ids: list[int]) -> list[int]:
    """The iteration order of a CPython set of non-negative ints built by adding ``ids`` in order
    (open addressing: 9 linear probes then perturbation; the table grows 4x at 3/5 full)."""
    mask, used = 7, 0
    table: list[int | None] = [None] * 8

    def insert(tab: list, m: int, v: int) -> None:
        i, perturb = v & m, v
        while True:
            if tab[i] is None or tab[i] == v:
                tab[i] = v
                return
            if i + 9 <= m:
                for j in range(i + 1, i + 10):
                    if tab[j] is None or tab[j] == v:
                        tab[j] = v
                        return
            perturb >>= 5
            i = (i * 5 + 1 + perturb) & m

    seen: set[int] = set()
    for v in ids:
        if v in seen:
            continue
        seen.add(v)
        insert(table, mask, v)
        used += 1
        if used * 5 >= mask * 3:
            size = 8
            while size <= used * 4:
                size <<= 1
            old = [y for y in table if y is not None]
            table, mask = [None] * size, size - 1
            for y in old:
                insert(table, mask, y)
    return [y for y in table if y is not None]


# ------------------------------------------------------------------ failures
def missing_close(s, c, x) -> Failure:
    return Failure("missing", f"{label(s, c)} is not close to {label(s, x)}", [(False, ("edge", c, CLOSE, x))])


def missing_free_hand(s, c) -> Failure:
    return Failure("missing", f"{label(s, c)} does not have a free hand", [(True, ("edge", c, "HOLDS", -1))], "or")


def missing_holding(s, c, x) -> Failure:
    return Failure("missing", f"{label(s, c)} is not holding {label(s, x)}", [(False, ("edge", c, "HOLDS", x))])


def missing_open(s, x) -> Failure:
    return Failure("missing", f"{label(s, x)} is inside other closed thing", [(False, ("node", x, "OPEN"))])


def missing_facing(s, c, x) -> Failure:
    return Failure("missing", f"{label(s, c)} does not face {label(s, x)}", [(False, ("edge", c, FACING, x))])


def no_affordance(msg: str) -> Failure:
    return Failure("afford", msg)


def already_satisfied(msg: str) -> Failure:
    return Failure("satisfied", msg)


def not_modelled(msg: str) -> Failure:
    return Failure(None, msg)


# ------------------------------------------------------------------ effects helpers
def drop_edges(n: WorldState, x, rels) -> None:
    for rel in rels:
        n.remove_edges_from(x, rel)
        n.remove_edges_to(x, rel)


def make_close(n: WorldState, a, b) -> None:
    n.add_edge(a, CLOSE, b)
    n.add_edge(b, CLOSE, a)


def replace_state(n: WorldState, x, remove: tuple[str, ...], add: str) -> None:
    n.set_states(x, (n.states(x) - set(remove)) | {add})


def body_parts(s: WorldState) -> list:
    memo = s.scene.memo
    if "body_parts" not in memo:
        memo["body_parts"] = sorted(o.id for o in s.scene.objects.values() if "BODY_PART" in o.properties)
    return memo["body_parts"]


Result = "WorldState | Failure"
Executor = Callable[[WorldState, int, tuple, Rules], "WorldState | Failure"]

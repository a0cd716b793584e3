"""The groups of catalogue entries that the VirtualHome index mask keeps (:class:`~eai_gym.core.kept_mask.KeptMask`).

A group is ``(entries, answer keys, pinned read keys)``. An entry looked up only while its object is close
(faced) read that query as True: its answer is kept through the query's changes (pinned), for when the object
is close (faced) again. The entries needing no condition are kept under the character's states (pinned), FIND
also under whether its object is close (pinned), with the same effect: their answer keys hold those values.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core import Action, WorldState
from .dynamics import LH, RH, close_set, faced_set, is_close, is_facing

IS_CLOSE, IS_FACING = is_close.compute, is_facing.compute  # type: ignore[attr-defined]  # kept-query keys
FREE = ("free",)


def mask_groups(groups: tuple[list[int], dict, dict, dict, dict], c: int,
                actions: Sequence[Action]) -> dict[tuple, Any]:
    """A task's group table from its requirement groups (see ``requirement_groups`` in :mod:`.env`): group key ->
    group: the entries needing no condition but FIND (``("free",)``), the FIND entry on each object ``x``
    (``("find", x)``, pinned: whether x is close and the character's states), and the entries needing their
    object close, faced or held. :func:`active_groups` keys the first two by the values they pin and adds the
    (held, close) groups, k * (k - 1) of them per task, when first needed."""
    free, by_close, by_facing, by_held, _ = groups
    rest = [i for i in free if actions[i].name != "FIND"]
    out: dict[tuple, Any] = {FREE: (rest, rest, frozenset())}
    for i in free:
        if actions[i].name == "FIND":
            x = actions[i].args[0]
            out[("find", x)] = ([i], [i], frozenset({("q", (IS_CLOSE, (c, x))), ("s", c)}))
    for x, g in by_close.items():
        out[("close", x)] = (g, g, close_pin(out, c, x))
    for x, g in by_facing.items():
        out[("facing", x)] = (g, g, frozenset({("q", (IS_FACING, (c, x)))}))
    for x, g in by_held.items():
        out[("held", x)] = (g, g, frozenset())
    return out


def close_pin(table: dict, c: int, x: int) -> frozenset:
    """The pinned read keys of an entry looked up only while ``x`` is close (one object per ``x``, kept in
    ``table`` under ``("close_pin", x)``)."""
    pin = table.get(("close_pin", x))
    if pin is None:
        pin = table[("close_pin", x)] = frozenset({("q", (IS_CLOSE, (c, x)))})
    return pin


def active_groups(table: dict, by_held_close: dict, state: WorldState, c: int,
                  objects: Sequence[int]) -> dict[tuple, tuple]:
    """The groups whose entries are candidates in ``state`` (group key -> group), from a task's ``table``
    (:func:`mask_groups`, extended here) and its entries by (held object, close object). They depend only on
    which of ``objects`` are close, faced and held and on the character's states: the dict made for those is
    kept in ``table`` and handed out again (the same object: read only) while they recur."""
    objset = table.get(("objects", objects))
    if objset is None:
        objset = table[("objects", objects)] = frozenset(objects)
    close, faced = close_set(state, c), faced_set(state, c)
    held = state.targets(c, RH) | state.targets(c, LH)
    st = state.states(c)
    key = ("active", objects, objset & close, objset & faced, objset & held, st)
    active = table.get(key)
    if active is None:
        if len(table) > MAX_TABLE:  # (the kept dicts are a cache: start over)
            for k in [k for k in table if k[0] == "active"]:
                del table[k]
        active = table[key] = _active_groups(table, by_held_close, close, faced, held, st, c, objects)
    return active


#: how many entries a task's group table may hold before its kept active-group dicts are dropped
MAX_TABLE = 4096


def _active_groups(table: dict, by_held_close: dict, close: set, faced: set, held: frozenset, st: frozenset,
                   c: int, objects: Sequence[int]) -> dict[tuple, tuple]:
    near = [x for x in objects if x in close]
    g = table.get((FREE, st))
    if g is None:
        rest = table[FREE][0]
        g = table[(FREE, st)] = (rest, [(i, st) for i in rest], frozenset({("s", c)}))
    active = {(FREE, st): g}
    for x in objects:
        key = ("find", x, x in close, st)
        g = table.get(key)
        if g is None:
            find = table.get(("find", x))
            if find is None:
                continue
            g = table[key] = (find[0], [(find[0][0], key[2], st)], find[2])
        active[key] = g
    for x in near:
        g = table.get(("close", x))
        if g is not None:
            active[("close", x)] = g
    for x in objects:
        if x in faced:
            g = table.get(("facing", x))
            if g is not None:
                active[("facing", x)] = g
        if x in held:
            g = table.get(("held", x))
            if g is not None:
                active[("held", x)] = g
            for y in near:
                g = table.get(("held_close", x, y))
                if g is None:
                    entries = by_held_close.get((x, y))
                    if not entries:
                        continue
                    g = table[("held_close", x, y)] = (entries, entries, close_pin(table, c, y))
                active[("held_close", x, y)] = g
    return active

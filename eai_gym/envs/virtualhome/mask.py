"""VirtualHome's rules for the index-mode mask: which catalogue entries are candidates in a state, and how one is
decided (the cache is :class:`~eai_gym.core.kept_mask.KeptMask`'s).

An entry is a candidate only while the condition its executor cannot do without holds: the character close to its
object (:data:`NEEDS_CLOSE`), facing it (:data:`NEEDS_FACING`), holding it (:data:`NEEDS_HELD`; the two-object ones
also close to the second object); the others always. The executor's dry run decides (``try_action_ok``).

The groups (:class:`~eai_gym.core.kept_mask.Group`) depend on which of the task's objects are close, faced and held
and on the character's states (the signature). An entry looked up only while its object is close (faced) reads that
query as True: its answer is kept through the query's changes (pinned), for when the object is close (faced) again.
The entries needing no condition are kept under the character's states (pinned), FIND also under whether its object
is close (pinned), with the same effect: their answer keys hold those values.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ...core import Action, WorldState
from ...core.kept_mask import Group, MaskRules
from .dynamics import LH, RH, close_set, faced_set, holding_hand, is_close, is_facing

#: actions whose executor fails unless the character is close to the object / holds it (checked first or
#: unconditionally in :mod:`.executors` and :mod:`.executors_use`); the two-object ones need the first
#: held and the character close to the second
NEEDS_CLOSE = frozenset({"SIT", "LIE", "GRAB", "OPEN", "CLOSE", "SWITCHON", "SWITCHOFF", "PLUGIN", "PLUGOUT",
                         "WIPE", "WASH", "RINSE", "SCRUB", "TOUCH", "TYPE", "MOVE", "PULL", "PUSH", "SQUEEZE",
                         "CUT", "EAT"})
NEEDS_HELD = frozenset({"PUTBACK", "PUTIN", "POUR", "DROP", "RELEASE", "PUTON", "DRINK", "READ"})
#: actions whose executor fails unless the character faces the object (``is_facing``)
NEEDS_FACING = frozenset({"LOOKAT", "LOOKAT_MEDIUM", "LOOKAT_SHORT", "LOOKAT_LONG", "POINTAT", "WATCH"})

#: catalogue indices by the condition they need: (no condition, by close object, by faced object, by held object,
#: by (held object, close object))
RequirementGroups = tuple[list[int], dict, dict, dict, dict]

IS_CLOSE, IS_FACING = is_close.compute, is_facing.compute  # type: ignore[attr-defined]  # kept-query keys
FREE = ("free",)


def requirement_groups(actions: Sequence[Action]) -> RequirementGroups:
    """Catalogue indices by the condition they need (see :data:`RequirementGroups`), from the actions."""
    free: list[int] = []
    by_close: dict[int, list[int]] = {}
    by_facing: dict[int, list[int]] = {}
    by_held: dict[int, list[int]] = {}
    by_held_close: dict[tuple[int, int], list[int]] = {}
    for i, a in enumerate(actions):
        if a.name in NEEDS_HELD and len(a.args) == 2:
            by_held_close.setdefault((a.args[0], a.args[1]), []).append(i)
        elif a.name in NEEDS_HELD:
            by_held.setdefault(a.args[0], []).append(i)
        elif a.name in NEEDS_CLOSE:
            by_close.setdefault(a.args[0], []).append(i)
        elif a.name in NEEDS_FACING:
            by_facing.setdefault(a.args[0], []).append(i)
        else:
            free.append(i)
    return free, by_close, by_facing, by_held, by_held_close


class VirtualHomeMask(MaskRules):
    """The mask rules of one task's catalogue.

    Args:
        try_action_ok: ``try_action_ok(state, action)``, the executor's dry run (the world's).
        actions: the catalogue.
        requirements: its :func:`requirement_groups`.
        character: the character's id.
        objects: the task's objects (the catalogue's).
    """

    def __init__(self, try_action_ok: Callable[[WorldState, Action], bool], actions: Sequence[Action],
                 requirements: RequirementGroups, character: int, objects: Sequence[int]) -> None:
        super().__init__()
        self.try_action_ok, self.actions, self.requirements = try_action_ok, actions, requirements
        self.character, self.objects = character, tuple(objects)
        self.objset = frozenset(objects)

    def signature(self, state: WorldState) -> tuple:
        """Which of the task's objects are close, faced and held, and the character's states."""
        c, objset = self.character, self.objset
        held = state.targets(c, RH) | state.targets(c, LH)
        return objset & close_set(state, c), objset & faced_set(state, c), objset & held, state.states(c)

    def decide(self, key: Any, i: int) -> Callable[[WorldState], bool]:
        actions, ok = self.actions, self.try_action_ok
        return lambda w: ok(w, actions[i])

    def groups(self, signature: tuple) -> dict[tuple, Group]:
        """The groups of the entries needing no condition but FIND (``(FREE, st)``), the FIND entry on each object
        ``x`` (``("find", x, x is close, st)``), and the entries of the objects close, faced, held and (held,
        close) (``("close", x)`` ...)."""
        close, faced, held, st = signature
        memo = self.memo if FREE in self.memo else self._base_groups()
        c, objects = self.character, self.objects
        near = [x for x in objects if x in close]
        g = memo.get((FREE, st))
        if g is None:
            rest = memo[FREE].entries
            g = memo[(FREE, st)] = Group(rest, [(i, st) for i in rest], frozenset({("s", c)}))
        active = {(FREE, st): g}
        for x in objects:
            key = ("find", x, x in close, st)
            g = memo.get(key)
            if g is None:
                find = memo.get(("find", x))
                if find is None:
                    continue
                g = memo[key] = Group(find.entries, [(find.entries[0], key[2], st)], find.pinned)
            active[key] = g
        for x in near:
            g = memo.get(("close", x))
            if g is not None:
                active[("close", x)] = g
        by_held_close = self.requirements[4]
        for x in objects:
            if x in faced:
                g = memo.get(("facing", x))
                if g is not None:
                    active[("facing", x)] = g
            if x in held:
                g = memo.get(("held", x))
                if g is not None:
                    active[("held", x)] = g
                for y in near:
                    g = memo.get(("held_close", x, y))
                    if g is None:
                        entries = by_held_close.get((x, y))
                        if not entries:
                            continue
                        g = memo[("held_close", x, y)] = Group(entries, entries, self._close_pin(y))
                    active[("held_close", x, y)] = g
        return active

    def _base_groups(self) -> dict:
        """The groups whatever the signature, in ``memo``: the entries needing no condition but FIND (``FREE``),
        the FIND entry on each object ``x`` (``("find", x)``, pinned: whether x is close and the character's
        states), and the entries needing their object close, faced or held. The (held, close) groups, k * (k - 1)
        of them per task, are made when first needed."""
        memo, actions, c = self.memo, self.actions, self.character
        free, by_close, by_facing, by_held, _ = self.requirements
        rest = [i for i in free if actions[i].name != "FIND"]
        memo[FREE] = Group(rest, rest)
        for i in free:
            if actions[i].name == "FIND":
                x = actions[i].args[0]
                memo[("find", x)] = Group([i], [i], frozenset({("q", (IS_CLOSE, (c, x))), ("s", c)}))
        for x, g in by_close.items():
            memo[("close", x)] = Group(g, g, self._close_pin(x))
        for x, g in by_facing.items():
            memo[("facing", x)] = Group(g, g, frozenset({("q", (IS_FACING, (c, x)))}))
        for x, g in by_held.items():
            memo[("held", x)] = Group(g, g)
        return memo

    def _close_pin(self, x: int) -> frozenset:
        """The pinned read keys of an entry looked up only while ``x`` is close (one set per ``x``)."""
        pin = self.memo.get(("close_pin", x))
        if pin is None:
            pin = self.memo[("close_pin", x)] = frozenset({("q", (IS_CLOSE, (self.character, x)))})
        return pin

    def candidates(self, state: WorldState) -> list[int]:
        """Every candidate entry in ``state``, worked out afresh (no group kept)."""
        c = self.character
        free, by_close, by_facing, by_held, by_held_close = self.requirements
        near = [x for x in self.objects if is_close(state, c, x)]
        held_now = [x for x in self.objects if holding_hand(state, c, x) is not None]
        candidates = list(free)
        for x in near:
            candidates += by_close.get(x, ())
        for x in self.objects:
            if is_facing(state, c, x):
                candidates += by_facing.get(x, ())
        for x in held_now:
            candidates += by_held.get(x, ())
            for y in near:
                candidates += by_held_close.get((x, y), ())
        return candidates

"""BEHAVIOR symbolic state: unary state values, physical relations, the inside/ontop tree, two hands.

The state mirrors the evolving graph of eai-eval's BEHAVIOR evaluator:

* each object has a fixed set of state *keys* (``Open``, ``Dusty``, ``ToggledOn``, ``Slicer``...) and a
  boolean value per key;
* non-teleport relations (``OnFloor``, ``Under``, ``NextTo``) are directed edges, at most one
  relation per ordered pair (a later relation replaces an earlier one), kept in insertion order;
* ``Inside`` / ``OnTop`` form a forest: each non-floor object has at most one parent, children keep
  the order in which they were attached;
* the robot holds at most one object per hand (its tree descendants come along).

A :class:`BehaviorState` is a value: worlds copy it (cheaply: a few small dicts) and change the copy. A copy
remembers the state it was copied from (weakly) and logs the facts its writers touched, as read keys of
:mod:`.tracking`: :meth:`BehaviorState.changes_since` names what may differ from an earlier state without
comparing whole tables (``tests/envs/test_behavior_change_log.py``).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Iterator

INSIDE, ONTOP = "inside", "ontop"
ONFLOOR, UNDER, NEXTTO = "OnFloor", "Under", "NextTo"
HANDS = ("left_hand", "right_hand")


@dataclass(frozen=True, slots=True)
class BehaviorObject:
    """Static facts about one addressable object."""

    name: str
    category: str
    keys: frozenset[str]
    room_floor: bool = False
    volume: float = 1.0
    bddl: str = ""


@dataclass(slots=True)
class BehaviorScene:
    """Everything fixed for an episode: the objects, in the evaluator's order."""

    objects: dict[str, BehaviorObject]
    order: tuple[str, ...]
    bddl_to_name: dict[str, str] = field(default_factory=dict)
    memo: dict = field(default_factory=dict)
    #: the problem's ``:objects`` (category -> BDDL instances, agent included), the scope of goal quantifiers
    object_map: dict[str, list[str]] = field(default_factory=dict)

    def is_floor(self, name: str) -> bool:
        return self.objects[name].room_floor

    def positions(self) -> dict[str, int]:
        """Each object's position in ``order`` (kept in the memo)."""
        hit = self.memo.get("positions")
        if hit is None:
            hit = self.memo["positions"] = {n: p for p, n in enumerate(self.order)}
        return hit

    def parts_of(self, name: str) -> list[str]:
        """Objects the reference treats as parts of ``name`` (``_part_`` names containing it)."""
        key = ("parts", name)
        if key not in self.memo:
            self.memo[key] = [o for o in self.order if "_part_" in o and name in o]
        return self.memo[key]


class BehaviorState:
    """See the module docstring. ``values[name][key]`` is a state value; ``edges[(a, b)]`` the
    relation from a to b; ``parent[name] = (parent, inside|ontop)``; ``children[name]`` a tuple."""

    __slots__ = ("scene", "values", "edges", "parent", "children", "hands", "base", "log", "__weakref__")

    def __init__(self, scene: BehaviorScene, values: dict[str, dict[str, bool]],
                 edges: dict[tuple[str, str], str], parent: dict[str, tuple[str, str]],
                 children: dict[str, tuple[str, ...]], hands: tuple[str | None, str | None] = (None, None)) -> None:
        self.scene = scene
        self.values = values
        self.edges = edges
        self.parent = parent
        self.children = children
        self.hands = hands
        #: a weak reference to the state this one was copied from (None: not a copy)
        self.base: weakref.ref | None = None
        #: the read keys (:mod:`.tracking`) of the facts written since the copy: ``("v", name)``, ``("e", (a, b))``,
        #: ``("p", name)``, ``("c", name)``, ``("h", 0 | 1)``; a fact may be written back to its old value
        self.log: list = []

    def copy(self) -> "BehaviorState":
        new = BehaviorState(self.scene, dict(self.values), dict(self.edges), dict(self.parent),
                            dict(self.children), self.hands)
        new.base = weakref.ref(self)
        return new

    def __reduce__(self):
        # (a weak reference does not pickle: an unpickled state is no copy of anything)
        return (BehaviorState, (self.scene, self.values, self.edges, self.parent, self.children, self.hands))

    def changes_since(self, earlier: "BehaviorState", limit: int = 8) -> list | None:
        """The read keys logged by the copies that lead from ``earlier`` to this state (each fact that may
        differ between the two is among them; a key may repeat, or name a fact written back to its old value),
        or None when this state is not ``earlier`` or a copy of a copy ... of it (at most ``limit`` copies)."""
        out: list = []
        s = self
        for _ in range(limit + 1):
            if s is earlier:
                return out
            ref = s.base
            if ref is None:
                return None
            out += s.log
            s = ref()
            if s is None:
                return None
        return None

    # ------------------------------------------------------------------ reading
    def has(self, name: str, key: str) -> bool:
        return key in self.scene.objects[name].keys

    def value(self, name: str, key: str) -> bool | None:
        """The value of a state key, None when the object does not have it."""
        return self.values.get(name, {}).get(key) if key in self.scene.objects[name].keys else None

    def held(self, hand: str) -> str | None:
        return self.hands[HANDS.index(hand)]

    def in_hand_objects(self, hand: str) -> set[str]:
        """The object in ``hand`` and all its descendants in the tree."""
        top = self.held(hand)
        return set() if top is None else self.subtree(top)

    def subtree(self, top: str) -> set[str]:
        """``top`` and all its descendants in the tree."""
        out, stack = set(), [top]
        while stack:
            n = stack.pop()
            out.add(n)
            stack.extend(self.children.get(n, ()))
        return out

    def ancestors(self, name: str) -> Iterator[tuple[str, str, str]]:
        """``(node, parent, link)`` up the tree, where ``link`` is the type of node's link to parent."""
        node = name
        seen = {name}
        while node in self.parent:
            par, link = self.parent[node]
            yield node, par, link
            if par in seen:
                return
            seen.add(par)
            node = par

    def successors(self, name: str) -> list[tuple[str, str]]:
        return [(b, r) for (a, b), r in self.edges.items() if a == name]

    def predecessors(self, name: str) -> list[tuple[str, str]]:
        return [(a, r) for (a, b), r in self.edges.items() if b == name]

    def has_any_edge(self, name: str) -> bool:
        return any(a == name or b == name for a, b in self.edges)

    def key(self) -> tuple:
        return (tuple(sorted((k, tuple(sorted(v.items()))) for k, v in self.values.items())),
                tuple(self.edges.items()), tuple(sorted(self.parent.items())),
                tuple(sorted(self.children.items())), self.hands)

    # ------------------------------------------------------------------ writing (fresh copies only)
    # (every write goes through these, which log it)
    def set_value(self, name: str, key: str, value: bool) -> None:
        d = dict(self.values.get(name, {}))
        d[key] = value
        self.set_values(name, d)

    def set_values(self, name: str, values: dict[str, bool]) -> None:
        """Replace ``name``'s state values by ``values`` (a dict no other state holds)."""
        self.values[name] = values
        self.log.append(("v", name))

    def set_hand(self, hand: str, name: str | None) -> None:
        h = list(self.hands)
        i = HANDS.index(hand)
        h[i] = name
        self.hands = (h[0], h[1])
        self.log.append(("h", i))

    def add_edge(self, a: str, rel: str, b: str) -> None:
        self.edges[(a, b)] = rel
        self.log.append(("e", (a, b)))

    def remove_edge(self, a: str, b: str) -> None:
        """Remove the relation from ``a`` to ``b``, if any."""
        if self.edges.pop((a, b), None) is not None:
            self.log.append(("e", (a, b)))

    def remove_edges_of(self, name: str) -> None:
        gone = [("e", k) for k in self.edges if name in k]
        self.edges = {k: r for k, r in self.edges.items() if name not in k}
        self.log += gone

    def detach(self, name: str) -> None:
        """Move ``name`` (with its subtree) to the root."""
        if name in self.parent:
            par, _ = self.parent.pop(name)
            self.children[par] = tuple(c for c in self.children.get(par, ()) if c != name)
            self.log += (("p", name), ("c", par))

    def attach(self, name: str, parent: str, link: str) -> None:
        """Re-parent ``name`` under ``parent`` (appended to its children)."""
        self.detach(name)
        self.parent[name] = (parent, link)
        self.children[parent] = self.children.get(parent, ()) + (name,)
        self.log += (("p", name), ("c", parent))

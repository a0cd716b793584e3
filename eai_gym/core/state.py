"""World state: objects with unary states and labelled binary relations, as cheap immutable values.

A :class:`Scene` holds everything that is fixed for an episode (the objects, their properties and the
initial facts) and is shared by every state of that episode. A :class:`WorldState` is the scene
plus a small overlay of what changed. Copying a state copies the overlay only, so a step never copies
the scene graph and search can keep thousands of states alive.

States are values by convention: a world creates a new state with :meth:`WorldState.copy`, mutates
that copy while applying one action, and never touches it again afterwards.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Hashable, Iterable, Iterator, Mapping

ObjId = Hashable
Edge = tuple[ObjId, str, ObjId]

EMPTY: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class ObjectInfo:
    """What never changes about an object: its id, class name, category and properties."""

    id: ObjId
    name: str
    category: str = ""
    properties: frozenset[str] = EMPTY


class Scene:
    """The immutable base of a family of states."""

    __slots__ = ("objects", "states", "out", "inn", "relations", "memo")

    def __init__(
        self,
        objects: Iterable[ObjectInfo],
        states: Mapping[ObjId, Iterable[str]],
        edges: Iterable[Edge],
    ) -> None:
        self.objects: dict[ObjId, ObjectInfo] = {o.id: o for o in objects}
        self.states: dict[ObjId, frozenset[str]] = {
            k: frozenset(v) for k, v in states.items() if v
        }
        out: dict[tuple[ObjId, str], set] = {}
        inn: dict[tuple[ObjId, str], set] = {}
        relations: set[str] = set()
        for a, rel, b in edges:
            out.setdefault((a, rel), set()).add(b)
            inn.setdefault((b, rel), set()).add(a)
            relations.add(rel)
        self.out: dict[tuple[ObjId, str], frozenset] = {k: frozenset(v) for k, v in out.items()}
        self.inn: dict[tuple[ObjId, str], frozenset] = {k: frozenset(v) for k, v in inn.items()}
        self.relations: frozenset[str] = frozenset(relations)
        #: derived values worlds compute once per scene (e.g. lists of objects with a property)
        self.memo: dict[str, Any] = {}

    def derive(
        self,
        set_objects: Iterable[ObjectInfo] = (),
        del_objects: Iterable[ObjId] = (),
        set_states: Iterable[tuple[ObjId, Iterable[str]]] = (),
        add_edges: Iterable[tuple[ObjId, str, Iterable[ObjId]]] = (),
        del_edges: Iterable[tuple[ObjId, str, Iterable[ObjId]]] = (),
    ) -> "Scene":
        """A new scene that differs from this one by the given changes; unchanged parts are shared,
        so deriving a task's scene from a common base costs only its differences.

        Edges are given grouped as ``(from, relation, [to, ...])``; ``set_states`` as ``(id, states)``
        pairs (objects in ``set_objects`` keep the states given here or in this scene)."""
        objects, states = dict(self.objects), dict(self.states)
        for oid in del_objects:
            objects.pop(oid, None)
            states.pop(oid, None)
        for o in set_objects:
            objects[o.id] = o
        for oid, st in set_states:
            fs = frozenset(st)
            if fs:
                states[oid] = fs
            else:
                states.pop(oid, None)
        out, inn = dict(self.out), dict(self.inn)
        _apply_grouped(out, inn, del_edges, remove=True)
        relations = _apply_grouped(out, inn, add_edges, remove=False)
        new = Scene.__new__(Scene)
        new.objects, new.states, new.out, new.inn = objects, states, out, inn
        new.relations = self.relations | relations
        new.memo = {}
        return new

    def initial_state(self) -> "WorldState":
        return WorldState(self)


#: each state's serial number (:attr:`WorldState.serial`), unique in a process
_SERIALS = itertools.count()


class WorldState:
    """A scene plus the overlay of changed facts. See the module docstring."""

    __slots__ = ("scene", "_st", "_out", "_in", "data", "dirty", "parent_id", "serial", "parent_serial", "log")

    def __init__(
        self,
        scene: Scene,
        st: dict | None = None,
        out: dict | None = None,
        inn: dict | None = None,
        data: dict | None = None,
    ) -> None:
        self.scene = scene
        self._st: dict[ObjId, frozenset[str]] = {} if st is None else st
        self._out: dict[tuple[ObjId, str], frozenset] = {} if out is None else out
        self._in: dict[tuple[ObjId, str], frozenset] = {} if inn is None else inn
        # world-specific extras; values must be immutable (the dict is copied shallowly)
        self.data: dict[Any, Any] = {} if data is None else data
        #: objects whose facts changed since this state was copied from the state ``parent_id``
        #: (``id()`` of that state; None for a scene's initial state) — lets renderers update
        #: incrementally
        self.dirty: set = set()
        self.parent_id: int | None = None
        #: a number no other state of this process has; a copy keeps its original's in ``parent_serial``
        self.serial = next(_SERIALS)
        self.parent_serial: int | None = None
        #: the overlay keys written since the copy: ``("s", id)``, ``("o", (id, rel))``, ``("i", (id, rel))``
        #: (what :func:`eai_gym.core.tracking.changed_keys` compares; ``data`` is compared whole)
        self.log: list = []

    def __getstate__(self) -> tuple:
        # (an unpickled state is no copy of anything: it gets a serial of its own process)
        return (self.scene, self._st, self._out, self._in, self.data, self.dirty, self.parent_id)

    def __setstate__(self, state: tuple) -> None:
        self.scene, self._st, self._out, self._in, self.data, self.dirty, self.parent_id = state
        self.serial, self.parent_serial, self.log = next(_SERIALS), None, []

    # ------------------------------------------------------------------ reading
    def copy(self) -> "WorldState":
        new = WorldState(self.scene, self._st.copy(), self._out.copy(), self._in.copy(), self.data.copy())
        new.parent_id = id(self)
        new.parent_serial = self.serial
        return new

    def obj(self, oid: ObjId) -> ObjectInfo | None:
        return self.scene.objects.get(oid)

    def states(self, oid: ObjId) -> frozenset[str]:
        s = self._st.get(oid)
        return self.scene.states.get(oid, EMPTY) if s is None else s

    def targets(self, oid: ObjId, rel: str) -> frozenset:
        """Objects ``b`` with an edge ``(oid, rel, b)``."""
        v = self._out.get((oid, rel))
        return self.scene.out.get((oid, rel), EMPTY) if v is None else v

    def sources(self, oid: ObjId, rel: str) -> frozenset:
        """Objects ``a`` with an edge ``(a, rel, oid)``."""
        v = self._in.get((oid, rel))
        return self.scene.inn.get((oid, rel), EMPTY) if v is None else v

    def facts(self, oid: ObjId, rels: tuple[str, ...]) -> tuple:
        """``(oid, states(oid), targets(oid, rel) for each rel in rels)`` in one call (what a renderer shows)."""
        out, base = self._out, self.scene.out
        st = self._st.get(oid)
        got = [oid, self.scene.states.get(oid, EMPTY) if st is None else st]
        for rel in rels:
            v = out.get((oid, rel))
            got.append(base.get((oid, rel), EMPTY) if v is None else v)
        return tuple(got)

    def has_edge(self, a: ObjId, rel: str, b: ObjId) -> bool:
        return b in self.targets(a, rel)

    def edges(self) -> Iterator[Edge]:
        """Every current edge, sorted (deterministic whatever the hash seed)."""
        keys = set(self.scene.out)
        keys.update(self._out)
        for a, rel in sorted(keys, key=_sort_key):
            for b in sorted(self.targets(a, rel), key=_sort_key):
                yield (a, rel, b)

    def unary_facts(self) -> Iterator[tuple[str, ObjId]]:
        for oid in sorted(self.scene.objects, key=_sort_key):
            for s in sorted(self.states(oid)):
                yield (s, oid)

    def key(self) -> tuple:
        """A hashable value equal for equal states of the same scene (for search memos)."""
        st = tuple(sorted(((k, tuple(sorted(v))) for k, v in self._st.items()
                           if v != self.scene.states.get(k, EMPTY)), key=_sort_key))
        out = tuple(sorted(((k, tuple(sorted(v, key=_sort_key))) for k, v in self._out.items()
                            if v != self.scene.out.get(k, EMPTY)), key=_sort_key))
        data = tuple(sorted(self.data.items(), key=_sort_key))
        return (st, out, data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WorldState):
            return NotImplemented
        return self.scene is other.scene and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable during construction; use key()

    def to_dict(self) -> dict[str, list[dict[str, Any]]]:
        """The state as a scene-graph dict (``nodes`` and ``edges``), in sorted order."""
        nodes = []
        for oid in sorted(self.scene.objects, key=_sort_key):
            o = self.scene.objects[oid]
            nodes.append({"id": oid, "class_name": o.name, "category": o.category,
                          "properties": sorted(o.properties), "states": sorted(self.states(oid))})
        edges = [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in self.edges()]
        return {"nodes": nodes, "edges": edges}

    def to_networkx(self):  # -> networkx.MultiDiGraph (imported lazily: not on the hot path)
        import networkx as nx

        g = nx.MultiDiGraph()
        for oid in sorted(self.scene.objects, key=_sort_key):
            o = self.scene.objects[oid]
            g.add_node(oid, class_name=o.name, category=o.category,
                       properties=sorted(o.properties), states=sorted(self.states(oid)))
        for a, rel, b in self.edges():
            g.add_edge(a, b, key=rel, relation=rel)
        return g

    # ------------------------------------------------------------------ writing (fresh copies only)
    def set_states(self, oid: ObjId, states: frozenset[str]) -> None:
        self._st[oid] = states
        self.dirty.add(oid)
        self.log.append(("s", oid))

    def add_edge(self, a: ObjId, rel: str, b: ObjId) -> None:
        t = self.targets(a, rel)
        if b in t:
            return
        self._out[(a, rel)] = t | {b}
        self._in[(b, rel)] = self.sources(b, rel) | {a}
        self.dirty.add(a)
        self.dirty.add(b)
        self.log += (("o", (a, rel)), ("i", (b, rel)))

    def remove_edge(self, a: ObjId, rel: str, b: ObjId) -> None:
        t = self.targets(a, rel)
        if b not in t:
            return
        self._out[(a, rel)] = t - {b}
        self._in[(b, rel)] = self.sources(b, rel) - {a}
        self.dirty.add(a)
        self.dirty.add(b)
        self.log += (("o", (a, rel)), ("i", (b, rel)))

    def remove_edges_from(self, a: ObjId, rel: str) -> None:
        """Remove every edge ``(a, rel, *)``."""
        t = self.targets(a, rel)
        if not t:
            return
        for b in t:
            self._in[(b, rel)] = self.sources(b, rel) - {a}
            self.log.append(("i", (b, rel)))
        self._out[(a, rel)] = EMPTY
        self.dirty.add(a)
        self.dirty.update(t)
        self.log.append(("o", (a, rel)))

    def remove_edges_to(self, b: ObjId, rel: str) -> None:
        """Remove every edge ``(*, rel, b)``."""
        src = self.sources(b, rel)
        if not src:
            return
        for a in src:
            self._out[(a, rel)] = self.targets(a, rel) - {b}
            self.log.append(("o", (a, rel)))
        self._in[(b, rel)] = EMPTY
        self.dirty.add(b)
        self.dirty.update(src)
        self.log.append(("i", (b, rel)))


def _apply_grouped(out: dict, inn: dict, groups, remove: bool) -> set[str]:
    """Add (or remove) grouped edges ``(a, rel, [b, ...])`` to both indexes; returns the relations."""
    rels = set()
    for a, rel, targets in groups:
        rels.add(rel)
        ts = frozenset(targets)
        key = (a, rel)
        cur = out.get(key, EMPTY)
        out[key] = cur - ts if remove else cur | ts
        for b in ts:
            k = (b, rel)
            src = inn.get(k, EMPTY)
            inn[k] = src - {a} if remove else src | {a}
    return rels


def _sort_key(x: Any) -> Any:
    """Sort key that orders mixed ints/strings/tuples deterministically."""
    if isinstance(x, tuple):
        return tuple(_sort_key(y) for y in x)
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return (1, str(x))
    return (0, x)

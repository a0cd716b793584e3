"""Read tracking: views of a state that record which facts a computation read, and the facts two states
differ in. :class:`~.answers.KeptAnswers` rests on these to keep answers from one state to the next.

A *read key* names one fact: ``(tag, key)``, where the tag says which table of the state the fact lives in.
Any world can take part: its view records keys as it is read, and its ``changed_keys(a, b)`` names the keys
whose value differs between two states of one scene (see :class:`ReadTrackingState` for :class:`WorldState`).
"""

from __future__ import annotations

from typing import Any, Iterator

from .state import EMPTY, Edge, ObjId, WorldState

#: the key recorded when a whole table is scanned (iterated, sized); it changes with any key of the table
ALL_KEYS = ("<every key>",)
_MISSING = object()


class TrackedDict(dict):
    """A copy of a dict that records ``(tag, key)`` in ``reads`` for every key read, and ``(tag, ALL_KEYS)``
    when it is iterated or sized. Writes are not recorded (a view only writes to copies it made)."""

    __slots__ = ("reads", "tag")

    def __init__(self, data: dict, reads: set, tag: str) -> None:
        # (a plain dict is cloned whole; a tracked one is read through its items view: no tracked read)
        dict.__init__(self, data if type(data) is dict else dict.items(data))
        self.reads = reads
        self.tag = tag

    def __contains__(self, key: object) -> bool:
        self.reads.add((self.tag, key))
        return dict.__contains__(self, key)

    def __getitem__(self, key: Any) -> Any:
        self.reads.add((self.tag, key))
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.reads.add((self.tag, key))
        return dict.get(self, key, default)

    def pop(self, key: Any, *default: Any) -> Any:
        self.reads.add((self.tag, key))
        return dict.pop(self, key, *default)

    def __iter__(self):
        self.reads.add((self.tag, ALL_KEYS))
        return dict.__iter__(self)

    def keys(self):
        self.reads.add((self.tag, ALL_KEYS))
        return dict.keys(self)

    def items(self):
        self.reads.add((self.tag, ALL_KEYS))
        return dict.items(self)

    def values(self):
        self.reads.add((self.tag, ALL_KEYS))
        return dict.values(self)

    def __len__(self) -> int:
        self.reads.add((self.tag, ALL_KEYS))
        return dict.__len__(self)

    def plain(self) -> dict:
        """An untracked copy."""
        return dict(dict.items(self))


def changed_dict_keys(tag: str, a: dict, b: dict, out: list) -> None:
    """Append to ``out`` the read keys ``(tag, key)`` whose value differs between dicts ``a`` and ``b``
    (a missing key differs from every value), then ``(tag, ALL_KEYS)`` if any did."""
    if a is b:
        return
    n = len(out)
    for k, v in b.items():
        old = a.get(k, _MISSING)
        if old is not v and old != v:
            out.append((tag, k))
    for k in a.keys() - b.keys():
        out.append((tag, k))
    if len(out) > n:
        out.append((tag, ALL_KEYS))


class ReadTrackingState(WorldState):
    """A read-only view of a state that records every fact it is asked about, in ``reads``.

    Keys: ``("s", id)`` (unary states), ``("o", (id, rel))`` (targets), ``("i", (id, rel))`` (sources),
    ``("d", key)`` (``data``). Copies (an executor building the next state) record into the same set, so
    a function of the state that only reads it through these accessors depends on ``reads`` alone: it
    gives the same answer in any state of the same scene where :func:`changed_keys` names none of them.
    """

    __slots__ = ("reads", "answers")

    def __init__(self, state: WorldState, reads: set | None = None, answers: Any = None) -> None:
        self.reads: set = set() if reads is None else reads
        #: the :class:`~eai_gym.core.answers.KeptAnswers` whose state this view shows (None on copies:
        #: queries on a state being built are computed, not looked up)
        self.answers = answers
        super().__init__(state.scene, state._st, state._out, state._in, TrackedDict(state.data, self.reads, "d"))

    def record_into(self, reads: set) -> None:
        """Record the reads from now on into ``reads`` (to trace one call after another on one view)."""
        self.reads = reads
        self.data.reads = reads  # type: ignore[attr-defined]

    def copy(self) -> WorldState:
        plain = WorldState(self.scene, self._st.copy(), self._out.copy(), self._in.copy(),
                           self.data.plain())  # type: ignore[attr-defined]
        new = ReadTrackingState(plain, self.reads)
        new.parent_id = id(self)
        return new

    def states(self, oid: ObjId) -> frozenset[str]:
        self.reads.add(("s", oid))
        return WorldState.states(self, oid)

    def targets(self, oid: ObjId, rel: str) -> frozenset:
        self.reads.add(("o", (oid, rel)))
        return WorldState.targets(self, oid, rel)

    def sources(self, oid: ObjId, rel: str) -> frozenset:
        self.reads.add(("i", (oid, rel)))
        return WorldState.sources(self, oid, rel)

    def edges(self) -> Iterator[Edge]:
        raise TypeError("ReadTrackingState does not track edges(); read facts through targets()/sources()")

    def unary_facts(self) -> Iterator[tuple[str, ObjId]]:
        raise TypeError("ReadTrackingState does not track unary_facts(); read facts through states()")


def changed_keys(a: WorldState, b: WorldState) -> list[tuple[str, Any]]:
    """The read keys (as :class:`ReadTrackingState` records them) whose value differs between two states
    of the same scene; ``("d", ALL_KEYS)`` comes with any data change. When ``b`` is a copy of ``a``, only the
    keys its writers logged are compared (:attr:`~.state.WorldState.log`); otherwise every overlay key
    (:func:`compared_keys`)."""
    if a.scene is not b.scene:
        raise ValueError("changed_keys compares states of one scene")
    if b.parent_serial != a.serial:
        return compared_keys(a, b)
    out: list[tuple[str, Any]] = []
    tables = {"s": (a._st, b._st, a.scene.states), "o": (a._out, b._out, a.scene.out),
              "i": (a._in, b._in, a.scene.inn)}
    for key in dict.fromkeys(b.log):
        da, db, base = tables[key[0]]
        k = key[1]
        old, new = da.get(k, _MISSING), db.get(k, _MISSING)
        if old is new:
            continue
        if old is _MISSING:
            old = base.get(k, EMPTY)
        if new is _MISSING:
            new = base.get(k, EMPTY)
        if old != new:
            out.append(key)
    changed_dict_keys("d", a.data, b.data, out)
    return out


def compared_keys(a: WorldState, b: WorldState) -> list[tuple[str, Any]]:
    """:func:`changed_keys` by comparing every overlay key of both states (what the log spares)."""
    out: list[tuple[str, Any]] = []
    for tag, da, db, base in (("s", a._st, b._st, a.scene.states), ("o", a._out, b._out, a.scene.out),
                              ("i", a._in, b._in, a.scene.inn)):
        if da is db:
            continue
        for k, v in db.items():
            old = da.get(k, _MISSING)
            if old is v:
                continue
            if old is _MISSING:
                old = base.get(k, EMPTY)
            if old != v:
                out.append((tag, k))
        for k in da.keys() - db.keys():
            if da[k] != base.get(k, EMPTY):
                out.append((tag, k))
    changed_dict_keys("d", a.data, b.data, out)
    return out

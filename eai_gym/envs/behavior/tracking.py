"""Read tracking for :class:`~.state.BehaviorState`, so the index-mode mask can keep each catalogue entry's
answer until a fact it read changes (:class:`eai_gym.core.answers.KeptAnswers`).

Read keys: ``("v", name)`` (an object's state values), ``("e", (a, b))`` (the relation from a to b),
``("p", name)`` (its parent in the inside/ontop tree), ``("c", name)`` (its children), ``("h", 0)`` /
``("h", 1)`` (what the left / right hand holds); ``(tag, ALL_KEYS)`` when a whole table is scanned.
"""

from __future__ import annotations

from typing import Any

from ...core.tracking import ALL_KEYS, TrackedDict, changed_dict_keys
from .state import HANDS, BehaviorState


class BehaviorReadView(BehaviorState):
    """A view of a state that records in ``reads`` every fact read through it (see the module docstring).
    Copies record into the same set, so an executor's whole run, effects included, is traced."""

    __slots__ = ("reads", "answers", "_hands")

    def __init__(self, state: BehaviorState, reads: set | None = None, answers: Any = None) -> None:
        self.reads: set = set() if reads is None else reads
        #: the KeptAnswers whose state this view shows (None on copies and query views)
        self.answers = answers
        self.scene = state.scene
        self.values = TrackedDict(state.values, self.reads, "v")
        self.edges = TrackedDict(state.edges, self.reads, "e")
        self.parent = TrackedDict(state.parent, self.reads, "p")
        self.children = TrackedDict(state.children, self.reads, "c")
        self._hands = state.hands
        self.base, self.log = None, None  # (a view is read only: no log)

    def record_into(self, reads: set) -> None:
        """Record the reads from now on into ``reads``."""
        self.reads = reads
        for d in (self.values, self.edges, self.parent, self.children):
            d.reads = reads  # type: ignore[attr-defined]

    @property  # type: ignore[override]
    def hands(self) -> tuple[str | None, str | None]:
        self.reads.add(("h", 0))
        self.reads.add(("h", 1))
        return self._hands

    @hands.setter
    def hands(self, value: tuple[str | None, str | None]) -> None:
        self._hands = value

    def held(self, hand: str) -> str | None:
        i = HANDS.index(hand)
        self.reads.add(("h", i))
        return self._hands[i]

    def copy(self) -> "BehaviorReadView":
        new = BehaviorReadView.__new__(BehaviorReadView)
        new.reads, new.answers, new.scene, new._hands = self.reads, None, self.scene, self._hands
        new.base, new.log = None, []
        new.values = TrackedDict(self.values, self.reads, "v")  # (copies the items: no tracked read)
        new.edges = TrackedDict(self.edges, self.reads, "e")  # type: ignore[arg-type]
        new.parent = TrackedDict(self.parent, self.reads, "p")  # type: ignore[arg-type]
        new.children = TrackedDict(self.children, self.reads, "c")  # type: ignore[arg-type]
        return new

    def key(self) -> tuple:
        raise TypeError("BehaviorReadView does not track key(); read facts through the accessors")


def changed_keys(a: BehaviorState, b: BehaviorState) -> list[tuple[str, Any]]:
    """The read keys (as :class:`BehaviorReadView` records them) whose value differs between two states of
    one scene. When ``b`` is a copy (of a copy ...) of ``a``, only the facts its copies logged are compared
    (:meth:`~.state.BehaviorState.changes_since`); otherwise every table."""
    if a.scene is not b.scene:
        raise ValueError("changed_keys compares states of one scene")
    logged = b.changes_since(a)
    if logged is not None:
        return logged_changes(a, b, logged)
    return compared_keys(a, b)


def compared_keys(a: BehaviorState, b: BehaviorState) -> list[tuple[str, Any]]:
    """:func:`changed_keys` by comparing every table (what the log spares)."""
    out: list[tuple[str, Any]] = []
    changed_dict_keys("v", a.values, b.values, out)
    changed_dict_keys("e", a.edges, b.edges, out)
    changed_dict_keys("p", a.parent, b.parent, out)
    changed_dict_keys("c", a.children, b.children, out)
    for i in (0, 1):
        if a.hands[i] != b.hands[i]:
            out.append(("h", i))
    return out


#: the table of each read key's tag
_TABLES = {"v": "values", "e": "edges", "p": "parent", "c": "children"}
_MISSING = object()


def logged_changes(a: BehaviorState, b: BehaviorState, logged: list) -> list[tuple[str, Any]]:
    """:func:`changed_keys` ``(a, b)`` given ``b.changes_since(a)``: the logged keys whose value differs, each
    once, then ``(tag, ALL_KEYS)`` for each table in which one did."""
    out: list[tuple[str, Any]] = []
    tags: list[str] = []
    for key in dict.fromkeys(logged):
        tag, k = key
        if tag == "h":
            if a.hands[k] != b.hands[k]:
                out.append(key)
            continue
        table = _TABLES[tag]
        old = getattr(a, table).get(k, _MISSING)
        new = getattr(b, table).get(k, _MISSING)
        if old is not new and old != new:
            out.append(key)
            if tag not in tags:
                tags.append(tag)
    out += [(tag, ALL_KEYS) for tag in tags]
    return out

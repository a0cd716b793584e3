"""Answers about a state kept from one state to the next, recomputed only where a fact they read changed.

The index-mode action mask asks, after every step, whether each of hundreds of catalogue entries would
execute. A step changes a handful of facts, so most answers stay the same. :class:`KeptAnswers` keeps
each answer with the facts its computation read (through a read-tracking view of the state, by default
:class:`~.tracking.ReadTrackingState`), and when the state moves on it drops only the answers that read a
fact the view type's ``changed_keys`` names. Any world's state can take part: it gives a view type (built as
``view_type(state, reads=None, answers=None)``, recording into its ``reads`` set, copies included) and its
``changed_keys``.

Derived facts (``is_close(state, c, x)``, the room an object is in) are read by many answers and
depend on many raw facts that change often (the character's CLOSE edges change at every walk) while
their value rarely does. Functions marked :func:`state_query` are kept as facts of their own: an answer
records the query's value, the query records its raw reads, and after a step a query whose reads changed
is recomputed; only if its value changed are the answers that read it dropped.
"""

from __future__ import annotations

import functools
from itertools import compress
from typing import Any, Callable, Hashable, Sequence

from .tracking import ReadTrackingState, changed_keys

_MISSING = object()
#: the view types whose ``answers`` attribute :func:`state_query` consults
TRACKING_VIEWS: set[type] = {ReadTrackingState}


def state_query(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``fn(state, *args)`` (a pure function of the state, hashable ``args``) as a query that
    :class:`KeptAnswers` keeps as a fact; called on any other state it is ``fn`` itself."""

    @functools.wraps(fn)
    def query(s: Any, *args: Any) -> Any:
        if s.__class__ in TRACKING_VIEWS and s.answers is not None:
            return s.answers.query(fn, args, s)
        return fn(s, *args)

    query.compute = fn  # type: ignore[attr-defined]
    return query


class KeptAnswers:
    """Answers ``answer(key, fn)`` for the current state (:meth:`advance`), each kept until a fact it
    read changes. ``fn(view)`` must read the state only through ``view`` (a tracking view of it).

    Args:
        view_type: the read-tracking view class of the world's states (registered for :func:`state_query`).
        changed: ``changed(a, b)``, the read keys whose value differs between two states of one scene (a
            list the caller may extend).
    """

    def __init__(self, view_type: type = ReadTrackingState,
                 changed: Callable[[Any, Any], list] = changed_keys) -> None:
        TRACKING_VIEWS.add(view_type)
        self.view_type = view_type
        self.changed = changed
        #: how many times the answers started over (:meth:`clear`)
        self.generation = -1
        self.clear()

    def clear(self) -> None:
        self.generation += 1
        #: the keys whose answers the last :meth:`advance` dropped
        self.dropped: list = []
        self.state: Any = None
        self.values: dict[Hashable, Any] = {}
        self.index: dict[Any, set] = {}
        self.queries: dict[tuple, tuple[Any]] = {}  # (value,): a value may be None
        self.qindex: dict[Any, set] = {}
        self._view: Any = None
        self._query_view: Any = None

    def __reduce__(self):
        # a cache: a copy starts empty (kept queries are keyed by functions that do not pickle)
        return (KeptAnswers, (self.view_type, self.changed))

    def advance(self, state: Any) -> None:
        """Move to ``state``: drop the answers that read a fact that differs from the last state."""
        last = self.state
        if last is state:
            self.dropped = []
            return
        if last is None or last.scene is not state.scene:
            self.clear()
            self.state = state
            return
        changed = self.changed(last, state)
        self.state, self._view, self._query_view = state, None, None
        self.dropped = dropped = []
        dirty: set = set()
        for key in changed:
            dirty.update(self.qindex.pop(key, ()))
        for qkey in dirty:
            old = self.queries.pop(qkey, _MISSING)
            if old is _MISSING:
                continue
            if self._compute(qkey) != old[0]:
                changed.append(("q", qkey))
        values, index = self.values, self.index
        for key in changed:
            for i in index.pop(key, ()):
                if values.pop(i, _MISSING) is not _MISSING:
                    dropped.append(i)

    def view(self) -> Any:
        """A tracking view of the current state whose queries are the kept ones."""
        if self._view is None:
            assert self.state is not None, "advance() to a state first"
            self._view = self.view_type(self.state, answers=self)
        return self._view

    def answer(self, key: Hashable, fn: Callable[[Any], Any], pinned: frozenset = frozenset()) -> Any:
        """``fn(view)`` for the current state, kept under ``key``.

        ``pinned``: read keys that have the same value whenever this answer is looked up: the caller asks under
        a key that holds their values (``(entry, what the left hand holds)``), or asks only while they have one
        value (an entry looked up only while its object is close). Their changes do not drop the answer: it is
        kept for when they take that value again, until another fact it read changes.
        """
        v = self.values.get(key, _MISSING)
        if v is not _MISSING:
            return v
        view = self._view if self._view is not None else self.view()
        reads = view.reads  # one set per view, emptied for each answer (answers do not nest)
        reads.clear()
        v = self.values[key] = fn(view)
        if pinned:
            reads -= pinned
        index = self.index
        for k in reads:
            s = index.get(k)
            if s is None:
                index[k] = {key}
            else:
                s.add(key)
        return v

    def truthy(self, items: Sequence[Any], keys: Sequence[Hashable], fn: Callable[[Any], Callable[[Any], Any]],
               pinned: frozenset = frozenset()) -> list:
        """The ``items`` whose answer (under the key at the same position in ``keys``) is truthy; a missing
        answer is ``answer(key, fn(item), pinned)``. (What an action mask asks of hundreds of entries per step.)"""
        values = self.values
        for pos in [p for p, k in enumerate(keys) if k not in values]:
            self.answer(keys[pos], fn(items[pos]), pinned)
        return list(compress(items, map(values.__getitem__, keys)))

    def query(self, fn: Callable[..., Any], args: tuple, view: Any) -> Any:
        """A :func:`state_query`'s value on the current state; ``view`` records that it read it."""
        qkey = (fn, args)
        view.reads.add(("q", qkey))
        hit = self.queries.get(qkey)
        if hit is not None:
            return hit[0]
        return self._compute(qkey)

    def _compute(self, qkey: tuple) -> Any:
        fn, args = qkey
        qview = self._query_view  # one view for every query on this state (queries nest as plain calls)
        if qview is None:
            qview = self._query_view = self.view_type(self.state)
        reads = qview.reads
        reads.clear()
        v = fn(qview, *args)
        self.queries[qkey] = (v,)
        qindex = self.qindex
        for k in reads:
            s = qindex.get(k)
            if s is None:
                qindex[k] = {qkey}
            else:
                s.add(qkey)
        return v

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
from typing import Any, Callable, Hashable

from .tracking import ReadTrackingState, changed_keys

_MISSING = object()
#: the view types whose ``answers`` attribute :func:`state_query` consults
TRACKING_VIEWS: set[type] = {ReadTrackingState}


def state_query(fn: Callable[..., Any] | None = None, *, bulk: tuple | None = None) -> Any:
    """Mark ``fn(state, *args)`` (a pure function of the state, hashable ``args``) as a query that
    :class:`KeptAnswers` keeps as a fact; called on any other state it is ``fn`` itself.

    ``bulk=(basis, basis_args, pick)``: the queries whose ``basis_args(*args)`` are equal share one value
    ``basis(state, *basis_args(*args))`` (say, the set of every object close to the character), and each one's
    value is ``pick(that value, *args)``, which must equal ``fn(state, *args)`` in every state. A fact the basis
    read changes: the basis is computed once again and each query sharing it picked from it, instead of every
    query computing afresh. (Usable as ``@state_query`` or ``@state_query(bulk=...)``.)"""
    if fn is None:
        return lambda f: state_query(f, bulk=bulk)
    if bulk is not None:
        fn.bulk = bulk  # type: ignore[attr-defined]

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
        #: the kept queries (``(fn, args)``) whose value the last :meth:`advance` changed
        self.changed_queries: list = []
        #: how many times :meth:`advance` was called since the answers started over (one who follows the
        #: changed queries knows from it whether it saw every advance)
        self.advances = 0
        self.state: Any = None
        self.values: dict[Hashable, Any] = {}
        self.index: dict[Any, set] = {}
        self.queries: dict[tuple, tuple[Any]] = {}  # (value,): a value may be None
        self.qindex: dict[Any, set] = {}
        self.bases: dict[tuple, tuple[Any]] = {}  # (basis, basis args) -> (its value,) (see state_query's bulk)
        self.members: dict[tuple, set] = {}  # (basis, basis args) -> the kept queries picked from it
        self.bindex: dict[Any, set] = {}  # read key -> the bases that read it
        self._view: Any = None
        self._query_view: Any = None

    def __reduce__(self):
        # a cache: a copy starts empty (kept queries are keyed by functions that do not pickle)
        return (KeptAnswers, (self.view_type, self.changed))

    def advance(self, state: Any) -> None:
        """Move to ``state``: drop the answers that read a fact that differs from the last state."""
        last = self.state
        if last is state:
            self.dropped, self.changed_queries = [], []
            self.advances += 1
            return
        if last is None or last.scene is not state.scene:
            self.clear()
            self.state = state
            return
        changed = self.changed(last, state)
        self.state, self._view, self._query_view = state, None, None
        self.dropped = dropped = []
        self.changed_queries = changed_queries = []
        self.advances += 1
        dirty: set = set()
        dirty_bases: set = set()
        qindex, bindex = self.qindex, self.bindex
        for key in changed:
            dirty.update(qindex.pop(key, ()))
            if bindex:
                dirty_bases.update(bindex.pop(key, ()))
        for qkey in dirty:
            old = self.queries.pop(qkey, _MISSING)
            if old is _MISSING:
                continue
            if self._compute(qkey) != old[0]:
                changed.append(("q", qkey))
                changed_queries.append(qkey)
        queries = self.queries
        for bkey in dirty_bases:
            self.bases.pop(bkey, None)
            members = self.members.get(bkey)
            if not members:
                continue
            basis = self._basis(bkey)
            for qkey in members:
                new = qkey[0].bulk[2](basis, *qkey[1])
                if new != queries[qkey][0]:
                    queries[qkey] = (new,)
                    changed.append(("q", qkey))
                    changed_queries.append(qkey)
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

    def kept_query(self, fn: Callable[..., Any], args: tuple) -> Any:
        """The value of the :func:`state_query` whose function is ``fn`` (its ``compute``) on the current
        state, kept from now on (its changes are then listed in :attr:`changed_queries`)."""
        hit = self.queries.get((fn, args))
        return self._compute((fn, args)) if hit is None else hit[0]

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
        bulk = getattr(fn, "bulk", None)
        if bulk is not None:
            basis_fn, basis_args, pick = bulk
            bkey = (basis_fn, basis_args(*args))
            hit = self.bases.get(bkey)
            v = pick(self._basis(bkey) if hit is None else hit[0], *args)
            self.queries[qkey] = (v,)
            members = self.members.get(bkey)
            if members is None:
                self.members[bkey] = {qkey}
            else:
                members.add(qkey)
            return v
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

    def _basis(self, bkey: tuple) -> Any:
        basis_fn, args = bkey
        qview = self._query_view
        if qview is None:
            qview = self._query_view = self.view_type(self.state)
        reads = qview.reads
        reads.clear()
        v = basis_fn(qview, *args)
        self.bases[bkey] = (v,)
        bindex = self.bindex
        for k in reads:
            s = bindex.get(k)
            if s is None:
                bindex[k] = {bkey}
            else:
                s.add(bkey)
        return v

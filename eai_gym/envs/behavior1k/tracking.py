"""Read tracking for :class:`~.state.B1KState`, so the index-mode mask can keep each catalogue entry's answer until
a fact it read changes (:class:`eai_gym.core.answers.KeptAnswers`).

Read keys: the atom itself (whether it holds: ``has``, ``real``, ``atom in facts``), ``(TARGETS, pred, a)`` (the
``b`` with ``(pred, a, b)``: ``targets``), ``(SOURCES, pred, b)`` (the ``a`` with ``(pred, a, b)``: ``sources``),
:data:`HELD` (the held object) and :data:`SCANNED` when the facts are scanned (iterated, copied, sized), which any
change of a fact changes. (An atom starts with its predicate, a string; the other keys with a marker that is not
one, so no key names two things.)

A view may also show the held object as :class:`SomeObject`: "some object other than the target", for answers
that hold whatever that object is (placing it on ``t`` asks only that something other than ``t`` is held).
"""

from __future__ import annotations

from typing import Any, Iterator

from ...core.tracking import ALL_KEYS
from ...logic.bddl_eval import Fact
from .state import B1KState

TARGETS, SOURCES = ("targets",), ("sources",)
HELD = (("held",),)
SCANNED = (ALL_KEYS,)


class TrackedFacts:
    """A state's facts, read-only, recording each atom asked about (``in``) and every scan into ``reads``."""

    __slots__ = ("facts", "reads")

    def __init__(self, facts: frozenset[Fact], reads: set) -> None:
        self.facts = facts
        self.reads = reads

    def __contains__(self, atom: object) -> bool:
        self.reads.add(atom)
        return atom in self.facts

    def __iter__(self) -> Iterator[Fact]:
        self.reads.add(SCANNED)
        return iter(self.facts)

    def __len__(self) -> int:
        self.reads.add(SCANNED)
        return len(self.facts)


class NeedsIdentity(Exception):
    """An answer asked of :class:`SomeObject` more than it knows: which object is held."""


class SomeObject:
    """The held object, known only to be an object other than ``target``: it equals itself and differs from
    None and from ``target``; any other use (hashing it, comparing it with another name, reading an attribute)
    raises (:class:`NeedsIdentity` or the operation's own error), and the answer is then asked with the object
    itself. Formatting it gives ``<held object>``: the handlers format names only into failure messages, which
    an answer ("would it succeed?") never reads."""

    __slots__ = ("target",)

    def __init__(self, target: str | None) -> None:
        self.target = target

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if other is None or (self.target is not None and other.__class__ is str and other == self.target):
            return False
        raise NeedsIdentity

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        raise NeedsIdentity

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return "<held object>"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return "<held object>"


class HiddenHand:
    """The hand's content shown as unknown: any read of it raises :class:`NeedsIdentity`."""


HIDDEN = HiddenHand()


class B1KReadView:
    """A probe of a state (like :meth:`~.state.B1KState.as_probe`: a handler stops where its effects would start) that
    records in ``reads`` every fact a handler reads through it (see the module docstring). It answers what a
    handler asks of a state: ``has``, ``real``, ``targets``, ``sources``, ``facts``, ``held``, ``memo``.

    ``memo()`` remembers derived answers for this state with the reads that made them (:class:`KeptMemo`).
    """

    __slots__ = ("state", "reads", "answers", "facts", "activity", "probe", "some", "_memo", "_index")

    def __init__(self, state: B1KState, reads: set | None = None, answers: Any = None) -> None:
        self.state = state
        self._index = state.index()
        self.reads: set = set() if reads is None else reads
        #: the KeptAnswers whose state this view shows
        self.answers = answers
        self.facts = TrackedFacts(state.facts, self.reads)
        self.activity = state.activity
        self.probe = True
        #: while set, ``held`` is this stand-in (see :class:`SomeObject`) and reads nothing (:data:`HIDDEN`: it
        #: raises :class:`NeedsIdentity`)
        self.some: SomeObject | HiddenHand | None = None
        self._memo = KeptMemo(self)

    def record_into(self, reads: set) -> None:
        """Record the reads from now on into ``reads``."""
        self.reads = reads
        self.facts.reads = reads

    @property
    def scene(self) -> str:
        return self.state.activity

    @property
    def held(self) -> Any:
        if self.some is not None:
            if self._memo.pending or self.some is HIDDEN:  # (a derived answer kept for every entry must not
                raise NeedsIdentity                        # depend on a stand-in)
            return self.some
        self.reads.add(HELD)
        return self.state.held

    def has(self, *atom: str) -> bool:
        self.reads.add(atom)
        return atom in self.state.facts

    def real(self, inst: str) -> bool:
        atom = ("real", inst)
        self.reads.add(atom)
        return atom in self.state.facts

    def targets(self, pred: str, inst: str) -> list[str]:
        self.reads.add((TARGETS, pred, inst))
        return list(self._index.get((pred, inst), ()))

    def sources(self, pred: str, inst: str) -> list[str]:
        self.reads.add((SOURCES, pred, inst))
        return list(self._index.get((pred, inst, None), ()))

    def memo(self) -> "KeptMemo":
        return self._memo

    def settle(self) -> None:
        """End an answer: a derived answer left unfinished (its computation raised) gives its reads so far to
        the reads of the answer that asked for it."""
        self._memo.unwind()


class KeptMemo:
    """Derived answers about one state (``memo[key] = value`` after ``key not in memo``, then ``memo[key]``),
    each with the reads its computation made: a later catalogue entry that finds one records those reads as its
    own, as if it had computed it. Only these three operations exist: any other use fails loudly.

    ``key not in memo`` on a miss starts recording the computation apart; ``memo[key] = value`` ends it, adds
    its reads to the asker's and keeps them with the value.
    """

    __slots__ = ("view", "values", "pending")

    def __init__(self, view: B1KReadView) -> None:
        self.view = view
        self.values: dict[Any, tuple[Any, frozenset]] = {}
        self.pending: list[tuple[Any, set]] = []

    def __contains__(self, key: object) -> bool:
        hit = self.values.get(key)
        if hit is not None:
            if HELD in hit[1] and self.view.some is not None:  # it depends on which object is held
                raise NeedsIdentity
            self.view.reads.update(hit[1])
            return True
        self.pending.append((key, self.view.reads))
        self.view.record_into(set())
        return False

    def __getitem__(self, key: Any) -> Any:
        value, reads = self.values[key]
        if HELD in reads and self.view.some is not None:
            raise NeedsIdentity
        self.view.reads.update(reads)
        return value

    def __setitem__(self, key: Any, value: Any) -> None:
        if not self.pending or self.pending[-1][0] != key:
            raise RuntimeError(f"KeptMemo: {key!r} stored without 'key not in memo' first")
        _, outer = self.pending.pop()
        made = self.view.reads
        outer |= made
        self.view.record_into(outer)
        self.values[key] = (value, frozenset(made))

    def unwind(self) -> None:
        while self.pending:
            _, outer = self.pending.pop()
            outer |= self.view.reads
            self.view.record_into(outer)


def changed_keys(a: B1KState, b: B1KState) -> list[tuple[str, Any]]:
    """The read keys (as :class:`B1KReadView` records them) whose value differs between two states of one
    activity."""
    if a.activity != b.activity:
        raise ValueError(f"changed_keys compares states of one activity, got {a.activity!r} and {b.activity!r}")
    out: list[tuple[str, Any]] = []
    if a.facts is not b.facts:
        diff = a.facts ^ b.facts
        for f in diff:
            out.append(f)
            if len(f) == 3:
                out.append((TARGETS, f[0], f[1]))
                out.append((SOURCES, f[0], f[2]))
        if diff:
            out.append(SCANNED)
    if a.held != b.held:
        out.append(HELD)
    return out

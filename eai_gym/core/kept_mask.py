"""An index-mode action mask kept from one state to the next: the seam between a world's mask rules and the cache.

A world's rules (:class:`MaskRules`) say which catalogue entries are worth asking in a state, the *candidates*, and
how to decide one. The candidates come as *groups*: the entries needing no condition, the entries on an object the
character is close to, those of a hand holding a given object, ... They depend on a small part of the state, the
*signature* (what is close, what the hands hold), so the groups of a signature are built once and handed out again
whenever it recurs.

:class:`KeptMask` owns everything kept: each answer, until a fact it read changes (:class:`~.answers.KeptAnswers`),
the groups of each signature, and the int8 mask array. After a step it re-decides only the entries of still-active
groups whose answers were dropped, clears the entries of groups no longer active and writes those of newly active
groups. What it hands out is a fresh copy, equal to building the mask from scratch (``tests/core/test_kept_mask.py``
on synthetic rules, ``tests/envs/test_incremental_masks.py`` on the worlds).

An answer decides one entry (its truth) or several entries asked together (the tuple of those that would execute),
whichever the world finds cheaper. An answer for several entries may leave some of them undecided (:class:`Partial`):
those are asked again under a key that holds the signature, kept for the signature they were asked in.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, Mapping, NamedTuple, Sequence, TypeVar

import numpy as np

from .answers import KeptAnswers
from .tracking import ReadTrackingState, changed_keys

_MISSING = object()
#: a kept mask of any kind
M = TypeVar("M")
#: how many signatures' groups a :class:`KeptMask` keeps before it starts over
MAX_SIGNATURES = 4096


class Group(NamedTuple):
    """Candidate entries and the keys of the answers that decide them, all of one kind.

    Attributes:
        entries: per answer, the catalogue index it decides (its truth says whether the entry would execute), or a
            tuple of indices it decides together (it is the tuple of those that would execute).
        keys: each answer's key (hashable; a key belongs to one group only, and a group key names one fixed group).
        pinned: read keys that have one value whenever these answers are looked up (see
            :meth:`~.answers.KeptAnswers.answer`): their changes do not drop the answers.
    """

    entries: Sequence[Any]
    keys: Sequence[Hashable]
    pinned: frozenset = frozenset()


class Partial(NamedTuple):
    """An answer for several entries that decides only some: those that would execute (``decided``), and those it
    cannot decide under its key (``undecided``: their rule reads what the key does not pin down, say which object
    is held). :class:`KeptMask` asks the undecided ones under ``(key, undecided, signature)`` (pinning
    :attr:`MaskRules.signature_pins`)."""

    decided: tuple[int, ...]
    undecided: tuple[int, ...]


class MaskRules:
    """A world's rules for its index mask; a world subclasses it and :class:`KeptMask` asks it.

    ``memo`` is the world's own memo of what it builds for these rules (groups, questions): a copy starts with an
    empty one (it may hold kept-query functions, which do not pickle).
    """

    #: the read-tracking view class of the world's states (``view_type(state, reads=None, answers=None)``)
    view_type: type = ReadTrackingState
    #: ``changed(a, b)``: the read keys whose value differs between two states of one scene
    changed: Callable[[Any, Any], list] = staticmethod(changed_keys)
    #: the read keys whose values a signature holds (pinned by the answers asked under ``(key, undecided,
    #: signature)``)
    signature_pins: frozenset = frozenset()

    def __init__(self) -> None:
        self.memo: dict[Hashable, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["memo"] = {}
        return state

    def signature(self, state: Any) -> Hashable:
        """The part of ``state`` the candidate groups depend on (equal signatures: the same groups)."""
        raise NotImplementedError

    def groups(self, signature: Hashable) -> Mapping[Hashable, Group]:
        """The candidate groups of a signature: group key -> :class:`Group` (a dict of its own, read only)."""
        raise NotImplementedError

    def decide(self, key: Hashable, entries: Any) -> Callable[[Any], Any]:
        """The function of a read-tracking view that answers ``key`` for ``entries`` (an index or a tuple of
        them, as in its :class:`Group`, or the undecided entries of a :class:`Partial` answer under ``(key,
        undecided, signature)``); it must read the state only through the view."""
        raise NotImplementedError

    def finish(self, kept: "KeptMask", state: Any, mask: np.ndarray) -> None:
        """Write into ``mask`` (the fresh array :meth:`KeptMask.update` hands out) the entries the world decides
        outside the groups (in bulk, say from :meth:`KeptMask.query_array`). Nothing by default."""


class KeptMask:
    """The int8 mask over ``size`` catalogue entries for the state :meth:`update` was last given, by ``rules``.

    Attributes:
        answers: the kept answers behind the mask (of ``rules.view_type`` and ``rules.changed``).
    """

    def __init__(self, size: int, rules: MaskRules) -> None:
        self.size = size
        self.rules = rules
        self.answers = KeptAnswers(rules.view_type, rules.changed)
        self.mask = bytearray(size)  # (item writes on a bytearray are cheaper than on an array)
        self._array = np.frombuffer(self.mask, dtype=np.int8)  # (the same memory: what is copied out)
        self.active: dict[Hashable, Group] = {}
        #: answer key -> (its group's key, the entries it decides), for every group met since the answers started
        self.where: dict[Hashable, tuple[Hashable, Any]] = {}
        self.met: set = set()  # the group keys in ``where``
        self.generation = -1
        #: signature -> the groups of it (:meth:`MaskRules.groups`), handed out again while it recurs
        self.signatures: dict[Hashable, Mapping[Hashable, Group]] = {}
        #: the key of a :class:`Partial` answer of an active group -> the key its undecided entries are asked under
        self.refined: dict[Hashable, tuple] = {}
        self._refines: dict[tuple, Hashable] = {}  # the other way round
        self._last_groups: Mapping | None = None
        self._arrays: dict[Any, tuple] = {}  # :meth:`query_array`'s arrays, by query function

    def __reduce__(self):
        # a cache: a copy starts empty (its answers are keyed by functions that do not pickle)
        return (KeptMask, (self.size, self.rules))

    def update(self, state: Any) -> np.ndarray:
        """The mask for ``state``, as a fresh array."""
        rules, answers = self.rules, self.answers
        answers.advance(state)
        signature = rules.signature(state)
        groups = self.signatures.get(signature)
        if groups is None:
            if len(self.signatures) >= MAX_SIGNATURES:
                self.signatures.clear()
            groups = self.signatures[signature] = rules.groups(signature)
        same = groups is self._last_groups  # (the groups of the last call: none to switch on or off)
        if answers.generation != self.generation:  # the answers started over (a new scene)
            self._start_over()
            same = False
        self._last_groups = groups
        if not same:
            self._switch_off(groups, signature)
        if answers.dropped:
            self._decide_dropped(signature)
        if not same:
            self._switch_on(groups, signature)
        out = self._array.copy()
        rules.finish(self, state, out)
        return out

    def _start_over(self) -> None:
        self.generation = self.answers.generation
        self.mask[:] = bytes(len(self.mask))
        self.where.clear()
        self.met.clear()
        self.active.clear()
        self.refined.clear()
        self._refines.clear()

    def _switch_off(self, groups: Mapping[Hashable, Group], signature: Hashable) -> None:
        """Clear the entries of the active groups not in ``groups``; ask the undecided entries of the partial answers
        still active under the new signature."""
        mask, values, refined = self.mask, self.answers.values, self.refined
        for gkey in [g for g in self.active if g not in groups]:
            entries, keys, _ = self.active.pop(gkey)
            if entries and type(entries[0]) is int:
                for i in entries:
                    mask[i] = 0
                continue
            for e, k in zip(entries, keys):
                v = values.get(k)
                if v is None or k in refined or type(v) is Partial:
                    self._clear(k, e)
                else:  # (a kept answer is what was written)
                    for i in v:
                        mask[i] = 0
        if refined:
            self._resign(signature)

    def _decide_dropped(self, signature: Hashable) -> None:
        """Decide again the dropped answers of active groups, and write their entries."""
        answers, mask, where, active = self.answers, self.mask, self.where, self.active
        values, answer, decide = answers.values, answers.answer, self.rules.decide
        for k in answers.dropped:
            w = where.get(k)
            if w is None:
                if self._refines:
                    self._redecide_refined(k, signature)
                continue
            if k in values:
                continue
            group = active.get(w[0])
            if group is None:
                continue
            e = w[1]
            if type(e) is int:
                mask[e] = 1 if answer(k, decide(k, e), group[2]) else 0
                continue
            if k in self.refined:
                self._clear(k, e)
            else:
                for i in e:
                    mask[i] = 0
            v = answer(k, decide(k, e), group[2])
            if type(v) is Partial:
                self._write_partial(k, v, signature)
            else:
                for i in v:
                    mask[i] = 1

    def _switch_on(self, groups: Mapping[Hashable, Group], signature: Hashable) -> None:
        """Write the entries of the groups not active yet (deciding the answers not kept)."""
        mask, where, active = self.mask, self.where, self.active
        values, answer, decide = self.answers.values, self.answers.answer, self.rules.decide
        for gkey, group in groups.items():
            if gkey in active:
                continue
            active[gkey] = group
            entries, keys, pinned = group
            if gkey not in self.met:
                self.met.add(gkey)
                for k, e in zip(keys, entries):
                    where[k] = (gkey, e)
            if not entries:
                continue
            if type(entries[0]) is int:
                for i, k in zip(entries, keys):
                    v = values.get(k, _MISSING)
                    if v is _MISSING:
                        v = answer(k, decide(k, i), pinned)
                    mask[i] = 1 if v else 0
                continue
            for e, k in zip(entries, keys):
                v = values.get(k, _MISSING)
                if v is _MISSING:
                    v = answer(k, decide(k, e), pinned)
                if type(v) is Partial:
                    self._write_partial(k, v, signature)
                else:
                    for i in v:
                        mask[i] = 1

    def _write_partial(self, k: Hashable, v: Partial, signature: Hashable) -> None:
        """Set the entries partial answer ``k`` says would execute, and those of its undecided entries the answer
        under ``(k, undecided, signature)`` says would (all of them 0 in the mask)."""
        mask = self.mask
        for i in v.decided:
            mask[i] = 1
        self._write_refined(k, v.undecided, signature)

    def _write_refined(self, k: Hashable, undecided: tuple[int, ...], signature: Hashable) -> None:
        """Set those of ``undecided`` (all 0 in the mask) that the answer under ``(k, undecided, signature)`` says
        execute."""
        answers = self.answers
        key = (k, undecided, signature)
        old = self.refined.get(k)
        if old is not None:
            del self._refines[old]
        self.refined[k] = key
        self._refines[key] = k
        v = answers.values.get(key, _MISSING)
        if v is _MISSING:
            v = answers.answer(key, self.rules.decide(key, undecided), self.rules.signature_pins)
        mask = self.mask
        for i in v:
            mask[i] = 1

    def _clear(self, k: Hashable, entries: tuple[int, ...]) -> None:
        """Set to 0 the entries answer ``k`` set (any of ``entries`` when it was dropped or partial)."""
        v = self.answers.values.get(k)
        mask = self.mask
        for i in entries if v is None or type(v) is Partial else v:
            mask[i] = 0
        key = self.refined.pop(k, None)
        if key is not None:
            del self._refines[key]

    def _resign(self, signature: Hashable) -> None:
        """Ask the undecided entries of every active partial answer under ``signature``."""
        values = self.answers.values
        for k, key in list(self.refined.items()):
            if key[2] == signature:
                continue
            v = values.get(k)
            if type(v) is Partial:  # (else it was dropped: deciding it again asks them)
                for i in v.undecided:
                    self.mask[i] = 0
                self._write_refined(k, v.undecided, signature)

    def _redecide_refined(self, key: Hashable, signature: Hashable) -> None:
        """Decide again the undecided entries asked under ``key`` (dropped), if they are still written."""
        k = self._refines.get(key)
        if k is None or key in self.answers.values:
            return
        v = self.answers.values.get(k)
        if type(v) is Partial:  # (else it was dropped too: deciding it again asks them)
            for i in v.undecided:
                self.mask[i] = 0
            self._write_refined(k, v.undecided, signature)

    def query_array(self, fn: Callable[..., Any], args: Sequence[tuple], test: Callable[[Any], bool]) -> np.ndarray:
        """``test`` of the kept query ``fn`` (a :func:`~.answers.state_query`'s ``compute``) on the current state,
        for each of ``args``, as a bool array. Kept from one call to the next: when the last call saw the previous
        advance of the answers, only the queries that advance changed are written again (the array is changed in
        place: copy what is handed out). ``args`` must be the same sequence while the answers do not start over."""
        answers = self.answers
        last = self._arrays.get(fn)
        if last is not None and last[0] == answers.generation and last[1] == answers.advances - 1:
            array, position = last[2], last[3]
            if answers.changed_queries:
                queries = answers.queries
                for qkey in answers.changed_queries:
                    if qkey[0] is fn:
                        p = position.get(qkey[1])
                        if p is not None:
                            array[p] = test(queries[qkey][0])
        else:
            kept_query = answers.kept_query
            array = np.array([test(kept_query(fn, a)) for a in args], dtype=bool)
            position = {a: p for p, a in enumerate(args)}
        self._arrays[fn] = (answers.generation, answers.advances, array, position)
        return array


class KeptMasks(Generic[M]):
    """An env's kept masks, one per task key, least recently used first and at most ``limit`` of them: a new
    episode on a task starts from the mask and answers its last episode left."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._by_key: dict[Hashable, M] = {}

    def take(self, key: Hashable, make: Callable[[], M]) -> M:
        """The kept mask of ``key`` (made by ``make`` if there is none), now the most recently used."""
        kept = self._by_key.pop(key, None)
        if kept is None:
            kept = make()
        self._by_key[key] = kept
        if len(self._by_key) > self.limit:
            del self._by_key[next(iter(self._by_key))]
        return kept

    def __len__(self) -> int:
        return len(self._by_key)

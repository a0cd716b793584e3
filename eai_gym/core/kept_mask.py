"""An action mask kept from one state to the next: only entries whose answer was dropped, or whose group of
candidates became active or inactive, are written again.

A world's index-mode mask is the union, over the *groups* of catalogue entries that are candidates in a state
(entries needing no condition; the entries on an object the character is close to; ...), of the entries whose
kept answer (:class:`~.answers.KeptAnswers`) is true. :class:`KeptMask` keeps that mask as an array: after
:meth:`~.answers.KeptAnswers.advance` it re-decides the entries of still-active groups whose answers were
dropped, clears the entries of groups no longer active and decides those of newly active groups. What it hands
out is a fresh copy, equal to building the mask from scratch (``tests/envs/test_incremental_masks.py``).
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Hashable, Sequence, TypeVar

import numpy as np

from .answers import KeptAnswers

_MISSING = object()
#: a kept mask of any kind (:class:`KeptMask`, or a world's own)
M = TypeVar("M")
#: a group of candidate entries: (catalogue indices, their answer keys — each the index itself or a tuple starting
#: with it —, the pinned read keys of their answers)
Group = tuple[Sequence[int], Sequence[Hashable], frozenset]


class KeptMask:
    """The int8 mask over ``size`` catalogue entries for the state :meth:`update` was last given.

    Args:
        size: the mask's length.
        answers: the kept answers behind the mask (a fresh :class:`KeptAnswers` of ``view_type``/``changed``
            by default).
    """

    def __init__(self, size: int, answers: KeptAnswers | None = None) -> None:
        self.answers = KeptAnswers() if answers is None else answers
        self.mask = bytearray(size)  # (item writes on a bytearray are cheaper than on an array)
        self.active: dict[Hashable, Group] = {}
        #: answer key -> its group's key, for every group met since the answers started
        self.where: dict[Hashable, Hashable] = {}
        self.met: set = set()  # the group keys in ``where``
        self.generation = -1
        #: what a world keeps beside the mask, from one :meth:`update` to the next (a cache: it must hold only
        #: what it can compute again, and check ``answers.generation`` before using it)
        self.extra: dict[Hashable, Any] = {}
        self._last_groups: dict | None = None

    def __reduce__(self):
        # a cache: a copy starts empty (its answers do not pickle)
        return (KeptMask, (len(self.mask), KeptAnswers(self.answers.view_type, self.answers.changed)))

    def update(self, state: Any, groups: dict[Hashable, Group],
               decide: Callable[[int], Callable[[Any], Any]]) -> np.ndarray:
        """The mask for ``state`` whose candidates are ``groups`` (group key -> group; a key names one fixed
        group, and an answer key is in one group only), as a fresh array; ``decide(i)`` is the function whose
        truth is entry ``i``'s answer. An entry's answer key is its index ``i`` or a tuple ``(i, ...)``.
        ``groups`` is read only: the dict given at the last call, given again, is taken to hold the same groups
        (no group is switched on or off then)."""
        answers = self.answers
        answers.advance(state)
        mask, where, active = self.mask, self.where, self.active
        same = groups is self._last_groups  # (the same dict as last time: the same groups, none to switch)
        if answers.generation != self.generation:  # the answers started over (a new scene)
            self.generation = answers.generation
            mask[:] = bytes(len(mask))
            where.clear()
            self.met.clear()
            active.clear()
            same = False
        self._last_groups = groups
        if not same:
            for gkey in [g for g in active if g not in groups]:
                for i in active.pop(gkey)[0]:
                    mask[i] = 0
        values, answer = answers.values, answers.answer
        for k in answers.dropped:
            group = active.get(where.get(k, _MISSING))
            if group is not None and k not in values:
                i = k if type(k) is int else k[0]
                mask[i] = 1 if answer(k, decide(i), group[2]) else 0
        for gkey, group in () if same else groups.items():
            if gkey in active:
                continue
            active[gkey] = group
            entries, keys, pinned = group
            if gkey not in self.met:
                self.met.add(gkey)
                for k in keys:
                    where[k] = gkey
            for i, k in zip(entries, keys):
                v = values.get(k, _MISSING)
                if v is _MISSING:
                    v = answer(k, decide(i), pinned)
                mask[i] = 1 if v else 0
        return np.frombuffer(mask, dtype=np.int8).copy()


class KeptMasks(Generic[M]):
    """An env's kept masks (a :class:`KeptMask`, or a world's own kind), one per task key, least recently used
    first and at most ``limit`` of them: a new episode on a task starts from the mask and answers its last
    episode left."""

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

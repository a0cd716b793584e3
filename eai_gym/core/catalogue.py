"""An index-mode action catalogue as a read-only sequence whose actions are built when first asked for.

A world's catalogue lists, for each action name in a fixed order, one entry (no object), one per object or one
per ordered pair of distinct objects, in the task's object order: a *block* of entries per name. A task has
hundreds to thousands of entries and an episode steps a few dozen, so :class:`LazyCatalogue` works out an
entry's name and object positions from that layout and builds the :class:`~.action.Action` (through the
world's :meth:`LazyCatalogue.build`) the first time the entry is read.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Sequence
from typing import Iterable

from .action import Action


class LazyCatalogue(Sequence[Action]):
    """The blocks of ``names_arities`` (action name, 0, 1 or 2 objects) over ``k`` objects; a world's subclass
    builds entry ``(name, positions)`` in :meth:`build`."""

    def __init__(self, names_arities: Iterable[tuple[str, int]], k: int) -> None:
        self.k = k
        #: (first index, action name, arity) of each name's block, in catalogue order
        self.blocks: list[tuple[int, str, int]] = []
        start = 0
        for name, n in names_arities:
            if n not in (0, 1, 2):
                raise ValueError(f"action {name!r}: a catalogue takes 0, 1 or 2 objects, not {n!r}")
            self.blocks.append((start, name, n))
            start += self.block_size(n)
        self._starts = [b[0] for b in self.blocks]
        self._size = start
        self._built: dict[int, Action] = {}

    def block_size(self, arity: int) -> int:
        """How many entries a name of ``arity`` objects has."""
        k = self.k
        return 1 if arity == 0 else k if arity == 1 else k * (k - 1)

    def build(self, name: str, positions: tuple[int, ...]) -> Action:
        """The action ``name`` on the objects at ``positions`` of the object order."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, i):  # type: ignore[override]
        if type(i) is int:  # (the mask's and the step's lookups: an action already built)
            a = self._built.get(i)
            if a is not None:
                return a
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._size))]
        i = operator.index(i)
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError(f"catalogue index {i} out of range ({self._size} entries)")
        a = self._built.get(i)
        if a is None:
            start, name, n = self.blocks[bisect_right(self._starts, i) - 1]
            a = self._built[i] = self.build(name, self.positions(i - start, n))
        return a

    def positions(self, offset: int, arity: int) -> tuple[int, ...]:
        """The object positions of the entry ``offset`` places into a block of ``arity``."""
        if arity == 0:
            return ()
        if arity == 1:
            return (offset,)
        row, col = divmod(offset, self.k - 1)
        return (row, col if col < row else col + 1)

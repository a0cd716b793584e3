"""The index-mode catalogue of a BEHAVIOR task: every action of :data:`~.actions.ACTIONS` (in that order) on every
object, or every ordered pair of distinct objects for the two-object actions, in the scene's object order; and
its entries grouped by what the hands must hold (:func:`hand_groups`), worked out from that layout.

The catalogue is a read-only sequence whose actions are built when first asked for: a task has hundreds of
entries and an episode steps a few dozen of them. ``tests/envs/test_behavior_catalogue.py`` compares both with
building every action.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from typing import Sequence

import numpy as np

from ...core import Action
from .actions import ACTIONS, TWO_OBJECTS, to_text
from .place_mask import VERBS, verb_of
from .state import HANDS


class BehaviorCatalogue(Sequence[Action]):
    """The catalogue over the objects ``order`` (see the module docstring)."""

    def __init__(self, order: Sequence[str]) -> None:
        self.order = tuple(order)
        k = len(self.order)
        #: (first index, action name, arity) of each action's block of entries, in catalogue order
        self.blocks: list[tuple[int, str, int]] = []
        start = 0
        for name in ACTIONS:
            n = 2 if name in TWO_OBJECTS else 1
            self.blocks.append((start, name, n))
            start += k if n == 1 else k * (k - 1)
        self._starts = [b[0] for b in self.blocks]
        self._size = start
        self._built: dict[int, Action] = {}

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, i):  # type: ignore[override]
        if type(i) is int:  # (the step's and the mask's lookups: an action already built)
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
            args = tuple(self.order[p] for p in self.positions(i - start, n))
            a = self._built[i] = Action(name, args, args, raw=to_text(name, args))
        return a

    def positions(self, offset: int, arity: int) -> tuple[int, ...]:
        """The objects' positions in ``order`` of the entry ``offset`` places into a block of ``arity``."""
        if arity == 1:
            return (offset,)
        row, col = divmod(offset, len(self.order) - 1)
        return (row, col if col < row else col + 1)


def hand_groups(catalogue: BehaviorCatalogue) -> tuple[list[int], dict[str, tuple]]:
    """Catalogue indices: those that need no hand, and per hand ``(grasp, needs_hand, release, nextto_ontop,
    verbs)``: its GRASP entries, its PLACE/TRANSFER entries (they need something in that hand), its RELEASE
    entries by object (they need that object in it), its PLACE_NEXTTO_ONTOP entries as three arrays (index,
    position of target 1 in ``order``, position of target 2), and for each verb of :mod:`.place_mask` the
    array of its entries by target position in ``order``."""
    order = catalogue.order
    k = len(order)
    plain: list[int] = []
    per_hand: dict[str, tuple] = {h: ([], [], {}, ([], [], []), {v: [-1] * k for v in VERBS}) for h in HANDS}
    for start, name, n in catalogue.blocks:
        side = name.split("_", 1)[0]
        size = k if n == 1 else k * (k - 1)
        if side not in ("LEFT", "RIGHT"):
            plain.extend(range(start, start + size))
            continue
        grasp, needs_hand, release, nextto_ontop, verbs = per_hand[f"{side.lower()}_hand"]
        if "GRASP" in name:
            grasp.extend(range(start, start + size))
        elif name.endswith("RELEASE"):
            for p, obj in enumerate(order):
                release.setdefault(obj, []).append(start + p)
        elif name.endswith("PLACE_NEXTTO_ONTOP"):
            for offset in range(size):
                p1, p2 = catalogue.positions(offset, n)
                for col, v in zip(nextto_ontop, (start + offset, p1, p2)):
                    col.append(v)
        else:
            verb = verb_of(name)
            if verb is None or n != 1:
                raise ValueError(f"catalogue entry {name} needs a hand but is no verb of place_mask")
            needs_hand.extend(range(start, start + size))
            verbs[verb][:] = range(start, start + size)
    out = {}
    for h, (g, needs, r, nto, verbs) in per_hand.items():
        for v, idx in verbs.items():
            if -1 in idx:
                raise ValueError(f"the catalogue has no {h} {v} entry on {order[idx.index(-1)]}")
        out[h] = (np.array(g, dtype=np.intp), needs, r, tuple(np.array(c, dtype=np.intp) for c in nto),
                  {v: np.array(idx, dtype=np.intp) for v, idx in verbs.items()})
    return plain, out

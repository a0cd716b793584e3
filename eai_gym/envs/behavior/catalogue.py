"""The index-mode catalogue of a BEHAVIOR task: every action of :data:`~.actions.ACTIONS` (in that order) on every
object, or every ordered pair of distinct objects for the two-object actions, in the scene's object order; and
its entries grouped by what the hands must hold (:func:`hand_groups`), worked out from that layout.

The catalogue is a read-only sequence whose actions are built when first asked for
(:class:`~eai_gym.core.catalogue.LazyCatalogue`): a task has hundreds of entries and an episode steps a few dozen
of them. ``tests/envs/test_behavior_catalogue.py`` compares both with building every action.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...core import Action
from ...core.catalogue import LazyCatalogue
from ...eai.behavior_syntax import to_text
from .actions import ACTIONS, TWO_OBJECTS
from .place_mask import VERBS, verb_of
from .state import HANDS


class BehaviorCatalogue(LazyCatalogue):
    """The catalogue over the objects ``order`` (see the module docstring)."""

    def __init__(self, order: Sequence[str]) -> None:
        self.order = tuple(order)
        super().__init__(((name, 2 if name in TWO_OBJECTS else 1) for name in ACTIONS), len(self.order))

    def build(self, name: str, positions: tuple[int, ...]) -> Action:
        args = tuple(self.order[p] for p in positions)
        return Action(name, args, args, raw=to_text(name, args))


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
        size = catalogue.block_size(n)
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

"""BEHAVIOR's rules for the index-mode mask: which catalogue entries are candidates for the hands' state, and how
one is decided (the cache is :class:`~eai_gym.core.kept_mask.KeptMask`'s).

Only entries some state of the hands allows are tried (:func:`.catalogue.hand_groups`), through the executor's dry
run (``BehaviorWorld.dry_run``). The entries needing no hand are kept under whether both hands are full (that query
pinned), a hand's RELEASE entries under what it holds (the hand pinned), so an answer is reused when the hands come
back to that state. GRASP with an empty hand and a holding hand's PLACE/TRANSFER entries are decided for every
target at once, from the kept interactivity of each target (:meth:`BehaviorMask.finish`, :mod:`.place_mask`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ...core.kept_mask import Group, KeptMask, MaskRules
from .catalogue import BehaviorCatalogue
from .dynamics import both_hands_full, interactivity_error
from .place_mask import VERBS, closed, grasp_targets, hand_entries
from .state import HANDS, BehaviorState
from .tracking import BehaviorReadView, changed_keys
from .world import BehaviorWorld

_INTERACTIVITY = interactivity_error.compute  # type: ignore[attr-defined]
#: the read key of each hand (see :mod:`.tracking`): a LEFT_/RIGHT_ entry's answer is kept under its value
_PINS = (frozenset({("h", 0)}), frozenset({("h", 1)}))
_PLAIN = "plain"
_BOTH_FULL_PIN = frozenset({("q", (both_hands_full.compute, ()))})  # type: ignore[attr-defined]


def _is_none(value: Any) -> bool:
    return value is None


class BehaviorMask(MaskRules):
    """The mask rules of one task's catalogue, for one world (its protocol's rules).

    Args:
        world: the world whose dry runs decide.
        actions: the catalogue.
        hand_groups: its :func:`.catalogue.hand_groups`.
    """

    view_type = BehaviorReadView
    changed = staticmethod(changed_keys)

    def __init__(self, world: BehaviorWorld, actions: BehaviorCatalogue, hand_groups: tuple[list[int], dict]) -> None:
        super().__init__()
        self.world, self.actions = world, actions
        self.plain, self.per_hand = hand_groups
        #: the arguments of each target's interactivity query, in the catalogue's object order
        self.targets = [(t,) for t in actions.order]

    def signature(self, state: BehaviorState) -> tuple[str | None, str | None]:
        """What each hand holds."""
        return state.hands

    def groups(self, hands: tuple[str | None, str | None]) -> dict[tuple, Group]:
        """The entries needing no hand (``(plain, both hands full)``) and each hand's RELEASE entry on what it holds
        (``(hand, held)``). GRASP with a full hand always fails (each of its checks fails then: it ends with "hand
        full"); GRASP with an empty hand and the PLACE and TRANSFER entries are decided in :meth:`finish`."""
        memo = self.memo
        full = hands[0] is not None and hands[1] is not None  # both_hands_full(state)
        g = memo.get((_PLAIN, full))
        if g is None:
            g = memo[(_PLAIN, full)] = Group(self.plain, [(i, full) for i in self.plain], _BOTH_FULL_PIN)
        groups = {(_PLAIN, full): g}
        for h, hand in enumerate(HANDS):
            held = hands[h]
            g = memo.get((hand, held))
            if g is None:
                entries = [] if held is None else self.per_hand[hand][2].get(held, [])
                g = memo[(hand, held)] = Group(entries, [(i, held) for i in entries], _PINS[h])
            groups[(hand, held)] = g
        return groups

    def decide(self, key: Any, i: int) -> Callable[[BehaviorReadView], Any]:
        return self.world.dry_run(self.actions[i])

    def finish(self, kept: KeptMask, state: BehaviorState, mask: np.ndarray) -> None:
        """GRASP with an empty hand, and a holding hand's PLACE/TRANSFER entries, for every target at once: from
        each target's kept interactivity (:meth:`~eai_gym.core.kept_mask.KeptMask.query_array`), what the hands
        hold and carry, and the checks of :mod:`.place_mask`."""
        per_hand = self.per_hand
        ok_any = kept.query_array(_INTERACTIVITY, self.targets, _is_none)
        pos = state.scene.positions()
        hands = state.hands
        if hands[0] is None or hands[1] is None:
            # GRASP(t) with an empty hand (either: its checks read only whether that hand holds t or anything)
            grasp = grasp_targets(state, ok_any)
            for h, hand in enumerate(HANDS):
                if hands[h] is None:
                    mask[per_hand[hand][0]] = grasp
        closed_targets = None
        for h, hand in enumerate(HANDS):
            held = hands[h]
            if held is None:
                continue  # placing or transferring with an empty hand always fails
            ok = ok_any.copy()  # PLACE's two checks on each target: not the held object nor carried, interactive
            for carried in state.subtree(held):
                ok[pos[carried]] = False
            if closed_targets is None:
                closed_targets = closed(state)
            _, _, _, (nto, first, second), verbs = per_hand[hand]
            entries = self.memo.get(("written", hand))
            if entries is None:  # (the verbs' entries by target, then PLACE_NEXTTO_ONTOP's: written at once)
                entries = self.memo[("written", hand)] = np.concatenate([verbs[v] for v in VERBS] + [nto])
            on = hand_entries(state, held, ok, self.world.rules.transfer_moves_all, closed_targets)
            # PLACE_NEXTTO_ONTOP(t1, t2) runs the PLACE checks on t1, then on t2, and nothing else
            mask[entries] = np.concatenate([on[v] for v in VERBS] + [ok[first] & ok[second]])

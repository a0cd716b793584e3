"""BEHAVIOR's PLACE and TRANSFER mask entries, decided for every target of a hand at once.

With something in a hand, each PLACE_ONTOP / PLACE_NEXTTO / PLACE_UNDER / PLACE_INSIDE /
TRANSFER_CONTENTS_INSIDE / TRANSFER_CONTENTS_ONTOP entry on target ``t`` executes exactly when the two checks
every one of them runs, ``place(t, hand)`` and ``interactivity(t)`` (:mod:`.dynamics`), pass — the answer the
mask keeps per ``(hand, t, held)`` for PLACE_NEXTTO_ONTOP already — and the verb's own checks (in
:mod:`.executors`) pass:

* PLACE_ONTOP, PLACE_NEXTTO, PLACE_UNDER: nothing else;
* PLACE_INSIDE: the held object's volume is not larger than the target's, the target is not closed
  (``value(t, "Open") is False``), and the target is no room floor (an affordance error in ``fixed``, the
  reference raises);
* TRANSFER_CONTENTS_INSIDE: none of the held object's children is larger than the target, the target is not
  closed, and (the reference raises after moving one child) the held object has no contents unless the rules
  move all of them;
* TRANSFER_CONTENTS_ONTOP: the held object has contents, and the rules move all of them (the reference raises).

The order in which the checks run decides an error's message, not whether the action executes, so each verb's
entries are the conjunction of boolean arrays over the targets (:func:`hand_entries`). The per-target answers
are kept in an array per hand and rewritten only where a step dropped one (:func:`kept_ok`), as are GRASP's
with an empty hand (one answer per target for either empty hand).
``tests/envs/test_place_mask.py`` compares the result with running every executor.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .state import BehaviorState

#: the verbs (after ``LEFT_`` / ``RIGHT_``) decided here
VERBS = ("PLACE_ONTOP", "PLACE_NEXTTO", "PLACE_UNDER", "PLACE_INSIDE", "TRANSFER_CONTENTS_INSIDE",
         "TRANSFER_CONTENTS_ONTOP")


def verb_of(name: str) -> str | None:
    """``name`` without its hand, if it is one of :data:`VERBS` (else None)."""
    side, _, rest = name.partition("_")
    return rest if side in ("LEFT", "RIGHT") and rest in VERBS else None


def scene_arrays(state: BehaviorState) -> tuple[np.ndarray, list[tuple[int, str]], dict[str, int]]:
    """Per scene (kept in its memo): which targets are room floors (a bool array in ``order``), the positions
    and names of the objects that have an ``Open`` state, and each name's position."""
    scene = state.scene
    hit = scene.memo.get("place_mask")
    if hit is None:
        order = scene.order
        floor = np.array([scene.objects[n].room_floor for n in order], dtype=bool)
        openable = [(p, n) for p, n in enumerate(order) if "Open" in scene.objects[n].keys]
        hit = scene.memo["place_mask"] = (floor, openable, {n: p for p, n in enumerate(order)})
    return hit


def not_larger(state: BehaviorState, volume: float) -> np.ndarray:
    """Targets whose volume is at least ``volume`` (a bool array in ``order``; kept per scene and volume)."""
    scene = state.scene
    key = ("place_mask_volume", volume)
    hit = scene.memo.get(key)
    if hit is None:
        hit = scene.memo[key] = np.array([not volume > scene.objects[n].volume for n in scene.order], dtype=bool)
    return hit


def closed(state: BehaviorState) -> np.ndarray:
    """Targets whose ``Open`` state is False (``value(t, "Open") is False``), a bool array in ``order``."""
    floor, openable, _ = scene_arrays(state)
    out = np.zeros(len(floor), dtype=bool)
    values = state.values
    for p, n in openable:
        if values.get(n, {}).get("Open") is False:
            out[p] = True
    return out


def hand_entries(state: BehaviorState, held: str, ok: np.ndarray, moves_all: bool,
                 closed_targets: np.ndarray) -> dict[str, np.ndarray]:
    """Verb -> which targets' entries execute, for a hand holding ``held``, given ``ok`` (the two shared checks
    pass, per target) and :func:`closed` ``(state)``."""
    floor, _, _ = scene_arrays(state)
    objects = state.scene.objects
    children = state.children.get(held)
    open_ok = ok & ~closed_targets
    out = {"PLACE_ONTOP": ok, "PLACE_NEXTTO": ok, "PLACE_UNDER": ok,
           "PLACE_INSIDE": open_ok & ~floor & not_larger(state, objects[held].volume)}
    if children:
        fits = open_ok
        for child in children:  # no child larger than the target (TRANSFER_CONTENTS_INSIDE's volume check)
            fits = fits & not_larger(state, objects[child].volume)
        out["TRANSFER_CONTENTS_INSIDE"] = fits if moves_all else np.zeros_like(ok)
        out["TRANSFER_CONTENTS_ONTOP"] = ok if moves_all else np.zeros_like(ok)
    else:
        out["TRANSFER_CONTENTS_INSIDE"] = open_ok
        out["TRANSFER_CONTENTS_ONTOP"] = np.zeros_like(ok)
    return out


def kept_ok(kept: Any, state: BehaviorState, hand: str, held: str | None,
            decide: Callable[[str], Callable[[Any], bool]], pin: frozenset, tick: int) -> np.ndarray:
    """Answers per target (``kept.answers`` keys ``(hand, t, held)``, ``decide(t)`` their function, ``pin``
    their pinned read keys) as a bool array in ``order``, kept in ``kept.extra[hand]`` from the last call: when
    that call was the previous one on these answers (``tick - 1``) with the same ``held``, only the targets
    whose answers the last step dropped are decided again; otherwise every target is looked up. The mask asks
    it for the shared PLACE checks of a hand holding ``held``, and (``hand`` ``"grasp"``, ``held`` None) for
    GRASP with an empty hand."""
    answers = kept.answers
    last = kept.extra.get(hand)
    if last is not None and last[0] == held and last[1] == answers.generation and last[2] == tick - 1:
        ok = last[3]
        pos = scene_arrays(state)[2]
        for k in answers.dropped:
            if type(k) is tuple and len(k) == 3 and k[0] == hand and k[2] == held:
                ok[pos[k[1]]] = answers.answer(k, decide(k[1]), pin)
    else:
        values = answers.values
        got = []
        for t in state.scene.order:
            key = (hand, t, held)
            v = values.get(key)
            if v is None:
                v = answers.answer(key, decide(t), pin)
            got.append(v)
        ok = np.array(got, dtype=bool)
    kept.extra[hand] = (held, answers.generation, tick, ok)
    return ok

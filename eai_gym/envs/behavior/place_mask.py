"""BEHAVIOR's PLACE and TRANSFER mask entries, decided for every target of a hand at once.

With something in a hand, each PLACE_ONTOP / PLACE_NEXTTO / PLACE_UNDER / PLACE_INSIDE /
TRANSFER_CONTENTS_INSIDE / TRANSFER_CONTENTS_ONTOP entry on target ``t`` executes exactly when the two checks
every one of them runs, ``place(t, hand)`` and ``interactivity(t)`` (:mod:`.dynamics`), pass — ``t`` is neither
what the hand holds nor carried by it, and is interactive: the per-target answer PLACE_NEXTTO_ONTOP reads for
both its targets too — and the verb's own checks (in :mod:`.executors`) pass:

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
come from the kept interactivity of each target (``interactivity_error``, a kept query: see :mod:`.mask`) and what
the hand carries; GRASP's with an empty hand from the same interactivity, the targets GRASP can take at all
(:func:`graspable`) and the hands.
``tests/envs/test_place_mask.py`` compares the result with running every executor.
"""

from __future__ import annotations

import numpy as np

from .executors import GRASP_VOLUME
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


def graspable(state: BehaviorState) -> np.ndarray:
    """Targets GRASP's own check allows whatever the hands hold (no room floor, not too big to grasp), a bool
    array in ``order`` kept per scene: with an empty hand, GRASP(t) executes exactly when ``t`` is one of them,
    in neither hand, and interactive (:func:`interactive`)."""
    scene = state.scene
    hit = scene.memo.get("place_mask_graspable")
    if hit is None:
        hit = scene.memo["place_mask_graspable"] = np.array(
            [not scene.objects[n].room_floor and not scene.objects[n].volume > GRASP_VOLUME for n in scene.order],
            dtype=bool)
    return hit


def grasp_targets(state: BehaviorState, ok: np.ndarray) -> np.ndarray:
    """Per target (a new bool array in ``order``): GRASP(t) with an empty hand executes, given ``ok`` (whether
    each target is interactive): ``t`` is :func:`graspable`, interactive and in neither hand."""
    grasp = graspable(state) & ok
    pos = state.scene.positions()
    for h in state.hands:
        if h is not None:
            grasp[pos[h]] = False  # (already in the other hand)
    return grasp

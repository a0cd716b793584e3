"""The index-mode action mask of BEHAVIOR-1K, kept from one step to the next.

A step changes a handful of facts; most catalogue entries read none of them. Each entry's answer ("would it
succeed?", a precondition probe: :meth:`~.world.Behavior1KWorld.legal`) is kept with the facts it read
(:class:`~eai_gym.core.answers.KeptAnswers` over :class:`~.tracking.B1KReadView`) and asked again only when one
of them changes. Answers are kept under what the hand holds, at the coarsest level they allow:

* hand empty: under ``(entry, None)``;
* holding an object other than the entry's target: first under ``(entry, SOME)``, asked with the held object
  shown as :class:`~.tracking.SomeObject` (placing it on ``t`` needs only that something other than ``t`` is
  held, whatever it is); if the answer needs to know which object is held, under ``(entry, object)``;
* holding the entry's target: under ``(entry, object)``.

The answer under ``(entry, SOME)`` is reused for every held object; under ``(entry, object)``, when that object is
held again. :func:`full_mask` decides every entry afresh (what the property tests compare with).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ...core.answers import KeptAnswers
from .kb import ActivityKB, activity_kb
from .state import B1KState
from .tracking import HELD, HIDDEN, B1KReadView, SomeObject, changed_keys

#: a generic answer's values (an int8 each): illegal, legal, it depends on which object is held
NO, YES, ASK_OBJECT = 0, 1, 2
#: the key part of an answer kept for any held object other than the entry's target / for any hand
SOME, ANY = "<some object>", "<any hand>"
#: actions whose preconditions do not read the hand (asked once for any hand, under ANY; were one to read it, it
#: is asked under what the hand holds)
HAND_FREE = frozenset({"NAVIGATE_TO", "WAIT", "IGNITE"})
#: the read keys no kept answer depends on: answers are kept under what the hand holds
PINNED = frozenset({HELD})

Legal = Callable[[ActivityKB, Any, str, "str | None"], bool]
Call = tuple[str, "str | None"]

#: actions that fail unless the hand is empty / unless something is held
NEEDS_EMPTY_HAND = frozenset({"OPEN", "CLOSE", "TOGGLE_ON", "TOGGLE_OFF", "DETACH"})
NEEDS_HELD = frozenset({"RELEASE", "PLACE_ON_TOP", "PLACE_INSIDE", "SOAK_UNDER", "SOAK_INSIDE", "WIPE", "CUT",
                        "PLACE_NEAR_HEATING_ELEMENT", "PLACE_NEXT_TO", "PLACE_UNDER", "FILL", "POUR", "RINSE",
                        "APPLY", "MIX", "ATTACH", "DRAPE", "OVERLAY"})
#: the properties (any one of them) an action's target / held object needs for good (the knowledge base does not
#: change); ATTACH needs an attachable held object or a valid (held, target) attachment pair
TARGET_NEEDS = {"OPEN": ("openable",), "CLOSE": ("openable",), "TOGGLE_ON": ("toggleable",),
                "TOGGLE_OFF": ("toggleable",), "CUT": ("sliceable", "diceable"), "FOLD": ("cloth",),
                "UNFOLD": ("cloth",), "IGNITE": ("flammable",), "PLACE_NEAR_HEATING_ELEMENT": ("heatSource",)}
HELD_NEEDS = {"FILL": ("fillable",), "MIX": ("mixingTool",), "DRAPE": ("drapeable",), "OVERLAY": ("cloth",),
              "SOAK_UNDER": ("particleRemover",), "SOAK_INSIDE": ("particleRemover",), "WIPE": ("particleRemover",),
              "CUT": ("slicer",)}


class KeptMask:
    """The legal entries of one activity's catalogue, state after state.

    Only candidates are asked: entries the hand's state allows (an empty hand cannot place, a full one cannot
    open) whose target and held object have the properties the action needs for good (:data:`TARGET_NEEDS`,
    :data:`HELD_NEEDS`); the others always fail.

    Args:
        legal: ``legal(kb, state, name, target)``, the precondition probe of one entry.
        calls: the catalogue's entries as ``(action name, target or None)``.
        activity: the activity (whose knowledge base the probes read).
    """

    def __init__(self, legal: Legal, calls: Sequence[Call], activity: str) -> None:
        self.answers = KeptAnswers(B1KReadView, changed_keys)
        self.legal_fn, self.calls, self.activity = legal, list(calls), activity
        kb = activity_kb(activity)
        targets = {t for _, t in self.calls if t is not None}
        unfit = {(name, t) for name, props in TARGET_NEEDS.items() for t in targets
                 if not any(kb.has(t, p) for p in props)}
        empty, full, free = [], [], []
        for i, call in enumerate(self.calls):
            if call in unfit:
                continue
            name = call[0]
            if name in HAND_FREE:
                free.append(i)
                continue
            if name not in NEEDS_EMPTY_HAND:
                full.append(i)
            if name not in NEEDS_HELD:
                empty.append(i)
        self.free, self.empty, self.full = np.array(free, dtype=np.intp), empty, full
        self._free_keys = [(i, ANY) for i in free]
        self._empty_keys = [(i, None) for i in empty]
        self._by_held: dict[str, tuple] = {}
        self._fns: dict[tuple[int, bool], Callable[[B1KReadView], Any]] = {}

    def candidates(self, held: str | None) -> list[int]:
        """The entries worth asking while ``held`` is held (None: the hand is empty)."""
        free = self.free.tolist()
        if held is None:
            return free + self.empty
        kb, calls = activity_kb(self.activity), self.calls
        lacks = {name for name, props in HELD_NEEDS.items() if not any(kb.has(held, p) for p in props)}
        pairs = kb.attach_pairs
        out = []
        for i in self.full:
            name, target = calls[i]
            if name in lacks or (name == "ATTACH" and target is not None and not kb.has(held, "attachable")
                                 and (kb.synset[held], kb.synset[target]) not in pairs):
                continue
            out.append(i)
        return free + out

    def legal(self, state: B1KState) -> list[int]:
        """The catalogue indices that would succeed in ``state`` (a state of this catalogue's activity)."""
        answers = self.answers
        answers.advance(state)
        held = state.held
        out = self._kinds(self.free, self._free_keys, False)
        if held is None:
            out += answers.truthy(self.empty, self._empty_keys, self._ask, PINNED)
            return out
        plan = self._by_held.get(held)
        if plan is None:
            plan = self._by_held[held] = self._plan(held)
        some_items, some_keys, own_items, own_keys, object_keys = plan
        out += self._kinds(some_items, some_keys, True, object_keys)
        if own_items:
            out += answers.truthy(own_items, own_keys, self._ask, PINNED)
        return out

    def _kinds(self, items: np.ndarray, keys: list, some: bool, object_keys: list | None = None) -> list[int]:
        """The legal ``items`` among those answered YES / NO / ASK_OBJECT under ``keys``; an ASK_OBJECT one is
        asked under its key in ``object_keys`` (the object held, or while nothing is, ``(entry, held)``)."""
        answers = self.answers
        values = answers.values
        missing = [p for p, k in enumerate(keys) if k not in values]
        if missing:
            fn = self._fn
            for p in missing:
                answers.answer(keys[p], fn(int(items[p]), some), PINNED)
        kinds = np.fromiter(map(values.__getitem__, keys), np.int8, len(keys))
        out: list[int] = items[kinds == YES].tolist()
        ask = np.flatnonzero(kinds == ASK_OBJECT).tolist()
        if ask:
            held = answers.state.held
            asked = items[ask].tolist()
            out += answers.truthy(asked, [object_keys[p] for p in ask] if object_keys is not None else
                                  [(i, held) for i in asked], self._ask, PINNED)
        return out

    def _plan(self, held: str) -> tuple:
        """For a held object: the entries asked under SOME (targets other than it), their keys, the entries on
        it and their keys, and each SOME entry's key under the object."""
        calls, entries = self.calls, self.candidates(held)[len(self.free):]
        some = [i for i in entries if calls[i][1] != held]
        own = [i for i in entries if calls[i][1] == held]
        return (np.array(some, dtype=np.intp), [(i, SOME) for i in some], own, [(i, held) for i in own],
                [(i, held) for i in some])

    def _ask(self, i: int) -> Callable[[B1KReadView], Any]:
        return self._fn(i, None)

    def _fn(self, i: int, some: bool | None) -> Callable[[B1KReadView], Any]:
        """Entry ``i``'s question: "would it succeed?" (``some`` None: a bool); as YES / NO / ASK_OBJECT with
        the held object shown as :class:`~.tracking.SomeObject` (``some`` True) or hidden (False: an answer for
        any hand, ASK_OBJECT if it reads the hand)."""
        fn = self._fns.get((i, some))
        if fn is not None:
            return fn
        name, target = self.calls[i]
        legal, kb = self.legal_fn, activity_kb(self.activity)

        def ask(view: B1KReadView) -> bool:
            view.start()
            try:
                return legal(kb, view, name, target)
            finally:
                if view.pending():
                    view.settle()

        def ask_kind(view: B1KReadView) -> int:
            view.start()
            view.some = SomeObject(target) if some else HIDDEN
            try:
                return YES if legal(kb, view, name, target) else NO
            except Exception:  # it asked which object is held (or failed: asked with the object, it fails again)
                return ASK_OBJECT
            finally:
                view.some = None
                if view.pending():
                    view.settle()

        fn = self._fns[(i, some)] = ask if some is None else ask_kind
        return fn

    def fresh(self, state: B1KState) -> list[int]:
        """The legal entries decided afresh: every candidate's probe on ``state``, nothing kept."""
        probe = state.as_probe()
        kb, legal, calls = activity_kb(self.activity), self.legal_fn, self.calls
        return [i for i in self.candidates(state.held) if legal(kb, probe, *calls[i])]

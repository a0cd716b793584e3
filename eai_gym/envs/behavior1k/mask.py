"""The index-mode action mask of BEHAVIOR-1K, kept from one step to the next.

A step changes a handful of facts; most catalogue entries read none of them. The entries on one target are asked
together ("which of them would succeed?", each a precondition probe: :meth:`~.world.Behavior1KWorld.legal`) and
the answer is kept with the facts those probes read (:class:`~eai_gym.core.answers.KeptAnswers` over
:class:`~.tracking.B1KReadView`), to be asked again only when one of them changes. Answers are kept at the
coarsest level of the hand they allow:

* entries whose actions do not read the hand (:data:`HAND_FREE`): under ``(target, ANY, group)``, asked with the
  hand hidden;
* holding an object other than the target: under ``(target, SOME, group)``, asked with the held object shown as
  :class:`~.tracking.SomeObject` (placing it on ``t`` needs only that something other than ``t`` is held,
  whatever it is);
* otherwise, and for the entries whose probe needed to know what the hand holds: under ``(target, held,
  group)``, asked with the hand as it is (kept for when it holds that again).

:meth:`KeptMask.fresh` decides every candidate afresh (what the property tests compare with).
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence

import numpy as np

from ...core.answers import KeptAnswers
from .dynamics import is_fixture
from .kb import ActivityKB, activity_kb
from .state import B1KState
from .tracking import HELD, HIDDEN, B1KReadView, SomeObject, changed_keys

#: the hand part of a key for answers kept for any held object other than the target / for any hand
SOME, ANY = "<some object>", "<any hand>"
#: actions whose preconditions do not read the hand (asked once for any hand; were one to read it, it is asked
#: with the hand as it is)
HAND_FREE = frozenset({"NAVIGATE_TO", "WAIT", "IGNITE"})
#: actions whose preconditions read the held object's properties or facts (asked with the object itself, not
#: as SomeObject, where they would only ask what it is: a choice for speed, the answers are the same)
HELD_OBJECT_READERS = frozenset({"FILL", "MIX", "DRAPE", "OVERLAY", "SOAK_UNDER", "SOAK_INSIDE", "WIPE", "CUT",
                                 "ATTACH", "POUR", "APPLY"})
#: the read keys no kept answer depends on: answers are kept under what the hand holds
PINNED = frozenset({HELD})

Legal = Callable[[ActivityKB, Any, str, "str | None"], bool]
Call = tuple[str, "str | None"]
#: a kept answer: the entries that would succeed, and those whose probe asked what the stand-in hand holds
Answer = tuple[tuple[int, ...], tuple[int, ...]]

#: actions that fail unless the hand is empty / unless something is held
NEEDS_EMPTY_HAND = frozenset({"OPEN", "CLOSE", "TOGGLE_ON", "TOGGLE_OFF", "DETACH", "GRASP"})
NEEDS_HELD = frozenset({"RELEASE", "PLACE_ON_TOP", "PLACE_INSIDE", "SOAK_UNDER", "SOAK_INSIDE", "WIPE", "CUT",
                        "PLACE_NEAR_HEATING_ELEMENT", "PLACE_NEXT_TO", "PLACE_NEXT_TO_GROUP", "PLACE_UNDER", "FILL",
                        "POUR", "RINSE", "APPLY", "MIX", "ATTACH", "DRAPE", "OVERLAY"})
#: actions whose target must not be the held object (their handlers start with ``holding(s, t)``)
NOT_ON_HELD = NEEDS_HELD - {"RELEASE"}
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
    open or grasp; no action that uses the held object takes it as its target: :data:`NOT_ON_HELD`) whose target
    and held object have the properties the action needs for good (:data:`TARGET_NEEDS`, :data:`HELD_NEEDS`; a
    fixture is never grasped); the others always fail.

    Args:
        legal: ``legal(kb, state, name, target)``, the precondition probe of one entry.
        calls: the catalogue's entries as ``(action name, target or None)``.
        activity: the activity (whose knowledge base the probes read).
    """

    def __init__(self, legal: Legal, calls: Sequence[Call], activity: str) -> None:
        self.answers = KeptAnswers(B1KReadView, changed_keys)
        self.legal_fn, self.calls, self.activity = legal, list(calls), activity
        self.kb = kb = activity_kb(activity)
        props = {t: kb.props.get(t, {}).keys() for _, t in self.calls if t is not None}
        unfit = {(name, t) for name, needs in TARGET_NEEDS.items() for t, has in props.items() if has.isdisjoint(needs)}
        unfit |= {("GRASP", t) for t in props if is_fixture(kb, t)}  # a fixture is never picked up
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
        self.free, self.empty, self.full = free, empty, full
        self._group_ids: dict[tuple[int, ...], int] = {}
        self._fns: dict[tuple, Callable[[B1KReadView], Answer]] = {}
        self._asked: dict[tuple, list] = {}
        self._fit: dict[str | None, frozenset[int]] = {}
        #: (scene, held, number of kept answers, legal entries) after the last call: while no answer is dropped
        #: and the hand holds the same, the legal entries are the same
        self._last: tuple | None = None
        #: the entries that need something held, by target, asked with the held object shown as SomeObject
        #: (made when something is first held)
        self._some_plan: list | None = None
        self._free_plan = self._plan(free, ANY)
        self._array: np.ndarray = np.zeros(0, dtype=np.int8)
        self._array_of: list[int] | None = None  # the legal list ``_array`` was made from
        self._by_held: dict[str | None, tuple[list, list]] = {None: ([], self._plan(empty, None))}

    def __reduce__(self):
        # kept answers are a cache (their questions are closures): a copy starts afresh
        return (KeptMask, (self.legal_fn, self.calls, self.activity))

    def candidates(self, held: str | None) -> list[int]:
        """The entries worth asking while ``held`` is held (None: the hand is empty)."""
        if held is None:
            return self.free + self.empty
        kb, calls = self.kb, self.calls
        lacks = {name for name, props in HELD_NEEDS.items() if not any(kb.has(held, p) for p in props)}
        pairs = kb.attach_pairs
        out = []
        for i in self.full:
            name, target = calls[i]
            if name in lacks or (target == held and name in NOT_ON_HELD) or (name == "ATTACH" and target is not None and not kb.has(held, "attachable")
                                 and (kb.synset[held], kb.synset[target]) not in pairs):
                continue
            out.append(i)
        return self.free + out

    def legal(self, state: B1KState) -> list[int]:
        """The catalogue indices that would succeed in ``state`` (a state of this catalogue's activity)."""
        return list(self._legal(state))

    def array(self, state: B1KState, size: int) -> np.ndarray:
        """:meth:`legal` as an int8 mask of ``size`` entries (a fresh array; while the legal entries are the same
        list as at the last call, a copy of the last one)."""
        out = self._legal(state)
        if out is not self._array_of or len(self._array) != size:
            mask = np.zeros(size, dtype=np.int8)
            mask[out] = 1
            self._array, self._array_of = mask, out
        return self._array.copy()

    def _legal(self, state: B1KState) -> list[int]:
        """:meth:`legal`'s list itself: the same list while no kept answer was dropped (never to be changed)."""
        answers = self.answers
        answers.advance(state)
        held = state.held
        last = self._last
        if last is not None and last[0] is answers.state.scene and last[1] == held and \
                last[2] == len(answers.values):
            return last[3]  # no kept answer was dropped: the same answers as last time
        plans = self._by_held.get(held)
        if plans is None:  # the entries on other targets (as for any held object), those asked with the object
            if self._some_plan is None:
                self._some_plan = self._plan([i for i in self.full if self.calls[i][0] not in HELD_OBJECT_READERS],
                                             SOME)
            some = [step for step in self._some_plan if step[0][0] != held]
            calls = self.calls
            own = [i for i in self.candidates(held)[len(self.free):]
                   if calls[i][1] == held or calls[i][0] in HELD_OBJECT_READERS]
            plans = self._by_held[held] = (some, self._plan(own, held))
        out: list[int] = []
        asked: list[int] = []
        for plan in (self._free_plan, *plans):
            values = answers.values
            for key, members in plan:
                got = values.get(key)
                if got is None:
                    got = answers.answer(key, self._question(key[0], members, key[1]), PINNED)
                out += got[0]
                if got[1]:
                    asked += got[1]
        if asked:  # with the hand as it is, those it may allow
            plan = self._asked.get((held, *asked))
            if plan is None:
                fit = self._fit.get(held)
                if fit is None:
                    fit = self._fit[held] = frozenset(self.candidates(held))
                plan = self._asked[(held, *asked)] = self._plan([i for i in asked if i in fit], held)
            for key, members in plan:
                got = values.get(key)
                if got is None:
                    got = answers.answer(key, self._question(key[0], members, held), PINNED)
                out += got[0]
        self._last = (state.scene, held, len(answers.values), out)
        return out

    def _plan(self, entries: list[int], hand: Hashable) -> list[tuple[tuple, tuple[int, ...]]]:
        """The kept answers asking ``entries`` with ``hand`` (ANY, SOME or what it holds), one per target: their
        keys ``(target, hand, group id)`` and entries (whose question :meth:`_question` makes when it is asked)."""
        by_target: dict[str | None, list[int]] = {}
        for i in entries:
            by_target.setdefault(self.calls[i][1], []).append(i)
        out = []
        for target, group in by_target.items():
            members = tuple(group)
            gid = self._group_ids.setdefault(members, len(self._group_ids))
            out.append(((target, hand, gid), members))
        return out

    def _question(self, target: str | None, members: tuple[int, ...], hand: Hashable) -> Callable[[B1KReadView], Answer]:
        """Which of ``members`` (entries on ``target``) would succeed, with the hand shown as ``hand`` (ANY:
        hidden; SOME: :class:`~.tracking.SomeObject`; else as it is); an entry whose probe asks more of a hidden
        or stand-in hand than it shows goes into the answer's second part."""
        key = (target, members, hand if hand in (ANY, SOME) else None)
        fn = self._fns.get(key)
        if fn is not None:
            return fn
        legal, kb = self.legal_fn, self.kb
        named = [(i, self.calls[i][0]) for i in members]

        if hand is ANY or hand is SOME:
            def ask(view: B1KReadView) -> Answer:
                yes, later = [], []
                memo = view.memo()
                view.some = SomeObject(target) if hand is SOME else HIDDEN
                try:
                    for i, name in named:
                        try:
                            if legal(kb, view, name, target):
                                yes.append(i)
                        except Exception:  # it asked what the hand holds (or failed: asked with the hand, it
                            later.append(i)  # fails again)
                        if memo.pending:
                            view.settle()
                finally:
                    view.some = None
                    if memo.pending:
                        view.settle()
                return tuple(yes), tuple(later)
        else:
            def ask(view: B1KReadView) -> Answer:
                yes = []
                memo = view.memo()
                try:
                    for i, name in named:
                        if legal(kb, view, name, target):
                            yes.append(i)
                finally:
                    if memo.pending:
                        view.settle()
                return tuple(yes), ()

        self._fns[key] = ask
        return ask

    def fresh(self, state: B1KState) -> list[int]:
        """The legal entries decided afresh: every candidate's probe on ``state``, nothing kept."""
        probe = state.as_probe()
        kb, legal, calls = self.kb, self.legal_fn, self.calls
        return [i for i in self.candidates(state.held) if legal(kb, probe, *calls[i])]

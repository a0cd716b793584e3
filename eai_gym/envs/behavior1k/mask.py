"""BEHAVIOR-1K's rules for the index-mode mask: which catalogue entries are candidates in a state, and how they are
decided (the cache is :class:`~eai_gym.core.kept_mask.KeptMask`'s).

A step changes a handful of facts; most catalogue entries read none of them. The entries on one target are asked
together ("which of them would succeed?", each a precondition probe: :meth:`~.world.Behavior1KWorld.legal`) through a
:class:`~.tracking.B1KReadView`, one kept answer per target. Answers are kept at the coarsest level of the hand they
allow:

* entries whose actions do not read the hand (:data:`HAND_FREE`): under ``(target, ANY, group)``, asked with the
  hand hidden;
* holding an object other than the target: under ``(target, SOME, group)``, asked with the held object shown as
  :class:`~.tracking.SomeObject` (placing it on ``t`` needs only that something other than ``t`` is held,
  whatever it is);
* otherwise: under ``(target, held, group)``, asked with the hand as it is (kept for when it holds that again).

An entry whose probe needed to know more of the hand than a hidden hand or a stand-in shows is left undecided
(:class:`~eai_gym.core.kept_mask.Partial`): it is asked again with the hand as it is, under the key and what is held.
:meth:`Behavior1KMask.fresh` decides every candidate afresh (what the property tests compare with).
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence

from ...core.kept_mask import Group, MaskRules, Partial
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
#: the read key pinned by the answers kept under what the hand holds
PINNED = frozenset({HELD})

Legal = Callable[[ActivityKB, Any, str, "str | None"], bool]
Call = tuple[str, "str | None"]
#: a kept answer: the entries that would succeed (and those left undecided)
Answer = tuple[int, ...] | Partial
#: group keys (see :meth:`Behavior1KMask.groups`)
FREE, EMPTY = ("free",), ("empty",)

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


class Behavior1KMask(MaskRules):
    """The mask rules of one activity's catalogue.

    Only candidates are asked: entries the hand's state allows (an empty hand cannot place, a full one cannot
    open or grasp; no action that uses the held object takes it as its target: :data:`NOT_ON_HELD`) whose target
    and held object have the properties the action needs for good (:data:`TARGET_NEEDS`, :data:`HELD_NEEDS`; a
    fixture is never grasped); the others always fail.

    Args:
        legal: ``legal(kb, state, name, target)``, the precondition probe of one entry.
        calls: the catalogue's entries as ``(action name, target or None)``.
        activity: the activity (whose knowledge base the probes read).
    """

    view_type = B1KReadView
    changed = staticmethod(changed_keys)
    signature_pins = PINNED

    def __init__(self, legal: Legal, calls: Sequence[Call], activity: str) -> None:
        super().__init__()
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
        self._by_key: dict[tuple, Callable[[B1KReadView], Answer]] = {}  # (the question of each answer key)

    def __reduce__(self):
        # (its memo holds closures: a copy starts afresh)
        return (type(self), (self.legal_fn, self.calls, self.activity))

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
            if name in lacks or (target == held and name in NOT_ON_HELD) or (
                    name == "ATTACH" and target is not None and not kb.has(held, "attachable")
                    and (kb.synset[held], kb.synset[target]) not in pairs):
                continue
            out.append(i)
        return self.free + out

    def signature(self, state: B1KState) -> str | None:
        """The held object."""
        return state.held

    def groups(self, held: str | None) -> dict[Hashable, Group]:
        """The entries asked for any hand (:data:`FREE`); with an empty hand, those it may do (:data:`EMPTY`, under
        the empty hand); holding an object, the entries on each other target that do not read the held object
        (``("some", target)``, under SOME) and the others (``("own", held)``, under what is held)."""
        memo = self.memo
        if FREE not in memo:
            memo[FREE] = self._group(self.free, ANY, frozenset())
            memo[EMPTY] = self._group(self.empty, None, PINNED)
        groups = {FREE: memo[FREE]}
        if held is None:
            groups[EMPTY] = memo[EMPTY]
            return groups
        some = memo.get("some")
        if some is None:  # the entries that need something held, on each target, asked with the object as SomeObject
            by_target: dict[str | None, list[int]] = {}
            for i in self.full:
                if self.calls[i][0] not in HELD_OBJECT_READERS:
                    by_target.setdefault(self.calls[i][1], []).append(i)
            some = memo["some"] = {t: (("some", t), self._group(entries, SOME, frozenset()))
                                   for t, entries in by_target.items()}
        for target, (gkey, g) in some.items():
            if target != held:
                groups[gkey] = g
        calls = self.calls
        own = [i for i in self.candidates(held)[len(self.free):]
               if calls[i][1] == held or calls[i][0] in HELD_OBJECT_READERS]
        groups[("own", held)] = self._group(own, held, PINNED)
        return groups

    def _group(self, entries: list[int], hand: Hashable, pinned: frozenset) -> Group:
        """The kept answers asking ``entries`` with ``hand`` (ANY, SOME or what it holds), one per target: their
        keys ``(target, hand, group id)`` and entries."""
        by_target: dict[str | None, list[int]] = {}
        for i in entries:
            by_target.setdefault(self.calls[i][1], []).append(i)
        ids = self.memo.setdefault("group ids", {})
        keys, members = [], []
        for target, group in by_target.items():
            m = tuple(group)
            keys.append((target, hand, ids.setdefault(m, len(ids))))
            members.append(m)
        return Group(members, keys, pinned)

    def decide(self, key: tuple, members: tuple[int, ...]) -> Callable[[B1KReadView], Answer]:
        """Which of ``members`` (entries on the key's target) would succeed, with the hand shown as the key says
        (ANY: hidden; SOME: :class:`~.tracking.SomeObject`; else as it is). Under ``(key, entries, held)``: those
        of the entries a partial answer left undecided that are candidates for ``held``, with the hand as it is."""
        if type(key[0]) is tuple:  # (key, undecided entries, what is held)
            fit = self._fit(key[2])
            return self._question(key[0][0], tuple(i for i in members if i in fit), None)
        fn = self._by_key.get(key)
        if fn is None:
            fn = self._by_key[key] = self._question(key[0], members, key[1])
        return fn

    def _question(self, target: str | None, members: tuple[int, ...],
                  hand: Hashable) -> Callable[[B1KReadView], Answer]:
        memo_key = ("question", target, members, hand if hand in (ANY, SOME) else None)
        fn = self.memo.get(memo_key)
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
                return Partial(tuple(yes), tuple(later)) if later else tuple(yes)
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
                return tuple(yes)

        self.memo[memo_key] = ask
        return ask

    def _fit(self, held: str | None) -> frozenset[int]:
        """:meth:`candidates` as a set (kept per held object)."""
        fit = self.memo.get(("fit", held))
        if fit is None:
            fit = self.memo[("fit", held)] = frozenset(self.candidates(held))
        return fit

    def fresh(self, state: B1KState) -> list[int]:
        """The legal entries decided afresh: every candidate's probe on ``state``, nothing kept."""
        probe = state.as_probe()
        kb, legal, calls = self.kb, self.legal_fn, self.calls
        return [i for i in self.candidates(state.held) if legal(kb, probe, *calls[i])]

"""The BEHAVIOR world: parsing, execution with the EAI error taxonomy, goals, descriptions."""

from __future__ import annotations

import collections.abc
import dataclasses
from typing import Any, Callable, Iterable, Sequence

from ...core import Action, ActionError, ErrorType, GoalStatus, Outcome, Trajectory
from ...eai.behavior_syntax import parse_step, to_text
from ...logic.bddl import GoalCondition
from .actions import ACTIONS, TWO_OBJECTS, arity
from .dynamics import ADD, AFF, MISSING, ORDER, Errors, check, high_level, interactivity
from .executors import FIXED_RULES, REFERENCE_RULES, ExecutionCrash
from .executors_use import EXECUTORS
from .goals import GoalCrash, KeptGoalCheck
from .state import BehaviorState

PROTOCOLS = ("fixed", "eai-1.0.5")
#: error priority of the reference (the first present names the step's error)
PRIORITY = ((ADD, ErrorType.ADDITIONAL_STEP), (AFF, ErrorType.AFFORDANCE), (ORDER, ErrorType.WRONG_ORDER),
            (MISSING, ErrorType.MISSING_STEP))


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol


def classify(errors: Errors) -> ErrorType | None:
    kinds = {k for k, _ in errors.items}
    for kind, etype in PRIORITY:
        if kind in kinds:
            return etype
    return None


class BehaviorWorld:
    """The evolving graph of EAI BEHAVIOR.

    Args:
        protocol: ``"fixed"`` (documented intent) or ``"eai-1.0.5"`` (the reference's behaviour:
            NAVIGATE_TO and BURN fail as unknown execution errors, TRANSFER_CONTENTS of a full
            container raises after moving one item, only a direct parent counts for ``inside``).
    """

    name = "behavior"

    def __init__(self, protocol: str = "fixed") -> None:
        self.protocol = check_protocol(protocol)
        self.reference = protocol == "eai-1.0.5"
        self.rules = REFERENCE_RULES if self.reference else FIXED_RULES
        self.dry_rules = dataclasses.replace(self.rules, dry_run=True)
        #: the last goal check, ``(state, goal, names, satisfied or GoalCrash message)``: states are values, so a
        #: step that leaves the state as it was (a failed action, NAVIGATE_TO) reuses it
        self._last_check: tuple | None = None
        self._nodes: dict = {}  # the goal check's per-object nodes (the memo of goals.GoalView and state_dict)
        self._goal_check = KeptGoalCheck()

    # ------------------------------------------------------------------ parsing
    def parse(self, text: str, state: BehaviorState) -> Action:
        if not isinstance(text, str):
            raise ActionError(ErrorType.PARSING, f"an action must be a string, got {type(text).__name__}")
        name, objects = parse_step(text)
        return self.resolve(name, objects, state, raw=text)

    def resolve(self, name: str, objects: Sequence[str], state: BehaviorState, raw: str = "") -> Action:
        if name not in ACTIONS:
            raise ActionError(ErrorType.HALLUCINATION, f"action {name} not found")
        for o in objects:
            if o not in state.scene.objects:
                raise ActionError(ErrorType.HALLUCINATION, f"object {o} not found")
        if len(objects) != arity(name):
            raise ActionError(ErrorType.ARGUMENTS, f"wrong arguments: {','.join(objects)} for action {name}")
        return Action(name, tuple(objects), tuple(objects), raw=raw or to_text(name, objects))

    # ------------------------------------------------------------------ execution
    def try_action(self, state: BehaviorState, action: Action, history: Sequence[BehaviorState] = (),
                   dry_run: bool = False):
        """``(new_state | None, errors, crash_message | None)``; with ``dry_run``, ``state`` itself instead of
        the new state (whether the action executes, without building its effects)."""
        errors = Errors()
        rules = self.dry_rules if dry_run else self.rules
        fn = EXECUTORS.get(action.name)
        if fn is None:
            if self.reference:
                return None, errors, f"KeyError({ACTIONS.index(action.name) + 1})"
            return self._unmodelled(state, action, history, errors, rules), errors, None
        try:
            return fn(state, history, action.args, errors, rules), errors, None
        except ExecutionCrash as e:
            return e.state, errors, str(e)

    def dry_run(self, action: Action) -> Callable[[BehaviorState], bool]:
        """``state -> whether action executes there``: :meth:`try_action`'s dry run (no history) gives a state
        and no crash."""
        fn = EXECUTORS.get(action.name)
        if fn is None:
            def unmodelled(state: BehaviorState) -> bool:
                new, _, crash = self.try_action(state, action, dry_run=True)
                return new is not None and crash is None
            return unmodelled
        args, rules = action.args, self.dry_rules

        def executes(state: BehaviorState) -> bool:
            try:
                return fn(state, (), args, Errors(), rules) is not None
            except ExecutionCrash:
                return False
        return executes

    def _unmodelled(self, state, action, history, errors, rules):
        """NAVIGATE_TO (moving is implicit: a no-op) and BURN (Burnt, no heat source modelled)."""
        obj = action.args[0]
        if action.name == "NAVIGATE_TO":
            return state
        burn = high_level(obj, "Burnt", True, rules.free_hand_for_every_state_action)
        if not check(errors, state, history, [burn, interactivity(obj)], True):
            return None
        if rules.dry_run:
            return state
        n = state.copy()
        n.set_value(obj, "Burnt", True)
        return n

    def execute(self, trajectory: Trajectory[BehaviorState], action: Action) -> Outcome[BehaviorState]:
        state = trajectory.state
        history = _EarlierStates(trajectory)
        new, errors, crash = self.try_action(state, action, history)
        details: dict[str, Any] = {"errors": [{"error_type": f"ErrorType.{k}", "error_reason": r}
                                              for k, r in errors.items]}
        if crash is not None:
            details["unknown_execution_error"] = crash
            return Outcome(False, new if new is not None else state, ErrorType.AFFORDANCE,
                           f"the reference raises: {crash}", details)
        if new is not None:
            return Outcome(True, new, None, "", details)
        etype = classify(errors)
        if etype is None:  # no recorded error: cannot happen with the modelled actions
            etype = ErrorType.AFFORDANCE
        reason = next((r for k, r in reversed(errors.items) if (k, etype) in PRIORITY), errors.items[-1][1]
                      if errors.items else "failed")
        return Outcome(False, state, etype, reason, details)

    # ------------------------------------------------------------------ goals and text
    def satisfied(self, state: BehaviorState, goal: Sequence[GoalCondition], names: dict[str, str]) -> list[bool]:
        last = self._last_check
        if last is None or last[0] is not state or last[1] is not goal or last[2] is not names:
            try:
                result: tuple | str = tuple(self._goal_check.check(state, goal, names, self.protocol, self._nodes))
            except GoalCrash as e:
                result = str(e)
            last = self._last_check = (state, goal, names, result)
        if isinstance(last[3], str):
            raise GoalCrash(last[3])
        return list(last[3])

    def goal_status(self, trajectory: Trajectory[BehaviorState], goal: Sequence[GoalCondition]) -> GoalStatus:
        state = trajectory.state
        try:
            sat = self.satisfied(state, goal, state.scene.bddl_to_name)
        except GoalCrash as e:
            return GoalStatus(False, {"conditions": (0, len(goal))}, [("crash", str(e))])
        return GoalStatus(all(sat), {"conditions": (sum(sat), len(goal))},
                          [("condition", list(c.terms)) for c, ok in zip(goal, sat) if not ok])

    def legal_actions(self, state: BehaviorState, objects: Iterable[str] | None = None) -> list[Action]:
        names = list(state.scene.order) if objects is None else list(objects)
        out = []
        for a in ACTIONS:
            combos = [(x, y) for x in names for y in names if x != y] if a in TWO_OBJECTS else [(x,) for x in names]
            for args in combos:
                act = Action(a, args, args, raw=to_text(a, args))
                new, _, crash = self.try_action(state, act, dry_run=True)
                if new is not None and crash is None:
                    out.append(act)
        return out

    def describe(self, state: BehaviorState, objects: Iterable[str] | None = None, cache: dict | None = None) -> str:
        """Objects (default: all) with their states, placement, relations and hand, one per line.

        ``cache`` (a dict the caller keeps for one scene) keeps each object's line with what it was built from
        (its values dict, parent, relations, hand), so a line is rebuilt only when one of them changed, its states
        part only when the values dict did (states are values: a changed object gets a new values dict); and the
        last text with its state and lines: a step that leaves the state as it was (such as NAVIGATE_TO) reuses
        the text, and when the state is a copy of that one only the lines of the objects its log names are looked
        at (:func:`described_objects`).
        """
        last = None if cache is None or objects is not None else cache.get(_LAST_TEXT)
        if last is not None and last[0] is state:
            return last[1]
        touched = None if last is None else described_objects(state, last[0])
        if touched is not None:
            lines = list(last[2])
            if touched:
                relations: dict[str, list[tuple[str, str]]] = {}
                for (a, b), r in state.edges.items():
                    if a in touched:
                        relations.setdefault(a, []).append((r, b))
                pos = state.scene.positions()
                for n in touched:
                    lines[pos[n]] = _object_line(state, n, relations.get(n), cache)
        else:
            names = list(state.scene.order) if objects is None else list(objects)
            relations = {}
            for (a, b), r in state.edges.items():
                relations.setdefault(a, []).append((r, b))
            lines = [_object_line(state, n, relations.get(n), cache) for n in names]
        text = "\n".join(lines)
        if cache is not None and objects is None:
            cache[_LAST_TEXT] = (state, text, lines)
        return text


def _object_line(state: BehaviorState, n: str, rels: list[tuple[str, str]] | None, cache: dict | None) -> str:
    """One object's line of :meth:`BehaviorWorld.describe` (``rels``: its relations, in the edges' order)."""
    vals = state.values.get(n)
    place = state.parent.get(n)
    h0, h1 = state.hands
    hand = "left" if h0 == n else "right" if h1 == n else None
    hit = None if cache is None else cache.get(n)
    if hit is not None and hit[0] is vals and hit[1] == place and hit[2] == rels and hit[3] == hand:
        return hit[4]
    obj = state.scene.objects[n]
    parts = [f"{n} ({obj.category})"]
    if hit is not None and hit[0] is vals:  # (only the placement, relations or hand changed)
        states = hit[5]
    else:
        st = [f"{k}={'yes' if vals and vals.get(k) else 'no'}" for k in sorted(obj.keys)]
        states = "states: " + ", ".join(st) if st else None
    if states is not None:
        parts.append(states)
    if place is not None:
        parts.append(f"{place[1]} {place[0]}")
    if rels:
        parts.append("; ".join(f"{r} {b}" for r, b in rels))
    if hand is not None:
        parts.append(f"in {hand} hand")
    line = "; ".join(parts)
    if cache is not None:
        cache[n] = (vals, place, rels, hand, line, states)
    return line


def described_objects(state: BehaviorState, earlier: BehaviorState) -> set[str] | None:
    """When ``state`` is a copy (of a copy ...) of ``earlier``: the objects whose line of
    :meth:`BehaviorWorld.describe` may differ (logged values, parents and relations from them, the objects in
    either state's hands); else None."""
    logged = state.changes_since(earlier)
    if logged is None:
        return None
    out = {k[0] if tag == "e" else k for tag, k in logged if tag != "c" and tag != "h"}
    if state.hands != earlier.hands:
        out.update(h for h in state.hands + earlier.hands if h is not None)
    return out


class _EarlierStates(collections.abc.Sequence):
    """A trajectory's distinct states but its last (the history the temporal checks search), listed when first
    read: an action whose checks pass never reads it."""

    def __init__(self, trajectory: Trajectory[BehaviorState]) -> None:
        self._trajectory = trajectory
        self._states: list[BehaviorState] | None = None

    def _list(self) -> list[BehaviorState]:
        if self._states is None:
            self._states = self._trajectory.distinct_states()[:-1]
        return self._states

    def __len__(self) -> int:
        return len(self._list())

    def __getitem__(self, i):  # type: ignore[override]
        return self._list()[i]

    def __iter__(self):
        return iter(self._list())


#: the key of :meth:`BehaviorWorld.describe`'s last text in its cache (object names are strings)
_LAST_TEXT = ("<last text>",)

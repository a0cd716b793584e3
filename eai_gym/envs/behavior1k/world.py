"""The BEHAVIOR-1K world: actions over an activity's instances, the EAI error taxonomy, goals by check_goal's rules.

Actions are written ``GRASP(apple.n.01_1)`` or as an EAI BEHAVIOR item ``{"action": "GRASP", "object":
"apple.n.01_1"}``; ``RELEASE()`` and ``WAIT()`` take no object (``RELEASE(x)`` checks that ``x`` is held).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence, overload

from ...core import Action, ActionError, ErrorType, GoalStatus, Outcome, Task, Trajectory
from ...eai.behavior_syntax import parse_step
from .data import activity_names, activity_record
from .dynamics import HANDLERS, Failure, Handler, apply
from .dynamics_added import ADDED
from .goals import ActivityGoal, activity_goal
from .kb import ActivityKB, activity_kb
from .state import B1KState, Reached

#: every action, OmniGibson's primitives first (the index-mode catalogue order)
ACTIONS: tuple[str, ...] = tuple(HANDLERS) + tuple(ADDED)
PRIMITIVES = frozenset(HANDLERS) | {"PLACE_NEAR_HEATING_ELEMENT"}
NO_TARGET = frozenset({"RELEASE", "WAIT"})  # RELEASE may name the held object
ALL_HANDLERS: dict[str, Handler] = {**HANDLERS, **ADDED}


def to_text(name: str, target: str | None) -> str:
    return f"{name}({target or ''})"


def initial_state(activity: str) -> B1KState:
    """The ``:init`` atoms that hold (negated ones omitted, ``inroom`` kept in the knowledge base), ``real`` for
    every declared entity not ``future``, and ``contains`` wherever ``filled`` (OmniGibson: filled implies
    contains). A new state each time, over facts worked out once per activity."""
    facts, name = _initial_facts(activity)
    return B1KState(facts, None, name)


@lru_cache(maxsize=None)
def _initial_facts(activity: str) -> tuple[frozenset, str]:
    """:func:`initial_state`'s facts, and the activity's name as one string object (the scene every episode of
    the activity shares, compared by identity by the kept answers)."""
    rec = activity_record(activity)
    facts = {tuple(lit) for lit in rec["init"] if lit[0] not in ("not", "inroom")}
    future = {f[1] for f in facts if f[0] == "future"}
    facts |= {("real", i) for names in rec["objects"].values() for i in names if i not in future}
    facts |= {("contains", f[1], f[2]) for f in facts if f[0] == "filled"}
    facts |= {("future", i) for names in activity_kb(activity).hidden.values() for i in names}
    return frozenset(facts), activity


def load_task(activity: str) -> Task[B1KState]:
    from .gold import gold_plan  # the packaged plans are optional data: imported lazily

    goal = activity_goal(activity)
    return Task(id=activity, name=activity.replace("_", " "), instruction=activity.replace("_", " "),
                initial_state=initial_state(activity), goal=goal, gold_plan=tuple(gold_plan(activity)),
                metadata={"behavior1k": {"goal_bddl": list(condition_texts(goal))}})


#: each goal's condition texts, by the goal's id (the goal kept alongside: an id may be reused once it is gone)
_TEXTS: dict[int, tuple[ActivityGoal, list[str]]] = {}


def condition_texts(goal: ActivityGoal) -> list[str]:
    """The BDDL text of each of ``goal``'s conditions (remembered per goal)."""
    hit = _TEXTS.get(id(goal))
    if hit is None or hit[0] is not goal:
        if len(_TEXTS) >= 4096:
            _TEXTS.clear()
        hit = _TEXTS[id(goal)] = (goal, [_text(c.tokens) for c in goal.conditions])
    return hit[1]


def _text(tokens: Any) -> str:
    return "(" + " ".join(_text(t) for t in tokens) + ")" if isinstance(tokens, list) else str(tokens)


class Behavior1KWorld:
    """Symbolic BEHAVIOR-1K: one hand, OmniGibson's primitives plus the added actions, rules to a fixpoint."""

    name = "behavior1k"
    activities = staticmethod(activity_names)

    def __init__(self) -> None:
        self._kept: KeptConditions | None = None  # the last goal's condition values (see satisfied)

    def __getstate__(self) -> dict:
        return {}  # (a cache)

    def __setstate__(self, state: dict) -> None:
        self._kept = None

    def parse(self, text: Any, state: B1KState) -> Action:
        if not isinstance(text, str):
            raise ActionError(ErrorType.PARSING, f"an action must be a string, got {type(text).__name__}")
        name, objects = parse_step(text)
        return self.resolve(name, [o for o in objects if o], state, raw=text)

    def resolve(self, name: str, objects: Sequence[str], state: B1KState, raw: str = "") -> Action:
        kb = activity_kb(state.activity)
        if name not in ALL_HANDLERS:
            raise ActionError(ErrorType.HALLUCINATION, f"action {name} not found")
        for o in objects:
            if o not in kb.synset:
                raise ActionError(ErrorType.HALLUCINATION, f"object {o} not found in {state.activity}")
        if len(objects) > 1 or (not objects and name not in NO_TARGET) or (objects and name == "WAIT"):
            want = "no object" if name == "WAIT" else "at most one object" if name == "RELEASE" else "one object"
            raise ActionError(ErrorType.ARGUMENTS, f"wrong arguments: {','.join(objects)} for action {name} "
                                                   f"(it takes {want})")
        return Action(name, tuple(objects), tuple(objects), raw=raw or to_text(name, objects[0] if objects else None))

    def try_action(self, state: B1KState, action: Action) -> B1KState | Failure:
        kb = activity_kb(state.activity)
        target = str(action.args[0]) if action.args else None
        try:
            return apply(kb, state, action.name, target, ALL_HANDLERS)
        except Failure as f:
            return f

    def legal(self, kb: ActivityKB, state: B1KState, name: str, target: str | None) -> bool:
        """Whether ``name(target)`` would succeed (preconditions only; the rules cannot make it fail). On a probe
        (:meth:`~.state.B1KState.as_probe`, one per state for a whole mask) the handler stops where its effects
        would start."""
        try:
            ALL_HANDLERS[name](kb, state, target)
        except Failure:
            return False
        except Reached:
            return True
        return True

    def execute(self, trajectory: Trajectory[B1KState], action: Action) -> Outcome[B1KState]:
        state = trajectory.state
        out = self.try_action(state, action)
        if isinstance(out, Failure):
            return Outcome(False, state, out.error, out.message, {"origin": origin(action.name)})
        return Outcome(True, out, None, "", {"origin": origin(action.name)})

    def catalogue(self, activity: str) -> list[Action]:
        """Every action over the activity's objects (substances and the agent are never targets)."""
        return [to_action(name, t) for name, t in catalogue_calls(activity)]

    def legal_actions(self, state: B1KState) -> list[Action]:
        kb = activity_kb(state.activity)
        probe = state.as_probe()
        return [a for a in self.catalogue(state.activity)
                if self.legal(kb, probe, a.name, str(a.args[0]) if a.args else None)]

    def satisfied(self, state: B1KState, goal: ActivityGoal) -> list[bool]:
        """Each goal condition's value (``goal.evaluate``), kept from the last call on the same goal: a condition
        is evaluated again only when an atom it reads changed (:class:`KeptConditions`)."""
        kept = self._kept
        if kept is None or kept.goal is not goal:
            kept = self._kept = KeptConditions(goal)
        return kept.evaluate(state.facts)

    def goal_status(self, trajectory: Trajectory[B1KState], goal: ActivityGoal) -> GoalStatus:
        sat = self.satisfied(trajectory.state, goal)
        return GoalStatus(all(sat), {"conditions": (sum(sat), len(sat))},
                          [("condition", t) for t, ok in zip(condition_texts(goal), sat) if not ok])

    def describe(self, state: B1KState) -> str:
        kb = activity_kb(state.activity)
        by_first: dict[str, list[str]] = {}
        for f in sorted(state.facts):
            if f[0] in ("real", "future") or f[1] == kb.agent:
                continue
            by_first.setdefault(f[1], []).append(f[0] if len(f) == 2 else f"{f[0]} {f[2]}")
        lines = []
        for inst in kb.instances:
            if inst == kb.agent:
                continue
            kind = "substance" if inst in kb.substances else "object"
            exists = "exists" if state.real(inst) else "does not exist yet" if state.has("future", inst) else "gone"
            facts = "; ".join(by_first.get(inst, []))
            lines.append(f"{inst} ({kind}, {exists})" + (f": {facts}" if facts else ""))
        return "\n".join(lines)


def to_action(name: str, target: str | None) -> Action:
    args = () if target is None else (target,)
    return Action(name, args, args, raw=to_text(name, target))


def catalogue_calls(activity: str) -> list[tuple[str, str | None]]:
    """The catalogue's entries as ``(action name, target or None)``: every action (in :data:`ACTIONS` order) over
    the activity's objects, in declaration order."""
    kb = activity_kb(activity)
    targets = [i for i in kb.instances if kb.is_object(i)]
    none: list[str | None] = [None]
    return [(name, t) for name in ACTIONS for t in (none if name in NO_TARGET else targets)]


class Catalogue(Sequence[Action]):
    """:meth:`Behavior1KWorld.catalogue` as a sequence whose actions are made when first read (an episode reads a
    few of its hundreds)."""

    def __init__(self, calls: Sequence[tuple[str, str | None]]) -> None:
        self.calls = calls
        self._made: dict[int, Action] = {}

    def __len__(self) -> int:
        return len(self.calls)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.calls)))]
        i = range(len(self.calls))[i]  # (negative indices; IndexError outside)
        made = self._made.get(i)
        if made is None:
            made = self._made[i] = to_action(*self.calls[i])
        return made


class KeptConditions:
    """``goal.evaluate(facts)`` for one goal, facts after facts: a condition is evaluated again only when one of
    the atoms it reads (``CompiledCondition.atoms``: bddl's goal reads nothing else) changed."""

    def __init__(self, goal: ActivityGoal) -> None:
        self.goal = goal
        self.readers: dict[Any, list[int]] = {}
        for p, cond in enumerate(goal.conditions):
            for atom in cond.atoms:
                self.readers.setdefault(atom, []).append(p)
        self.facts: frozenset | None = None
        self.values: list[bool] = []

    def evaluate(self, facts: frozenset) -> list[bool]:
        last = self.facts
        if last is None:
            self.values = self.goal.evaluate(facts)
        elif facts is not last:
            readers, conditions = self.readers, self.goal.conditions
            for p in {p for f in last ^ facts for p in readers.get(f, ())}:
                self.values[p] = conditions[p].holds(facts)
        self.facts = facts
        return list(self.values)


def origin(name: str) -> str:
    return "omnigibson" if name in PRIMITIVES else "added"

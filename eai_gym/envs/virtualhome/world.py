"""The VirtualHome world: parsing, execution with EAI error classification, goals, descriptions."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Iterable, Sequence

from ...core import Action, ActionError, ErrorType, GoalStatus, Outcome, Trajectory, WorldState
from .actions import (
    ARITY,
    MAX_ID_DIGITS,
    REFERENCE_WHITELIST,
    pairs_from_values,
    parse_json_item,
    parse_script_line,
    to_script,
)
from .dynamics import FIXED_RULES, REFERENCE_RULES, Failure, Unsupported
from .executors_use import EXECUTORS, LEGALITY
from .goals import evaluate_goals
from .tasks import CHARACTER_ID, VirtualHomeGoal
from .temporal import held_before

PROTOCOLS = ("fixed", "eai-1.0.5")

_KIND_TO_ERROR = {"missing": ErrorType.MISSING_STEP, "afford": ErrorType.AFFORDANCE,
                  "satisfied": ErrorType.ADDITIONAL_STEP}


def check_protocol(protocol: str) -> str:
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    return protocol


class VirtualHomeWorld:
    """Evolving-graph VirtualHome with the EAI error taxonomy.

    Args:
        protocol: ``"fixed"`` (documented intent) or ``"eai-1.0.5"`` (the reference's behaviour:
            its action whitelist and simulator quirks). The transition model is the same.
        character: id of the acting character.
    """

    name = "virtualhome"

    def __init__(self, protocol: str = "fixed", character: int = CHARACTER_ID) -> None:
        self.protocol = check_protocol(protocol)
        self.reference = protocol == "eai-1.0.5"
        self.rules = REFERENCE_RULES if self.reference else FIXED_RULES
        self.dry_rules = dataclasses.replace(self.rules, dry_run=True)
        self.vocabulary = REFERENCE_WHITELIST if self.reference else frozenset(ARITY)
        self.character = character

    # ------------------------------------------------------------------ parsing
    def parse(self, text: str, state: WorldState, allowed: Iterable[tuple[str, int]] | None = None) -> Action:
        """Parse ``[ACTION] <name> (id) ...`` or ``{"ACTION": [name, id, ...]}`` and resolve the objects.

        Raises ActionError: parsing (bad syntax), hallucination (unknown action, unknown object, or an
        object outside ``allowed``), arguments (wrong number of objects).
        """
        if not isinstance(text, str):
            raise ActionError(ErrorType.PARSING, f"an action must be a string, got {type(text).__name__}")
        stripped = text.strip()
        if stripped.startswith("{"):
            name, values = parse_json_item(stripped)
            pairs = pairs_from_values(name, values)
        else:
            name, pairs = parse_script_line(stripped)
        return self.resolve(name, pairs, state, allowed, raw=text)

    def resolve(self, name: Any, pairs: Sequence[tuple[Any, Any]], state: WorldState,
                allowed: Iterable[tuple[str, int]] | None = None, raw: str = "") -> Action:
        key = str(name).upper()
        if key not in self.vocabulary:
            raise ActionError(ErrorType.HALLUCINATION, f"unknown action {name!r}")
        ids, names = [], []
        allowed_set = None if allowed is None else set(allowed)
        for obj_name, obj_id in pairs:
            oid = _as_id(obj_id)
            obj = state.scene.objects.get(oid) if oid is not None else None
            if obj is None or obj.name != obj_name:
                raise ActionError(ErrorType.HALLUCINATION,
                                  f"no object <{obj_name}> ({obj_id}) in the scene")
            if allowed_set is not None and (obj_name, oid) not in allowed_set:
                raise ActionError(ErrorType.HALLUCINATION,
                                  f"<{obj_name}> ({obj_id}) is not one of the task's objects")
            ids.append(oid)
            names.append(obj_name)
        if len(ids) != ARITY[key]:
            raise ActionError(ErrorType.ARGUMENTS,
                              f"{key} takes {ARITY[key]} object(s), got {len(ids)}")
        return Action(key, tuple(ids), tuple(names), raw=raw if raw else to_script(Action(key, tuple(ids), tuple(names))))

    # ------------------------------------------------------------------ execution
    def try_action(self, state: WorldState, action: Action) -> WorldState | Failure:
        """Run one action's executor: the new state, or the simulator's failure (unclassified)."""
        return EXECUTORS[action.name](state, self.character, action.args, self.rules)

    def try_action_ok(self, state: WorldState, action: Action) -> bool:
        """True if ``action`` would execute in ``state`` (its executor's checks: a dry run, see ``Rules``)."""
        legal = LEGALITY.get(action.name)
        if legal is not None:
            return bool(legal(state, self.character, action.args, self.rules))
        try:
            return isinstance(EXECUTORS[action.name](state, self.character, action.args, self.dry_rules), WorldState)
        except Unsupported:
            return False

    def executes(self, state: WorldState, action: Action) -> bool:
        """True if ``action``'s executor, run in full, gives a new state (what :meth:`try_action_ok` answers
        from its checks alone; the tests compare the two)."""
        try:
            return isinstance(self.try_action(state, action), WorldState)
        except Unsupported:
            return False

    def execute(self, trajectory: Trajectory[WorldState], action: Action) -> Outcome[WorldState]:
        """Try ``action`` in the trajectory's last state and classify a failure.

        A missing precondition that held in an earlier state of the trajectory makes a wrong-order
        error. Where the reference simulator fails without an error code or has no executor, the
        outcome carries ``details["reference_abort"]`` (the reference evaluator aborts there).
        """
        state = trajectory.state
        try:
            res = self.try_action(state, action)
        except Unsupported as e:
            return Outcome(False, state, ErrorType.AFFORDANCE, str(e), {"reference_abort": str(e)})
        if isinstance(res, WorldState):
            return Outcome(True, res)
        details: dict[str, Any] = {}
        if res.preconds:
            details["missing_preconditions"] = [
                {"negated": neg, "fact": list(fact)} for neg, fact in res.preconds]
            if res.connective:
                details["connective"] = res.connective
        if res.kind is None:
            details["reference_abort"] = res.message
            return Outcome(False, state, ErrorType.AFFORDANCE, res.message, details)
        error = _KIND_TO_ERROR[res.kind]
        message = res.message
        if error is ErrorType.MISSING_STEP and held_before(trajectory.distinct_states(), res):
            error = ErrorType.WRONG_ORDER
            message = f"{res.message}; the precondition held in an earlier state (wrong order)"
        return Outcome(False, state, error, message, details)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, state: WorldState, objects: Iterable[int] | None = None) -> list[Action]:
        """Actions that would execute without error, over ``objects`` (default: every object)."""
        ids = sorted(state.scene.objects) if objects is None else sorted(objects)
        out = []
        for name in sorted(self.vocabulary):
            n = ARITY[name]
            combos: list[tuple] = [()] if n == 0 else [(i,) for i in ids] if n == 1 else \
                [(i, j) for i in ids for j in ids if i != j]
            for args in combos:
                a = Action(name, args, tuple(state.scene.objects[i].name for i in args))
                if self.try_action_ok(state, a):
                    out.append(Action(a.name, a.args, a.arg_names, raw=to_script(a)))
        return out

    # ------------------------------------------------------------------ goals and text
    def goal_status(self, trajectory: Trajectory[WorldState], goal: VirtualHomeGoal) -> GoalStatus:
        # (the executed actions are read only for action goals)
        executed = [s.action for s in trajectory.steps if s.ok and s.action is not None] if goal.action_goals else []
        return evaluate_goals(trajectory.state, goal, executed, self.protocol)

    def describe(self, state: WorldState, objects: Iterable[int] | None = None,
                 cache: dict | None = None) -> str:
        """Objects (default: all) with their states and relations to one another, one per line.

        ``cache`` (a dict the caller keeps for one episode, passing the same ``objects`` object every
        time) lets a state derived from the previously described one re-render only what changed.
        """
        if cache is not None and cache.get("objects") is objects and objects is not None:
            if cache["state"] == id(state):
                return cache["text"]
            if cache["state"] == state.parent_id:
                lines, pos, keep, memo = cache["lines"], cache["pos"], cache["keep"], cache["memo"]
                for oid in state.dirty & keep:
                    # (a line is kept with the facts it shows: objects often return to earlier ones)
                    facts = state.facts(oid, _SHOWN)
                    line = memo.get(facts)
                    if line is None:
                        if len(memo) >= 4096:
                            memo.clear()
                        line = memo[facts] = _object_line(state, facts, keep)
                    lines[pos[oid]] = line
                text = "\n".join(lines)
                cache.update(state=id(state), text=text, ref=state)
                return text
        ids = sorted(state.scene.objects) if objects is None else sorted(objects)
        keep = frozenset(ids)
        lines = [_object_line(state, state.facts(oid, _SHOWN), keep) for oid in ids]  # in ``ids`` order
        text = "\n".join(lines)
        if cache is not None:
            cache.clear()
            cache.update(objects=objects, ids=ids, pos={oid: n for n, oid in enumerate(ids)}, keep=keep,
                         state=id(state), lines=lines, text=text, ref=state, memo={})
        return text


_SHOWN = ("INSIDE", "ON", "CLOSE", "FACING", "HOLDS_RH", "HOLDS_LH")


def _object_line(state: WorldState, facts: tuple, keep: frozenset) -> str:
    """The line of the object whose :meth:`~eai_gym.core.WorldState.facts` (over ``_SHOWN``) are ``facts``."""
    oid = facts[0]
    memo = state.scene.memo
    labels = memo.get("labels")
    if labels is None:
        labels = memo["labels"] = {o: f"<{info.name}> ({o})" for o, info in state.scene.objects.items()}
    props = memo.get("props_text")
    if props is None:
        props = memo["props_text"] = {
            o: "; properties: " + ", ".join(sorted(info.properties)) if info.properties else ""
            for o, info in state.scene.objects.items()}
    parts = [f"{labels[oid]} states: {', '.join(sorted(facts[1])) or '-'}{props[oid]}"]
    for rel, t in zip(_SHOWN, facts[2:]):
        if t:
            shown = t & keep
            if shown:
                parts.append(f"{rel} " + ", ".join([labels[x] for x in sorted(shown)]))
    return "; ".join(parts)


def _as_id(value: Any) -> int | None:
    """An object id from an agent: ints, or strings of decimal digits (``"417"``; None: not an id)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        digits = value.strip()  # (object_id's test, inline: this runs for every argument of every action)
        return int(digits) if digits.isdecimal() and len(digits) <= MAX_ID_DIGITS else None
    return None


def action_item_json(action: Action) -> str:
    """The action as one EAI JSON item, e.g. ``{"WALK": ["kitchen", "11"]}``."""
    vals: list[str] = []
    for n, i in zip(action.arg_names, action.args):
        vals += [n, str(i)]
    return json.dumps({action.name: vals})

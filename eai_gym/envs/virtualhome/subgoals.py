"""Subgoals to actions in VirtualHome: candidate action lists per subgoal and the search over them.

As in eai-eval 1.0.5 (``evaluation/subgoal_decomposition``): each primitive subgoal maps to a few
candidate action lists (``ON(tv.426)`` → ``[FIND tv, SWITCHON tv]``; ``CLEAN(x)`` → ``FIND x`` then
``WIPE x`` or ``WASH x``...); a breadth-first search executes every combination, skipping additional
steps and dropping a branch at its first other error; when the subgoals are used up, the task's
temporal-logic goal is checked on the branch's whole trajectory. The best branch is the first
successful one with fewest errors, else (preferring branches that ran to the goal check) the one with
fewest errors and the longest action sequence.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence

from ...core import Action, ErrorType, WorldState
from ...core.branches import choose_branch
from ...logic import tl
from .actions import to_script
from .dynamics import Failure
from .tasks import CHARACTER_ID, class_resources
from .temporal import held_before
from .world import VirtualHomeWorld

ERROR_NAMES = {ErrorType.WRONG_ORDER: "WRONG_TEMPORAL_ORDER", ErrorType.MISSING_STEP: "MISSING_STEP",
               ErrorType.AFFORDANCE: "AFFORDANCE_ERROR", ErrorType.ADDITIONAL_STEP: "ADDITIONAL_STEP"}
_KIND = {"missing": ErrorType.MISSING_STEP, "afford": ErrorType.AFFORDANCE, "satisfied": ErrorType.ADDITIONAL_STEP}
MUST_HOLD = ("DRINK", "EAT", "READ")


class SubgoalCrash(Exception):
    """The reference raises while handling this plan (it then reports the task as NotParseable)."""


@lru_cache(maxsize=1)
def vocabulary() -> dict:
    return class_resources()["vocabulary"]


@lru_cache(maxsize=1)
def _maps() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    v = vocabulary()
    unary: dict[str, list[str]] = {}
    for vh, name in v["vh_states_to_tl"].items():
        unary.setdefault(name, []).append(vh)
    binary: dict[str, list[str]] = {}
    for vh, name in v["vh_relations_to_tl"].items():
        binary.setdefault(name, []).append(vh)
    return unary, binary


def split(arg: str) -> tuple[str, int]:
    name, oid = arg.split(".")
    return name, int(oid)


def _act(name: str, *args: str) -> Action:
    pairs = [split(a) for a in args]
    return Action(name, tuple(i for _, i in pairs), tuple(n for n, _ in pairs))


def _holding(s: WorldState, arg: str, c: int) -> bool:
    _, oid = split(arg)
    return oid in s.targets(c, "HOLDS_RH") or oid in s.targets(c, "HOLDS_LH")


def candidates(sub: Any, s: WorldState, c: int = CHARACTER_ID) -> list[list[Action]]:
    """The candidate action lists for one subgoal, in the reference's order."""
    if not isinstance(sub, tl.Primitive):
        raise SubgoalCrash(f"'{type(sub).__name__}' subgoal has no action translation: {sub}")
    name, args = sub.name, sub.args
    if len(args) in (1, 2):
        for a in args:
            try:
                split(a)
            except ValueError:
                raise SubgoalCrash(f"cannot split {a!r} into a name and an id") from None
    if sub.is_action:
        if name in MUST_HOLD and not _holding(s, args[0], c):
            return [[_act("FIND", args[0]), _act("GRAB", args[0]), _act(name, *args)]]
        if name in ("LOOKAT", "WATCH"):
            return [[_act("FIND", args[0]), _act("TURNTO", args[0]), _act(name, *args)]]
        return [[_act("FIND", a) for a in args] + [_act(name, *args)]]
    if len(args) == 1:
        a = args[0]
        simple = {"CLOSED": "CLOSE", "OPEN": "OPEN", "ON": "SWITCHON", "OFF": "SWITCHOFF",
                  "PLUGGED_IN": "PLUGIN", "PLUGGED_OUT": "PLUGOUT"}
        if name in simple:
            return [[_act("FIND", a), _act(simple[name], a)]]
        if name == "CLEAN":
            return [[_act("FIND", a), _act("WIPE", a)], [_act("FIND", a), _act("WASH", a)]]
        return []
    if len(args) == 2:
        a, b = args
        _, ia = split(a)
        _, ib = split(b)
        if name == "ONTOP":
            if ia == c:
                return [[_act("FIND", b), _act("SIT", b)], [_act("FIND", b), _act("LIE", b)]]
            if ib == c:
                return [[_act("PUTON", a)]]
            grab = [] if _holding(s, a, c) else [_act("FIND", a), _act("GRAB", a)]
            return [grab + [_act("FIND", b), _act("PUTBACK", a, b)]]
        if name == "INSIDE":
            if ia == c:
                return [[_act("WALK", b)]]
            grab = [] if _holding(s, a, c) else [_act("FIND", a), _act("GRAB", a)]
            base = grab + [_act("FIND", b)]
            return [base + [_act("PUTIN", a, b)], base + [_act("POUR", a, b)]]
        if name == "NEXT_TO":
            return [[_act("FIND", b)]] if ia == c else []
        if name == "FACING":
            return [[_act("FIND", b), _act("TURNTO", b)]]
        if name in ("HOLDS_RH", "HOLDS_LH"):
            return [[_act("FIND", b), _act("GRAB", b)]]
    return []


def tl_action(a: Action) -> tl.Primitive:
    """An executed action as the goal formula sees it: ``TYPE(keyboard.415)``."""
    return tl.Primitive(a.name, tuple(f"{n.lower().replace(' ', '_')}.{i}" for n, i in zip(a.arg_names, a.args)), True)


def make_holds(states: Sequence[WorldState]):
    unary, binary = _maps()

    def holds(i: int, p: tl.Primitive) -> bool:
        s = states[i]
        try:
            objs = [split(a) for a in p.args]
        except ValueError:
            return False
        for n, oid in objs:
            o = s.scene.objects.get(oid)
            if o is None or o.name != n:
                return False
        if len(objs) == 1:
            st = s.states(objs[0][1])
            return any(v in st for v in unary.get(p.name, ()))
        if len(objs) == 2:
            return any(s.has_edge(objs[0][1], r, objs[1][1]) for r in binary.get(p.name, ()))
        return False
    return holds


def object_labels(scene: Any) -> tuple[str, ...]:
    """The scene's objects as quantifiers name them (``"tv.426"``), in scene order."""
    return tuple([f"{o.name}.{o.id}" for o in scene.objects.values()])


def goal_holds(goal: Any, states: Sequence[WorldState], actions: Sequence[Action],
               labels: Sequence[str] | None = None) -> bool:
    """Does the goal hold on the trajectory? ``labels``: :func:`object_labels` of the scene, if known."""
    memo = states[0].scene.memo
    objects = memo.get("tl_objects")
    if objects is None:  # the names quantifiers range over, once per scene (a search checks the goal per branch)
        objects = memo["tl_objects"] = object_labels(states[0].scene) if labels is None else tuple(labels)
    t = tl.Trajectory(len(states), [tl_action(a) for a in actions], objects, make_holds(states))
    return tl.holds_on(goal, t)


@dataclass
class Branch:
    actions: list[Action]
    errors: list[dict] = field(default_factory=list)
    reached_goal_check: bool = False
    #: the state after the branch's last successful action
    state: WorldState | None = None


def _classify(res: Failure, history: Sequence[WorldState], reference_crash: bool) -> tuple[str, str]:
    """The error name and message of a failed action. With ``reference_crash``, a missing step that names no missing
    precondition (SIT or LIE on an object with too many things on it, CUT without a knife) crashes: eai-eval's
    subgoal temporal-order check takes the first of the preconditions found (``preconds_found_list[0]``) when
    no connective combines them, and the list is empty. Its action-sequencing copy of that check guards
    against it and reports a missing step, which the fixed protocol does here too."""
    if res.kind is None:
        raise SubgoalCrash(f"AssertionError: Unknown error code None ({res.message})")
    etype = _KIND[res.kind]
    if etype is ErrorType.MISSING_STEP and reference_crash and not res.preconds and res.connective is None:
        raise SubgoalCrash("list index out of range")
    if etype is ErrorType.MISSING_STEP and held_before(history, res):
        etype = ErrorType.WRONG_ORDER
    return ERROR_NAMES[etype], res.message


def search(world: VirtualHomeWorld, start: WorldState, path: Sequence[Any], goal: Any, reference_crash: bool = False,
           labels: Sequence[str] | None = None):
    """Breadth-first over the subgoals' candidate action lists. Returns ``(executable,
    successful branches, failed branches)``, each branch with its actions, errors and last state. ``reference_crash``
    (eai-eval 1.0.5's subgoal evaluator): a missing step that names no missing precondition raises
    :class:`SubgoalCrash` (see :func:`_classify`). ``labels``: the scene's objects as quantifiers name them
    (:func:`object_labels`), if the caller has them."""
    queue = deque([(start, [], list(path), [start], [])])
    feasible: list[Branch] = []
    failed: list[Branch] = []
    executable = False
    while queue:
        state, done, remaining, history, errors = queue.popleft()
        if not remaining:
            executable = True
            if goal_holds(goal, history, done, labels):
                feasible.append(Branch(done, errors, True, state))
            else:
                failed.append(Branch(done, errors + [{"error_type": ["GOAL_FAILED"], "error_info": [
                    "Final goal not satisfied"], "subgoal": None, "action": None}], True, state))
            continue
        sub = remaining[0]
        cands = candidates(sub, state, world.character)
        if not cands:
            queue.append((state, done, remaining[1:], history, errors))
        for cand in cands:
            s, errs, steps, hist, ok = state, list(errors), [], [], True
            for action in cand:
                res = world.try_action(s, action)
                if isinstance(res, WorldState):
                    s = res
                    steps.append(action)
                    hist.append(res)
                    continue
                kind, msg = _classify(res, history + hist, reference_crash)
                errs.append({"error_type": [kind], "error_info": [msg], "subgoal": str(sub),
                             "action": to_script(action)})
                if kind != "ADDITIONAL_STEP":
                    ok = False
                    failed.append(Branch(done + steps, errs, state=s))
                    break
            if ok:
                queue.append((s, done + steps, remaining[1:], history + hist, errs))
    return executable, feasible, failed


def choose(feasible: list[Branch], failed: list[Branch]) -> tuple[Branch | None, bool]:
    """The reported branch and whether it is a success."""
    return choose_branch(feasible, failed, lambda b: len(b.actions))


#: what :func:`_unwrap` and :func:`split_then` look at: parentheses, and the separator
_PAREN = re.compile(r"[()]")
_PAREN_OR_THEN = re.compile(r"[()]| then ")


def _unwrap(formula: str) -> str:
    """Remove parentheses that enclose the whole formula."""
    f = formula.strip()
    while f.startswith("(") and f.endswith(")"):
        depth = 0
        for m in _PAREN.finditer(f):  # (jumping from parenthesis to parenthesis: depth changes only there)
            depth += 1 if m.group() == "(" else -1
            if depth == 0 and m.start() < len(f) - 1:
                return f
        f = f[1:-1].strip()
    return f


def split_then(formula: str) -> list[str]:
    """Split a formula at its top-level `` then `` (outside parentheses)."""
    formula = _unwrap(formula)
    parts, depth, start, pos = [], 0, 0, 0
    search = _PAREN_OR_THEN.search
    while (m := search(formula, pos)) is not None:
        token = m.group()
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth == 0:
            parts.append(formula[start:m.start()])
            start = pos = m.end()
            continue
        pos = m.start() + 1
    parts.append(formula[start:])
    return [p.strip() for p in parts if p.strip()]


def goal_subgoal_plan(task: dict) -> list[str]:
    """A task's goal as a subgoal plan: its ``tl_goal`` split at the top-level ``then`` (the plans
    the reference kit builds from the goals)."""
    return split_then(task["tl_goal"])

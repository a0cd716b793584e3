"""Ground a :class:`~eai_gym.logic.pddl_task.Task`: fluent atoms numbered as bits of a Python int (a state),
actions instantiated over the typed objects with their static conditions decided, quantifiers expanded.

A grounded condition is ``True``, ``False``, or a tuple: ``("and"|"or", parts)`` or ``("lit", bit, positive)``.
Static predicates (no action changes them, and ``=``) are decided while grounding; a fluent atom that no
action adds and the initial state lacks is false throughout.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import product

from .pddl_task import Task

Cond = object  # True | False | tuple


@dataclass
class GroundAction:
    name: str
    pre: Cond
    #: unconditional (add_mask, del_mask), then (condition, add_mask, del_mask) per conditional effect
    add: int
    delete: int
    conditional: list[tuple[Cond, int, int]]


@dataclass
class GroundTask:
    atoms: list[tuple[str, tuple[str, ...]]]
    init: int
    goal: Cond
    actions: list[GroundAction]


def _join(kind: str, parts: list) -> Cond:
    """The ``and``/``or`` of grounded parts, simplified: a part that decides it (False in an and, True in an
    or) is the result, the neutral one is dropped, nested parts of the same kind are flattened."""
    decides = kind == "or"
    out = []
    for p in parts:
        if p is decides:
            return decides
        if p is not (not decides):
            out.extend(p[1] if isinstance(p, tuple) and p[0] == kind else [p])
    return (not decides) if not out else (out[0] if len(out) == 1 else (kind, tuple(out)))


class Grounder:
    def __init__(self, task: Task) -> None:
        self.task = task
        changed = {lit[0] for a in task.actions for _, _, lit in a.effects}
        self.static = {p for p in task.predicates if p not in changed}
        self.init = task.init
        self.bits: dict[tuple[str, tuple[str, ...]], int] = {}
        self.atoms: list[tuple[str, tuple[str, ...]]] = []
        self._objects: dict[str, list[str]] = {}

    def objects(self, type_name: str) -> list[str]:
        if type_name not in self._objects:
            self._objects[type_name] = self.task.objects_of(type_name)
        return self._objects[type_name]

    def bit(self, atom: tuple[str, tuple[str, ...]]) -> int:
        if atom not in self.bits:
            self.bits[atom] = len(self.atoms)
            self.atoms.append(atom)
        return self.bits[atom]

    def condition(self, f: tuple, env: dict[str, str]) -> Cond:
        kind = f[0]
        if kind == "atom":
            args = tuple(env.get(a, a) for a in f[2])
            if f[1] == "=":
                value = args[0] == args[1]
            elif f[1] in self.static:
                value = (f[1], args) in self.init
            else:
                return ("lit", self.bit((f[1], args)), f[3])
            return value == f[3]
        if kind in ("and", "or"):
            parts = []
            for p in f[1]:
                g = self.condition(p, env)
                if g is (kind == "or"):  # short cut: True in an or, False in an and
                    return g
                parts.append(g)
            return _join(kind, parts)
        params, body = f[1], f[2]
        parts = []
        for values in product(*(self.objects(t) for _, t in params)):
            g = self.condition(body, {**env, **{p: v for (p, _), v in zip(params, values)}})
            if g is (kind == "exists"):
                return g
            parts.append(g)
        return _join("and" if kind == "forall" else "or", parts)

    def action(self, act, values: tuple[str, ...]) -> GroundAction | None:
        env = {p: v for (p, _), v in zip(act.params, values)}
        pre = self.condition(act.precondition, env)
        if pre is False:
            return None
        add = delete = 0
        conditional = []
        for params, cond, (pred, args, positive) in act.effects:
            for qvalues in product(*(self.objects(t) for _, t in params)):
                inner = {**env, **{p: v for (p, _), v in zip(params, qvalues)}}
                c = self.condition(cond, inner)
                if c is False:
                    continue
                mask = 1 << self.bit((pred, tuple(inner.get(a, a) for a in args)))
                if c is True:
                    if positive:
                        add |= mask
                    else:
                        delete |= mask
                else:
                    conditional.append((c, mask if positive else 0, 0 if positive else mask))
        label = f"({act.name}{''.join(' ' + v for v in values)})"
        return GroundAction(label, pre, add, delete & ~add, conditional)


def ground(task: Task, deadline: float | None = None) -> GroundTask:
    """Every action instance whose static precondition holds; fluent atoms as bits. Raises TimeoutError
    past ``deadline`` (a ``time.monotonic()`` value)."""
    g = Grounder(task)
    actions = []
    for act in task.actions:
        for values in product(*(g.objects(t) for _, t in act.params)):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError
            ga = g.action(act, values)
            if ga is not None:
                actions.append(ga)
    goal = g.condition(task.goal, {})
    init = 0
    for atom in sorted(task.init):
        if atom[0] not in g.static:
            init |= 1 << g.bit(atom)
    return GroundTask(g.atoms, init, goal, actions)


def holds(c: Cond, state: int) -> bool:
    if c is True or c is False:
        return c
    if c[0] == "lit":
        return bool(state >> c[1] & 1) == c[2]
    if c[0] == "and":
        return all(holds(p, state) for p in c[1])
    return any(holds(p, state) for p in c[1])


def successor(a: GroundAction, state: int) -> int:
    """The state after ``a`` (its conditions read in ``state``; deletes first, then adds)."""
    add, delete = a.add, a.delete
    for c, ad, de in a.conditional:
        if holds(c, state):
            add |= ad
            delete |= de
    return (state & ~delete) | add


def dnf(c: Cond, cap: int = 256) -> list[tuple[int, int]] | None:
    """``c`` as a disjunction of conjunctions ``(positive_mask, negative_mask)``; None past ``cap`` disjuncts."""
    if c is True:
        return [(0, 0)]
    if c is False:
        return []
    if c[0] == "lit":
        return [(1 << c[1], 0)] if c[2] else [(0, 1 << c[1])]
    parts = [dnf(p, cap) for p in c[1]]
    if any(p is None for p in parts):
        return None
    if c[0] == "or":
        out = [d for p in parts for d in p]  # type: ignore[union-attr]
        return out if len(out) <= cap else None
    out = [(0, 0)]
    for p in parts:
        out = [(a | pa, b | pb) for a, b in out for pa, pb in p if not (a | pa) & (b | pb)]  # type: ignore[union-attr]
        if len(out) > cap:
            return None
    return out

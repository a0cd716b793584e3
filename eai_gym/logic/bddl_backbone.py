"""The literals a compiled BDDL goal forces: its backbone over the ground atoms it reads.

:meth:`~eai_gym.logic.bddl_eval.CompiledCondition.necessary_literals` reads them off the syntax (through
``and``/``forall``/``not``). A goal also forces literals through its choices and through the interplay of its
conditions: when every case of an ``exists`` needs a literal, or when one condition's ``imply`` rules out what
another condition needs (``buying_groceries``: milk in the first sack would keep the banana out of every sack, and
another condition needs the banana in a sack, so the milk must not be in the first sack). :func:`forced_literals`
finds them by case analysis: an atom is forced to a value when giving it the other value leaves the conditions
unsatisfiable, decided by a DPLL search over the atoms with three-valued evaluation
(:meth:`~eai_gym.logic.bddl_eval.CompiledCondition.value`).

The analysis is propositional: atoms are independent truth values (no world model), so every forced literal holds
in every state that satisfies the goal. It is bounded: at most ``budget`` evaluations in all; a test that runs out
forces nothing, so the answer is sound but may be short of the whole backbone on large goals.
"""

from __future__ import annotations

from typing import Optional, Sequence

from .bddl_eval import CompiledCondition, Fact

__all__ = ["forced_literals"]

#: evaluations :func:`forced_literals` spends at most, by default
BUDGET = 20_000


def forced_literals(conditions: Sequence[CompiledCondition], budget: int = BUDGET) -> list[tuple[Fact, bool]]:
    """The ``(atom, polarity)`` literals every assignment satisfying all ``conditions`` agrees on (sorted): the
    necessary literals, then each other atom whose one value leaves the conditions unsatisfiable, as far as
    ``budget`` evaluations decide. If the necessary literals already contradict each other or the conditions,
    the goal is unsatisfiable and only the necessary literals are returned."""
    fixed: dict[Fact, bool] = {}
    for cond in conditions:
        for atom, positive in cond.necessary_literals():
            if fixed.setdefault(atom, positive) != positive:
                return sorted({lit for c in conditions for lit in c.necessary_literals()})
    left = [budget]
    if _satisfiable(list(conditions), fixed, left) is not True:
        return sorted(fixed.items())
    for atom in sorted({a for c in conditions for a in c.atoms} - set(fixed)):
        group = _linked(conditions, atom, fixed)
        for value in (True, False):
            verdict = _satisfiable(group, {**fixed, atom: value}, left)
            if verdict is False:
                fixed[atom] = not value
                break
        if left[0] <= 0:
            break
    return sorted(fixed.items())


def _linked(conditions: Sequence[CompiledCondition], atom: Fact, fixed: dict[Fact, bool]) -> list[CompiledCondition]:
    """The conditions that read ``atom``, and those linked to them through atoms ``fixed`` leaves open (the
    others are satisfiable whatever ``atom`` is: they were together with ``fixed``)."""
    group: set[int] = set()
    todo, seen = [atom], {atom}
    while todo:
        a = todo.pop()
        for i, cond in enumerate(conditions):
            if i not in group and a in cond.atoms:
                group.add(i)
                for b in cond.atoms:
                    if b not in fixed and b not in seen:
                        seen.add(b)
                        todo.append(b)
    return [conditions[i] for i in sorted(group)]  # in the goal's order


def _satisfiable(conditions: list[CompiledCondition], assignment: dict[Fact, bool],
                 left: list[int]) -> Optional[bool]:
    """Whether some completion of ``assignment`` satisfies all ``conditions`` (None: out of budget)."""
    stack = [assignment]
    while stack:
        if left[0] <= 0:
            return None
        left[0] -= 1
        a = stack.pop()
        values = [c.value(a) for c in conditions]
        if False in values:
            continue
        if None not in values:
            return True
        open_cond = conditions[values.index(None)]
        atom = next(x for x in open_cond.atoms if x not in a)
        stack.append({**a, atom: False})
        stack.append({**a, atom: True})  # tried first
    return False

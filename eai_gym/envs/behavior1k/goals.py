"""BEHAVIOR-1K goal checking with bddl 3.6.0's semantics: ``check_goal(activity, facts)``.

``facts`` is a closed-world list of ground atoms ``[pred, a]`` / ``[pred, a, b]`` over the activity's declared
instance names (the format of the reference harness, ``reference/harness/behavior1k``): an atom holds iff it is
listed, ``real``/``future`` are ordinary atoms, substances are ordinary arguments and nothing is inferred.
``inroom`` atoms are accepted and ignored (room names are not objects; no goal reads them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from ...logic.bddl import BDDLError
from ...logic.bddl_backbone import forced_literals
from ...logic.bddl_eval import CompiledCondition, Fact, compile_conditions
from .data import activity_record, predicate_arity

__all__ = ["ActivityGoal", "activity_goal", "check_goal", "validate_facts", "goal_forced_literals",
           "joint_goal_literals"]


@dataclass(frozen=True)
class ActivityGoal:
    """An activity's compiled ``:goal``: one condition per top-level conjunct, in file order."""

    activity: str
    declared: frozenset[str]
    conditions: tuple[CompiledCondition, ...]

    def evaluate(self, facts: frozenset[Fact] | set[Fact]) -> list[bool]:
        return [c.holds(facts) for c in self.conditions]


@lru_cache(maxsize=None)
def activity_goal(activity: str) -> ActivityGoal:
    """The compiled goal of ``activity`` (cached); an unknown activity raises ``UnknownTaskError``."""
    rec = activity_record(activity)
    try:
        conds = compile_conditions(rec["goal"], rec["objects"], predicate_arity())
    except BDDLError as err:  # pragma: no cover - every packaged goal compiles (tested)
        raise BDDLError(f"activity {activity!r}: {err}") from None
    declared = frozenset(n for names in rec["objects"].values() for n in names)
    return ActivityGoal(activity, declared, tuple(conds))


@lru_cache(maxsize=None)
def goal_forced_literals(activity: str) -> tuple[tuple[Fact, bool], ...]:
    """The ground literals every state satisfying ``activity``'s goal has (its backbone as far as
    :func:`~eai_gym.logic.bddl_backbone.forced_literals` decides): the necessary literals of its conjuncts, what
    every case of a choice needs, and what the conjuncts force together."""
    return tuple(forced_literals(activity_goal(activity).conditions))


@lru_cache(maxsize=None)
def joint_goal_literals(activity: str) -> tuple[tuple[Fact, bool], ...]:
    """The forced literals that no conjunct forces alone, only the conjuncts together (``buying_groceries``: the
    milk must not be in the first sack, as one conjunct's ``imply`` and another's ``exists`` decide)."""
    alone = {lit for c in activity_goal(activity).conditions for lit in forced_literals([c])}
    return tuple(lit for lit in goal_forced_literals(activity) if lit not in alone)


def validate_facts(activity: str, facts: Iterable[Any]) -> frozenset[Fact]:
    """The facts as a set of tuples; a malformed atom, unknown predicate, wrong arity or undeclared object
    raises ``ValueError`` naming the atom and the activity."""
    goal = activity_goal(activity)
    arity = predicate_arity()
    if isinstance(facts, (str, bytes, dict)) or not isinstance(facts, Iterable):
        raise ValueError(f"facts for {activity!r} must be a list of atoms [pred, arg(, arg)], "
                         f"not {type(facts).__name__}")
    out: set[Fact] = set()
    for atom in facts:
        if not isinstance(atom, (list, tuple)) or not atom or not all(isinstance(x, str) for x in atom):
            raise ValueError(f"malformed atom {atom!r} for {activity!r}: expected [pred, arg(, arg)] of strings")
        pred, args = atom[0], tuple(atom[1:])
        if pred not in arity:
            hint = " (the state is closed-world: leave a false atom out)" if pred == "not" else ""
            raise ValueError(f"unknown predicate {pred!r} in atom {list(atom)!r} for {activity!r}{hint}")
        if len(args) != arity[pred]:
            raise ValueError(f"wrong arity in atom {list(atom)!r} for {activity!r}: {pred!r} takes {arity[pred]}")
        if pred == "inroom":
            continue
        unknown = [a for a in args if a not in goal.declared]
        if unknown:
            raise ValueError(f"undeclared object(s) {unknown} in atom {list(atom)!r} for {activity!r}")
        out.add((pred, *args))
    return frozenset(out)


def check_goal(activity: str, facts: Iterable[Any]) -> dict[str, Any]:
    """bddl 3.6.0's verdict on ``activity``'s goal in the state ``facts``.

    Returns ``{"satisfied": bool, "conditions": [bool, ...]}``, one entry per top-level conjunct of ``:goal``
    in file order. Raises ``UnknownTaskError`` for an unknown activity and ``ValueError`` for a bad atom.
    """
    goal = activity_goal(activity)
    values = goal.evaluate(validate_facts(activity, facts))
    return {"satisfied": all(values), "conditions": values}

"""BEHAVIOR-1K goals as EAI's goal-interpretation module reads goals: flat lists of ground conditions.

EAI's BEHAVIOR gold for goal interpretation is, per top-level conjunct of the activity's ``:goal``, the list of
its options (the alternative sets of ground literals that meet it, bddl's ``flattened_condition_options``
enumerated without bddl's caps); a reply is scored against the option of each conjunct it matches best. Here
the same grounding (:func:`eai_gym.logic.interpretation.interpretation_conditions`) runs on bddl 3.6.0's
goals, so quantifiers map as they did for BEHAVIOR-100:

* ``forall`` — one option listing the body's literals for every instance of the category;
* ``exists`` / ``or`` — one option per instance (disjunct);
* ``forn N`` — one option per choice of N instances (the others unconstrained, as in bddl's options);
* ``forpairs`` / ``fornpairs`` — one option per pairing of the two categories;
* ``not`` — De Morgan over the options; ``imply`` — the negated antecedent's options, then the consequent's.

EAI's conditions carry at most one ``not``, so a double negation (``(imply (not A) B)`` gives ``(not (not A))``
as an option: ``picking_fruit_and_vegetables``, the only activity with one) is written as ``A``; a reply
could not state it otherwise. EAI's BEHAVIOR-100 gold has none.

Quantifiers range over every declared instance of the category, ``future`` ones and substances included (as
bddl's goal evaluator does). A conjunct whose full enumeration would exceed
:data:`eai_gym.logic.interpretation.MAX_EXPANSION` literal slots keeps bddl's capped options instead (6
conjuncts of 5 activities: :func:`capped_conjuncts`). Conditions are EAI's lists: ``["cooked", "x"]``,
``["ontop", "x", "y"]``, ``["not", ["open", "x"]]`` over the activity's instance names.
"""

from __future__ import annotations

from functools import lru_cache

from ...logic.bddl import GoalCondition, GroundLiteral, literal_parts, parse_expression
from ...logic.bddl_eval import tokens_to_text
from ...logic.interpretation import interpretation_conditions
from .data import activity_names, activity_record, predicate_arity

__all__ = ["node_states", "edge_states", "goal_groundings", "gold_conditions", "legal_objects", "capped_conjuncts"]


def _states(arity: int) -> tuple[str, ...]:
    return tuple(sorted(p for p, n in predicate_arity().items() if n == arity))


def node_states() -> tuple[str, ...]:
    """EAI's node goal states here: the unary predicates of bddl 3.6.0's ``domain_omnigibson.bddl``, sorted
    (``broken``, ``cooked``, ..., ``toggled_on``, ``unfolded``)."""
    return _states(1)


def edge_states() -> tuple[str, ...]:
    """EAI's edge goal states here: the domain's binary predicates, sorted (``attached``, ..., ``under``)."""
    return _states(2)


@lru_cache(maxsize=None)
def goal_groundings(activity: str) -> tuple[GoalCondition, ...]:
    """The activity's top-level goal conjuncts, each with all its groundings (unknown activities raise)."""
    rec = activity_record(activity)
    goal = parse_expression(tokens_to_text(["and", *rec["goal"]]))
    return tuple(interpretation_conditions(goal, rec["objects"]))


def condition(literal: GroundLiteral) -> list:
    """A ground literal as an EAI condition (nested negations cancelled in pairs): ``["not", ["open", "x"]]``."""
    negated, pred, args = literal_parts(literal)
    atom = [pred, *args]
    return ["not", atom] if negated else atom


@lru_cache(maxsize=256)
def gold_conditions(activity: str) -> dict[str, list]:
    """The gold in EAI's ``all_conditions.json`` form: ``{"1": [option, ...], "2": ...}`` per top-level conjunct
    in file order, an option being a list of conditions."""
    return {str(i): [[condition(lit) for lit in option] for option in c.options]
            for i, c in enumerate(goal_groundings(activity), 1)}


@lru_cache(maxsize=256)
def legal_objects(activity: str) -> tuple[str, ...]:
    """The instance names declared in the activity's ``:objects`` (the names a condition may use)."""
    return tuple(n for names in activity_record(activity)["objects"].values() for n in names)


def capped_conjuncts() -> dict[str, list[int]]:
    """Activities whose gold keeps bddl's capped options for some conjuncts (0-based conjunct indices)."""
    out: dict[str, list[int]] = {}
    for a in activity_names():
        capped = [i for i, c in enumerate(goal_groundings(a)) if c.truncated]
        if capped:
            out[a] = capped
    return out

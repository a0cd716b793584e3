"""Goal conditions as EAI's goal-interpretation gold lists them: every grounding of each top-level conjunct.

eai-eval 1.0.5 scores BEHAVIOR goal interpretation against per-demo gold conditions
(``goal_interpretation/resources/data/all_conditions.json``, ``goal_conditions``): for each top-level goal
conjunct, the alternative sets of ground literals that meet it — bddl's ``flattened_condition_options``
(``forall``: one literal set over every instance; ``exists``/``or``: one option per instance or disjunct;
``forn``: one per choice of N; ``forpairs``: one per pairing; ``not``: De Morgan; ``imply``: the negated
antecedent's options, then the consequent's) — enumerated in full, without bddl's
``GROUND_GOALS_MAX_OPTIONS``/``MAX_PERMUTATIONS`` caps: ``assembling_gift_baskets`` lists all 24 pairings
of 4 baskets and 4 candles where the capped grounding keeps 10. :func:`interpretation_conditions` does the
same; on the 100 EAI demos it reproduces that gold exactly for 91 (tested in
``tests/reference/test_interpretation_options.py``). A conjunct whose full enumeration would exceed
``max_expansion`` literal slots falls back to bddl's capped grounding and is marked ``truncated``.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .bddl import And, BDDLError, Expr, GoalCondition, compile_goal, goal_conjuncts
from .grounding import GroundingError

#: literal slots one conjunct may take before its grounding falls back to bddl's caps
MAX_EXPANSION = 100_000


def interpretation_conditions(goal: Expr, object_map: Mapping[str, Sequence[str]],
                              max_expansion: int = MAX_EXPANSION) -> list[GoalCondition]:
    """One :class:`GoalCondition` per top-level conjunct of ``goal``: all its groundings (bddl's capped ones,
    ``truncated=True``, where all of them would exceed ``max_expansion`` literal slots).

    Raises :class:`BDDLError` for a goal bddl cannot ground either (unknown name or category).
    """
    out: list[GoalCondition] = []
    for expr in goal_conjuncts(goal):
        single = And((expr,))  # one conjunct, even when it is an ``and`` itself
        try:
            out.extend(compile_goal(single, object_map, max_options=None, max_permutations=None,
                                    max_expansion=max_expansion))
        except (BDDLError, GroundingError):
            capped = compile_goal(single, object_map)
            out.extend(GoalCondition(c.expr, c.terms, c.options, True) for c in capped)
    return out

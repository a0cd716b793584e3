"""Goal languages: lark grammars, typed ASTs and their evaluators (BDDL for BEHAVIOR)."""

from .bddl import (
    BDDLError,
    GoalCondition,
    Problem,
    compile_goal,
    literal_parts,
    parse_expression,
    parse_problem,
)

__all__ = [
    "BDDLError",
    "GoalCondition",
    "Problem",
    "compile_goal",
    "literal_parts",
    "parse_expression",
    "parse_problem",
]

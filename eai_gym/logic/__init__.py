"""Goal languages: lark grammars, typed ASTs and their evaluators (BDDL for BEHAVIOR).

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

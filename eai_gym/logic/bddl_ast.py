"""The typed AST of BDDL problems and goals (what :mod:`eai_gym.logic.bddl`'s parser builds), and the
error it raises. Nodes are frozen dataclasses; ``to_list()`` gives bddl's nested-list form.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeAlias, Union

__all__ = [
    "BDDLError", "Param", "Atom", "And", "Or", "Not", "Imply", "ForAll", "Exists", "ForN", "ForPairs",
    "ForNPairs", "Expr", "Problem", "unparse", "goal_conjuncts",
]


class BDDLError(ValueError):
    """Malformed BDDL, or a goal that cannot be grounded; names the line and column when known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, context: str = ""):
        self.message, self.line, self.column, self.context = message, line, column, context
        where = f"line {line}, column {column}: " if line else ""
        super().__init__(where + message + (f"\n{context}" if context else ""))


# ---------------------------------------------------------------------------------------- AST


@dataclass(frozen=True, slots=True)
class _Node:
    """An AST node; ``line``/``column`` locate its keyword (or predicate name) and are not compared."""

    KEYWORD: ClassVar[str] = ""
    line: int = field(default=0, compare=False, repr=False, kw_only=True)
    column: int = field(default=0, compare=False, repr=False, kw_only=True)

    def to_list(self) -> list[Any]:
        """The nested token lists bddl's ``scan_tokens`` makes of this node."""
        out: list[Any] = [self.KEYWORD] if self.KEYWORD else []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("line", "column"):
                continue
            if isinstance(value, tuple):
                out.extend(v.to_list() if isinstance(v, _Node) else v for v in value)
            else:
                out.append(value.to_list() if isinstance(value, _Node) else [str(value)] if isinstance(value, int)
                           else value)
        return out


@dataclass(frozen=True, slots=True)
class Param(_Node):
    """A typed parameter ``(?x - category)``; ``variable`` keeps its ``?``."""

    variable: str
    category: str

    def to_list(self) -> list[Any]:
        return [self.variable, "-", self.category]


@dataclass(frozen=True, slots=True)
class Atom(_Node):
    """``(predicate arg [arg])``; args are ``?variables`` or object names, as written."""

    predicate: str
    args: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class And(_Node):
    KEYWORD = "and"
    children: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Or(_Node):
    KEYWORD = "or"
    children: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Not(_Node):
    KEYWORD = "not"
    child: Expr


@dataclass(frozen=True, slots=True)
class Imply(_Node):
    KEYWORD = "imply"
    antecedent: Expr
    consequent: Expr


@dataclass(frozen=True, slots=True)
class ForAll(_Node):
    KEYWORD = "forall"
    param: Param
    body: Expr


@dataclass(frozen=True, slots=True)
class Exists(_Node):
    KEYWORD = "exists"
    param: Param
    body: Expr


@dataclass(frozen=True, slots=True)
class ForN(_Node):
    """``(forn (n) (?x - c) body)``: exactly ``n`` objects of ``c`` satisfy ``body``."""

    KEYWORD = "forn"
    n: int
    param: Param
    body: Expr


@dataclass(frozen=True, slots=True)
class ForPairs(_Node):
    """``(forpairs (?x - c1) (?y - c2) body)``: a one-to-one matching satisfies ``body``."""

    KEYWORD = "forpairs"
    first: Param
    second: Param
    body: Expr


@dataclass(frozen=True, slots=True)
class ForNPairs(_Node):
    """``(fornpairs (n) (?x - c1) (?y - c2) body)``: ``n`` disjoint pairs satisfy ``body``."""

    KEYWORD = "fornpairs"
    n: int
    first: Param
    second: Param
    body: Expr


Expr: TypeAlias = Union[Atom, And, Or, Not, Imply, ForAll, Exists, ForN, ForPairs, ForNPairs]


@dataclass(frozen=True)
class Problem:
    """A parsed problem file. ``objects`` maps category -> instances (bddl's ``object_map``)."""

    name: str = "unknown"
    domain: str = ""
    requirements: tuple[str, ...] = ()
    objects: dict[str, list[str]] = field(default_factory=dict)
    init: tuple[Expr, ...] = ()
    goal: Expr | None = None


def unparse(node: Param | Expr) -> str:
    """BDDL text for a node (one line)."""

    def text(x: Any) -> str:
        return "(" + " ".join(text(y) for y in x) + ")" if isinstance(x, list) else str(x)

    return text(node.to_list())


def goal_conjuncts(goal: Expr | None) -> tuple[Expr, ...]:
    """The top-level conjuncts of a goal, one per goal condition (a non-``and`` goal is one)."""
    if goal is None:
        return ()
    return goal.children if isinstance(goal, And) else (goal,)

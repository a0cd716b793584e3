"""BDDL goal evaluation with bddl 3.6.0's semantics, over a closed-world set of ground atoms.

``compile_conditions(conditions, object_map, arity)`` takes goal conditions as bddl's nested token lists
(``Conditions.parsed_goal_conditions``: what :meth:`eai_gym.logic.bddl.Expr.to_list` gives) and returns one
:class:`CompiledCondition` per condition; ``condition.holds(facts)`` evaluates it over a set of atoms
``("ontop", "a", "b")``. The semantics are those of ``bddl.condition_evaluation`` in bddl 3.6.0:

* a quantifier ``(Q (?x - cat) body)`` ranges over the instances declared with exactly ``cat`` (no hypernyms),
  future objects and substances included, in declaration order; a variable is bound by name in a scope that
  starts as the problem's instances, so a variable named like an instance shadows it;
* ``forn (N)`` holds when **exactly** N children hold;
* ``forpairs`` holds when, in the matrix of children over (x in cat1, y in cat2, y != x), at least
  L = min(#rows, #entries of the first row) rows and L column positions contain a true entry (columns are
  positions in the rows, not objects: this is not a matching test); ``fornpairs (N)`` the same with N;
* ``imply`` is ``not a or c``; ``and``/``forall`` of nothing hold, ``or``/``exists`` of nothing do not; ``not``
  reads only its first argument.

A goal bddl cannot compile (unknown predicate, wrong arity, an undeclared term or category, a malformed
quantifier) raises :class:`~eai_gym.logic.bddl.BDDLError` naming the offending tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Any, Callable, Mapping, Optional, Sequence

from .bddl import BDDLError

__all__ = ["Fact", "Facts", "CompiledCondition", "compile_conditions", "evaluate_conditions"]

Fact = tuple[str, ...]
Facts = AbstractSet[Fact]
#: a literal's cost for :meth:`CompiledCondition.cost`: (atom, polarity) -> work; (None, True): a typical literal
Leaf = Callable[[Optional[Fact], bool], float]
#: a partial truth assignment of ground atoms (an atom it does not map is undecided)
Assignment = Mapping[Fact, bool]
_ENTITY = object()  # a scope value: the instance itself (bddl: the simulator object); a str is a binding
_QUANTIFIERS = ("forall", "exists", "forn")


class _Node:
    """A compiled goal node: ``holds`` is bddl's verdict; ``score`` a graded closeness in [0, 1] (1 iff it holds
    for atoms, and/or, not; a search heuristic, not part of bddl)."""

    __slots__ = ()

    def holds(self, f: Facts) -> bool:
        raise NotImplementedError

    def score(self, f: Facts) -> float:
        return 1.0 if self.holds(f) else 0.0

    def cost(self, f: Facts, leaf: Leaf) -> float:
        """An estimate of the work left: ``leaf(atom, polarity)`` for each literal to make true, summed over
        ``and``, the cheapest of ``or``; a search heuristic, not part of bddl."""
        return 0.0 if self.holds(f) else leaf(None, True)

    def value(self, a: Assignment) -> Optional[bool]:
        """Three-valued: the verdict under the partial assignment ``a`` (atom -> truth), None while it depends
        on atoms ``a`` leaves open."""
        raise NotImplementedError


class _Atom(_Node):
    __slots__ = ("key",)

    def __init__(self, key: Fact):
        self.key = key

    def holds(self, f: Facts) -> bool:
        return self.key in f

    def cost(self, f: Facts, leaf: Leaf) -> float:
        return 0.0 if self.key in f else leaf(self.key, True)

    def value(self, a: Assignment) -> Optional[bool]:
        return a.get(self.key)


class _All(_Node):
    __slots__ = ("kids",)

    def __init__(self, kids: list[_Node]):
        self.kids = kids

    def holds(self, f: Facts) -> bool:
        return all([k.holds(f) for k in self.kids])

    def score(self, f: Facts) -> float:
        return sum(k.score(f) for k in self.kids) / len(self.kids) if self.kids else 1.0

    def cost(self, f: Facts, leaf: Leaf) -> float:
        return sum(k.cost(f, leaf) for k in self.kids)

    def value(self, a: Assignment) -> Optional[bool]:
        values = [k.value(a) for k in self.kids]
        return False if False in values else (None if None in values else True)


class _Any(_All):
    __slots__ = ()

    def holds(self, f: Facts) -> bool:
        return any([k.holds(f) for k in self.kids])

    def score(self, f: Facts) -> float:
        return max((k.score(f) for k in self.kids), default=0.0)

    def cost(self, f: Facts, leaf: Leaf) -> float:
        return min((k.cost(f, leaf) for k in self.kids), default=leaf(None, True))

    def value(self, a: Assignment) -> Optional[bool]:
        values = [k.value(a) for k in self.kids]
        return True if True in values else (None if None in values else False)


class _Not(_Node):
    __slots__ = ("kid",)

    def __init__(self, kid: _Node):
        self.kid = kid

    def holds(self, f: Facts) -> bool:
        return not self.kid.holds(f)

    def score(self, f: Facts) -> float:
        return 1.0 - self.kid.score(f) if isinstance(self.kid, _Atom) else float(self.holds(f))

    def cost(self, f: Facts, leaf: Leaf) -> float:
        if isinstance(self.kid, _Atom):
            return leaf(self.kid.key, False) if self.kid.key in f else 0.0
        return super().cost(f, leaf)

    def value(self, a: Assignment) -> Optional[bool]:
        v = self.kid.value(a)
        return None if v is None else not v


class _Imply(_Node):
    __slots__ = ("ante", "cons")

    def __init__(self, ante: _Node, cons: _Node):
        self.ante, self.cons = ante, cons

    def holds(self, f: Facts) -> bool:
        return (not self.ante.holds(f)) or self.cons.holds(f)

    def score(self, f: Facts) -> float:
        return 1.0 if not self.ante.holds(f) else self.cons.score(f)

    def value(self, a: Assignment) -> Optional[bool]:
        ante, cons = self.ante.value(a), self.cons.value(a)
        return True if ante is False or cons is True else (False if ante is True and cons is False else None)


class _Exactly(_All):
    __slots__ = ("n",)

    def __init__(self, kids: list[_Node], n: int):
        super().__init__(kids)
        self.n = n

    def holds(self, f: Facts) -> bool:
        return sum([k.holds(f) for k in self.kids]) == self.n

    def score(self, f: Facts) -> float:
        if not self.kids:
            return float(self.n == 0)
        got = sorted((k.score(f) for k in self.kids), reverse=True)
        want = sum(got[:self.n]) + sum(1.0 - g for g in got[self.n:])
        return want / len(got)

    def cost(self, f: Facts, leaf: Leaf) -> float:
        true = sum(k.holds(f) for k in self.kids)
        if true > self.n:
            return (true - self.n) * leaf(None, True)
        missing = sorted(k.cost(f, leaf) for k in self.kids if not k.holds(f))
        return sum(missing[:self.n - true])

    def value(self, a: Assignment) -> Optional[bool]:
        values = [k.value(a) for k in self.kids]
        true, open_ = values.count(True), values.count(None)
        return False if true > self.n or true + open_ < self.n else (None if open_ else True)


class _Pairs(_Node):
    """bddl's forpairs/fornpairs: ``need`` rows and ``need`` column positions with a true entry."""

    __slots__ = ("rows", "need", "width")

    def __init__(self, rows: list[list[_Node]], need: int):
        self.rows, self.need, self.width = rows, need, len(rows[0]) if rows else 0

    def holds(self, f: Facts) -> bool:
        values = [[k.holds(f) for k in row] for row in self.rows]
        full_rows = sum(1 for row in values if any(row))
        full_cols = sum(1 for j in range(self.width) if any(row[j] for row in values))
        return full_rows >= self.need and full_cols >= self.need

    def score(self, f: Facts) -> float:
        if self.holds(f):
            return 1.0
        values = [[k.holds(f) for k in row] for row in self.rows]
        full_rows = sum(1 for row in values if any(row))
        full_cols = sum(1 for j in range(self.width) if any(row[j] for row in values))
        return 0.5 * (min(full_rows, self.need) + min(full_cols, self.need)) / max(self.need, 1) * 0.99

    def cost(self, f: Facts, leaf: Leaf) -> float:
        if self.holds(f):
            return 0.0
        empty = sorted(min((k.cost(f, leaf) for k in row), default=0.0) for row in self.rows
                       if not any(k.holds(f) for k in row))
        short = self.need - (len(self.rows) - len(empty))
        return sum(empty[:max(short, 1)]) or leaf(None, True)

    def value(self, a: Assignment) -> Optional[bool]:
        values = [[k.value(a) for k in row] for row in self.rows]  # monotone in its entries: bound both ways
        if self._enough([[v is True for v in row] for row in values]):
            return True
        return None if self._enough([[v is not False for v in row] for row in values]) else False

    def _enough(self, values: list[list[bool]]) -> bool:
        full_rows = sum(1 for row in values if any(row))
        full_cols = sum(1 for j in range(self.width) if any(row[j] for row in values))
        return full_rows >= self.need and full_cols >= self.need


@dataclass(frozen=True)
class CompiledCondition:
    """One top-level goal condition, compiled; ``atoms`` are the ground atoms it reads (sorted)."""

    tokens: Any
    atoms: tuple[Fact, ...]
    node: _Node

    def holds(self, facts: Facts) -> bool:
        return self.node.holds(facts)

    def score(self, facts: Facts) -> float:
        """A graded closeness to holding, in [0, 1] (1 iff it holds); for search, not part of bddl."""
        return self.node.score(facts)

    def cost(self, facts: Facts, leaf: Leaf) -> float:
        """The work left to make it hold, from ``leaf``'s per-literal estimates (0 iff it holds); for search."""
        return self.node.cost(facts, leaf)

    def value(self, assignment: Assignment) -> Optional[bool]:
        """Three-valued verdict under a partial assignment of its atoms (None: undecided)."""
        return self.node.value(assignment)

    def necessary_literals(self) -> list[tuple[Fact, bool]]:
        """Ground literals ``(atom, polarity)`` that must hold for the condition to hold: those reached from the
        top through ``and``/``forall``/``not`` only."""
        out: list[tuple[Fact, bool]] = []
        todo: list[tuple[_Node, bool]] = [(self.node, True)]
        while todo:
            node, positive = todo.pop()
            if type(node) is _Atom:
                out.append((node.key, positive))
            elif type(node) is _Not:
                todo.append((node.kid, not positive))
            elif type(node) is _All and positive:
                todo += [(k, True) for k in node.kids]
            elif type(node) is _Any and not positive:
                todo += [(k, False) for k in node.kids]
        return sorted(set(out))


def compile_conditions(conditions: Sequence[Any], object_map: Mapping[str, Sequence[str]],
                       arity: Mapping[str, int]) -> list[CompiledCondition]:
    """Compile goal conditions (nested token lists) against ``object_map`` ({category: [instances]})."""
    scope: dict[str, Any] = {}
    for instances in object_map.values():
        for name in instances:
            scope[name] = _ENTITY
    out = []
    for cond in conditions:
        compiler = _Compiler(object_map, arity)
        node = compiler.compile(cond, scope)
        out.append(CompiledCondition(cond, tuple(sorted(compiler.atoms)), node))
    return out


def evaluate_conditions(conditions: Sequence[CompiledCondition], facts: Facts) -> list[bool]:
    return [c.holds(facts) for c in conditions]


def _text(tokens: Any) -> str:
    return "(" + " ".join(_text(t) for t in tokens) + ")" if isinstance(tokens, list) else str(tokens)


def tokens_to_text(tokens: Any) -> str:
    """BDDL text of nested token lists: ``["not", ["open", "?x"]]`` -> ``(not (open ?x))``."""
    return _text(tokens)


class _Compiler:
    def __init__(self, object_map: Mapping[str, Sequence[str]], arity: Mapping[str, int]):
        self.object_map = object_map
        self.arity = arity
        self.atoms: set[Fact] = set()

    def fail(self, message: str, tokens: Any) -> BDDLError:
        return BDDLError(f"{message} in {_text(tokens)}")

    def compile(self, tokens: Any, scope: dict[str, Any]) -> _Node:
        if not isinstance(tokens, list) or not tokens or not isinstance(tokens[0], str):
            raise self.fail("expected a (predicate ...) or (connective ...) expression", tokens)
        head, body = tokens[0], tokens[1:]
        if head in ("and", "or"):
            kids = [self.compile(b, scope) for b in body]
            return _All(kids) if head == "and" else _Any(kids)
        if head == "not":
            if not body:
                raise self.fail("'not' without an argument", tokens)
            return _Not(self.compile(body[0], scope))
        if head == "imply":
            if len(body) != 2:
                raise self.fail("'imply' needs exactly two arguments", tokens)
            return _Imply(self.compile(body[0], scope), self.compile(body[1], scope))
        if head in _QUANTIFIERS:
            return self.quantifier(head, tokens, scope)
        if head in ("forpairs", "fornpairs"):
            return self.pairs(head, tokens, scope)
        return self.atom(tokens, scope)

    def atom(self, tokens: list[Any], scope: dict[str, Any]) -> _Node:
        pred, args = tokens[0], tokens[1:]
        if pred not in self.arity:
            raise self.fail(f"unknown predicate {pred!r}", tokens)
        if len(args) != self.arity[pred] or not all(isinstance(a, str) for a in args):
            raise self.fail(f"{pred!r} takes {self.arity[pred]} argument(s)", tokens)
        names = []
        for arg in args:
            name = arg.strip("?")
            if name not in scope:
                raise self.fail(f"{arg!r} is neither a declared object nor a bound variable", tokens)
            if isinstance(scope[name], str):
                name = scope[name]
            if scope.get(name) is not _ENTITY:  # bddl would hand a binding string to the predicate and crash
                raise self.fail(f"{arg!r} resolves to {name!r}, which is not an object", tokens)
            names.append(name)
        key: Fact = (pred, *names)
        self.atoms.add(key)
        return _Atom(key)

    def param(self, tokens: Any, whole: Any) -> tuple[str, str]:
        if not (isinstance(tokens, list) and len(tokens) == 3 and tokens[1] == "-"
                and all(isinstance(t, str) for t in tokens)):
            raise self.fail("expected a parameter (?x - category)", whole)
        label, category = tokens[0].strip("?"), tokens[2]
        if category not in self.object_map:
            raise self.fail(f"category {category!r} is not declared in :objects", whole)
        return label, category

    def count(self, tokens: Any, whole: Any) -> int:
        try:
            return int(tokens[0])
        except (TypeError, ValueError, IndexError):
            raise self.fail("expected a count (N)", whole) from None

    def members(self, category: str, scope: dict[str, Any]) -> list[str]:
        declared = self.object_map[category]
        return [name for name in scope if name in declared]

    def quantifier(self, head: str, tokens: list[Any], scope: dict[str, Any]) -> _Node:
        body = tokens[1:]
        if len(body) != (3 if head == "forn" else 2):
            raise self.fail(f"malformed {head!r}", tokens)
        n = self.count(body[0], tokens) if head == "forn" else 0
        label, category = self.param(body[-2], tokens)
        kids = [self.compile(body[-1], {**scope, label: name}) for name in self.members(category, scope)]
        if head == "forall":
            return _All(kids)
        return _Any(kids) if head == "exists" else _Exactly(kids, n)

    def pairs(self, head: str, tokens: list[Any], scope: dict[str, Any]) -> _Node:
        body = tokens[1:]
        if len(body) != (4 if head == "fornpairs" else 3):
            raise self.fail(f"malformed {head!r}", tokens)
        label1, cat1 = self.param(body[-3], tokens)
        label2, cat2 = self.param(body[-2], tokens)
        rows = [[self.compile(body[-1], {**scope, label1: x, label2: y})
                 for y in self.members(cat2, scope) if y != x] for x in self.members(cat1, scope)]
        if len({len(r) for r in rows}) > 1:
            raise self.fail(f"{head!r} over categories that share instances (bddl builds a ragged matrix)", tokens)
        if head == "forpairs":
            if not rows:
                raise self.fail(f"'forpairs' over category {cat1!r} with no instances (bddl indexes an empty "
                                "matrix)", tokens)
            need = min(len(rows), len(rows[0]))
        else:
            need = self.count(body[0], tokens)
            if not rows:
                raise self.fail(f"'fornpairs' over category {cat1!r} with no instances", tokens)
        return _Pairs(rows, need)

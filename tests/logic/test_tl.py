from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.logic import tl, tl_paths

PREDS, ACTS = ["P", "Q", "R", "ON"], ["A", "SLEEP"]


def traj(states, actions, objects=("a", "b", "c")):
    """states: list of sets of 'NAME(args)' strings."""
    return tl.Trajectory(len(states), [tl.Primitive(n, tuple(a), True) for n, a in actions], list(objects),
                         lambda i, p: str(p) in states[i])


def test_precedence_and_vocabulary():
    f = tl.parse("P(a) and Q(b) or R(c) then A(a)", PREDS, ACTS)
    assert isinstance(f, tl.Then) and isinstance(f.parts[0], tl.Or) and isinstance(f.parts[0].parts[0], tl.And)
    assert tl.parse("SLEEP()", PREDS, ACTS) == tl.Primitive("SLEEP", (), True)
    with pytest.raises(tl.TLError) as e:
        tl.parse("FLY(a)", PREDS, ACTS)
    assert e.value.unknown_primitive
    with pytest.raises(tl.TLError) as e:
        tl.parse("P(a", PREDS, ACTS)
    assert not e.value.unknown_primitive
    with pytest.raises(tl.TLError, match="Mixed state and temporal"):
        tl.parse("(P(a) then Q(b)) and R(c)", PREDS, ACTS)


def test_temporal_semantics():
    t = traj([{"P(a)", "Q(b)"}, {"P(b)", "Q(b)"}, {"P(c)"}], [("A", ["a"]), ("A", ["b"])])
    ok = lambda s: tl.holds_on(tl.parse(s, PREDS, ACTS), t)  # noqa: E731
    assert ok("P(a) then P(b)") and not ok("P(b) then P(a)")
    assert ok("P(a) and Q(b) and A(a)")  # one state-action pair satisfies all three
    assert not ok("(P(a) and Q(b)) then A(a)") and ok("(P(a) and Q(b)) then A(b)")
    assert ok("exists x. (A(x))") and ok("forn 2. x. (Q(x) or P(x))") and not ok("forn 3. x. (P(x))")
    assert ok("not P(a)")  # some state where P(a) is false


def test_subgoal_paths():
    f = tl.parse("P(a) then (Q(a) or R(a)) and not (P(b) and Q(b))", PREDS, ACTS)
    paths = tl_paths.subgoal_paths(f)
    assert [[str(x) for x in p] for p in paths] == [
        ["P(a)", "Q(a)", "Not(P(b))"], ["P(a)", "Q(a)", "Not(Q(b))"],
        ["P(a)", "R(a)", "Not(P(b))"], ["P(a)", "R(a)", "Not(Q(b))"],
    ]
    assert len(tl_paths.subgoal_paths(f, lambda xs: xs[0])) == 1
    with pytest.raises(ValueError):
        tl_paths.subgoal_paths(tl.parse("exists x. (P(x))", PREDS, ACTS))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="PQRA(),. abxnotheiswfrl0123", max_size=60))
def test_parser_raises_only_tlerror(text):
    try:
        tl.parse(text, PREDS, ACTS)
    except tl.TLError:
        pass

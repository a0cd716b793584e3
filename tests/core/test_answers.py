"""Kept answers (eai_gym.core.answers), tested on their own with small synthetic questions: an answer is kept until
a fact it read changes, a kept query drops the answers that read it only when its value changes, pinned reads are
ignored, and along random state changes every kept answer equals asking afresh (hypothesis)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.core import ObjectInfo, Scene, WorldState
from eai_gym.core.answers import KeptAnswers, state_query
from eai_gym.core.tracking import ReadTrackingState

N = 5
C = 0  # the character: objects are close to it through CLOSE edges
CALLS: list = []


def close_set(s: WorldState, c: int) -> frozenset:
    CALLS.append(("basis", c))
    return s.targets(c, "CLOSE")


@state_query(bulk=(close_set, lambda c, x: (c,), lambda basis, c, x: x in basis))
def is_close(s: WorldState, c: int, x: int) -> bool:
    return x in s.targets(c, "CLOSE")


@state_query
def lit(s: WorldState, x: int) -> bool:
    CALLS.append(("lit", x))
    return "ON" in s.states(x)


def _scene(n: int = N) -> Scene:
    return Scene([ObjectInfo(i, f"o{i}") for i in range(n)], {1: {"ON"}}, [(C, "CLOSE", 1), (2, "INSIDE", 3)])


def question(x: int):
    """Whether ``x`` is lit and close (through kept queries), or holds something (a raw read)."""
    def fn(view):
        CALLS.append(("answer", x))
        return (lit(view, x) and is_close(view, C, x)) or bool(view.targets(x, "HOLDS"))
    return fn


def fresh(state: WorldState, x: int) -> bool:
    return ("ON" in state.states(x) and x in state.targets(C, "CLOSE")) or bool(state.targets(x, "HOLDS"))


def test_an_answer_is_kept_until_a_fact_it_read_changes():
    s = _scene().initial_state()
    kept = KeptAnswers()
    kept.advance(s)
    CALLS.clear()
    assert [kept.answer(x, question(x)) for x in range(N)] == [False, True, False, False, False]
    assert [kept.answer(x, question(x)) for x in range(N)] == [False, True, False, False, False]
    assert [c for c in CALLS if c[0] == "answer"] == [("answer", x) for x in range(N)]  # asked once each
    t = s.copy()
    t.set_states(3, frozenset({"ON"}))  # lit(3) changes; 3 is not close: its answer stays False
    CALLS.clear()
    kept.advance(t)
    assert kept.changed_queries == [(lit.compute, (3,))] and kept.dropped == [3]
    assert [kept.answer(x, question(x)) for x in range(N)] == [False, True, False, False, False]
    assert [c for c in CALLS if c[0] == "answer"] == [("answer", 3)]
    u = t.copy()
    u.add_edge(4, "HOLDS", 2)  # a raw fact only 4's answer read
    kept.advance(u)
    assert kept.dropped == [4] and kept.changed_queries == []
    assert kept.answer(4, question(4)) is True


def test_a_query_that_keeps_its_value_drops_nothing_and_a_shared_basis_is_computed_once():
    s = _scene().initial_state()
    kept = KeptAnswers()
    kept.advance(s)
    for x in range(N):
        kept.answer(x, question(x))
    t = s.copy()
    t.add_edge(C, "CLOSE", 2)  # the basis (what is close) is read again once, and only is_close(C, 2) changes
    CALLS.clear()
    kept.advance(t)
    assert CALLS == [("basis", C)]
    assert kept.changed_queries == []  # 2 is not lit: its answer never asked whether it is close
    assert kept.dropped == []
    u = t.copy()
    u.set_states(2, frozenset({"ON"}))
    kept.advance(u)
    assert kept.dropped == [2] and kept.answer(2, question(2)) is True
    w = u.copy()
    w.remove_edge(C, "CLOSE", 2)
    kept.advance(w)
    assert kept.changed_queries == [(is_close.compute, (C, 2))] and kept.dropped == [2]
    assert kept.answer(2, question(2)) is False


def test_pinned_reads_do_not_drop_an_answer():
    s = _scene().initial_state()
    kept = KeptAnswers()
    kept.advance(s)
    pin = frozenset({("q", (is_close.compute, (C, 1)))})  # looked up only while 1 is close
    assert kept.answer("pinned", question(1), pin) is True and kept.answer("plain", question(1)) is True
    t = s.copy()
    t.remove_edge(C, "CLOSE", 1)
    kept.advance(t)
    assert kept.dropped == ["plain"] and "pinned" in kept.values


def test_advancing_to_the_same_state_and_to_another_scene():
    s = _scene().initial_state()
    kept = KeptAnswers()
    kept.advance(s)
    kept.answer(1, question(1))
    advances, generation = kept.advances, kept.generation
    kept.advance(s)
    assert kept.dropped == [] and kept.advances == advances + 1 and 1 in kept.values
    kept.advance(_scene().initial_state())  # a new scene: the answers start over
    assert kept.generation == generation + 1 and kept.values == {} and kept.queries == {}
    copy = pickle.loads(pickle.dumps(kept))  # a cache: a copy starts empty
    assert copy.values == {} and copy.state is None and copy.view_type is ReadTrackingState


def test_outside_kept_answers_a_query_is_its_function():
    s = _scene().initial_state()
    CALLS.clear()
    assert lit(s, 1) is True and is_close(s, C, 1) is True and lit.compute(s, 1) is True
    view = ReadTrackingState(s)  # a view that belongs to no kept answers
    assert lit(view, 3) is False and ("s", 3) in view.reads
    with pytest.raises(AssertionError):
        KeptAnswers().view()  # no state yet


# ------------------------------------------------------------------ kept answers equal asking afresh
obj = st.integers(0, N - 1)
change = st.one_of(
    st.tuples(st.just("close"), obj, st.booleans()),
    st.tuples(st.just("lit"), obj, st.booleans()),
    st.tuples(st.just("holds"), obj, obj, st.booleans()),
    st.tuples(st.just("back"), st.integers(0, 100)),  # to an earlier state (not a copy of the last)
)


def _step(states: list[WorldState], c: tuple) -> WorldState:
    if c[0] == "back":
        return states[c[1] % len(states)]
    s = states[-1].copy()
    if c[0] == "close":
        (s.add_edge if c[2] else s.remove_edge)(C, "CLOSE", c[1])
    elif c[0] == "lit":
        s.set_states(c[1], frozenset({"ON"}) if c[2] else frozenset())
    else:
        (s.add_edge if c[3] else s.remove_edge)(c[1], "HOLDS", c[2])
    return s


@settings(max_examples=150, deadline=None)
@given(changes=st.lists(change, max_size=25), asked=st.lists(st.sets(obj), min_size=26, max_size=26))
def test_kept_answers_equal_asking_afresh_along_random_changes(changes, asked):
    """Each state asks some of the questions (the others stay kept or dropped); every answer given equals the
    question asked of the plain state."""
    states = [_scene().initial_state()]
    kept = KeptAnswers()
    for c, xs in zip([None, *changes], asked):
        if c is not None:
            states.append(_step(states, c))
        kept.advance(states[-1])
        for x in sorted(xs):
            assert kept.answer(x, question(x)) == fresh(states[-1], x)
        for qkey, (value,) in kept.queries.items():  # every kept query holds its value in this state
            assert qkey[0](states[-1], *qkey[1]) == value


def _walk_equals_afresh(seed: int = 3, steps: int = 200) -> bool:
    rng = random.Random(seed)
    states = [_scene().initial_state()]
    kept = KeptAnswers()
    for _ in range(steps):
        states.append(_step(states, (rng.choice(["close", "lit", "back"]), rng.randrange(N), rng.random() < 0.5)))
        kept.advance(states[-1])
        if any(kept.answer(x, question(x)) != fresh(states[-1], x) for x in range(N)):
            return False
    return True


def test_the_equality_walk_catches_answers_kept_through_a_change(monkeypatch):
    """Breaking the kept answers (a step drops none of them) makes asking afresh differ."""
    assert _walk_equals_afresh()
    real = KeptAnswers.advance

    def forgetful(self, state):
        before = dict(self.values)
        real(self, state)
        self.values.update(before)

    monkeypatch.setattr(KeptAnswers, "advance", forgetful)
    assert not _walk_equals_afresh()

"""The read tracking the kept answers rest on (eai_gym.core.tracking), tested on its own: every read is recorded,
and the keys two states differ in are exactly the facts whose values differ (hypothesis, against comparing every
fact)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.core import ObjectInfo, Scene, WorldState
from eai_gym.core.tracking import (
    ALL_KEYS,
    ReadTrackingState,
    TrackedDict,
    changed_dict_keys,
    changed_keys,
    compared_keys,
)

N = 5
RELS = ("ON", "CLOSE")
STATES = ("OPEN", "ON", "CLEAN")
OBJS = [ObjectInfo(i, f"o{i}") for i in range(N)]


def test_a_tracked_dict_records_every_key_read_and_every_scan():
    reads: set = set()
    d = TrackedDict({"a": 1, "b": 2}, reads, "d")
    assert d["a"] == 1 and d.get("z") is None and "b" in d and d.pop("b") == 2
    assert reads == {("d", "a"), ("d", "z"), ("d", "b")}
    for scan in (list, len, lambda x: x.keys(), lambda x: x.items(), lambda x: x.values()):
        reads.clear()
        scan(d)
        assert reads == {("d", ALL_KEYS)}
    reads.clear()
    d["c"] = 3  # writes are not recorded
    copy = TrackedDict(d, reads, "d")  # a copy of a tracked dict reads it untracked
    assert reads == set() and d.plain() == {"a": 1, "c": 3} and type(d.plain()) is dict and copy.plain() == d.plain()


def test_changed_dict_keys_names_the_differing_keys_then_all_keys():
    out: list = []
    changed_dict_keys("d", {"a": 1, "b": 2, "x": (1,)}, {"a": 1, "b": 3, "c": 0, "x": (1,)}, out)
    assert set(out) == {("d", "b"), ("d", "c"), ("d", ALL_KEYS)} and out[-1] == ("d", ALL_KEYS)
    out.clear()
    same = {"a": 1}
    changed_dict_keys("d", same, same, out)
    changed_dict_keys("d", {"a": 1}, {"a": 1}, out)
    assert out == []
    changed_dict_keys("d", {"a": 1}, {}, out)
    assert out == [("d", "a"), ("d", ALL_KEYS)]


def _state() -> WorldState:
    return Scene(OBJS, {0: {"OPEN"}, 1: {"ON"}}, [(0, "ON", 1), (2, "CLOSE", 3), (3, "CLOSE", 2)]).initial_state()


def test_a_view_records_each_accessor_and_its_copies_record_into_the_same_set():
    s = _state().copy()
    s.data["k"] = 1
    view = ReadTrackingState(s)
    view.states(0)
    view.targets(0, "ON")
    view.sources(1, "ON")
    view.has_edge(2, "CLOSE", 3)
    assert view.data.get("k") == 1
    assert view.reads == {("s", 0), ("o", (0, "ON")), ("i", (1, "ON")), ("o", (2, "CLOSE")), ("d", "k")}
    new = view.copy()
    new.add_edge(4, "ON", 0)  # an executor building the next state: its reads are the view's
    assert {("o", (4, "ON")), ("i", (0, "ON"))} <= view.reads and not s.has_edge(4, "ON", 0)
    other: set = set()
    view.record_into(other)
    view.states(3)
    view.data.get("q")
    assert other == {("s", 3), ("d", "q")}
    for untracked in (view.edges, view.unary_facts):
        with pytest.raises(TypeError):
            list(untracked())


# ------------------------------------------------------------------ changed keys against every fact
obj = st.integers(0, N - 1)
write = st.one_of(
    st.tuples(st.just("add"), obj, st.sampled_from(RELS), obj),
    st.tuples(st.just("remove"), obj, st.sampled_from(RELS), obj),
    st.tuples(st.just("from"), obj, st.sampled_from(RELS)),
    st.tuples(st.just("to"), obj, st.sampled_from(RELS)),
    st.tuples(st.just("states"), obj, st.frozensets(st.sampled_from(STATES), max_size=2)),
    st.tuples(st.just("data"), st.sampled_from(["k", "m"]), st.integers(0, 2)),
)


def _apply(state: WorldState, w: tuple) -> None:
    kind = w[0]
    if kind == "add":
        state.add_edge(w[1], w[2], w[3])
    elif kind == "remove":
        state.remove_edge(w[1], w[2], w[3])
    elif kind == "from":
        state.remove_edges_from(w[1], w[2])
    elif kind == "to":
        state.remove_edges_to(w[1], w[2])
    elif kind == "states":
        state.set_states(w[1], w[2])
    else:
        state.data[w[1]] = w[2]


def _every_fact(state: WorldState) -> dict:
    """Every read key a view can record (but scans) and its value in ``state``."""
    out: dict = {}
    for x in range(N):
        out[("s", x)] = state.states(x)
        for rel in RELS:
            out[("o", (x, rel))] = state.targets(x, rel)
            out[("i", (x, rel))] = state.sources(x, rel)
    for k in ("k", "m"):
        out[("d", k)] = state.data.get(k, "<missing>")
    return out


def _expected(a: WorldState, b: WorldState) -> set:
    fa, fb = _every_fact(a), _every_fact(b)
    keys = {k for k in fa if fa[k] != fb[k]}
    if any(k[0] == "d" for k in keys):
        keys.add(("d", ALL_KEYS))
    return keys


@settings(max_examples=150, deadline=None)
@given(steps=st.lists(st.lists(write, max_size=4), min_size=1, max_size=6))
def test_changed_keys_are_exactly_the_facts_that_differ(steps):
    """Along copies (the logged keys compared) and between any two states of the scene (every overlay key
    compared), ``changed_keys`` names each differing fact once and no other."""
    states = [_state()]
    for writes in steps:
        nxt = states[-1].copy()
        for w in writes:
            _apply(nxt, w)
        states.append(nxt)
    for a, b in zip(states, states[1:]):
        got = changed_keys(a, b)
        assert len(got) == len(set(got)) and set(got) == _expected(a, b)
    for a in states:
        for b in states:
            assert set(changed_keys(a, b)) == set(compared_keys(a, b)) == _expected(a, b)


def test_changed_keys_refuses_states_of_two_scenes_and_an_unpickled_copy_is_compared_whole():
    a = _state()
    with pytest.raises(ValueError):
        changed_keys(a, _state())
    b = a.copy()
    b.add_edge(1, "ON", 2)
    a2, b2 = pickle.loads(pickle.dumps((a, b)))  # no copy of anything in this process: every key compared
    assert b2.parent_serial is None and not b2.log and a2.scene is b2.scene
    assert set(changed_keys(a2, b2)) == {("o", (1, "ON")), ("i", (2, "ON"))} == _expected(a2, b2)

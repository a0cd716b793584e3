"""The kept mask (eai_gym.core.kept_mask), tested on its own with a small synthetic world: its rules give candidate
groups (entries decided one by one, and entries decided together, some left undecided), pinned answers and entries
decided in bulk from a kept query; along random state changes the kept mask equals the mask built from scratch (hypothesis), and broken
updates are caught."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.core import ObjectInfo, Scene, WorldState
from eai_gym.core import kept_mask as kept_mask_module
from eai_gym.core.answers import KeptAnswers, state_query
from eai_gym.core.kept_mask import Group, KeptMask, KeptMasks, MaskRules, Partial

C = 0  # the character
OBJECTS = (1, 2, 3, 4)


def close_set(s: WorldState, c: int) -> frozenset:
    return s.targets(c, "CLOSE")


@state_query(bulk=(close_set, lambda c, x: (c,), lambda basis, c, x: x in basis))
def is_close(s: WorldState, c: int, x: int) -> bool:
    return x in s.targets(c, "CLOSE")


@state_query
def lit(s: WorldState, x: int) -> bool:
    return "ON" in s.states(x)


def _catalogue() -> list[tuple]:
    """(name, args): WAIT; LOOK, TOGGLE, PICK, DROP, SHOW, MARK on each object; PUT on each ordered pair."""
    cat: list[tuple] = [("WAIT", ())]
    for name in ("LOOK", "TOGGLE", "PICK", "DROP", "SHOW", "MARK"):
        cat += [(name, (x,)) for x in OBJECTS]
    cat += [("PUT", (x, y)) for x in OBJECTS for y in OBJECTS if x != y]
    return cat


CATALOGUE = _catalogue()
INDEX = {entry: i for i, entry in enumerate(CATALOGUE)}


def legal(s: WorldState, name: str, args: tuple) -> bool:
    """The world's rule for one entry, on any state (a plain one, or a read-tracking view)."""
    if name == "WAIT":
        return True
    x = args[0]
    if name in ("LOOK", "SHOW"):
        return lit(s, x)
    if name == "TOGGLE":
        return is_close(s, C, x)
    if name == "PICK":
        return is_close(s, C, x) and not s.targets(C, "HOLDS")
    if name == "DROP":
        return x in s.targets(C, "HOLDS")
    if name == "MARK":  # an open object, with something held whose id is lower and that is in nothing
        return "OPEN" in s.states(x) and any(h < x and not s.targets(h, "INSIDE") for h in s.targets(C, "HOLDS"))
    return x in s.targets(C, "HOLDS") and "OPEN" in s.states(args[1])  # PUT


def from_scratch(state: WorldState, size: int) -> np.ndarray:
    mask = np.zeros(size, dtype=np.int8)
    for i, (name, args) in enumerate(CATALOGUE):
        mask[i] = legal(state, name, args)
    return mask


MARKS = tuple(INDEX[("MARK", (x,))] for x in OBJECTS)


class ToyRules(MaskRules):
    """Candidates: WAIT and LOOK always (one group); TOGGLE and PICK of a close object (pinned: looked up only while
    it is close); DROP of a held object; all PUT of a held object as one answer; all MARK as one answer that knows
    only which objects are open (the others undecided: asked again under the held objects); SHOW in bulk
    (:meth:`finish`)."""

    signature_pins = frozenset({("o", (C, "HOLDS"))})

    def signature(self, state: WorldState) -> tuple:
        return frozenset(state.targets(C, "CLOSE")), frozenset(state.targets(C, "HOLDS"))

    def groups(self, signature: tuple) -> dict:
        close, held = signature
        free = [INDEX[("WAIT", ())]] + [INDEX[("LOOK", (x,))] for x in OBJECTS]
        out = {"free": Group(free, free), "mark": Group([MARKS], [("mark",)])}
        for x in sorted(close):
            entries = [INDEX[("TOGGLE", (x,))], INDEX[("PICK", (x,))]]
            out[("close", x)] = Group(entries, entries, frozenset({("q", (is_close.compute, (C, x)))}))
        for x in sorted(held):
            out[("held", x)] = Group([INDEX[("DROP", (x,))]], [("drop", x)])
            put = tuple(INDEX[("PUT", (x, y))] for y in OBJECTS if y != x)
            out[("put", x)] = Group([put], [("put", x)])
        return out

    def decide(self, key, entries):
        if key == ("mark",):  # (it must not read what is held)
            def stand_in(view):
                undecided = tuple(i for i in entries if "OPEN" in view.states(CATALOGUE[i][1][0]))
                return Partial((), undecided) if undecided else ()
            return stand_in
        if type(entries) is int:
            name, args = CATALOGUE[entries]
            return lambda view: legal(view, name, args)
        return lambda view: tuple(i for i in entries if legal(view, *CATALOGUE[i]))

    def finish(self, kept: KeptMask, state: WorldState, mask: np.ndarray) -> None:
        lit_now = kept.query_array(lit.compute, [(x,) for x in OBJECTS], bool)
        mask[[INDEX[("SHOW", (x,))] for x in OBJECTS]] = lit_now


def _scene() -> Scene:
    return Scene([ObjectInfo(i, f"o{i}") for i in (C, *OBJECTS)], {2: {"ON"}, 3: {"OPEN"}}, [(C, "CLOSE", 1)])


obj = st.sampled_from(OBJECTS)
change = st.one_of(
    st.tuples(st.just("close"), obj, st.booleans()),
    st.tuples(st.just("hold"), obj, st.booleans()),
    st.tuples(st.just("state"), obj, st.sampled_from(["ON", "OPEN"]), st.booleans()),
    st.tuples(st.just("inside"), obj, st.booleans()),
    st.tuples(st.just("back"), st.integers(0, 1000)),  # an earlier state (compared whole, not through the log)
    st.tuples(st.just("scene")),  # a new scene: the kept answers start over
)


def _next(states: list[WorldState], c: tuple) -> WorldState:
    if c[0] == "back":
        return states[c[1] % len(states)]
    if c[0] == "scene":
        return _scene().initial_state()
    s = states[-1].copy()
    if c[0] in ("close", "hold"):
        (s.add_edge if c[2] else s.remove_edge)(C, "CLOSE" if c[0] == "close" else "HOLDS", c[1])
    elif c[0] == "inside":
        (s.add_edge if c[2] else s.remove_edge)(c[1], "INSIDE", C)
    else:
        now = s.states(c[1])
        s.set_states(c[1], now | {c[2]} if c[3] else now - {c[2]})
    return s


def _walk_equals_scratch(changes: list[tuple], kept: KeptMask) -> bool:
    states = [_scene().initial_state()]
    for c in [None, *changes]:
        if c is not None:
            states.append(_next(states, c))
        got = kept.update(states[-1])
        if not np.array_equal(got, from_scratch(states[-1], kept.size)):
            return False
        got[:] = 1  # a fresh array each time: changing it changes nothing kept
    return True


@settings(max_examples=200, deadline=None)
@given(changes=st.lists(change, max_size=40))
def test_a_kept_mask_updated_along_random_changes_equals_the_mask_built_from_scratch(changes):
    assert _walk_equals_scratch(changes, KeptMask(len(CATALOGUE) + 3, ToyRules()))


@settings(max_examples=60, deadline=None)
@given(changes=st.lists(change, max_size=40))
def test_the_same_when_the_groups_of_each_signature_are_forgotten_at_once(changes):
    real = kept_mask_module.MAX_SIGNATURES
    kept_mask_module.MAX_SIGNATURES = 1  # every new signature starts the groups over
    try:
        assert _walk_equals_scratch(changes, KeptMask(len(CATALOGUE), ToyRules()))
    finally:
        kept_mask_module.MAX_SIGNATURES = real


def _random_changes(seed: int, n: int = 300) -> list[tuple]:
    rng = random.Random(seed)
    kinds = ["close", "close", "hold", "state", "state", "inside", "back"]
    out = []
    for _ in range(n):
        kind = rng.choice(kinds)
        if kind == "back":
            out.append(("back", rng.randrange(1000)))
        elif kind == "state":
            out.append(("state", rng.choice(OBJECTS), rng.choice(["ON", "OPEN"]), rng.random() < 0.5))
        else:
            out.append((kind, rng.choice(OBJECTS), rng.random() < 0.5))
    return out


def test_only_the_answers_a_change_dropped_are_decided_again():
    kept = KeptMask(len(CATALOGUE), ToyRules())
    s = _scene().initial_state()
    kept.update(s)
    asked = len(kept.answers.values)
    t = s.copy()
    t.set_states(4, frozenset({"ON"}))  # LOOK(4) and SHOW(4) change; MARK's answer read 4's states too
    real = kept.answers.answer
    again = []  # (but MARK's undecided entries, asked again under each new signature)

    def answer(k, fn, pinned=frozenset()):
        if not (type(k) is tuple and k[0] == ("mark",)):
            again.append(k)
        return real(k, fn, pinned)

    kept.answers.answer = answer
    mask = kept.update(t)
    assert sorted(again, key=str) == [("mark",), INDEX[("LOOK", (4,))]] and len(kept.answers.values) == asked
    assert mask[INDEX[("LOOK", (4,))]] == mask[INDEX[("SHOW", (4,))]] == 1
    u = t.copy()
    u.remove_edge(C, "CLOSE", 1)  # 1's group switches off: its pinned answers are kept ...
    again.clear()
    kept.update(u)
    assert again == [] and INDEX[("TOGGLE", (1,))] in kept.answers.values
    kept.update(t)  # ... and written again when 1 is close again, without deciding them
    assert again == []


def test_broken_updates_are_caught(monkeypatch):
    """The walks find a kept mask that keeps answers a change dropped, a bulk array that misses changed queries,
    undecided entries not asked again for a new signature or after a change."""
    changes = _random_changes(1)
    assert _walk_equals_scratch(changes, KeptMask(len(CATALOGUE), ToyRules()))
    with monkeypatch.context() as m:
        real = KeptAnswers.advance

        def forgetful(self, state):
            real(self, state)
            self.dropped = []

        m.setattr(KeptAnswers, "advance", forgetful)
        assert not _walk_equals_scratch(changes, KeptMask(len(CATALOGUE), ToyRules()))
    with monkeypatch.context() as m:
        real_advance = KeptAnswers.advance

        def unlisted(self, state):
            real_advance(self, state)
            self.changed_queries = []

        m.setattr(KeptAnswers, "advance", unlisted)
        assert not _walk_equals_scratch(changes, KeptMask(len(CATALOGUE), ToyRules()))
    for step in ("_resign", "_redecide_refined"):
        with monkeypatch.context() as m:
            m.setattr(KeptMask, step, lambda self, *args: None)
            assert not _walk_equals_scratch(changes, KeptMask(len(CATALOGUE), ToyRules())), step


def test_a_copy_starts_empty_and_gives_the_same_masks():
    rules = ToyRules()
    kept = KeptMask(len(CATALOGUE), rules)
    s = _scene().initial_state()
    kept.update(s)
    rules.memo["built"] = object()  # a world's memo does not travel
    twin_rules = pickle.loads(pickle.dumps(rules))
    assert twin_rules.memo == {}
    twin = pickle.loads(pickle.dumps((kept, s)))
    assert twin[0].answers.values == {} and twin[0].size == kept.size
    assert np.array_equal(twin[0].update(twin[1]), kept.update(s))


def test_kept_masks_keep_the_least_recently_used_last():
    masks: KeptMasks[str] = KeptMasks(2)
    made = []

    def make(key):
        return lambda: made.append(key) or f"mask {key}"

    assert masks.take("a", make("a")) == "mask a" and masks.take("b", make("b")) == "mask b"
    assert masks.take("a", make("a")) == "mask a" and made == ["a", "b"]  # kept
    masks.take("c", make("c"))  # b, least recently used, goes
    assert len(masks) == 2 and masks.take("b", make("b")) == "mask b" and made == ["a", "b", "c", "b"]


def test_the_rules_a_world_must_give():
    rules = MaskRules()
    for call in (lambda: rules.signature(None), lambda: rules.groups(()), lambda: rules.decide(0, 0)):
        with pytest.raises(NotImplementedError):
            call()
    mask = np.zeros(3, dtype=np.int8)
    rules.finish(KeptMask(3, ToyRules()), None, mask)  # nothing decided in bulk by default
    assert not mask.any()

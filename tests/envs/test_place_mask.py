"""BEHAVIOR's PLACE and TRANSFER mask entries decided for every target of a hand at once
(``envs/behavior/place_mask.py``) equal running every candidate's executor in full, along random legal walks
in both protocols; breaking one verb's condition, or the per-hand array kept between steps, is caught."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401
from eai_gym.envs.behavior import mask as behavior_mask
from eai_gym.envs.behavior import place_mask


def _walk(steps: int, seed: int, **kwargs) -> tuple[int, int]:
    """Compare the env's mask with ``full_legal_mask`` after every step; returns (steps compared, steps at
    which some PLACE/TRANSFER entry was legal)."""
    env = gym.make("eai_gym/Behavior-v0", action_mode="index", **kwargs)
    inner = env.unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    placing = 0
    for n in range(1, steps + 1):
        mask = info["action_mask"]
        assert np.array_equal(mask, inner.full_legal_mask()), (inner.task.id, n)
        placing += any(place_mask.verb_of(inner.actions[i].name) for i in np.flatnonzero(mask))
        legal = np.flatnonzero(mask)
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=seed * 10_000 + n)
    return steps, placing


@pytest.mark.parametrize("kwargs,seed", [({}, 4), ({"protocol": "eai-1.0.5"}, 5),
                                         ({"protocol": "eai-1.0.5", "initial_state": "reference-defaults"}, 6)])
def test_place_entries_equal_the_executors(kwargs, seed):
    steps, placing = _walk(1200, seed, **kwargs)
    assert steps == 1200 and placing > 300


def test_verb_layout_covers_every_hand_entry():
    env = gym.make("eai_gym/Behavior-v0", action_mode="index").unwrapped
    env.reset(seed=0)
    _, per_hand = env._groups
    for hand, (_, needs_hand, _, _, verbs) in per_hand.items():
        listed = sorted(int(i) for idx in verbs.values() for i in idx)
        assert listed == sorted(needs_hand)
        for verb, idx in verbs.items():
            for p, i in enumerate(idx):
                a = env.actions[int(i)]
                assert a.name == f"{hand.split('_')[0].upper()}_{verb}" and a.args == (env.task.initial_state.scene.order[p],)


def _caught(**kwargs) -> bool:
    try:
        _walk(1200, 4, **kwargs)
    except AssertionError:
        return True
    return False


@pytest.mark.parametrize("verb", ["PLACE_INSIDE", "TRANSFER_CONTENTS_INSIDE"])
def test_the_walks_catch_a_verb_that_ignores_closed_targets(monkeypatch, verb):
    real = place_mask.hand_entries

    def careless(state, held, ok, moves_all, closed_targets):
        out = real(state, held, ok, moves_all, closed_targets)
        out[verb] = out[verb] | (ok & closed_targets)  # (into a closed container)
        return out

    monkeypatch.setattr(behavior_mask, "hand_entries", careless)
    assert _caught()


def test_the_walks_catch_a_kept_interactivity_that_ignores_changed_queries(monkeypatch):
    from eai_gym.core.kept_mask import KeptMask

    real = KeptMask.query_array
    first: dict = {}

    def stale(kept, fn, args, test):
        ok = real(kept, fn, args, test)
        return first.setdefault((id(kept), kept.answers.generation), ok.copy()).copy()  # the first step's, whatever
        # the steps since changed

    monkeypatch.setattr(KeptMask, "query_array", stale)
    assert _caught()


def test_grasp_entries_layout_and_a_grasp_check_that_skips_the_other_hand_is_caught(monkeypatch):
    """GRASP with an empty hand is decided for every target at once (one answer per target for either empty
    hand); a check that forgets "already in the other hand" makes the walks differ."""
    env = gym.make("eai_gym/Behavior-v0", action_mode="index").unwrapped
    env.reset(seed=0)
    order = env.task.initial_state.scene.order
    for hand, (grasp, *_rest) in env._groups[1].items():
        assert [env.actions[int(i)].args for i in grasp] == [(t,) for t in order]
        assert {env.actions[int(i)].name for i in grasp} == {f"{hand.split('_')[0].upper()}_GRASP"}
    monkeypatch.setattr(behavior_mask, "grasp_targets", lambda state, ok: place_mask.graspable(state) & ok)
    assert _caught()


def test_the_grasp_targets_equal_the_grasp_check_on_every_object():
    """:func:`place_mask.grasp_targets` on an interactive-everywhere array is GRASP's own check with an empty
    hand, on every object of every task with each object in the other hand."""
    from eai_gym.envs.behavior.executors import grasp_failure
    from eai_gym.envs.behavior.tasks import load_task, task_ids

    for tid in task_ids():
        s0 = load_task(tid).initial_state
        order = s0.scene.order
        for other in (None, *order):
            s = s0.copy()
            s.set_hand("right_hand", other)
            got = place_mask.grasp_targets(s, np.ones(len(order), dtype=bool))
            assert got.tolist() == [grasp_failure(s, t, "left_hand") is None for t in order], (tid, other)

"""BEHAVIOR's kept goal check (``goals.KeptGoalCheck``, what the env's world uses) equals checking every
condition afresh (``goals.check_conditions`` without a memo) after every step of random legal walks, crashes
included; a kept check that overlooks changed edges or nodes is caught by the same walks."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401
from eai_gym.envs.behavior import goals
from eai_gym.envs.behavior.goals import GoalCrash, check_conditions


def _fresh(state, goal, names, protocol):
    try:
        return check_conditions(state, goal, names, protocol)
    except GoalCrash as e:
        return str(e)


def _kept(world, state, goal, names):
    try:
        return world.satisfied(state, goal, names)
    except GoalCrash as e:
        return str(e)


def _walk(steps: int, seed: int, **kwargs) -> tuple[int, int]:
    """Compare after every step; returns (states compared, states where some condition's value changed)."""
    env = gym.make("eai_gym/Behavior-v0", action_mode="index", **kwargs)
    inner = env.unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    changes, last = 0, None
    for n in range(1, steps + 1):
        state, goal = inner.episode.state, inner.task.goal
        names = state.scene.bddl_to_name
        want = _fresh(state, goal, names, inner.world.protocol)
        assert _kept(inner.world, state, goal, names) == want, (inner.task.id, n)
        changes += last is not None and want != last
        last = want
        legal = np.flatnonzero(info["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=seed * 10_000 + n)
            last = None
    return steps, changes


@pytest.mark.parametrize("kwargs,seed", [({}, 0), ({}, 1), ({"protocol": "eai-1.0.5"}, 2),
                                         ({"protocol": "eai-1.0.5", "initial_state": "reference-defaults"}, 3)])
def test_kept_goal_check_equals_checking_afresh(kwargs, seed):
    steps, changes = _walk(1500, seed, **kwargs)
    assert steps == 1500 and changes > 20  # (the walks do change conditions' values)


@pytest.mark.parametrize("overlook", ["edges", "nodes"])
def test_the_walks_catch_a_kept_check_that_overlooks_changes(monkeypatch, overlook):
    real = goals.KeptGoalCheck.check

    def blind(self, s, conditions, names, protocol, memo=None):
        if self._key is not None:
            for i, hit in enumerate(self._kept):  # forget what the kept results read
                if hit is not None:
                    self._kept[i] = (hit[0], {} if overlook == "nodes" else hit[1],
                                     set() if overlook == "edges" else hit[2], {} if overlook == "edges" else hit[3])
        return real(self, s, conditions, names, protocol, memo)

    monkeypatch.setattr(goals.KeptGoalCheck, "check", blind)
    with pytest.raises(AssertionError):
        _walk(1500, 0)


@pytest.mark.parametrize("compare", ["_same_nodes", "_same_edges"])
def test_the_walks_catch_a_kept_check_that_takes_changed_reads_for_the_same(monkeypatch, compare):
    """A condition whose read nodes (edges) the log names is kept only if they are as it read them: taking them
    for unchanged makes the walks differ."""
    monkeypatch.setattr(goals, compare, lambda *args: True)
    with pytest.raises(AssertionError):
        _walk(1500, 0)

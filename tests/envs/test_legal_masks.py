"""Index-mode legal masks equal trying every catalogue entry, along random legal walks (their fast paths
only skip entries whose necessary condition does not hold)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401


def _walk(env_id: str, seed: int, steps: int, brute, protocol: str = "fixed") -> int:
    env = gym.make(env_id, action_mode="index", protocol=protocol, disable_env_checker=True).unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    checked = 0
    for _ in range(steps):
        assert np.array_equal(info["action_mask"], brute(env)), (env.task.id, checked)
        checked += 1
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            obs, info = env.reset(seed=seed + 1000 + checked)
    return checked


def _vh_brute(env) -> np.ndarray:
    state = env.episode.state
    mask = np.zeros(env.action_space.n, dtype=np.int8)
    for i, a in enumerate(env.actions):
        mask[i] = env.world.try_action_ok(state, a)
    return mask


@pytest.mark.parametrize("protocol,seed", [("fixed", s) for s in range(6)] + [("eai-1.0.5", s) for s in range(2)])
def test_virtualhome_mask(protocol, seed):
    assert _walk("eai_gym/VirtualHome-v0", seed, 40, _vh_brute, protocol) == 40


def _behavior_brute(env) -> np.ndarray:
    state, history = env.episode.state, env.episode.trajectory.distinct_states()[:-1]
    mask = np.zeros(env.action_space.n, dtype=np.int8)
    for i, a in enumerate(env.actions):
        new, _, crash = env.world.try_action(state, a, history)
        mask[i] = new is not None and crash is None
    return mask


@pytest.mark.parametrize("protocol,seed", [("fixed", s) for s in range(4)] + [("eai-1.0.5", 9)])
def test_behavior_mask(protocol, seed):
    assert _walk("eai_gym/Behavior-v0", seed, 30, _behavior_brute, protocol) == 30


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
        mask[i] = env.world.executes(state, a)  # (the executor run in full: the mask asks a dry run)
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



def test_the_walks_catch_a_dry_run_that_stops_before_a_check(monkeypatch):
    """The mask asks each executor's dry run (``Rules.dry_run``: stop once the checks pass); one that stops a
    check early (GRAB without the free-hand check) makes the mask differ from the full runs."""
    from eai_gym.envs.virtualhome import executors_use
    from eai_gym.envs.virtualhome.dynamics import inside_closed, is_close

    real = executors_use.EXECUTORS["GRAB"]

    def early(s, c, args, rules):
        if rules.dry_run and is_close(s, c, args[0]) and not inside_closed(s, args[0]):
            return s
        return real(s, c, args, rules)

    monkeypatch.setitem(executors_use.EXECUTORS, "GRAB", early)
    with pytest.raises(AssertionError):
        for seed in range(6):
            _walk("eai_gym/VirtualHome-v0", seed, 40, _vh_brute)

"""The index-mode legal mask equals trying every catalogue entry (its fast path skips only entries whose
skill cannot start)."""

from __future__ import annotations

import numpy as np
import pytest

from eai_gym.envs.rearrange import catalogue as cat
from eai_gym.envs.rearrange import skills
from eai_gym.envs.rearrange.env import parallel_env


def _brute(world, agent, actions):
    mask = np.zeros(cat.MAX_ACTIONS, dtype=np.int8)
    if not world.idle(agent):
        mask[actions.index("Wait[]")] = 1
        return mask
    for i, text in enumerate(actions):
        try:
            skills.start(world, agent, text)
        except skills.SkillFailure:
            continue
        mask[i] = 1
    return mask


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_mask_equals_trying_every_entry(seed):
    env = parallel_env(action_mode="index", max_steps=60)
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    checked = 0
    while env.agents:
        w, acts = env.session.world, env.session.actions
        for a in env.agents:
            assert np.array_equal(infos[a]["action_mask"], _brute(w, a, acts)), (a, w.ticks)
            checked += 1
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
    assert checked > 50


@pytest.mark.parametrize("protocol,seed", [("fixed", 0), ("fixed", 1), ("partnr", 2)])
def test_single_agent_mask_equals_trying_every_entry_on_long_walks(protocol, seed):
    import gymnasium as gym

    import eai_gym  # noqa: F401

    env = gym.make("eai_gym/Rearrange-v0", action_mode="index", protocol=protocol, disable_env_checker=True).unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for n in range(1, 601):
        assert np.array_equal(info["action_mask"], _brute(env.session.world, "agent_0", env.session.actions)), n
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=seed * 1000 + n)

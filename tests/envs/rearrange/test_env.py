"""The rearrange envs pass the PettingZoo and Gymnasium API checks with no warnings, and behave."""

from __future__ import annotations

import pickle
import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import parallel_to_aec

import eai_gym  # noqa: F401 - registers the ids
from eai_gym.envs.rearrange.env import RearrangeEnv, RearrangeParallelEnv, as_text
from eai_gym.envs.rearrange.episode import shipped_episodes
from eai_gym.envs.rearrange.oracle import oracle_scripts


@pytest.mark.parametrize("mode", ["text", "index"])
@pytest.mark.parametrize("obs", ["text", "array"])
def test_parallel_api_no_warnings(mode, obs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(RearrangeParallelEnv(action_mode=mode, observation_mode=obs, max_steps=30), num_cycles=40)


def test_aec_api_no_warnings():
    # PettingZoo 1.27's AEC api_test reads obs.dtype (a str has none) and recommends Box/Discrete
    # spaces, so it runs on array observations; index actions make it warning-free
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(parallel_to_aec(RearrangeParallelEnv(action_mode="index", observation_mode="array", max_steps=30)),
                 num_cycles=40)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(parallel_to_aec(RearrangeParallelEnv(observation_mode="array", max_steps=30)), num_cycles=40)
    assert {str(w.message) for w in caught} <= {
        "Action space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete"}


@pytest.mark.parametrize("mode", ["text", "index"])
def test_gymnasium_check_env(mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("eai_gym/Rearrange-v0", action_mode=mode, disable_env_checker=True).unwrapped)


def test_array_observations_decode_to_the_text():
    env = RearrangeParallelEnv(observation_mode="array")
    obs, _ = env.reset(seed=0)
    text = RearrangeParallelEnv()
    tobs, _ = text.reset(seed=0)
    assert as_text(obs["agent_1"]) == tobs["agent_1"]


def test_registered_ids():
    env = gymnasium.make("eai_gym/Rearrange-v0")
    obs, info = env.reset(seed=0)
    assert obs.startswith("Task: ") and "Furniture:" in obs
    par = pettingzoo.make("parallel", "eai_gym/rearrange-v0")
    obs, infos = par.reset(seed=0)
    assert set(obs) == {"agent_0", "agent_1"} and "the robot" in obs["agent_0"] and "the human" in obs["agent_1"]
    aec = pettingzoo.make("aec", "eai_gym/rearrange-v0")
    aec.reset(seed=0)
    assert aec.agent_selection == "agent_0"


def test_oracle_rollout_through_the_parallel_env():
    ep = next(e for e in shipped_episodes() if e.task_kind == "temporal")
    scripts = oracle_scripts(ep)
    env = RearrangeParallelEnv()
    obs, infos = env.reset(seed=1, options={"episode_id": ep.episode_id})
    queues = {a: list(s) for a, s in scripts.items()}
    total = 0.0
    while env.agents:
        acts = {a: (queues[a].pop(0) if queues[a] else "Done[]") if not infos[a]["busy"] else "Wait[]"
                for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(acts)
        total += rewards["agent_0"]
    assert terms["agent_0"] and infos["agent_0"]["task_state_success"] == 1.0
    assert total == pytest.approx(1.0)
    log = infos["agent_1"]["evaluation_log"]
    assert set(log) >= {"propositions", "constraints", "proposition_satisfied_at", "state_sequence"}


def test_index_mode_masks_and_determinism():
    env = RearrangeParallelEnv(action_mode="index", max_steps=20)
    a = env.reset(seed=3)
    b = env.reset(seed=3)
    assert a[0] == b[0]
    mask = a[1]["agent_0"]["action_mask"]
    assert mask.dtype == np.int8 and mask.sum() > 0
    rng = np.random.default_rng(0)
    for _ in range(5):
        acts = {x: int(rng.choice(np.flatnonzero(infos_mask))) for x, infos_mask in
                ((x, a[1][x]["action_mask"]) for x in env.agents)}
        out = env.step(acts)
        a = (out[0], out[4])
        if not env.agents:
            break
        for x in env.agents:
            step = out[4][x]["step"]
            assert not step or step["error"] != "parsing"


def test_partial_observability_hides_unseen_objects():
    env = RearrangeEnv(observability="partial")
    obs, _ = env.reset(seed=0)
    full = RearrangeEnv()
    fobs, _ = full.reset(seed=0)
    assert len(obs) < len(fobs)


def test_pickle_round_trip():
    env = RearrangeParallelEnv()
    env.reset(seed=2)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.session.world.describe("agent_0") == env.session.world.describe("agent_0")

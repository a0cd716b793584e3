"""The PettingZoo metric wrappers on the multi-agent rearrange env."""

from __future__ import annotations

import json
import warnings

import pytest
from pettingzoo.test import parallel_api_test

from eai_gym.envs.rearrange.env import parallel_env
from eai_gym.envs.rearrange.episode import shipped_episodes
from eai_gym.envs.rearrange.oracle import oracle_scripts
from eai_gym.wrappers import ParallelGoalSuccess, ParallelProgressRate, ParallelPropositionLog, ParallelTrajectoryErrors

WRAPPERS = (ParallelTrajectoryErrors, ParallelPropositionLog, ParallelProgressRate, ParallelGoalSuccess)
KEYS = [w.key for w in WRAPPERS]


def _wrapped(order=WRAPPERS, **kwargs):
    env = parallel_env(**kwargs)
    for w in order:
        env = w(env)
    return env


@pytest.mark.parametrize("mode", ["text", "index"])
def test_parallel_api_test_passes_wrapped(mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(_wrapped(action_mode=mode, max_steps=40), num_cycles=60)


def _play(env, episode):
    scripts = {a: iter(s) for a, s in oracle_scripts(episode).items()}
    obs, infos = env.reset(seed=0, options={"episode_id": episode.episode_id})
    run = [infos]
    while env.agents:
        acts = {a: "Wait[]" if infos[a]["busy"] else next(scripts[a], "Done[]") for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(acts)
        run.append(infos)
    return run


@pytest.mark.parametrize("index", [0, 100, 200, 300])
def test_oracle_episode_metrics(index):
    ep = shipped_episodes("val")[index]
    plain = _play(parallel_env(), ep)
    for order in (WRAPPERS, WRAPPERS[::-1]):
        run = _play(_wrapped(order), ep)
        assert [{a: {k: v for k, v in i.items() if k not in KEYS} for a, i in infos.items()} for infos in run] == plain
        last = run[-1]["agent_1"]
        for k in KEYS:
            json.dumps(last[k]["summary"])
        assert last["goal_success"]["summary"]["success"] is True
        assert last["goal_success"]["summary"]["steps_to_success"] == len(run) - 1
        assert last["progress_rate"]["summary"]["final"] == 1.0
        log = last["proposition_log"]["summary"]
        assert log["total"] == len(log["propositions"]) > 0
        assert all(len(p["history"]) == len(run) for p in log["propositions"])
        errors = last["trajectory_errors"]["summary"]
        assert set(errors["agents"]) == {"agent_0", "agent_1"}
        assert errors["execution_success_rate"] == 1.0 and errors["first_fatal"] is None


def test_failed_actions_are_counted_per_agent():
    env = _wrapped()
    env.reset(seed=0)
    obs, rew, terms, truncs, infos = env.step({"agent_0": "Pick[nothing_here_1]", "agent_1": "Fly[]"})
    e0, e1 = infos["agent_0"]["trajectory_errors"], infos["agent_1"]["trajectory_errors"]
    assert e0["actions"] == 1 and e0["executed"] == 0 and e0["first_fatal"]["error"] == e0["error"]
    assert e1["actions"] == 1 and e1["error"] in ("parsing", "hallucination")


def test_aec_api_test_passes_wrapped():
    from pettingzoo.test import api_test
    from pettingzoo.utils.conversions import parallel_to_aec

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(parallel_to_aec(_wrapped(observation_mode="array", action_mode="index", max_steps=30)), num_cycles=40)

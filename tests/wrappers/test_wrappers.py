"""Every metric wrapper works on every registered env, in any stacking order, across resets, and never
changes what the wrapped env returns."""

from __future__ import annotations

import itertools
import json
import warnings

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401  (registers the ids)
from eai_gym.registration import GYMNASIUM_ENVS
from eai_gym.wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

IDS = sorted(GYMNASIUM_ENVS)
WRAPPERS = (TrajectoryErrors, PropositionLog, ProgressRate, GoalSuccess)
KEYS = [w.key for w in WRAPPERS]
#: a few text actions per env: some that execute, some that fail
TEXT_ACTIONS = ["[WALK] <bedroom> (67)", "nonsense", "LEFT_GRASP(candle_0)", "Navigate[table_1]", "go to fridge 1",
                "look", "Wait[]", "[FIND] <kitchen> (11)"]


def _actions(env: gym.Env, info: dict, rng: np.random.Generator, i: int):
    if isinstance(env.action_space, gym.spaces.Discrete):
        legal = np.flatnonzero(info["action_mask"])
        return int(rng.choice(legal)) if len(legal) and rng.random() < 0.8 else int(rng.integers(env.action_space.n))
    return TEXT_ACTIONS[i % len(TEXT_ACTIONS)]


def _strip(info: dict) -> dict:
    return {k: v for k, v in info.items() if k not in KEYS}


def _same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def _run(env: gym.Env, seed: int, steps: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    obs, info = env.reset(seed=seed)
    out.append((obs, info))
    for i in range(steps):
        obs, r, te, tr, info = env.step(_actions(env, info, rng, i))
        out.append((obs, r, te, tr, info))
        if te or tr:
            obs, info = env.reset(seed=seed + 1 + i)
            out.append((obs, info))
    return out


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("mode", ["text", "index"])
def test_wrappers_add_fresh_info_and_change_nothing(env_id, mode):
    kwargs = {"action_mode": mode}
    plain = _run(gym.make(env_id, max_episode_steps=12, **kwargs), 5, 30)
    for order in (WRAPPERS, WRAPPERS[::-1]):
        env = gym.make(env_id, max_episode_steps=12, **kwargs)
        for w in order:
            env = w(env)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            wrapped = _run(env, 5, 30)
        assert len(wrapped) == len(plain)
        summaries = 0
        for p, w in zip(plain, wrapped):
            assert _same(p[:-1], w[:-1]) and _same(p[-1], _strip(w[-1]))
            for key in KEYS:
                assert key in w[-1]
                json.dumps(w[-1][key])  # JSON-serialisable
                if len(w) == 5 and (w[2] or w[3]):
                    assert "summary" in w[-1][key]
                    summaries += 1
        assert summaries >= 4  # at least one episode ended (truncated at 12 steps) for each wrapper
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_metric_values_do_not_depend_on_order_and_dicts_are_fresh(env_id):
    def values(order):
        env = gym.make(env_id, max_episode_steps=8)
        for w in order:
            env = w(env)
        run = _run(env, 11, 8)
        return [{k: r[-1][k] for k in KEYS} for r in run], run

    base, run = values(WRAPPERS)
    for order in itertools.islice(itertools.permutations(WRAPPERS), 1, 24, 5):
        assert values(order)[0] == base
    ids = [id(r[-1][k]) for r in run for k in KEYS]
    assert len(ids) == len(set(ids))  # a fresh dict every step


@pytest.mark.parametrize("env_id", IDS)
def test_summaries_after_reset_start_over(env_id):
    env = GoalSuccess(TrajectoryErrors(gym.make(env_id, max_episode_steps=3)))
    for _ in range(2):
        obs, info = env.reset(seed=0)
        assert info["trajectory_errors"]["actions"] == 0 and info["goal_success"]["step"] == 0
        for _ in range(3):
            *_, te, tr, info = env.step("nonsense")
        assert tr and info["trajectory_errors"]["summary"]["actions"] == 3
    assert len(env.summaries) == 2 and env.get_wrapper_attr("summaries") is not None


def test_wrapper_needs_an_eai_gym_env():
    with pytest.raises(TypeError, match="goal_propositions"):
        TrajectoryErrors(gym.make("CartPole-v1"))


def test_step_before_reset_is_an_error():
    env = TrajectoryErrors(gym.make("eai_gym/AlfWorld-v0"))
    with pytest.raises(gym.error.ResetNeeded):
        env.step("look")


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_on_the_wrapped_env(env_id):
    from gymnasium.utils.env_checker import check_env

    env = GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(gym.make(env_id, disable_env_checker=True)))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # check_env always recommends checking the raw env when it sees any wrapper; nothing else may warn
        warnings.filterwarnings("ignore", message=".*most likely has a wrapper applied to it")
        check_env(env)
    assert [w["name"] if isinstance(w, dict) else w.name for w in env.spec.additional_wrappers][-1] == "GoalSuccess"

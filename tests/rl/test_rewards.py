"""The rewards every adapter shares (eai_gym.rl.rewards)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym.rl.rewards import REWARDS, EpisodeReward, check_reward, rewards_of

progress_values = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
#: (a shared machine: no deadline, no "too slow" health check)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.lists(progress_values, min_size=1, max_size=40))
def test_dense_rewards_are_never_negative_and_sum_to_the_best_progress_gained(values):
    rewards = rewards_of("progress", [False] * len(values), values)
    assert all(r >= 0 for r in rewards)
    assert math.isclose(sum(rewards), max(values) - values[0], abs_tol=1e-9)


def test_an_episode_that_starts_with_progress_and_loses_it_sums_to_zero_not_below():
    # a plain difference of progress would give 0.2 - 0.5 = -0.3
    assert rewards_of("progress", [False] * 4, [0.5, 0.3, 0.4, 0.2]) == [0.0, 0.0, 0.0]
    assert rewards_of("progress", [False] * 4, [0.5, 0.3, 0.75, 1.0]) == [0.0, 0.25, 0.25]


@SETTINGS
@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_success_pays_once_at_the_first_step_the_goal_holds(flags):
    rewards = rewards_of("success", flags)
    assert sum(rewards) == (1.0 if any(flags[1:]) else 0.0)
    if any(flags[1:]):
        assert rewards.index(1.0) == flags[1:].index(True)


def test_bad_kinds_progress_values_and_order_are_errors():
    assert REWARDS[0] == "success" and check_reward("progress") == "progress"
    with pytest.raises(ValueError, match="reward must be one of success, progress, not 'dense'"):
        EpisodeReward("dense")
    r = EpisodeReward("progress")
    with pytest.raises(RuntimeError, match="before start"):
        r.step(False, 0.1)
    with pytest.raises(ValueError, match="finite number"):
        r.start(False, float("nan"))
    r.start(False, 0.0)
    with pytest.raises(ValueError, match="finite number"):
        r.step(False, None)
    with pytest.raises(ValueError, match="same length"):
        rewards_of("progress", [False, False], [0.0])
    assert not EpisodeReward().needs_progress and EpisodeReward("progress").needs_progress

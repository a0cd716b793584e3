from __future__ import annotations

import json

import numpy as np
import pytest

from eai_gym.envs.behavior.env import BehaviorEnv
from eai_gym.envs.behavior.tasks import load_task, task_ids, task_record

DEMO = "assembling_gift_baskets_0_Beechwood_0_int_0_2021-10-26_12-46-37"


def test_gold_plan_reaches_goal_with_both_syntaxes():
    for fmt in ("item", "call"):
        env = BehaviorEnv(task_id=DEMO)
        env.reset(seed=0)
        term = False
        for a in task_record(DEMO)["gold_plan"]:
            act = json.dumps(a) if fmt == "item" else f"{a['action']}({a['object']})"
            _, r, term, _, info = env.step(act)
            assert info["step"]["ok"], info["step"]
        assert term and r == 1.0 and info["goal"]["success"]


def test_errors_are_steps():
    env = BehaviorEnv(task_id=DEMO)
    env.reset(seed=0)
    cases = {"nonsense": "parsing", "FLY(candle_0)": "hallucination", "LEFT_GRASP(unicorn_0)": "hallucination",
             "LEFT_GRASP(candle_0, candle_1)": "arguments", "LEFT_PLACE_INSIDE(basket_0)": "missing_step",
             "LEFT_RELEASE(candle_0)": "additional_step", "LEFT_GRASP(room_floor_living_room_0)": "affordance"}
    for act, err in cases.items():
        assert env.step(act)[4]["step"]["error"] == err, act


def test_index_mode_mask():
    env = BehaviorEnv(task_id=DEMO, action_mode="index")
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    legal = np.flatnonzero(mask)
    assert len(legal) > 0
    assert env.step(int(legal[0]))[4]["step"]["ok"]


@pytest.mark.parametrize("protocol", ["fixed", "eai-1.0.5"])
def test_navigate_and_burn(protocol):
    env = BehaviorEnv(task_id=DEMO, protocol=protocol)
    env.reset(seed=0)
    step = env.step("NAVIGATE_TO(candle_0)")[4]["step"]
    if protocol == "fixed":
        assert step["ok"]
    else:
        assert not step["ok"] and "unknown_execution_error" in step["details"]


def test_reset_draws_tasks_and_observation_in_space():
    env = BehaviorEnv()
    seen = set()
    for tid in task_ids():
        obs, info = env.reset(options={"task_id": tid})
        assert env.observation_space.contains(obs)
        seen.add(info["task_id"])
    assert len(seen) == 100
    assert BehaviorEnv().reset(seed=3)[1]["task_id"] == BehaviorEnv().reset(seed=3)[1]["task_id"]


def test_bad_options():
    with pytest.raises(ValueError):
        BehaviorEnv(initial_state="sampled")
    with pytest.raises(KeyError):
        BehaviorEnv(task_id="no_such_demo")


def test_initial_state_variants_differ_only_by_calibration():
    tid = "boxing_books_up_for_storage_0_Benevolence_1_int_0_2021-09-10_15-35-47"
    a = load_task(tid, "reference-defaults").initial_state
    b = load_task(tid, "calibrated").initial_state
    assert a.value("carton_66", "Open") is False and b.value("carton_66", "Open") is True

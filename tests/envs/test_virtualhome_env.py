from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401  (registers the environments)
from eai_gym.envs.virtualhome import VirtualHomeEnv, load_task, task_ids


def play(env, actions):
    out = None
    for a in actions:
        out = env.step(a)
    return out


def test_reset_options_and_default_task_draw():
    env = VirtualHomeEnv()
    _, info = env.reset(seed=0, options={"task_id": "27_2"})
    assert info["task_id"] == "27_2"
    drawn = {env.reset(seed=s)[1]["task_id"] for s in range(20)}
    assert len(drawn) > 5 and drawn <= set(task_ids())
    assert env.reset(seed=5)[1]["task_id"] == VirtualHomeEnv().reset(seed=5)[1]["task_id"]


def test_unknown_task_id_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown VirtualHome task id"):
        VirtualHomeEnv().reset(options={"task_id": "nope"})
    with pytest.raises(KeyError, match="unknown VirtualHome task id"):
        VirtualHomeEnv(task_id="nope")


@pytest.mark.parametrize("tid", ["11_1", "27_2", "204_2"])
def test_gold_plan_reaches_goal_with_reward(tid):
    env = VirtualHomeEnv(task_id=tid)
    env.reset(seed=0)
    task = load_task(tid)
    rewards, term = [], False
    for line in task.gold_plan:
        _, r, term, trunc, info = env.step(line)
        rewards.append(r)
        assert info["step"]["ok"], info["step"]
        if term:
            break
    assert term and rewards[-1] == 1.0 and info["goal"]["success"]


def test_json_items_and_script_lines_are_equivalent():
    a, b = VirtualHomeEnv(task_id="11_1"), VirtualHomeEnv(task_id="11_1")
    a.reset(seed=0)
    b.reset(seed=0)
    oa = play(a, ["[WALK] <floor_lamp> (1000)", "[SWITCHON] <floor_lamp> (1000)"])
    ob = play(b, ['{"WALK": ["floor_lamp", "1000"]}', '{"SWITCHON": ["floor_lamp", "1000"]}'])
    assert oa[1:4] == ob[1:4] and oa[1] == 1.0


def test_error_steps_are_recorded_not_raised():
    env = VirtualHomeEnv(task_id="11_1")
    env.reset(seed=0)
    cases = {
        "hello": "parsing",
        "[FLY] <floor_lamp> (1000)": "hallucination",
        "[WALK] <unicorn> (9999)": "hallucination",
        "[WALK] <floor_lamp> (1000) <floor_lamp> (1000)": "arguments",
        "[SWITCHON] <floor_lamp> (1000)": "missing_step",
        "[GRAB] <floor_lamp> (1000)": "affordance",  # affordance is checked before closeness
    }
    for act, err in cases.items():
        _, r, term, trunc, info = env.step(act)
        assert info["step"]["error"] == err, (act, info["step"])
        assert not term and r == 0.0
    env.step("[WALK] <floor_lamp> (1000)")
    assert env.step("[SWITCHON] <floor_lamp> (1000)")[4]["step"]["ok"]
    assert env.step("[SWITCHON] <floor_lamp> (1000)")[4]["step"]["error"] == "additional_step"


def test_terminate_on_error():
    env = VirtualHomeEnv(task_id="11_1", terminate_on_error=True)
    env.reset(seed=0)
    assert env.step("[SWITCHON] <floor_lamp> (1000)")[2] is True


def test_reference_protocol_restricts_vocabulary_and_objects():
    env = VirtualHomeEnv(task_id="11_1", protocol="eai-1.0.5")
    env.reset(seed=0)
    assert env.step("[WALK] <bathroom> (1)")[4]["step"]["error"] == "hallucination"  # not a relevant object
    env.step("[WALK] <floor_lamp> (1000)")
    assert env.step("[PLUGIN] <floor_lamp> (1000)")[4]["step"]["error"] == "hallucination"
    fixed = VirtualHomeEnv(task_id="11_1")
    fixed.reset(seed=0)
    assert fixed.step("[WALK] <bathroom> (1)")[4]["step"]["ok"]


def test_index_mode_mask_and_catalogue():
    env = VirtualHomeEnv(task_id="11_1", action_mode="index")
    _, info = env.reset(seed=0)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    legal = np.flatnonzero(mask)
    assert len(legal) > 0
    for i in legal[:20]:
        probe = VirtualHomeEnv(task_id="11_1", action_mode="index")
        probe.reset(seed=0)
        assert probe.step(int(i))[4]["step"]["ok"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    assert not env.step(illegal)[4]["step"]["ok"]
    _, info2 = env.reset(seed=0)
    assert info2["action_mask"] is not mask


def test_admissible_actions_execute():
    env = VirtualHomeEnv(task_id="27_2", admissible=True)
    _, info = env.reset(seed=0)
    for a in info["admissible_actions"][:30]:
        probe = VirtualHomeEnv(task_id="27_2")
        probe.reset(seed=0)
        assert probe.step(a)[4]["step"]["ok"], a


def test_observations_fit_the_space_for_every_task():
    env = VirtualHomeEnv()
    for tid in task_ids():
        obs, _ = env.reset(options={"task_id": tid})
        assert env.observation_space.contains(obs)


def test_render_ansi_and_step_before_reset():
    env = VirtualHomeEnv(task_id="11_1", render_mode="ansi")
    with pytest.raises(gym.error.ResetNeeded):
        env.step("[WALK] <floor_lamp> (1000)")
    obs, _ = env.reset(seed=0)
    assert env.render() == obs
    with pytest.raises(ValueError):
        VirtualHomeEnv(render_mode="human")


@pytest.mark.parametrize("tid", ["27_2", "688_1", "1003_2"])
def test_incremental_observation_equals_full_render(tid):
    env = VirtualHomeEnv(task_id=tid)
    env.reset(seed=0)
    task = load_task(tid)
    plan = list(task.gold_plan) + ["[WALK] <bathroom> (1)", "bad", task.gold_plan[0]]
    for line in plan:
        obs, *_ = env.step(line)
        full = env.world.describe(env.episode.state, env.objects())
        assert full in obs

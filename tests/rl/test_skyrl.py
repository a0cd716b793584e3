"""SkyRL-gym: every world through skyrl_gym's own register/make, its turn limit, per-step rewards and metrics."""

from __future__ import annotations

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym")

from eai_gym.rl import skyrl as adapter  # noqa: E402  (needs skyrl_gym)

from .conftest import PLAYABLE  # noqa: E402


def test_importing_the_module_registers_every_playable_world():
    from skyrl_gym.envs.registration import registry

    assert adapter.register_envs() == [adapter.env_id(w) for w in PLAYABLE]
    assert all(adapter.env_id(w) in registry for w in PLAYABLE)
    assert adapter.register_envs() == [adapter.env_id(w) for w in PLAYABLE]  # idempotent


@pytest.mark.parametrize("world", PLAYABLE)
def test_a_gold_script_wins_through_make_init_and_step(world, winning_script):
    task, script = winning_script(world)
    env = skyrl_gym.make(adapter.env_id(world), env_config={"reward": "success"},
                         extras={"task": task, "max_turns": len(script) + 5})
    messages, info = env.init([{"role": "system", "content": "s"}, {"role": "user", "content": "instructions"}])
    assert messages[0] == {"role": "system", "content": "s"} and len(messages) == 2
    assert messages[-1]["content"].startswith("instructions\n\nYour task:\n") and info["task"] == task
    rewards = []
    for command in script:
        out = env.step(f"> {command}\n(the rest of the reply is not read)")
        rewards.append(out["reward"])
        assert out["postprocessed_action"] is None and out["metadata"]["task"] == task
        if out["done"]:
            break
        assert out["observations"][0]["role"] == "user"
    assert out["done"] and out["metadata"]["won"] and out["observations"] == []
    assert rewards[-1] == 1.0 and sum(rewards) == 1.0
    metrics = env.get_metrics()
    assert metrics["success"] == 1.0 and metrics["steps"] == len(rewards)
    assert type(env).aggregate_metrics([metrics, {**metrics, "success": 0.0}])["success"] == 0.5
    env.close()


@pytest.mark.parametrize("world", PLAYABLE)
def test_the_env_is_done_at_the_generators_max_turns(world):
    from eai_gym.rl.episode import WorldEpisode

    task = sorted(WorldEpisode(world).task_ids())[0]
    env = skyrl_gym.make(adapter.env_id(world), env_config={"max_steps": 50}, extras={"extra_info": {"task": task},
                                                                                      "max_turns": 2})
    env.init([{"role": "user", "content": "go"}])
    assert env.step("no such action")["done"] is False
    out = env.step("no such action")
    assert out["done"] is True and out["metadata"]["truncated"] is True and out["reward"] == 0.0


def test_the_dense_reward_is_per_step_and_never_negative(winning_script):
    task, script = winning_script("alfworld")
    env = skyrl_gym.make(adapter.env_id("alfworld"), env_config={"reward": "progress", "max_steps": 60},
                         extras={"task": task})
    env.init([{"role": "user", "content": "go"}])
    rewards = [env.step(c)["reward"] for c in script]
    assert all(r >= 0 for r in rewards) and sum(rewards) == pytest.approx(1.0)
    assert sum(r > 0 for r in rewards) > 1  # dense: progress is rewarded before the goal holds


def test_configuration_errors_name_what_is_wrong():
    with pytest.raises(ValueError, match="unknown env_config key.*rewards"):
        skyrl_gym.make(adapter.env_id("alfworld"), env_config={"rewards": "x"}, extras={"task": "0"})
    with pytest.raises(KeyError, match="no 'task'"):
        skyrl_gym.make(adapter.env_id("alfworld"), env_config={}, extras={})
    with pytest.raises(KeyError, match="has no task"):
        skyrl_gym.make(adapter.env_id("alfworld"), env_config={}, extras={"task": "999"}).init([])
    with pytest.raises(KeyError, match="has split"):
        skyrl_gym.make(adapter.env_id("behavior"), env_config={"split": "train"}, extras={"task": "0"})


def test_omegaconf_env_config_is_read():
    omegaconf = pytest.importorskip("omegaconf")
    config = omegaconf.OmegaConf.create({"reward": "progress", "options": {"dialect": "0.3"}, "max_steps": 3})
    env = skyrl_gym.make(adapter.env_id("alfworld"), env_config=config, extras={"task": "0"})
    assert env.episode.reward_kind == "progress" and env.episode.options == {"dialect": "0.3"}
    assert env.max_turns == 3

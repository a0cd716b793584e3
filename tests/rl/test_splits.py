"""Each world's splits (the registry) and the dataset rows built from them (eai_gym.rl.datasets)."""

from __future__ import annotations

import pytest

from eai_gym import registry
from eai_gym.rl.datasets import prompt_text, task_dataset, task_rows

WORLDS = registry.world_names()
NO_TRAIN = [w.name for w in registry.worlds() if all(s.role != "train" for s in w.split_specs)]


@pytest.mark.parametrize("world", WORLDS)
def test_every_split_has_a_role_a_description_and_distinct_task_ids(world):
    spec = registry.world(world)
    names = [s.name for s in spec.split_specs]
    assert len(set(names)) == len(names) and spec.split() is spec.split_specs[0]
    for s in spec.split_specs:
        assert s.role in registry.SPLIT_ROLES and s.description
        ids = registry.load(s.task_ids)() if s.task_ids else registry.load(spec.task_set).ids()
        assert ids and len(set(ids)) == len(ids)
    assert spec.split_specs[0].task_ids is None  # the first split is the task set


@pytest.mark.parametrize("world", NO_TRAIN)
def test_asking_a_world_without_a_train_split_for_training_data_is_an_error(world):
    with pytest.raises(ValueError, match=f"{world} has no train split: its tasks .* are an evaluation set"):
        task_rows(world, "train")
    with pytest.raises(ValueError, match=f"{world} has no train split"):
        task_rows(world, role="train")


@pytest.mark.parametrize("world", [w.name for w in registry.worlds() if w.agent_prompt])
def test_rows_carry_the_task_ids_and_the_agent_prompt_of_evaluate(world):
    spec = registry.world(world)
    prompt = registry.load(spec.agent_prompt)
    rows = task_rows(world, limit=3)
    assert [r["task"] for r in rows] == registry.load(spec.task_set).ids()[:3]
    assert {r["split"] for r in rows} == {spec.split().name} and {r["world"] for r in rows} == {world}
    content = rows[0]["prompt"][0]["content"]
    assert rows[0]["prompt"][0]["role"] == "user" and content == prompt_text(world)
    assert prompt.examples({"team": False}).strip() in content
    assert content.endswith("Act by calling the act tool with one action at a time, written exactly as shown above.")
    assert prompt_text(world, acting="text").endswith("Reply with your next action only, on one line.")


def test_alfworld_splits_are_alfworlds_three():
    spec = registry.world("alfworld")
    assert [(s.name, s.role) for s in spec.split_specs] == [
        ("eval_out_of_distribution", "eval"), ("train", "train"), ("eval_in_distribution", "eval")]
    assert [len(task_rows("alfworld", s)) for s in ("train", "eval_in_distribution", "eval_out_of_distribution")] == \
        [3553, 140, 134]
    assert task_rows("alfworld", role="train", limit=1)[0]["split"] == "train"
    with pytest.raises(ValueError, match="split 'train' is for train, not eval"):
        task_rows("alfworld", "train", role="eval")


@pytest.mark.parametrize("split,n", [("train", 0), ("train", 7), ("eval_in_distribution", 5)])
def test_alfworld_generated_splits_are_the_games_alfworlds_api_serves(split, n):
    game_files = pytest.importorskip("eai_gym.compat.alfworld.game_files")
    import gymnasium as gym

    play = registry.load(registry.world("alfworld").split(split).play)
    env_id, kwargs, options = play(str(n), "fixed")
    env = gym.make(env_id, **kwargs)
    env.reset(seed=0, options=options)
    expected = game_files.load_game(game_files.shipped_path(split, n))
    assert env.unwrapped.engine.game.name == expected.name


def test_bad_split_role_and_limit_are_named():
    with pytest.raises(ValueError, match="has split\\(s\\) eval_out_of_distribution, train, eval_in_distribution, "
                                         "not 'valid'"):
        task_rows("alfworld", "valid")
    with pytest.raises(ValueError, match="role must be one of train, eval"):
        task_rows("alfworld", role="test")
    with pytest.raises(ValueError, match="limit must be"):
        task_rows("alfworld", limit=-1)
    with pytest.raises(registry.RegistryError, match="role must be one of"):
        registry.SplitSpec("x", "dev", "d")


def test_the_dataset_has_the_same_rows_when_datasets_is_installed():
    pytest.importorskip("datasets")
    ds = task_dataset("alfworld", "eval_in_distribution", limit=4)
    assert [dict(r) for r in ds] == task_rows("alfworld", "eval_in_distribution", limit=4)

"""The OpenEnv adapter's splits (every split a world declares) and rewards (``eai_gym.rl.rewards``), in process, for
every registered world; the served ones are checked over ``/ws`` in ``test_openenv_server.py``."""

from __future__ import annotations

import math
import random

import pytest

from eai_gym import registry
from eai_gym.openenv.episode import SPLIT, EpisodeConfig, EpisodeError, WorldEpisode, world_facts
from eai_gym.openenv.gold import GoldPlayer, gold_tasks
from eai_gym.rl.episode import WorldEpisode as RlEpisode
from eai_gym.rl.rewards import REWARDS, rewards_of

from .reference import expert_plan, raw_run, split_ids

WORLDS = registry.world_names()
SPLITS = [(w.name, s.name) for w in registry.worlds() for s in w.split_specs]
ONE_AGENT = [w for w in WORLDS if not world_facts(w).team_env]


def gold_actions(world: str, task: str, reward: str = "success") -> tuple[list, list]:
    """The gold plan's actions and the views they gave through the adapter."""
    ep = WorldEpisode(EpisodeConfig(world))
    view = ep.reset(task=task, reward=reward)
    player, views, actions = GoldPlayer(world, task), [view], []
    while not view.done:
        action = player.next(view)
        if action is None:
            break
        actions.append(action)
        view = ep.step(action)
        views.append(view)
    return actions, views


def random_walk(world: str, task: str, reward: str, steps: int = 30, seed: int = 0) -> tuple[list, list]:
    """A seeded walk over the admissible actions (several agents: each idle agent's), and the views it gave."""
    rng = random.Random(seed)
    ep = WorldEpisode(EpisodeConfig(world))
    view = ep.reset(task=task, reward=reward)
    views, actions = [view], []
    for _ in range(steps):
        if view.done:
            break
        if view.agents is not None:
            action = {a: rng.choice(v.admissible_actions) if v.admissible_actions and not v.busy else None
                      for a, v in view.agents.items()}
        else:
            action = rng.choice(view.admissible_actions) if view.admissible_actions else "look"
        actions.append(action)
        view = ep.step(action)
        views.append(view)
    return actions, views


@pytest.mark.parametrize("world,split", SPLITS)
def test_every_declared_split_is_served_by_id_and_by_index(world, split):
    """Evaluation-only worlds are refused none of their (evaluation) splits; each split's tasks are its entry
    points', and its first and last tasks reset to what the world's own env shows."""
    ids = split_ids(world, split)
    ep = WorldEpisode(EpisodeConfig(world))
    assert ep.tasks(split).ids == tuple(ids)
    for index in (0, len(ids) - 1):
        by_index = ep.reset(split=split, index=index)
        by_id = ep.reset(split=split, task=ids[index])
        assert by_index == by_id
        assert (by_id.split, by_id.task, by_id.step, by_id.reward) == (split, ids[index], 0, None)
        raw = raw_run(world, ids[index], [], split).texts[0]
        assert (by_id.text if by_id.agents is None else {a: v.text for a, v in by_id.agents.items()}) == raw


def test_alfworld_train_games_by_id_and_by_index_are_won_with_their_expert_plan():
    ep = WorldEpisode(EpisodeConfig("alfworld"))
    game = ep.reset(split="train", task="7")
    assert ep.reset(split="train", index=7) == game and game.split == "train"
    assert game.text != ep.reset(task="7").text  # the task set's game "7" is another game
    plan = expert_plan("train", "7")
    raw = raw_run("alfworld", "7", plan, "train")
    for kind in REWARDS:
        views = [ep.reset(split="train", index=7, reward=kind)]
        for command in plan:
            views.append(ep.step(command))
        assert [v.text for v in views] == raw.texts
        last = views[-1]
        assert last.won and last.done and not last.truncated and last.split == "train"
        rewards = [v.reward for v in views[1:]]
        assert rewards == rewards_of(kind, raw.successes, raw.progress if kind == "progress" else None)
        assert math.isclose(sum(rewards), 1.0 if kind == "success" else max(raw.progress) - raw.progress[0])
    with pytest.raises(EpisodeError, match=r"index 3553 is out of range: alfworld split 'train' has tasks 0\.\.3552"):
        ep.reset(split="train", index=3553)
    with pytest.raises(EpisodeError, match="alfworld split 'train' has no task '3553' .3553 tasks"):
        ep.reset(split="train", task="3553")


@pytest.mark.parametrize("world", WORLDS)
def test_eval_still_names_the_task_set(world):
    """``eval``, the one split this server offered before the worlds declared theirs, plays the task set."""
    ep = WorldEpisode(EpisodeConfig(world))
    first = registry.world(world).split().name
    view = ep.reset(split=SPLIT, index=1)
    assert view.split == first and view.task == split_ids(world, first)[1]
    assert ep.reset(index=1) == view


@pytest.mark.parametrize("world", WORLDS)
def test_an_unknown_split_names_every_split_and_its_role(world):
    spec = registry.world(world)
    ep = WorldEpisode(EpisodeConfig(world))
    listed = ", ".join(f"{s.name} \\({s.role}\\)" for s in spec.split_specs)
    with pytest.raises(EpisodeError, match=f"{world} has split\\(s\\) {listed}, not 'valid'"):
        ep.reset(split="valid")
    if all(s.role != "train" for s in spec.split_specs):
        with pytest.raises(EpisodeError, match="no training split: its tasks are for evaluation only"):
            ep.reset(split="train")


@pytest.mark.parametrize("kind", REWARDS)
@pytest.mark.parametrize("world", WORLDS)
def test_the_reward_kinds_over_a_gold_plan_are_eai_gym_rl_rewards(world, kind):
    """success sums to 1 on a won gold plan; progress to the best progress minus the start, never negative; both
    equal ``rewards_of`` over the goal success and progress the world's own env reports for the same actions."""
    task = gold_tasks(world)[0]
    actions, views = gold_actions(world, task, kind)
    raw = raw_run(world, task, actions)
    rewards = [v.reward for v in views[1:]]
    assert [v.won for v in views] == raw.successes and [v.progress for v in views] == raw.progress
    assert rewards == rewards_of(kind, raw.successes, raw.progress if kind == "progress" else None)
    assert views[-1].won and all(r >= 0 for r in rewards)
    if kind == "success":
        assert sum(rewards) == 1.0 and rewards[-1] == 1.0
    else:
        assert math.isclose(sum(rewards), max(raw.progress) - raw.progress[0])


@pytest.mark.parametrize("world", WORLDS)
def test_dense_rewards_of_random_walks_never_sum_below_zero(world):
    for seed, task in enumerate(world_facts(world).ids[:3]):
        actions, views = random_walk(world, task, "progress", seed=seed)
        raw = raw_run(world, task, actions)
        rewards = [v.reward for v in views[1:]]
        assert rewards == rewards_of("progress", raw.successes, raw.progress)
        assert all(r >= 0 for r in rewards)
        assert math.isclose(sum(rewards), max(raw.progress) - raw.progress[0], abs_tol=1e-12)


@pytest.mark.parametrize("world", WORLDS)
def test_the_success_reward_is_the_env_s_own_in_every_one_agent_world(world):
    """What docs/openenv.md says changed: nothing in a world one agent plays (its env's reward is already 1.0 at the
    first step the goal holds, else 0.0); the two-agent world's env reward is the change of ``progress``."""
    task = gold_tasks(world)[0]
    for actions, views in (gold_actions(world, task, "success"), random_walk(world, task, "success")):
        raw = raw_run(world, task, actions)
        if world in ONE_AGENT:
            assert [v.reward for v in views[1:]] == raw.rewards
        else:
            assert raw.rewards == pytest.approx([b - a for a, b in zip(raw.progress, raw.progress[1:])])
    # tasks whose goal holds when they start (VirtualHome and BEHAVIOR-1K have some): paid at the first step
    ep = WorldEpisode(EpisodeConfig(world, admissible=False))
    noop = {} if world_facts(world).team_env else "xyzzy"
    for task in [t for t in world_facts(world).ids if ep.reset(task=t).won]:
        ep.reset(task=task, reward="success")
        first = ep.step(noop)
        assert first.reward == 1.0 and first.won and first.done
        if world in ONE_AGENT:
            assert raw_run(world, task, [noop]).rewards == [1.0]


@pytest.mark.parametrize("world", ONE_AGENT)
def test_openenv_and_the_rl_classes_give_the_same_rewards(world):
    """One definition for every interface: the OpenEnv episode and the RL episode runner (no wrappers) give the
    same per-step rewards and the same episode end for the same actions."""
    task = gold_tasks(world)[0]
    for kind in REWARDS:
        actions, views = gold_actions(world, task, kind)
        rl = RlEpisode(world, reward=kind, max_steps=len(actions))
        rl.reset(task)
        results = [rl.step(a) for a in actions]
        assert [r.reward for r in results] == [v.reward for v in views[1:]]
        assert [(r.done, r.won, r.truncated) for r in results] == [(v.done, v.won, v.truncated) for v in views[1:]]
        assert RlEpisode(world).task_ids() == WorldEpisode(EpisodeConfig(world)).tasks().ids


def test_bad_rewards_are_named():
    ep = WorldEpisode(EpisodeConfig("alfworld"))
    for bad in ("dense", 1, ["success"]):
        with pytest.raises(EpisodeError, match="reward must be one of success, progress, not"):
            ep.reset(reward=bad)
    with pytest.raises(ValueError, match="reward must be one of success, progress, not 'dense'"):
        EpisodeConfig("alfworld", reward="dense")


def test_a_server_s_default_split_and_reward_apply_to_resets_that_name_none():
    ep = WorldEpisode(EpisodeConfig("alfworld", split="train", reward="progress"))
    view = ep.reset()
    assert (view.split, view.task, ep.reward.kind) == ("train", "0", "progress")
    assert ep.reset(seed=3554).task == "1"  # seed mod the split's size
    other = ep.reset(split="eval_in_distribution", reward="success")
    assert (other.split, ep.reward.kind) == ("eval_in_distribution", "success")



def test_the_scripted_gold_model_refuses_observations_of_another_split():
    """ALFWorld's split ids overlap: the gold model (verifiers' bridge test) must not answer a train game with the
    task set's game of the same id."""
    import json

    from eai_gym.openenv.gold import gold_reply

    ep = WorldEpisode(EpisodeConfig("alfworld"))
    task_set_game = ep.reset(task="7")
    message = {"observation": {"world": "alfworld", "split": task_set_game.split, "task": "7", "step": 0}}
    assert gold_reply([{"role": "user", "content": json.dumps(message)}]) == GoldPlayer("alfworld", "7").commands[0]
    message["observation"]["split"] = ep.reset(split="train", task="7").split
    with pytest.raises(ValueError, match="gold plans are known for alfworld's task set .eval_out_of_distribution. "
                                         "only, not for split 'train'"):
        gold_reply([{"role": "user", "content": json.dumps(message)}])

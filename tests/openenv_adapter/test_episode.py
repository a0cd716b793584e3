"""The OpenEnv adapter's episodes (:mod:`eai_gym.openenv.episode`), in process, for every registered world."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym import registry
from eai_gym.openenv.episode import SPLIT, EpisodeConfig, EpisodeError, WorldEpisode, world_facts
from eai_gym.openenv.gold import GoldPlayer, gold_tasks

WORLDS = registry.world_names()


def play_gold(ep: WorldEpisode, task: str):
    view = ep.reset(task=task)
    player = GoldPlayer(ep.config.world, task)
    views = [view]
    while not view.done:
        action = player.next(view)
        if action is None:
            break
        view = ep.step(action)
        views.append(view)
    return views


@pytest.mark.parametrize("world", WORLDS)
def test_constructing_an_episode_builds_no_env(world):
    """OpenEnv's HTTP routes build one per request: the env is built at the first reset, not before."""
    ep = WorldEpisode(EpisodeConfig(world))
    assert ep.env is None and ep.view is None


@pytest.mark.parametrize("world", WORLDS)
def test_gold_plan_wins(world):
    ep = WorldEpisode(EpisodeConfig(world))
    views = play_gold(ep, gold_tasks(world)[0])
    last = views[-1]
    assert last.won and last.done and not last.truncated
    assert last.progress == 1.0
    assert [v.step for v in views] == list(range(len(views)))
    assert views[0].reward is None and all(v.reward is not None for v in views[1:])


@pytest.mark.parametrize("world", WORLDS)
def test_step_limit_truncates(world):
    ep = WorldEpisode(EpisodeConfig(world, max_steps=2))
    noop = {} if world_facts(world).team_env else "xyzzy"
    ep.reset(seed=0)
    first = ep.step(noop)
    second = ep.step(noop)
    assert not first.done and second.done and second.truncated and not second.won and second.step == 2
    with pytest.raises(EpisodeError, match="over .truncated."):
        ep.step(noop)
    again = ep.reset(seed=0, max_steps=5)  # a reset starts afresh, with its own limit
    assert not again.done and again.step == 0


@pytest.mark.parametrize("world", WORLDS)
def test_the_env_s_own_limit_truncates_too(world):
    """Without a server limit the env's own step limit ends the episode (done and truncated, not won)."""
    ep = WorldEpisode(EpisodeConfig(world))
    noop = {} if world_facts(world).team_env else "xyzzy"
    view = ep.reset(seed=0)
    for _ in range(2000):
        view = ep.step(noop)
        if view.done:
            break
    assert view.done and view.truncated and not view.won


@pytest.mark.parametrize("world", WORLDS)
def test_task_choice(world):
    ids = world_facts(world).ids
    ep = WorldEpisode(EpisodeConfig(world))
    assert ep.choose(seed=len(ids) + 1) == ids[1]
    assert ep.choose(task=ids[-1]) == ids[-1]
    assert ep.choose(index=2, split=SPLIT) == ids[2]
    assert ep.choose() == ids[0]
    ep.reset()
    assert ep.choose() == ids[1]  # no task, no seed: the tasks in order, one per reset
    for bad, match in [({"task": "no such task"}, "has no task 'no such task'"), ({"task": 3}, "has no task 3"),
                       ({"index": len(ids)}, "out of range"), ({"index": -1}, "non-negative"),
                       ({"seed": -1}, "non-negative"), ({"seed": True}, "non-negative"),
                       ({"seed": "7"}, "non-negative"),
                       ({"split": "no such split"}, "has split"), ({"split": ["eval"]}, "has split"),
                       ({"task": ids[0], "index": 1}, "not index 1")]:
        with pytest.raises(EpisodeError, match=match):
            ep.choose(**bad)


@pytest.mark.parametrize("world", WORLDS)
def test_misuse(world):
    facts = world_facts(world)
    ep = WorldEpisode(EpisodeConfig(world))
    with pytest.raises(EpisodeError, match="reset first"):
        ep.step("look")
    ep.reset(seed=0)
    wrong = "look" if facts.team_env else {"agent": "look"}
    with pytest.raises(EpisodeError, match="joint action" if facts.team_env else "one command"):
        ep.step(wrong)
    if facts.team_env:
        with pytest.raises(EpisodeError, match="unknown agent"):
            ep.step({"nobody": "Wait[]"})
        with pytest.raises(EpisodeError, match="string or null"):
            ep.step({facts.agents[0]: 7})
    with pytest.raises(EpisodeError, match="admissible must be"):
        ep.reset(admissible="yes")
    with pytest.raises(EpisodeError, match="max_steps"):
        ep.reset(max_steps=0)
    ep.close()
    with pytest.raises(EpisodeError, match="closed"):
        ep.reset()


@pytest.mark.parametrize("world", WORLDS)
def test_admissible_actions_can_be_turned_off(world):
    facts = world_facts(world)
    ep = WorldEpisode(EpisodeConfig(world))
    on = ep.reset(seed=0)
    off = ep.reset(seed=0, admissible=False)
    if facts.team_env:
        assert all(v.admissible_actions for v in on.agents.values())
        assert all(v.admissible_actions is None for v in off.agents.values())
    else:
        assert on.admissible_actions and off.admissible_actions is None
    assert on.text == off.text


@functools.lru_cache(maxsize=1)
def _alfworld_episode() -> WorldEpisode:
    return WorldEpisode(EpisodeConfig("alfworld"))


@settings(max_examples=40, deadline=None)
@given(command=st.text(max_size=300))
def test_no_command_crashes_a_step(command):
    ep = _alfworld_episode()
    ep.reset(seed=0)
    view = ep.step(command)
    assert view.step == 1 and isinstance(view.text, str)

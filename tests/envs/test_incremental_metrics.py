"""The per-step metrics an RL loop reads, kept from step to step, equal the ones computed from scratch: the progress
report (each world's hook behind the ProgressRate wrapper) and the legal-action listing (each task set's), along
seeded random walks in every world. From scratch: a fresh env replays the walk's actions with no report in between
and reports once."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from eai_gym import registry
from eai_gym.tasksets import task_sets

WORLDS = registry.world_names()
STEPS = 10


def _make(world: str, task: str) -> tuple[object, dict | None]:
    ts = task_sets()[world]
    env_id, kwargs, options = ts.hooks.play(task, ts.protocols[0])
    env = gym.make(env_id, max_episode_steps=-1, disable_env_checker=True, **kwargs)
    return env, options


def _walk(world: str, seed: int) -> tuple[str, list[str], list[dict], list[list[str]]]:
    """A random walk of STEPS actions (mostly legal ones, some repeated or undoable), with the progress report and
    the legal actions after the reset and after every step, kept from step to step."""
    ts = task_sets()[world]
    rng = np.random.default_rng(seed)
    ids = ts.ids()
    task = ids[int(rng.integers(len(ids)))]
    env, options = _make(world, task)
    env.reset(seed=0, options=options)
    base = env.unwrapped
    actions: list[str] = []
    reports, legal = [base.progress_report()], [ts.legal_actions(env)]
    for _ in range(STEPS):
        choices = legal[-1] + actions[-3:]  # legal ones, and recent ones again (failures, states visited again)
        action = choices[int(rng.integers(len(choices)))] if choices else "no action"
        actions.append(action)
        _obs, _r, terminated, truncated, _info = env.step(action)
        reports.append(base.progress_report())
        legal.append(ts.legal_actions(env))
        if terminated or truncated:
            break
    return task, actions, reports, legal


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("world", WORLDS)
def test_kept_progress_and_legal_actions_equal_a_fresh_replay(world, seed):
    ts = task_sets()[world]
    task, actions, reports, legal = _walk(world, seed)
    for n in range(len(actions) + 1):
        env, options = _make(world, task)
        env.reset(seed=0, options=options)
        for action in actions[:n]:
            env.step(action)
        assert env.unwrapped.progress_report() == reports[n], (world, task, n)
        assert ts.legal_actions(env) == legal[n], (world, task, n)


def test_behavior1k_legal_actions_equal_the_worlds_probe_of_every_catalogue_action():
    """The listing now comes from the kept mask; it must be the world's own listing, every action probed."""
    ts = task_sets()["behavior1k"]
    rng = np.random.default_rng(3)
    for task in ts.ids()[:4]:
        env, options = _make("behavior1k", task)
        env.reset(seed=0, options=options)
        base = env.unwrapped
        for _ in range(12):
            listed = ts.legal_actions(env)
            assert listed == [a.raw for a in base.world.legal_actions(base.episode.state)]
            if not listed:
                break
            env.step(listed[int(rng.integers(len(listed)))])


def test_behavior1k_listing_probes_only_what_a_step_changed(monkeypatch):
    """Kept answers: after the first listing, a step that changes little asks few precondition probes again."""
    from eai_gym.envs.behavior1k.world import Behavior1KWorld

    calls = {"n": 0}
    probe = Behavior1KWorld.legal

    def counting(self, *args):
        calls["n"] += 1
        return probe(self, *args)

    monkeypatch.setattr(Behavior1KWorld, "legal", counting)
    ts = task_sets()["behavior1k"]
    env, options = _make("behavior1k", "adding_chemicals_to_hot_tub")
    env.reset(seed=0, options=options)
    first = ts.legal_actions(env)
    full = calls["n"]
    calls["n"] = 0
    env.step("WAIT()" if "WAIT()" in first else first[0])
    ts.legal_actions(env)
    assert calls["n"] < full / 4


def test_alfworld_progress_reads_each_step_once(monkeypatch):
    """The progress measures are fed each step once (not the whole history at every report)."""
    from eai_gym.envs.alfworld import progress

    fed = {"n": 0}
    add = progress.ProgressTracker.add

    def counting(self, step):
        fed["n"] += 1
        return add(self, step)

    monkeypatch.setattr(progress.ProgressTracker, "add", counting)
    env, options = _make("alfworld", "0")
    env.reset(seed=0, options=options)
    for _ in range(8):
        env.step("look")
        env.unwrapped.progress_report()
    assert fed["n"] == 8


def test_plan_based_progress_searches_once_per_distinct_state():
    """A walk that comes back to a state it saw (here: walking to the bathroom and back) needs no second plan search
    (VirtualHome's subgoal translator), and reports the same progress there."""
    env, options = _make("virtualhome", "160_1")
    env.reset(seed=0, options=options)
    base = env.unwrapped
    start = base.episode.state
    searched = []
    search = base.shortest_plan_length
    base.shortest_plan_length = lambda state: searched.append(state) or search(state)
    first = base.progress_report()
    for action in ["[FIND] <bathroom> (1)", "[FIND] <dining_room> (201)"]:
        env.step(action)
        assert base.episode.trajectory.steps[-1].ok
        base.progress_report()
    assert base.episode.state is not start and base.episode.state.key() == start.key()
    assert len(searched) == 2  # the start, the bathroom; back in the dining room: remembered
    assert base.progress_report() == first

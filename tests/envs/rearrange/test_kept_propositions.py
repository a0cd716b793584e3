"""The proposition tracker's kept answers (``RearrangeState.evaluation_reads``) equal evaluating every
proposition afresh at every tick, on long random legal walks in both protocols."""

from __future__ import annotations

import numpy as np
import pytest

from eai_gym.envs.rearrange.env import parallel_env
from eai_gym.logic.propositions import PropositionTracker

_FACTS = ("has_entity", "has_room", "on_top", "inside", "related", "in_room", "on_floor", "next_to", "state")


class _EveryTime:
    """The world's state as plain facts: no ``evaluation_reads``, so every proposition is evaluated."""

    def __init__(self, state) -> None:
        for name in _FACTS:
            setattr(self, name, getattr(state, name))


class _Shadow:
    """A second tracker of the same spec that evaluates every proposition at every tick."""

    def __init__(self) -> None:
        self.world = None
        self.kinds: set[str] = set()
        self.evaluated = self.kept = 0

    def check(self, world) -> None:
        if world is not self.world:
            self.world = world
            self.tracker = PropositionTracker(world.spec, world.protocol)
            self.facts = _EveryTime(world.state)
            self.tracker.reset(self.facts)
            self.kinds.update(p.function_name for p in self.tracker.propositions)
        while len(self.tracker.state_sequence) < len(world.tracker.state_sequence):
            self.tracker.update(self.facts)
        assert world.tracker.evaluation_log() == self.tracker.evaluation_log(), world.ticks
        assert world.tracker.metrics() == self.tracker.metrics()
        assert world.tracker.ever_checked == self.tracker.ever_checked
        for i, kept in enumerate(world.tracker._kept):
            if kept is not None:
                self.kept += 1
        self.evaluated += len(world.tracker.propositions)


@pytest.mark.parametrize("protocol", ["fixed", "partnr"])
def test_kept_answers_equal_full_evaluation_single_agent(protocol):
    import gymnasium as gym

    import eai_gym  # noqa: F401

    env = gym.make("eai_gym/Rearrange-v0", action_mode="index", protocol=protocol, disable_env_checker=True).unwrapped
    shadow = _Shadow()
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=0)
    for n in range(1, 2001):
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        shadow.check(env.session.world)
        if term or trunc or n % 60 == 0:
            obs, info = env.reset(seed=n)
            shadow.check(env.session.world)
    assert shadow.kept > 0
    assert {"is_on_top", "is_inside"} <= shadow.kinds


@pytest.mark.parametrize("protocol", ["fixed", "partnr"])
def test_kept_answers_equal_full_evaluation_two_agents(protocol):
    env = parallel_env(action_mode="index", protocol=protocol, max_steps=80)
    shadow = _Shadow()
    rng = np.random.default_rng(11)
    for seed in range(12):
        obs, infos = env.reset(seed=seed)
        shadow.check(env.session.world)
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
            obs, rewards, terms, truncs, infos = env.step(actions)
            shadow.check(env.session.world)
    assert shadow.kept > 0


@pytest.mark.parametrize("protocol", ["fixed", "partnr"])
def test_kept_answers_equal_full_evaluation_on_oracle_solutions(protocol, monkeypatch):
    """The oracle moves the objects the propositions name (random walks seldom do)."""
    from eai_gym.envs.rearrange import world as world_module
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.envs.rearrange.oracle import oracle_scripts
    from eai_gym.envs.rearrange.rollout import run_scripts

    shadow = _Shadow()
    step = world_module.RearrangeWorld.step

    def checked_step(self, actions):
        out = step(self, actions)
        shadow.check(self)
        return out

    solved = [e for e in shipped_episodes("val") if e.info.get("solution")]
    kinds = {e.episode_id: {p.function_name for p in e.spec(protocol).propositions} for e in solved}
    every_kind = sorted(set().union(*kinds.values()))
    episodes = [e for k, e in enumerate(solved)  # the first ten, and three more with each predicate
                if k < 10 or any(kind in kinds[e.episode_id]
                                 and sum(kind in kinds[x.episode_id] for x in solved[:k]) < 3 for kind in every_kind)]
    scripts = [oracle_scripts(e) for e in episodes]
    monkeypatch.setattr(world_module.RearrangeWorld, "step", checked_step)
    changed = 0
    for episode, script in zip(episodes, scripts):
        rollout = run_scripts(episode, script, protocol=protocol, stop_on_success=False)
        shadow.check(rollout.world)
        changed += sum(1 for t in rollout.world.tracker.satisfied_at if t > 0)
    assert changed > 0 and shadow.kept > 0
    assert shadow.kinds == set(every_kind) and len(every_kind) >= 8

"""BEHAVIOR's change log (``BehaviorState.log``, ``changes_since``): what a copied state's writers logged names
every fact that differs from the state it was copied from. The kept mask's ``changed_keys``, the goal check and
the observation look only at the logged facts (the goal check passes over a step whose logged facts no
condition read); after every step of random legal walks they equal comparing whole tables, checking afresh and
describing afresh, and walks catch a log or a use of it that forgets a fact."""

from __future__ import annotations

import pickle

import gymnasium as gym
import pytest

import eai_gym  # noqa: F401
from eai_gym.envs.behavior import goals
from eai_gym.envs.behavior import state as state_module
from eai_gym.envs.behavior import world as world_module
from eai_gym.envs.behavior.goals import GoalCrash, check_conditions
from eai_gym.envs.behavior.tracking import changed_keys, compared_keys

CONFIGS = [({}, 0), ({}, 1), ({"protocol": "eai-1.0.5"}, 2),
           ({"protocol": "eai-1.0.5", "initial_state": "reference-defaults"}, 3)]


def _goal(world, state, goal):
    try:
        return world.satisfied(state, goal, state.scene.bddl_to_name)
    except GoalCrash as e:
        return str(e)


def _fresh_goal(world, state, goal):
    try:
        return check_conditions(state, goal, state.scene.bddl_to_name, world.protocol)
    except GoalCrash as e:
        return str(e)


def _walk(random_steps, steps: int, seed: int, **kwargs) -> int:
    """After every step: the logged changes equal comparing the tables, the kept goal check and the observation's
    objects equal their fresh counterparts. Returns how many steps the log spoke for."""
    logged = 0
    for inner, n, last, new in random_steps("eai_gym/Behavior-v0", steps, seed, **kwargs):
        world = inner.world
        if new is not last:
            assert new.changes_since(last) is not None, (inner.task.id, n)
            logged += 1
            assert sorted(map(repr, changed_keys(last, new))) == sorted(map(repr, compared_keys(last, new))), \
                (inner.task.id, n)
        assert _goal(world, new, inner.task.goal) == _fresh_goal(world, new, inner.task.goal), (inner.task.id, n)
        assert world.describe(new, None, inner._lines) == world.describe(new), (inner.task.id, n)
    return logged


@pytest.mark.parametrize("kwargs,seed", CONFIGS)
def test_logged_changes_goal_check_and_observation_equal_comparing_afresh(random_steps, kwargs, seed):
    assert _walk(random_steps, 1500, seed, **kwargs) > 300


def test_changes_since_follows_copies_and_only_copies():
    env = gym.make("eai_gym/Behavior-v0", action_mode="index")
    env.reset(seed=0)
    s = env.unwrapped.episode.state
    a = s.copy()
    name = s.scene.order[0]
    a.set_value(name, "Open", True)
    b = a.copy()
    b.set_hand("left_hand", name)
    assert b.changes_since(b) == [] and b.changes_since(a) == [("h", 0)]
    assert b.changes_since(s) == [("h", 0), ("v", name)]
    assert a.changes_since(b) is None and s.changes_since(a) is None
    assert b.changes_since(s, limit=1) is None
    twin = pickle.loads(pickle.dumps(b))  # an unpickled state is no copy of anything
    assert twin.changes_since(a) is None and twin.values == b.values and twin.hands == b.hands


@pytest.mark.parametrize("broken", ["edges", "values", "goal nodes", "observed relations", "goal relations"])
def test_the_walks_catch_a_log_or_a_use_of_it_that_forgets_a_fact(monkeypatch, random_steps, broken):
    if broken == "edges":  # a writer that does not log
        def add_edge(self, a, rel, b):
            self.edges[(a, b)] = rel
        monkeypatch.setattr(state_module.BehaviorState, "add_edge", add_edge)
    elif broken == "values":
        def set_values(self, name, values):
            self.values[name] = values
        monkeypatch.setattr(state_module.BehaviorState, "set_values", set_values)
    elif broken.startswith("goal"):  # the goal check's log reading forgets changed values or relations
        real_a = goals.KeptGoalCheck._affected
        nodes = broken.endswith("nodes")

        def affected(self, s):
            out = real_a(self, s)
            if out is None:
                return None
            return (set(), out[1]) if nodes else (out[0], set())
        monkeypatch.setattr(goals.KeptGoalCheck, "_affected", affected)
    else:  # the observation overlooks logged relations
        real_d = world_module.described_objects

        def described(state, earlier):
            out = real_d(state, earlier)
            logged = state.changes_since(earlier)
            if out is not None:
                out -= {k[0] for tag, k in logged if tag == "e"}
            return out
        monkeypatch.setattr(world_module, "described_objects", described)
    with pytest.raises(AssertionError):
        for kwargs, seed in CONFIGS:
            _walk(random_steps, 1500, seed, **kwargs)

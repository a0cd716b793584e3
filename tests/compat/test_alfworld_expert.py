"""The expert (eai_gym.envs.alfworld.expert): its abstract cost model answers exactly what the from-scratch
definition answers (the oracle's own search, no caches, no pruning) on seeded walks over games of every split and
both dialects, it applies to the shipped games, it falls back to the search where it does not apply, its plans are
optimal and win, and the batch env's incremental expert answers and ``facts`` equal those computed afresh."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym.compat import alfworld as compat
from eai_gym.compat.alfworld.batch_env import game_facts
from eai_gym.compat.alfworld.facts import state_facts
from eai_gym.envs.alfworld.engine import Engine
from eai_gym.envs.alfworld.expert import Expert, reference_next
from eai_gym.envs.alfworld.expert_model import why_not
from eai_gym.envs.alfworld.oracle import COST, Oracle

SPLITS = {"eval_out_of_distribution": 8, "eval_in_distribution": 5, "train": 5}


def oracle_cost(engine: Engine, state) -> int | None:
    """The cost of the oracle's optimal plan from ``state`` (its own search, from scratch)."""
    steps = Oracle(engine)._search(state)
    return None if steps is None else sum(COST[op[0]] for _, op in steps)


def walk(engine: Engine, expert: Expert, rng: random.Random, steps: int, follow: float):
    """The states of a walk that takes the expert's command with probability ``follow`` (else a random
    admissible one), and goes on after the game is won."""
    state = engine.initial_state()
    for _ in range(steps):
        yield state
        commands = engine.commands(state)
        answer = expert.next_command(state)
        text = answer if answer is not None and rng.random() < follow else rng.choice(sorted(commands))
        engine.apply(state, commands[text])


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
@pytest.mark.parametrize("split", sorted(SPLITS))
def test_expert_equals_from_scratch_on_walks(split, dialect):
    rng = random.Random(f"{split}{dialect}")
    for path in rng.sample(compat.shipped_paths(split), SPLITS[split]):
        engine = Engine(compat.load_game(path), dialect)
        expert = Expert(engine)
        for state in walk(engine, expert, rng, 14, follow=0.6):
            assert expert.next_command(state) == reference_next(engine, state), (path, state.key())
            assert expert.cost(state) == oracle_cost(engine, state), (path, state.key())
        assert expert.fallbacks == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 273), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40),
       follow=st.floats(0, 1))
def test_expert_equals_from_scratch_anywhere(index, seed, steps, follow):
    """Any state a walk reaches, of any eval game: the last state of a drawn walk."""
    paths = compat.shipped_paths("eval_out_of_distribution") + compat.shipped_paths("eval_in_distribution")
    engine = Engine(compat.load_game(paths[index]))
    expert = Expert(engine)
    state = engine.initial_state()
    for state in walk(engine, expert, random.Random(seed), steps, follow):
        pass
    assert Expert(engine).next_command(state) == reference_next(engine, state)


@pytest.mark.parametrize("split", ["eval_out_of_distribution", "eval_in_distribution", "train"])
def test_model_applies_to_the_shipped_games(split):
    paths = compat.shipped_paths(split)
    if split == "train":
        paths = random.Random(0).sample(paths, 120)
    for path in paths:
        game = compat.load_game(path)
        assert why_not(game) is None, path
        engine = Engine(game)
        assert Expert(engine).config(engine.initial_state()) is not None


def test_expert_falls_back_to_the_search_where_the_model_does_not_apply():
    game = compat.load_game(compat.shipped_paths("eval_out_of_distribution")[3])
    reshaped = dataclasses.replace(game, goal=("and", game.goal))  # the same goal, not ALFWorld's formula
    assert why_not(reshaped) is not None
    engine = Engine(reshaped)
    expert = Expert(engine)
    rng = random.Random(1)
    for state in walk(engine, expert, rng, 10, follow=0.7):
        assert expert.next_command(state) == reference_next(engine, state)
    assert expert.fallbacks >= 10


@pytest.mark.parametrize("index", range(0, 134, 19))
def test_expert_plans_are_optimal_and_win(index):
    engine = Engine(compat.load_game(compat.shipped_paths("eval_out_of_distribution")[index]))
    start = engine.initial_state()
    plan = Expert(engine).plan(start)
    state = start.copy()
    ops = []
    for text in plan:
        ops.append(engine.commands(state)[text])
        engine.apply(state, ops[-1])
    assert engine.won(state) and Expert(engine).plan(state) == [] and Expert(engine).next_command(state) is None
    assert sum(COST[op[0]] for op in ops) == oracle_cost(engine, start)


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
def test_batch_env_expert_and_facts_equal_fresh_ones(dialect):
    """The batch env keeps the expert's configuration across steps that cannot change it and rebuilds the
    ``facts`` in parts: every step, both equal what a fresh expert and a full rebuild give."""
    config = compat.default_config()
    config["env"]["dialect"] = dialect
    config["dagger"]["training"]["max_nb_steps_per_episode"] = 1000
    env = compat.AlfredTWEnv(config, "train").init_env(batch_size=4)
    _, infos = env.reset()
    rng = random.Random(dialect)
    for step in range(80):
        commands = []
        for run, admissible in zip(env.runs, infos["admissible_commands"]):
            answer = Expert(run.engine).next_command(run.state)
            commands.append(answer if answer is not None and rng.random() < 0.5 else rng.choice(admissible))
        _, _, dones, infos = env.step(commands)
        for i, run in enumerate(env.runs):
            if dones[i]:
                continue
            fresh = Expert(run.engine).next_command(run.state)
            expected = [fresh] if fresh is not None and fresh in infos["admissible_commands"][i] else ["look"]
            assert infos["extra.expert_plan"][i] == expected, (step, run.gamefile)
            names, static = game_facts(run.gamefile)
            assert infos["facts"][i] == state_facts(names, run.state) + list(static), (step, run.gamefile)

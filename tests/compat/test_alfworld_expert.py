"""The incremental expert (eai_gym.envs.alfworld.expert) answers exactly what the from-scratch computation answers
(the oracle's own search, no caches, no pruning), on seeded random walks over many games of every split, and its
plans are optimal and win."""

from __future__ import annotations

import random

import pytest

from eai_gym.compat import alfworld as compat
from eai_gym.envs.alfworld.engine import Engine
from eai_gym.envs.alfworld.expert import Expert, reference_next
from eai_gym.envs.alfworld.oracle import Oracle

SPLITS = {"eval_out_of_distribution": 9, "eval_in_distribution": 6, "train": 6}


@pytest.mark.parametrize("split", sorted(SPLITS))
def test_incremental_expert_equals_from_scratch_on_random_walks(split):
    files = compat.shipped_paths(split)
    rng = random.Random(split)
    games = rng.sample(files, SPLITS[split])
    for path in games:
        engine = Engine(compat.load_game(path))
        expert, state = Expert(engine), engine.initial_state()
        for _ in range(12):
            assert expert.next_command(state) == reference_next(engine, state), (path, state.key())
            commands = engine.commands(state)
            engine.apply(state, commands[rng.choice(sorted(commands))])


@pytest.mark.parametrize("index", range(0, 134, 19))
def test_expert_plans_are_optimal_and_win(index):
    engine = Engine(compat.load_game(compat.shipped_paths("eval_out_of_distribution")[index]))
    start = engine.initial_state()
    plan = Expert(engine).plan(start)
    oracle_plan = Oracle(engine).plan(start)
    cost = {"goto": 1, "open": 1, "take": 1, "put": 1}
    ops = []
    state = start.copy()
    for text in plan:
        op = engine.commands(state)[text]
        ops.append(op)
        engine.apply(state, op)
    assert engine.won(state) and Expert(engine).plan(state) == [] and Expert(engine).next_command(state) is None
    state = start.copy()
    oracle_ops = []
    for text in oracle_plan:
        oracle_ops.append(engine.commands(state)[text])
        engine.apply(state, oracle_ops[-1])
    assert sum(cost.get(o[0], 5) for o in ops) == sum(cost.get(o[0], 5) for o in oracle_ops)

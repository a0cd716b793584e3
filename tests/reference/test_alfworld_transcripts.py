"""ALFWorld engine against alfworld 0.4.2 + textworld 1.7.0 transcripts, both dialects, every step:
observation text, admissible commands, won flag, and the oracle plan's length vs the reference planner's."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.envs.alfworld.engine import NOTHING, Engine
from eai_gym.envs.alfworld.game import GameError, game_from_pddl, load_game_folder
from eai_gym.envs.alfworld.oracle import Oracle
from eai_gym.envs.alfworld.pddl import PddlError, parse_problem

DATA = Path(__file__).parent / "data" / "alfworld"
#: the kit's recorded cases, both dialects (tools/reference/import_cases.py)
CASES = json.loads(gzip.decompress((DATA / "transcripts.json.gz").read_bytes()))
#: unseen games and walks run through the reference (python -m tools.reference.alfworld_walks generate --n 36 --seed 11)
UNSEEN = json.loads(gzip.decompress((DATA / "unseen.json.gz").read_bytes()))
ALL = {**CASES, **UNSEEN}
RUNS = [(case, run) for case, c in sorted(ALL.items()) for run in sorted(c["transcripts"])]


def _game(case: str):
    c = ALL[case]
    return game_from_pddl(c["pddl"], c["traj"], case)


@pytest.mark.parametrize("case,run", RUNS, ids=[f"{c}-{r}" for c, r in RUNS])
def test_transcript(case, run):
    rows = ALL[case]["transcripts"][run]
    game = _game(case)
    engine = Engine(game, dialect=run.split("/")[0])
    oracle = Oracle(engine)
    state = engine.initial_state()
    task = rows[0]["obs"].split("Your task is to: ")[1][:-1]
    template = [game.task_text(i) for i in (0, 1)].index(task)
    for row in rows:
        if row["command"] is None:
            obs = engine.intro(game.task_text(template))
        else:
            obs, _ = engine.step(state, row["command"])
        assert obs == row["obs"], (row["step"], row["command"])
        assert engine.admissible(state) == row["admissible"], row["step"]
        assert engine.won(state) == row["won"], row["step"]
        assert len(oracle.plan(state)) == len(row["planner_plan"]), row["step"]


def test_unseen_set_covers_every_task_type():
    assert len([c for c in UNSEEN.values() if c["transcripts"]]) >= 30
    assert {c["traj"]["task_type"] for c in UNSEEN.values()} == {
        "pick_and_place_simple", "look_at_obj_in_light", "pick_clean_then_place_in_recep",
        "pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep", "pick_two_obj_and_place"}


def test_oracle_plans_execute_and_win():
    for case in ALL:
        game = _game(case)
        engine = Engine(game)
        state = engine.initial_state()
        plan = Oracle(engine).plan(state)
        for cmd in plan:
            obs, ok = engine.step(state, cmd)
            assert ok, (case, cmd)
        assert engine.won(state), case


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40), st.sampled_from(sorted(CASES)))
def test_random_commands_never_crash(text, case):
    engine = Engine(_game(case))
    state = engine.initial_state()
    before = state.key()
    obs, ok = engine.step(state, text)
    assert (obs == NOTHING and state.key() == before) or ok


@pytest.mark.parametrize("case", sorted(CASES))
def test_random_admissible_walks_keep_invariants(case):
    game = _game(case)
    for dialect in ("0.4", "0.3"):
        engine = Engine(game, dialect)
        state = engine.initial_state()
        rng = random.Random(7)
        for _ in range(200):
            cmd = rng.choice(engine.admissible(state))
            obs, ok = engine.step(state, cmd)
            assert ok and obs != NOTHING
            held = [o for o in game.objects if o == state.held]
            assert len(held) <= 1 and (state.held is None or state.held not in state.inside)
            assert set(state.inside) | set(held) == set(game.objects)  # every object in one place


def test_game_folders_and_errors(tmp_path):
    c = CASES["heat_apple"]
    (tmp_path / "initial_state.pddl").write_text(c["pddl"])
    (tmp_path / "traj_data.json").write_text(json.dumps(c["traj"]))
    game = load_game_folder(tmp_path)
    assert game.names[game.receptacles[0]].endswith(" 2") and "sinkbasin 1" in game.names.values()
    with pytest.raises(GameError, match="cannot read"):
        load_game_folder(tmp_path / "missing")
    with pytest.raises(PddlError, match="s-expression"):
        parse_problem("(define (problem x) (:init (a b)")
    broken = c["pddl"].replace("(inReceptacle Apple_bar_a Fridge_bar_c)", "(inReceptacle Apple_bar_a Nowhere_bar_z)")
    with pytest.raises(GameError, match="objects not in a known receptacle: Apple_bar_a"):
        game_from_pddl(broken, c["traj"])
    with pytest.raises(GameError, match="unsupported task_type"):
        game_from_pddl(c["pddl"], {"task_type": "pick_and_place_with_movable_recep", "pddl_params": {}})

"""The ALFWorld env on game folders: API checks, expert rollouts, info keys, both dialects."""

from __future__ import annotations

import gzip
import json
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from eai_gym.envs.alfworld.env import AlfWorldEnv

DATA = Path(__file__).resolve().parents[1] / "reference" / "data" / "alfworld" / "transcripts.json.gz"
CASES = json.loads(gzip.decompress(DATA.read_bytes()))


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    out = []
    for name, c in sorted(CASES.items()):
        d = tmp_path_factory.mktemp(name)
        (d / "initial_state.pddl").write_text(c["pddl"])
        (d / "traj_data.json").write_text(json.dumps(c["traj"]))
        out.append(d)
    return out


@pytest.mark.parametrize("mode", ["text", "index"])
def test_check_env(folders, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(AlfWorldEnv(folders, action_mode=mode), skip_render_check=True)


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
def test_expert_rollouts_win(folders, dialect):
    env = AlfWorldEnv(folders, dialect=dialect,
                      request_infos=["admissible_commands", "won", "expert_plan", "expert_next", "facts"])
    for folder in folders:
        obs, info = env.reset(seed=0, options={"game": folder, "template": 1})
        assert obs.startswith("-= Welcome to TextWorld, ALFRED! =-") and info["won"] is False
        assert info["facts"][0].startswith("at loc")
        steps = 0
        while True:
            cmd = info["expert_plan"][0]
            assert cmd in info["admissible_commands"] and info["expert_next"] == cmd
            obs, reward, terminated, truncated, info = env.step(cmd)
            steps += 1
            if terminated:
                break
        assert reward == 1.0 and info["won"] and info["expert_plan"] == [] and info["expert_next"] is None
        if info["task_type"] != "look_at_obj_in_light":
            assert cmd.startswith("move ") if dialect == "0.4" else (cmd.startswith("put ") and " in/on " in cmd)
        won_obs, won_info = obs, info
        obs, reward, terminated, truncated, info = env.step("put it somewhere please")  # a won game is frozen
        assert (obs, reward, terminated, truncated) == (won_obs, 0.0, True, False)
        assert {k: v for k, v in info.items() if k != "step"} == {k: v for k, v in won_info.items() if k != "step"}


def test_index_mode_and_pickle(folders):
    env = AlfWorldEnv(folders, action_mode="index")
    obs, info = env.reset(seed=3)
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.sum() == len(info["admissible_commands"])
    go = info["admissible_commands"].index(next(c for c in info["admissible_commands"] if c.startswith("go to")))
    obs, *_ = env.step(go)
    assert obs.startswith("You arrive at")
    assert env.step(500)[0] == "Nothing happens."
    clone = pickle.loads(pickle.dumps(env))
    assert clone.step(0)[0] == env.step(0)[0]


def test_errors(folders):
    with pytest.raises(ValueError, match="request_infos"):
        AlfWorldEnv(folders, request_infos=["score"])
    with pytest.raises(ValueError, match="no game"):
        AlfWorldEnv(games=[]).reset()
    with pytest.raises(IndexError, match="eval index"):
        AlfWorldEnv().reset(options={"split": "eval", "index": 134})


def test_shipped_eval_split_and_train_games():
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import EVAL_MIX, eval_game, eval_split, split_of
    from eai_gym.envs.alfworld.oracle import Oracle
    games = eval_split()
    assert len(games) == 134
    counts = {}
    for i, (task_type, floorplan, seed) in enumerate(games):
        counts[task_type] = counts.get(task_type, 0) + 1
        assert split_of(floorplan) == "eval"
        game = eval_game(i)
        engine = Engine(game)
        state = engine.initial_state()
        assert not engine.won(state)
        for cmd in Oracle(engine).plan(state):
            assert engine.step(state, cmd)[1]
        assert engine.won(state), i
    assert counts == EVAL_MIX
    env = AlfWorldEnv(request_infos=["won", "expert_plan"])
    obs, info = env.reset(seed=1, options={"split": "train", "seed": 5, "task_type": "pick_two_obj_and_place"})
    assert "Your task is to: " in obs and info["task_type"] == "pick_two_obj_and_place" and info["expert_plan"]
    again, _ = AlfWorldEnv().reset(seed=1, options={"split": "train", "seed": 5, "task_type": "pick_two_obj_and_place"})
    assert again.split("Your task")[0] == obs.split("Your task")[0]


@pytest.mark.parametrize("template,error", [(2, ValueError), (-1, ValueError), (10**40, ValueError), ("1", TypeError),
                                            (1.0, TypeError), (True, TypeError)])
def test_a_template_outside_the_two_is_an_error_naming_it(template, error):
    env = AlfWorldEnv()
    with pytest.raises(error, match=r"options\['template'\]"):
        env.reset(seed=0, options={"split": "eval", "index": 0, "template": template})
    obs, _ = env.reset(seed=0, options={"split": "eval", "index": 0, "template": 1})  # the env plays on
    assert "Your task is to: " in obs

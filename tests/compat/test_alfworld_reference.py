"""compat.alfworld against alfworld 0.4.2 + textworld 1.7.0 as recorded by tools/reference/alfworld_compat.py
(tests/reference/data/alfworld/compat_reference.json): game order per seed, info keys and value shapes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from eai_gym.compat import alfworld as compat
from eai_gym.compat.alfworld.game_files import export_game

REF = json.loads((Path(__file__).resolve().parents[1] / "reference" / "data" / "alfworld" /
                  "compat_reference.json").read_text())


def describe(value):
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}[{'|'.join(sorted({describe(v) for v in value}))}]"
    return type(value).__name__


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("games")
    for p in compat.shipped_paths("eval_out_of_distribution", 12):
        export_game(p, str(root))
    return str(root / "json_2.1.1" / "valid_unseen")


def config(folder):
    c = compat.default_config()
    for key in ("data_path", "eval_id_data_path", "eval_ood_data_path"):
        c["dataset"][key] = folder
    return c


def test_same_games_listed(folder):
    env = compat.AlfredTWEnv(config(folder), "eval_out_of_distribution")
    assert sorted(os.path.relpath(p, folder) for p in env.game_files) == sorted(REF["game_files"])


@pytest.mark.parametrize("seed", ["default", "0", "1", "7", "1234", "99999"])
def test_seed_gives_alfworlds_game_order(folder, seed):
    """Given alfworld's game list (its os.walk order), the same seed visits the games in the same order."""
    base = compat.AlfredTWEnv(config(folder), "eval_out_of_distribution")
    base.game_files = [os.path.join(folder, p) for p in REF["game_files"]]
    env = base.init_env(batch_size=1)
    if seed != "default":
        env.seed(int(seed))
    played = [os.path.relpath(env.reset()[1]["extra.gamefile"][0], folder) for _ in range(len(REF["orders"][seed]))]
    assert played == REF["orders"][seed]


@pytest.mark.parametrize("split,expert", [("eval_out_of_distribution", None), ("train", "handcoded"),
                                          ("train", "planner")])
def test_info_keys_and_shapes(folder, split, expert):
    ref = REF["infos"][f"{split}/{expert}"]
    c = config(folder)
    c["env"]["expert_type"] = expert or "handcoded"
    env = compat.AlfredTWEnv(c, split).init_env(batch_size=2)
    obs, infos = env.reset()
    assert [describe(obs), describe(infos)] == ref["reset_types"]
    assert {k: describe(v) for k, v in infos.items()} == ref["reset"]
    assert infos.get("extra.expert_plan") == ref["expert_plan_reset"]
    if ref["facts_example"]:  # the same predicate and type naming (lower-cased by fast-downward)
        names = {f.name for f in infos["facts"][0]}
        assert ref["facts_example"].split("(")[0] in names and {"atlocation", "inreceptacle", "objecttype"} <= names
        assert any(str(f).startswith(ref["facts_example"].split(" ")[0]) for f in infos["facts"][0])
    step = env.step(["look", "inventory"])
    assert [describe(x) for x in step[:3]] == ref["step_types"]
    assert {k: describe(v) for k, v in step[3].items()} == ref["step"]

"""ALFWorld listing order on prefix-named classes, and commands sent after a win, against alfworld 0.4.2
and 0.3.3 (+ textworld 1.7.0) transcripts replayed through the env: every step's observation, admissible
commands, won / done, expert plan length and facts; after a win, the frozen game (same observation and
infos as the winning step) in both; the metric wrappers and the offline scorer count no step after it.

Data: ``python -m tools.reference.alfworld_games prefix-pairs`` / ``after-win`` (see tests/reference/data/README.md).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import gymnasium as gym
import pytest
from alfworld_replay import INFOS, replay_env

from eai_gym.envs.alfworld.env import AlfWorldEnv
from eai_gym.envs.alfworld.game import GameError, game_from_pddl, pddl_sorted
from eai_gym.scoring.alfworld.commands import score_item
from eai_gym.wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

DATA = Path(__file__).parent / "data" / "alfworld"
PREFIX = json.loads(gzip.decompress((DATA / "prefix_pairs.json.gz").read_bytes()))
AFTER = json.loads(gzip.decompress((DATA / "after_win.json.gz").read_bytes()))


def _runs(bundle: dict) -> list[tuple[str, str]]:
    return [(case, run) for case, c in sorted(bundle.items()) if not case.startswith("_")
            for run in sorted(c["transcripts"])]


def test_prefix_pair_games_cover_every_pair_in_both_roles():
    pairs = [tuple(p) for p in PREFIX["_meta"]["pairs"]]
    for p in [("Toilet", "ToiletPaperHanger"), ("Pen", "Pencil"), ("Pot", "Potato"), ("Apple", "AppleSliced"),
              ("ToiletPaper", "ToiletPaperHanger")]:
        assert p in pairs
    assert len(pairs) == 21
    for i, (a, b) in enumerate(pairs):
        assert f"prefix_{i:02d}_receptacles_{a}_{b}" in PREFIX
    objects = [c for c in PREFIX if "_objects_" in c]
    assert len(objects) == 10 and "prefix_all_receptacles" in PREFIX and "prefix_all_objects" in PREFIX
    assert all(set(c["transcripts"]) == {"0.4/walk", "0.3/walk"} for k, c in PREFIX.items() if k != "_meta")


@pytest.mark.parametrize("case,run", _runs(PREFIX), ids=[f"{c}-{r}" for c, r in _runs(PREFIX)])
def test_prefix_pair_transcript(case, run):
    steps = 0
    for row, problems in replay_env(PREFIX[case], run):
        assert not problems, (row["step"], row["command"], problems)
        steps += 1
    assert steps > 10


def _prefix_case(suffix: str) -> dict:
    return next(c for k, c in PREFIX.items() if k.endswith(suffix))


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
def test_welcome_text_and_listings_put_the_shorter_class_first(dialect):
    rows = _prefix_case("_receptacles_Toilet_ToiletPaperHanger")["transcripts"][f"{dialect}/walk"]
    assert "a toilet 2, a toilet 1, a toiletpaperhanger 2, and a toiletpaperhanger 1." in rows[0]["obs"]
    rows = _prefix_case("_objects_Pen_Pencil")["transcripts"][f"{dialect}/walk"]
    listing = re.compile(r"On the countertop 1, you see a pen \d, a pen \d, a pencil \d, and a pencil \d\.")
    assert any(listing.search(r["obs"]) for r in rows)


def test_two_eval_games_list_a_toilet_before_its_paper_hanger():
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game, eval_split
    differ = [i for i in range(len(eval_split())) if any(sorted(ids) != ids for ids in
                                                          (eval_game(i).receptacles, eval_game(i).objects))]
    assert differ == [30, 45]  # the only eval games where the ids as written sort differently
    for i in differ:
        game = eval_game(i)
        assert "a toilet 1, a toiletpaperhanger 1" in Engine(game).intro(game.task_text(0))


TWINS = """(define (problem twins) (:domain alfred)
 (:objects agent1 - agent loc_bar_1 - location Shelf_bar_a - receptacle book_bar_x - object Book_bar_X - object)
 (:init (atLocation agent1 loc_bar_1) (receptacleType Shelf_bar_a ShelfType) (receptacleAtLocation Shelf_bar_a loc_bar_1)
  (objectType book_bar_x BookType) (objectType Book_bar_X BookType)
  (inReceptacle book_bar_x Shelf_bar_a) (inReceptacle Book_bar_X Shelf_bar_a))
 (:goal (and)))"""


def test_pddl_order_is_the_lower_cased_ids():
    ids = ["ToiletPaperHanger_bar_a", "Toilet_bar_b", "AppleSliced_bar_c", "Apple_bar_d"]
    assert pddl_sorted(ids) == ["Apple_bar_d", "AppleSliced_bar_c", "Toilet_bar_b", "ToiletPaperHanger_bar_a"]
    assert sorted(ids)[0] == "AppleSliced_bar_c"  # as written, "S" < "_"
    with pytest.raises(GameError, match="Book_bar_X and book_bar_x differ only in case"):
        game_from_pddl(TWINS, {"task_type": "pick_and_place_simple", "pddl_params": {}})


@pytest.mark.parametrize("case,run", _runs(AFTER), ids=[f"{c}-{r}" for c, r in _runs(AFTER)])
def test_after_win_transcript(case, run):
    after = 0
    for row, problems in replay_env(AFTER[case], run):
        assert not problems, (row["step"], row["command"], problems)
        after += row["after_win"]
    assert 1 <= after <= 5


def test_after_win_set_steps_one_to_five_times_past_the_win_in_both_dialects():
    seen = {}
    for case, run in _runs(AFTER):
        rows = AFTER[case]["transcripts"][run]
        first = next(i for i, r in enumerate(rows) if r["command"] is not None and r["done"])
        seen.setdefault(run.split("/")[0], set()).add(len(rows) - 1 - first)
        assert all(r["obs"] == rows[first]["obs"] and r["score"] == 1 for r in rows[first:])
    assert seen == {"0.4": {1, 2, 3, 4, 5}, "0.3": {1, 2, 3, 4, 5}}


def _game_and_commands(case: str, run: str):
    c = AFTER[case]
    rows = c["transcripts"][run]
    game = game_from_pddl(c["pddl"], c["traj"], case)
    return game, [r["command"] for r in rows[1:]], next(i for i, r in enumerate(rows) if r["done"])


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
@pytest.mark.parametrize("case", sorted(k for k in AFTER if not k.startswith("_"))[:5])
def test_wrappers_count_no_step_after_the_win(case, dialect):
    game, commands, won_at = _game_and_commands(case, f"{dialect}/walk")
    env = AlfWorldEnv([game], dialect=dialect, request_infos=INFOS)
    for w in (TrajectoryErrors, PropositionLog, ProgressRate, GoalSuccess):
        env = w(env)
    env.reset(options={"game": game, "template": 0})
    keys = ("trajectory_errors", "proposition_log", "progress_rate", "goal_success")
    total = 0.0
    for i, cmd in enumerate(commands, 1):
        obs, reward, terminated, truncated, info = env.step(cmd)
        total += reward
        if i == won_at:
            at_win = {k: info[k] for k in keys}
            assert terminated and reward == 1.0 and info["goal_success"]["summary"]["success"]
        elif i > won_at:
            assert terminated and not truncated and reward == 0.0
            assert {k: info[k] for k in keys} == at_win and info["step"]["details"] == {"after_win": True}
    assert total == 1.0 and info["trajectory_errors"]["summary"]["actions"] == won_at
    assert len(env.get_wrapper_attr("summaries")) == 1
    env.reset(options={"game": game, "template": 0})  # a reset starts a new episode that counts again
    assert env.step(commands[0])[-1]["trajectory_errors"]["actions"] == 1


@pytest.mark.parametrize("dialect", ["0.4", "0.3"])
def test_scorer_ignores_commands_after_the_win(dialect, tmp_path):
    for case in sorted(k for k in AFTER if not k.startswith("_"))[::3]:
        _, commands, won_at = _game_and_commands(case, f"{dialect}/walk")
        folder = tmp_path / case
        folder.mkdir()
        (folder / "initial_state.pddl").write_text(AFTER[case]["pddl"])
        (folder / "traj_data.json").write_text(json.dumps(AFTER[case]["traj"]))
        item = {"identifier": case, "game": str(folder), "commands": commands, "dialect": dialect}
        rec, cut = score_item(item), score_item({**item, "commands": commands[:won_at]})
        assert rec["success"] and rec["steps"] == won_at and rec["commands_after_win"] == len(commands) - won_at
        assert cut["commands_after_win"] == 0
        assert {k: v for k, v in rec.items() if k not in ("commands_after_win", "similarity")} == \
            {k: v for k, v in cut.items() if k not in ("commands_after_win", "similarity")}


def test_a_won_game_stays_frozen_in_index_mode_and_through_make():
    case = sorted(k for k in AFTER if not k.startswith("_"))[0]
    game, commands, won_at = _game_and_commands(case, "0.4/walk")
    env = gym.make("eai_gym/AlfWorld-v0", games=[game], action_mode="index", request_infos=INFOS)
    obs, info = env.reset(seed=0, options={"game": game, "template": 0})
    past_the_list = env.action_space.n - 1  # in the space, past every admissible command: "Nothing happens."
    for cmd in commands[:won_at]:
        obs, reward, terminated, truncated, info = env.step(info["admissible_commands"].index(cmd)
                                                            if cmd in info["admissible_commands"] else past_the_list)
    assert terminated and reward == 1.0
    won_obs, won_info = obs, info
    for a in (0, 1, past_the_list):
        obs, reward, terminated, truncated, info = env.step(a)
        assert (obs, reward, terminated) == (won_obs, 0.0, True)
        assert (info["action_mask"] == won_info["action_mask"]).all()
        assert info["admissible_commands"] == won_info["admissible_commands"] and info["facts"] == won_info["facts"]

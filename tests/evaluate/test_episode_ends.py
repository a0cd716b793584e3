"""How an episode ended: ``finished`` by the env (success, or the agent's own stop), ``max_steps`` (cut off)
when the step limit ended it: ``--max-steps`` replies, or the env's own time limit."""

from __future__ import annotations

import gymnasium as gym
import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.evaluate.client import ModelClient
from eai_gym.evaluate.episodes import EpisodePlayer, run_episodes
from eai_gym.evaluate.rundir import RunDir
from eai_gym.evaluate.targets import modes_of

from .conftest import read_json
from .test_episodes import SETTINGS, alfworld_player, oracle_answer

EPISODE_WORLDS = [w.name for w in registry.worlds() if "episodes" in modes_of(w)]


@pytest.mark.parametrize("world", EPISODE_WORLDS)
def test_episodes_that_use_all_their_steps_are_cut_off(tmp_path, fake_server, world):
    server = fake_server(answer=lambda messages: "look")  # never ends an episode (in any world's syntax)
    run = tmp_path / "run"
    assert main(["evaluate", world, "--mode", "episodes", "--model", "m", "--base-url", server.base_url,
                 "--run-dir", str(run), "--limit", "2", "--max-steps", "3"]) == 0
    result = read_json(run / "results.json")
    assert [t["status"] for t in result["tasks"]] == ["max_steps", "max_steps"]
    assert result["summary"]["cut_off"] == 2 and result["summary"]["finished"] == 0


def test_the_envs_own_time_limit_cuts_an_episode_off_and_a_won_one_is_finished(tmp_path, fake_server):
    base = alfworld_player()

    def make_env(task):
        env, options = base.make_env(task)
        return gym.wrappers.TimeLimit(env, max_episode_steps=2 if task == "1" else 40), options

    player = EpisodePlayer(make_env, base.legal_actions, base.feedback, base.instructions, base.examples)
    server = fake_server(answer=oracle_answer())  # wins game 0; game 1's env stops it after 2 steps
    client = ModelClient(server.base_url, "k", backoff_s=0.01, timeout_s=5)
    with RunDir(str(tmp_path), SETTINGS, False) as run:
        result = run_episodes(run, client, player, ["0", "1"], model="fake-model", sampling={}, system_prompt=None,
                              concurrency=1, max_steps=40, admissible=False)
    won, limited = result["tasks"]
    assert won["status"] == "finished" and won["success"]
    assert limited["status"] == "max_steps" and limited["steps"] <= 2 and not limited["success"]
    assert limited["progress"] is not None  # the wrappers' end-of-episode summary
    assert result["summary"]["finished"] == 1 and result["summary"]["cut_off"] == 1

"""Online episodes: the model plays through step() with the metric wrappers; bad replies are EAI error
records; a resumed run replays finished steps from the cache."""

from __future__ import annotations

import json
import re

import gymnasium as gym
import pytest

import eai_gym  # noqa: F401
from eai_gym.envs.alfworld import agent_prompt
from eai_gym.evaluate.client import ModelClient
from eai_gym.evaluate.episodes import EpisodePlayer, reply_action, run_episodes
from eai_gym.evaluate.rundir import RunDir
from eai_gym.wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

SETTINGS = {"world": "alfworld", "mode": "episodes", "protocol": "fixed", "model": ["fake-model"], "endpoint": None,
            "sampling": {"temperature": 0.0}, "run_options": {}}


def alfworld_player(max_steps: int = 40) -> EpisodePlayer:
    def make_env(task: str):
        env = gym.make("eai_gym/AlfWorld-v0", max_episode_steps=max_steps)
        return GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(env)))), {"split": "eval", "index": int(task)}

    return EpisodePlayer(make_env, lambda env: env.unwrapped.engine.admissible(env.unwrapped.state),
                         lambda env, obs, info: obs, agent_prompt.instructions(), agent_prompt.examples())


def oracle_answer(bad_first: bool = False):
    """A fake model that follows the optimal plan of the game in the prompt (after a thought, and with
    ``bad_first`` one illegal command first)."""
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game
    from eai_gym.envs.alfworld.oracle import Oracle

    plans = {}
    for i in range(4):
        game = eval_game(i)
        e = Engine(game)
        for template in (0, 1):
            plans[game.task_text(template).rstrip('.')] = Oracle(e).plan(e.initial_state())
    script = (["take the moon from the sky"] if bad_first else [])

    def answer(messages):
        text = messages[-1]["content"]
        task = text.split("Your task:\n", 1)[1]
        goal = re.search(r"Your task is to: (.*)", task).group(1).strip().rstrip(".")
        done = [line[2:] for line in task.split("History", 1)[-1].splitlines() if line.startswith("> ")] \
            if "History" in task else []
        steps = ["think: find it first"] + script + plans[goal]
        return steps[len(done)] if len(done) < len(steps) else "look"
    return answer


def play(run_dir, server, tasks, resume=False, admissible=False, max_steps=40):
    client = ModelClient(server.base_url, "k", backoff_s=0.01, timeout_s=5)
    with RunDir(str(run_dir), SETTINGS, resume) as run:
        return run_episodes(run, client, alfworld_player(), tasks, model="fake-model", sampling={"temperature": 0.0},
                            system_prompt=None, concurrency=2, max_steps=max_steps, admissible=admissible)


def test_oracle_model_wins_every_game_with_the_wrappers_summaries(tmp_path, fake_server):
    server = fake_server(answer=oracle_answer(), transient={"server_error": 0.2, "drop": 0.1})
    result = play(tmp_path, server, ["0", "1", "2", "3"])
    assert result["summary"]["success_rate"] == 1.0 and result["summary"]["finished"] == 4
    for rec in result["tasks"]:
        assert rec["status"] == "finished" and rec["success"] and rec["progress"] == 1.0
        assert rec["actions"][0]["thought"].startswith("think:")
        assert sum(rec["error_counts"].values()) == 0


def test_illegal_reply_is_an_error_record_and_the_episode_goes_on(tmp_path, fake_server):
    server = fake_server(answer=oracle_answer(bad_first=True))
    result = play(tmp_path, server, ["0"], admissible=True)
    rec = result["tasks"][0]
    assert rec["success"] and rec["actions"][1]["ok"] is False and rec["actions"][1]["error_type"]
    assert sum(rec["error_counts"].values()) == 1 and result["summary"]["error_counts"]
    prompts = [m for m in server.calls]
    assert any("Admissible actions:" in p for p in prompts)


def test_max_steps_cuts_an_episode_off(tmp_path, fake_server):
    server = fake_server(answer=lambda m: "look")
    result = play(tmp_path, server, ["0"], max_steps=3)
    rec = result["tasks"][0]
    assert rec["status"] == "max_steps" and rec["steps"] == 3 and not rec["success"]


def test_resume_replays_from_the_cache(tmp_path, fake_server):
    server = fake_server(answer=oracle_answer())
    first = play(tmp_path / "a", server, ["0", "1"])
    calls = server.requests
    (tmp_path / "a" / "results.json").unlink()
    again = play(tmp_path / "a", server, ["0", "1"], resume=True)
    assert server.requests == calls and again == first


@pytest.mark.parametrize("text,action", [("go to desk 1", "go to desk 1"), ("> open drawer 2\nthen more", "open drawer 2"),
                                         ("```\ntake pen 1 from desk 1\n```", "take pen 1 from desk 1"),
                                         ("\n\n  'look'  ", "look"), ("", "")])
def test_reply_action(text, action):
    assert reply_action(text) == action


def test_two_agents_each_with_its_model_solve_a_rearrange_episode(tmp_path, fake_server):
    import pettingzoo

    from eai_gym.envs.rearrange import agent_prompt as rp
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.envs.rearrange.oracle import oracle_scripts
    from eai_gym.evaluate.multi_agent import TeamPlayer, run_team_episodes
    from eai_gym.wrappers import (
        ParallelGoalSuccess,
        ParallelProgressRate,
        ParallelPropositionLog,
        ParallelTrajectoryErrors,
    )

    episode = shipped_episodes("val")[3]
    scripts = oracle_scripts(episode)  # its Wait[]s order the two agents

    def answer(messages):  # each agent's model follows its oracle script, then says Done[]
        text = messages[-1]["content"]
        agent = "agent_0" if "(agent_0)" in text.split("\n", 1)[0] else "agent_1"
        done = sum(1 for line in text.split("Your task:", 1)[1].splitlines() if line.startswith("> "))
        return scripts[agent][done] if done < len(scripts[agent]) else "Done[]"

    def make_env(task):
        env = pettingzoo.make("parallel", "eai_gym/rearrange-v0", legal_actions_info=True)
        return (ParallelGoalSuccess(ParallelProgressRate(ParallelPropositionLog(ParallelTrajectoryErrors(env)))),
                {"episode_id": task})

    server = fake_server(answer=answer)
    player = TeamPlayer(make_env, lambda a: rp.instructions({"agent": a}), rp.examples())
    client = ModelClient(server.base_url, "k", backoff_s=0.01)
    with RunDir(str(tmp_path), {**SETTINGS, "world": "rearrange"}, False) as run:
        result = run_team_episodes(run, client, player, [episode.episode_id], models={"agent_0": "m0", "agent_1": "m1"},
                                   sampling={"temperature": 0.0}, system_prompt=None, concurrency=1, max_steps=30,
                                   admissible=True)
    rec = result["tasks"][0]
    assert rec["success"] and rec["progress"] == 1.0 and rec["status"] == "finished"
    for agent, script in scripts.items():  # each agent's replies are its model's (the episode ends on success)
        played = [a["action"] for a in rec["actions"][agent]]
        assert played == script[:len(played)] and len(played) >= len(script) - 1
    assert sum(rec["error_counts"].values()) == 0
    models = {json.loads(k)[0]["content"].split("\n", 1)[0][:40] for k in server.calls}
    assert len(models) == 2

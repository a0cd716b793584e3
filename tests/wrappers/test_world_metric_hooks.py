"""The per-world pieces behind the wrappers: progress definitions, ALFWorld goal conditions and error classes."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import eai_gym  # noqa: F401
from eai_gym.core import ErrorType
from eai_gym.envs.alfworld.command_errors import classify
from eai_gym.envs.alfworld.engine import Engine
from eai_gym.envs.alfworld.generator import eval_game, eval_split
from eai_gym.envs.alfworld.goal_conditions import GoalConditions
from eai_gym.envs.alfworld.oracle import Oracle
from eai_gym.wrappers import ProgressRate


def _gold_progress(env_id, task_id, actions):
    env = ProgressRate(gym.make(env_id, task_id=task_id, max_episode_steps=len(actions)))
    obs, info = env.reset(seed=0)
    reports = [info["progress_rate"]]
    for a in actions:
        *_, te, tr, info = env.step(a)
        reports.append(info["progress_rate"])
        if te or tr:
            break
    return reports, te


@pytest.mark.parametrize("task_index", [0, 7, 20, 31, 99])
def test_behavior_progress_follows_the_translator_plan(task_index):
    from eai_gym.envs.behavior.tasks import task_ids, task_record

    t = task_ids()[task_index]
    reports, won = _gold_progress("eai_gym/Behavior-v0", t, [json.dumps(s) for s in task_record(t)["gold_plan"]])
    assert reports[0]["definition"] == "subgoal_plan" and reports[0]["value"] == 0.0
    assert reports[0]["initial_plan_length"] > 0
    assert all(0.0 <= r["value"] <= 1.0 for r in reports)
    assert won and reports[-1]["value"] == 1.0 and reports[-1]["max"] == 1.0


def test_virtualhome_progress_definitions():
    from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids

    seen = set()
    for t in task_ids()[:40]:
        acts = [json.dumps({k: v}) for k, v in json.loads(gold_plan_json(t), object_pairs_hook=list)]
        reports, won = _gold_progress("eai_gym/VirtualHome-v0", t, acts)
        seen.add(reports[0]["definition"])
        if reports[0]["definition"] == "subgoal_plan":
            assert reports[0]["plan_length"] == reports[0]["initial_plan_length"] > 0
        if won:
            assert reports[-1]["value"] == 1.0
    assert seen == {"subgoal_plan", "goal_propositions_fraction"}


def test_alfworld_goal_conditions_hold_together_exactly_when_won():
    for i in range(0, len(eval_split()), 3):
        engine = Engine(eval_game(i))
        conditions = GoalConditions(engine)
        s = engine.initial_state()
        for cmd in (Oracle(engine).plan(s) or []) + [None]:
            props = conditions.evaluate(s)
            assert props and all(p["holds"] for p in props) == engine.won(s)
            if cmd:
                engine.step(s, cmd)


@pytest.mark.parametrize("command,error", [
    (3, ErrorType.PARSING), ("fly away", ErrorType.PARSING), ("put apple 1 in/on fridge 1", ErrorType.PARSING),
    ("go to moon 1", ErrorType.HALLUCINATION), ("take unicorn 2 from countertop 1", ErrorType.HALLUCINATION),
    ("open countertop 1", ErrorType.AFFORDANCE), ("use countertop 1", ErrorType.AFFORDANCE),
    ("take countertop 1 from countertop 1", ErrorType.AFFORDANCE),
    ("go to countertop 1", None),
])
def test_alfworld_error_classes(command, error):
    env = gym.make("eai_gym/AlfWorld-v0")
    env.reset(seed=0, options={"split": "eval", "index": 0})
    engine = env.unwrapped.engine
    if "countertop 1" not in engine.name.values():
        pytest.skip("the game has no countertop 1")
    *_, info = env.step(command)
    if error is None:
        assert info["step"]["ok"] or info["step"]["error"] == "missing_step"
    else:
        assert info["step"]["error"] == error.value and not info["step"]["ok"]
        assert classify(engine, command)[0] is error

"""``eai-gym prompts behavior1k``: EAI's BEHAVIOR templates adapted to BEHAVIOR-1K, deterministic."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from eai_gym.cli import main
from eai_gym.envs.behavior.prompts import prompt_data
from eai_gym.envs.behavior1k import prompts as P
from eai_gym.envs.behavior1k.data import activity_names, activity_record
from eai_gym.envs.behavior1k.interpretation import edge_states, gold_conditions, node_states
from eai_gym.envs.behavior1k.world import ACTIONS

ROOT = Path(__file__).resolve().parents[2]
DIGEST = ("import hashlib, json; from eai_gym.envs.behavior1k.prompts import build_prompts; "
          "print(hashlib.sha256(json.dumps([build_prompts(m) for m in ('action_sequencing', "
          "'goal_interpretation')]).encode()).hexdigest())")


def test_prompts_do_not_depend_on_the_hash_seed():
    digests = set()
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", DIGEST], env=env, cwd=ROOT, capture_output=True, text=True,
                             check=True, timeout=300)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
    here = [P.build_prompts(m) for m in ("action_sequencing", "goal_interpretation")]
    assert digests == {hashlib.sha256(json.dumps(here).encode()).hexdigest()}


def test_one_prompt_per_activity_in_order():
    for module in P.MODULES:
        prompts = P.build_prompts(module)
        assert [p["identifier"] for p in prompts] == list(activity_names()) and len(prompts) == 1016


def test_action_sequencing_prompt_holds_the_activity_and_the_env_vocabulary():
    text = P.action_sequencing("clean_rubber")
    listed = [line.split(" # ")[0] for line in text.split("The action_name must be one of the following:\n")[1]
              .split("\nFormat of the interactable objects:")[0].splitlines()]
    assert listed == list(ACTIONS)
    task = text.split("Your task:")[1]
    assert "['not', 'covered', 'hose.n.03_1', 'mud.n.03_1']" in task  # goal, flattened as EAI writes it
    assert "['covered', 'hose.n.03_1', 'mud.n.03_1']" in task and "inroom" not in task
    assert "{'name': 'rag.n.01_1', 'category': 'rag.n.01'}" in task
    assert "'name': 'water.n.06_1'" not in task and "'name': 'agent.n.01_1'" not in task  # never targets
    assert "LEFT_GRASP" not in text and "two" not in text.split("Format of the action commands:")[1][:300]
    # the parts EAI's template keeps are its own text
    template = prompt_data()["templates"]["action_sequencing"]
    for kept in (template[:template.index("For example:")], "Format of the interactable objects:",
                 template[template.index("Please output the list"):].split("\n")[0]):
        assert kept.replace("{{", "{").replace("}}", "}") in text


def test_quantified_goal_lines_are_the_conjunct_tokens():
    text = P.action_sequencing("assembling_gift_baskets")
    assert ("['forpairs', 'wicker_basket.n.01', '-', 'wicker_basket.n.01', 'candle.n.01', '-', 'candle.n.01', "
            "'inside', 'candle.n.01', 'wicker_basket.n.01']") in text
    assert len(P.goal_lines("assembling_gift_baskets")) == len(activity_record("assembling_gift_baskets")["goal"])


def test_goal_interpretation_prompt_uses_the_scorer_vocabulary():
    text = P.goal_interpretation("clean_rubber")
    assert "{" + ", ".join(f'"{s}"' for s in node_states()) + "}" in text
    assert "{" + ", ".join(f'"{s}"' for s in edge_states()) + "}" in text
    assert "Stained" not in text and "Dusty" not in text
    assert "rag.n.01_1: ['real', 'folded', 'on_fire', 'unfolded']" in text  # a flammable cloth
    assert '"Task Name": "clean_rubber"' in text and "['covered', 'hose.n.03_1', 'stain.n.01_1']" in text
    # the answer is not in the prompt: no goal literal that is not already an initial one
    assert "['not', ['covered'" not in text and json.dumps(gold_conditions("clean_rubber")) not in text


def test_example_is_the_packaged_gold_plan():
    from eai_gym.envs.behavior1k.gold import gold_plan

    example = P.action_sequencing("store_rugs").split("Example 1:")[1].split("Your task:")[0]
    plan = json.loads(example.split("Output:\n")[1])
    assert [f"{s['action']}({s['object']})" for s in plan] == gold_plan(P.EXAMPLE_ACTIVITY)


def test_bad_input_names_it():
    with pytest.raises(ValueError, match="no_such_activity"):
        P.build_prompts("goal_interpretation", ["no_such_activity"])
    with pytest.raises(ValueError, match="unknown BEHAVIOR-1K prompt module"):
        P.build_prompts("subgoal_decomposition")
    with pytest.raises(ValueError, match="string"):
        P.build_prompts("action_sequencing", "clean_rubber")  # type: ignore[arg-type]


def test_cli_prompts(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert main(["prompts", "behavior1k", "--mode", "goal_interpretation", "--task", "clean_rubber",
                 "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == P.build_prompts("goal_interpretation", ["clean_rubber"])
    assert main(["prompts", "behavior1k", "--mode", "action_sequencing", "--limit", "2", "--out", "-"]) == 0
    assert [p["identifier"] for p in json.loads(capsys.readouterr().out)] == list(activity_names()[:2])

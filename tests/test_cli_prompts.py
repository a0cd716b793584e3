"""``eai-gym prompts``: every registered prompt mode, its options and its refusals."""

from __future__ import annotations

import json

import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.cli_prompts import prompt_modes


def test_every_eai_module_has_prompts_in_both_worlds():
    pairs = set(prompt_modes())
    for world in ("virtualhome", "behavior"):
        for module in ("goal_interpretation", "action_sequencing", "subgoal_decomposition"):
            assert (world, module) in pairs


@pytest.mark.parametrize("world,mode,protocol", [(w, m, p) for w, m in prompt_modes()
                                                 for p in registry.mode(w, m).protocols])
def test_prompts_command_writes_the_builders_prompts(tmp_path, world, mode, protocol):
    spec = registry.mode(world, mode)
    expected = spec.prompt_items(protocol, {})
    out = tmp_path / "p.json"
    assert main(["prompts", world, "--mode", mode, "--protocol", protocol, "--limit", "3", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == expected[:3]
    one = expected[-1]["identifier"]
    assert main(["prompts", world, "--mode", mode, "--protocol", protocol, "--task", one, "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == [expected[-1]]


def test_stdout_and_plain_virtualhome_ids(capsys):
    assert main(["prompts", "virtualhome", "--mode", "subgoal_decomposition", "--task", "27_2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert [p["identifier"] for p in printed] == ["scene_1_27_2"]


@pytest.mark.parametrize("args,message", [
    (["virtualhome", "--mode", "goal_interpretation", "--task", "no_such_task"], "no prompt for unknown task"),
    (["virtualhome", "--mode", "goal_interpretation", "--protocol", "partnr"], "protocol"),
    (["virtualhome", "--mode", "goal_interpretation", "--out", "/proc/x/prompts.json"], "cannot write"),
    (["virtualhome", "--mode", "goal_interpretation", "--limit", "-1"], "--limit"),
])
def test_refusals_exit_2(capsys, args, message):
    assert main(["prompts", *args]) == 2
    assert message in capsys.readouterr().err

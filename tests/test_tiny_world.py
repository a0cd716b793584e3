"""A world is added by one folder, its data and one registry line: ``tests/tiny_world/`` is a whole world (a box,
a key, a door; one scoring mode with packaged gold plans), added here with ``registry.register_world(spec.WORLD)``;
then ``eai-gym list``, ``show``, ``score --gold``, ``score`` of a plans file, ``report``, and the registry's env and
mode checks run on it — without touching any package file."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
import test_registry
import test_registry_modes
from tiny_world import spec
from tiny_world.taskset import ENV_ID
from tiny_world.world import data

from eai_gym import registry
from eai_gym.cli import main

GOLD = {t: v["gold"] for t, v in data()["tasks"].items()}


@pytest.fixture
def tiny():
    registry.register_world(spec.WORLD)  # the one line that adds the world
    yield spec.WORLD
    registry.unregister_world("tiny")


# ------------------------------------------------------------------------------ the tests
def test_list_and_show_name_the_tiny_world(tiny, capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and ENV_ID in out and "tiny plans" in out
    assert main(["list", "tiny"]) == 0
    assert capsys.readouterr().out.splitlines() == ["find_the_key\tTake the key.", "open_the_door\tOpen the door."]
    assert main(["show", "tiny", "open_the_door", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["gold_plan"] == GOLD["open_the_door"]


def test_score_gold_and_a_plans_file_then_report(tiny, tmp_path, capsys):
    out = tmp_path / "gold.json"
    assert main(["score", "tiny", "--gold", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert (res["world"], res["mode"], res["protocol"], res["n_items"]) == ("tiny", "plans", "fixed", 2)
    assert json.loads(capsys.readouterr().out) == res["summary"] == {"plans": 2, "success_rate": 1.0}
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps([{"identifier": "open_the_door", "actions": ["open door"]}, 7,
                                 {"identifier": "find_the_key", "actions": ["open box", "take key"]}]))
    mine = tmp_path / "mine.json"
    assert main(["score", "tiny", str(plans), "--out", str(mine)]) == 0
    tasks = json.loads(mine.read_text())["tasks"]
    assert [t["status"] for t in tasks] == ["evaluated", "invalid_input", "evaluated"]
    assert [t.get("success") for t in tasks] == [False, None, True]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["score", "tiny", "--gold", "--seed", "1"])
    assert "--seed does not apply to tiny --mode plans" in capsys.readouterr().err
    pytest.importorskip("matplotlib")
    html = tmp_path / "report.html"
    assert main(["report", str(out), str(mine), "--out", str(html)]) == 0
    page = html.read_text()
    assert "<td>tiny</td><td>plans</td>" in page and "open_the_door" in page


def test_the_registry_env_checks_pass_on_the_tiny_world(tiny):
    assert ENV_ID in gym.registry
    test_registry.test_check_env_no_warnings(ENV_ID, {})
    test_registry.test_make_with_module_prefix(ENV_ID)
    test_registry.test_seeded_determinism_and_pickle(ENV_ID)


def test_the_registry_mode_checks_pass_on_the_tiny_world(tiny):
    test_registry_modes.check_mode_entry_points("tiny", "plans")
    test_registry_modes.check_cli_offers("tiny", "plans")
    test_registry_modes.check_gold_scores("tiny", "plans")
    test_registry_modes.check_summary_fields("tiny", "plans")


def test_the_tiny_world_leaves_with_its_fixture():
    assert "tiny" not in registry.world_names()

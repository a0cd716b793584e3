from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eai_gym.cli import main

DATA = Path(__file__).resolve().parents[1] / "reference" / "data"


def test_score_gold_writes_results(tmp_path, capsys):
    out = tmp_path / "res.json"
    assert main(["score", "virtualhome", "--gold", "--protocol", "eai-1.0.5", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    res = json.loads(out.read_text())
    assert printed == res["summary"]
    assert res["summary"]["trajectory_evaluation"]["execution_success_rate"] == 89.2
    assert len(res["tasks"]) == 342
    umask = __import__("os").umask(0)
    __import__("os").umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # an ordinary file, not mkstemp's 0600


def test_score_file_with_bad_items(tmp_path, capsys):
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps({"11_1": '{"WALK": ["floor_lamp", "1000"], "SWITCHON": ["floor_lamp", "1000"]}',
                                 "nope": "{}"}))
    out = tmp_path / "r.json"
    assert main(["score", "virtualhome", str(plans), "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert [t["status"] for t in res["tasks"]] == ["evaluated", "invalid_input"]
    assert res["tasks"][0]["success"] is True
    assert "invalid input" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["not json", "42", '"x"'])
def test_unreadable_file_exit_code(tmp_path, content, capsys):
    p = tmp_path / "p.json"
    p.write_text(content)
    assert main(["score", "virtualhome", str(p)]) == 2
    assert str(p) in capsys.readouterr().err


def test_usage_errors():
    with pytest.raises(SystemExit) as e:
        main(["score", "virtualhome"])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        main(["score", "virtualhome", "x.json", "--protocol", "bogus"])
    assert e.value.code == 2


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "eai_gym.cli", "--version"], capture_output=True, text=True)
    assert r.returncode == 0 and "eai-gym" in r.stdout


def test_results_do_not_depend_on_the_hash_seed(tmp_path):
    outs = []
    for seed in ("0", "4242"):
        out = tmp_path / f"r{seed}.json"
        env = {**__import__("os").environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "eai_gym.cli", "score", "virtualhome", "--gold", "--protocol",
                        "eai-1.0.5", "--gold-shortcut", "off", "--out", str(out)], check=True,
                       capture_output=True, env=env)
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_score_behavior(tmp_path, capsys):
    out = tmp_path / "b.json"
    assert main(["score", "behavior", "--gold", "--protocol", "eai-1.0.5", "--initial-state",
                 "reference-defaults", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["summary"]["goal_evaluation"]["task_success_rate"] == 0.7677
    assert res["n_invalid_input"] == 1 and res["initial_state"] == "reference-defaults"
    plans = tmp_path / "p.json"
    plans.write_text(json.dumps({"assembling_gift_baskets_0_Beechwood_0_int_0_2021-10-26_12-46-37":
                                 'Plan: [{"action": "LEFT_GRASP", "object": "candle_0"}]'}))
    assert main(["score", "behavior", str(plans), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["tasks"][0]["execution_success"] is True


def test_score_subgoals(tmp_path):
    out = tmp_path / "s.json"
    plans = tmp_path / "p.json"
    plans.write_text(json.dumps([{"identifier": "scene_1_11_1", "llm_output": json.dumps(
        {"output": ["NEXT_TO(character.65, floor_lamp.1000)", "ON(floor_lamp.1000)"]})}]))
    assert main(["score", "virtualhome", str(plans), "--mode", "subgoal_decomposition", "--out", str(out)]) == 0
    rec = json.loads(out.read_text())["tasks"][0]
    assert rec["category"] == "Correct" and rec["actions"][-1] == "[SWITCHON] <floor_lamp> (1000)"
    assert main(["score", "virtualhome", "--gold", "--mode", "subgoal_decomposition", "--protocol", "eai-1.0.5",
                 "--seed", "3", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["seed"] == 3


def test_score_behavior_subgoals(tmp_path):
    out = tmp_path / "b.json"
    assert main(["score", "behavior", "--gold", "--mode", "subgoal_decomposition", "--protocol", "eai-1.0.5",
                 "--initial-state", "reference-defaults", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    recorded = json.loads((DATA / "behavior" / "subgoal_gold_actions.json").read_text())
    assert res["summary"] == recorded["summary"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"identifier": "assembling_gift_baskets", "llm_output": "no json here"},
                               {"identifier": 7, "llm_output": "{}"}]))
    assert main(["score", "behavior", str(bad), "--mode", "subgoal_decomposition", "--out", str(out)]) == 0
    tasks = json.loads(out.read_text())["tasks"]
    assert tasks[0]["category"] == "NotParseable" and tasks[1]["status"] == "invalid_input"


def test_results_file_has_one_record_per_line(tmp_path):
    import json as _json

    from eai_gym.scoring.io import dumps_results

    obj = {"world": "w", "summary": {"a": {"b": 1}}, "tasks": [{"identifier": str(i), "x": [i]} for i in range(5)]}
    text = dumps_results(obj)
    assert _json.loads(text) == obj
    assert sum(line.startswith('  {"identifier"') for line in text.splitlines()) == 5
    assert dumps_results({}) == "{}\n" and _json.loads(dumps_results([1, {"a": 2}])) == [1, {"a": 2}]

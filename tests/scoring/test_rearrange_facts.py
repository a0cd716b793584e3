"""The fact-replay scorer: `eai-gym score rearrange CASES --mode facts` and its Python API."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from eai_gym.cli import main
from eai_gym.scoring.rearrange.facts import RECORD_FIELDS, score_cases, score_paths

DATA = Path(__file__).parents[1] / "reference" / "data" / "partnr"
with gzip.open(DATA / "recorded_cases.json.gz", "rt", encoding="utf-8") as _f:
    CASES = {c["name"]: c for c in json.load(_f)}


def write(folder: Path, name: str, data) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data))
    return path


def test_cli_scores_a_folder_in_name_order(tmp_path, capsys):
    folder = tmp_path / "cases"
    for name in ("case_003", "case_001", "case_002", "handmade/ex1"):
        write(folder, name.replace("handmade/", "") + ".input.json", CASES[name]["input"])
        write(folder, name.replace("handmade/", "") + ".expected.json", CASES[name]["expected"])  # ignored
    out = tmp_path / "results.json"
    assert main(["score", "rearrange", str(folder), "--mode", "facts", "--protocol", "partnr", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert [t["case_id"] for t in res["tasks"]] == [1, 2, 3, "ex1.input.json"]
    assert res["summary"]["n_cases"] == 4 and res["summary"]["n_evaluation_error"] == 1
    for t in res["tasks"]:
        name = t["case_id"] if isinstance(t["case_id"], str) else f"case_{t['case_id']:03d}"
        expected = CASES["handmade/ex1" if name == "ex1.input.json" else name]["expected"]
        assert {k: t.get(k) for k in RECORD_FIELDS if k != "case_id"} == \
            {k: expected.get(k) for k in RECORD_FIELDS if k != "case_id"}
    printed = json.loads(capsys.readouterr().out)
    assert printed == res["summary"]
    evaluated = [t for t in res["tasks"] if t["status"] == "evaluated"]
    assert printed["task_percent_complete"] == pytest.approx(
        sum(t["task_percent_complete"] for t in evaluated) / len(evaluated))


def test_bad_files_and_cases_cost_only_themselves(tmp_path, capsys):
    good = write(tmp_path, "good.json", CASES["handmade/ex1"]["input"])
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    listed = write(tmp_path, "list.json", [CASES["case_001"]["input"], {"propositions": "nope", "worlds": [{}]},
                                           {"propositions": [], "worlds": [{}], "truths": [[]]}, 7])
    out = tmp_path / "r.json"
    code = main(["score", "rearrange", str(good), str(broken), str(tmp_path / "missing.json"), str(listed),
                 "--mode", "facts", "--out", str(out)])
    assert code == 0
    tasks = json.loads(out.read_text())["tasks"]
    assert [t["case_id"] for t in tasks] == ["good.json", "broken.json", "missing.json", 1, "list.json[1]",
                                             "list.json[2]", "list.json[3]"]
    assert [t["status"] for t in tasks] == ["evaluated", "invalid_input", "invalid_input", "evaluated",
                                            "invalid_input", "invalid_input", "invalid_input"]
    assert "not valid JSON" not in tasks[1]["error"] and "cannot read" in tasks[1]["error"]
    assert "exactly one of 'worlds'" in tasks[5]["error"]
    assert "must be a JSON object" in tasks[6]["error"]
    assert "invalid input 'list.json[1]'" in capsys.readouterr().err


def test_per_step_values_stop_at_an_evaluation_error():
    res = score_cases([CASES["case_060"]["input"]], "partnr")
    t = res["tasks"][0]
    assert t["status"] == "evaluation_error" and len(t["per_step"]) == 2
    assert t["per_step"] == CASES["case_060"]["expected"]["per_step"]


def test_protocol_and_mode_are_checked(tmp_path, capsys):
    case = write(tmp_path, "c.json", CASES["handmade/ex1"]["input"])
    with pytest.raises(SystemExit):
        main(["score", "rearrange", str(case), "--protocol", "eai-1.0.5"])
    with pytest.raises(SystemExit):
        main(["score", "virtualhome", str(case), "--protocol", "partnr"])
    with pytest.raises(SystemExit):
        main(["score", "rearrange", "--gold"])
    assert main(["score", "rearrange", str(case)]) == 0  # facts is rearrange's default mode


def test_python_api_matches_the_files(tmp_path):
    inputs = [CASES[n]["input"] for n in ("case_000", "case_005", "handmade/bug1")]
    api = score_cases(inputs, "partnr")
    paths = [write(tmp_path, f"{i}.json", c) for i, c in enumerate(inputs)]
    files = score_paths([str(p) for p in paths], "partnr")
    strip = lambda r: {k: v for k, v in r.items() if k not in ("case_id", "identifier")}  # noqa: E731 (identifier: the case id)
    assert [strip(r) for r in api["tasks"]] == [strip(r) for r in files["tasks"]]
    assert api["summary"] == files["summary"]


def test_entities_and_rooms_default_to_what_the_worlds_mention():
    case = {"propositions": [{"function_name": "is_in_room", "args": {"object_handles": ["cup"], "room_ids": ["kitchen"]}},
                             {"function_name": "is_on_top", "args": {"object_handles": ["cup"], "receptacle_handles": ["table"]}}],
            "worlds": [{"on_top": [["cup", "table"]]}, {"in_room": [["cup", "kitchen"]]}]}
    t = score_cases([case])["tasks"][0]
    assert t["status"] == "evaluated" and t["task_evaluation_log"]["proposition_satisfied_at"] == [1, 0]

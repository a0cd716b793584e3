"""``eai-gym report`` on inputs that are not what it expects: each a clear message naming the input (exit 2), or a
report that shows what it can, in bounded time and memory; never a traceback."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym.cli import main
from eai_gym.report.runs import Run, load_run, progress_curve


def run_report(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["report", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path, obj) -> str:
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


@pytest.mark.parametrize("content,message", [
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ("{not json", "not a readable JSON file"),
    (b"\xff\xfe{}", "not a readable JSON file"),
    ({"summary": {}}, "not an eai-gym results file"),
    ([1, 2], "not an eai-gym results file"),
])
def test_unreadable_results_exit_2_naming_the_file(tmp_path, capsys, content, message):
    p = tmp_path / "r.json"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        write(p, content)
    code, out, err = run_report(capsys, str(p))
    assert code == 2 and message in err and str(p) in err and out == ""


def test_a_directory_without_results_exits_2(tmp_path, capsys):
    (tmp_path / "settings.json").write_text("{}")
    code, _, err = run_report(capsys, str(tmp_path))
    assert code == 2 and str(tmp_path) in err and "results.json" in err


def test_a_broken_settings_file_is_noted_and_the_run_reported(tmp_path, capsys):
    write(tmp_path / "results.json", {"summary": {"episodes": 1, "success_rate": 1.0}, "tokens": {"total_tokens": 5},
                                      "tasks": [{"identifier": "0", "status": "finished", "success": True}, 7]})
    (tmp_path / "settings.json").write_text("{broken")
    code, out, _ = run_report(capsys, str(tmp_path))
    assert code == 0 and "note:" in out and "model and endpoint unknown" in out
    assert "1 task entries are not JSON objects" in out and "items 1, evaluated 1" in out


def test_huge_counts_and_step_numbers_stay_bounded(tmp_path, capsys):
    from eai_gym.report.runs import MAX_CURVE_STEPS

    records = [{"identifier": "a", "status": "evaluated", "error_counts": {"parsing": 10 ** 18, "x": "many", "y": -3},
                "num_steps": 10 ** 12, "task_evaluation_log": {"proposition_satisfied_at": [1, 5, "z"]}},
               {"identifier": "b", "status": "evaluated", "agentquest_progress": [0.5] * 10_000,
                "success": "yes"}]
    p = write(tmp_path / "r.json", {"world": "nowhere", "mode": "m", "protocol": "p", "summary": {"a": {"b": 1}},
                                    "tasks": records})
    code, out, _ = run_report(capsys, p)
    assert code == 0 and re.search(rf"parsing\s+{10 ** 18}\n", out)
    run = load_run(p)
    assert len(progress_curve(run, records[0])) == MAX_CURVE_STEPS
    assert len(progress_curve(run, records[1])) == MAX_CURVE_STEPS


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=20)
record_keys = st.sampled_from(["identifier", "status", "success", "error_counts", "errors", "error_type",
                               "runtime_errors", "agentquest_progress", "task_evaluation_log", "num_steps",
                               "propositions", "execution_info", "actions", "executed", "category", "task_kind",
                               "progress", "request_error", "lcs"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.dictionaries(record_keys, json_values, max_size=8), max_size=5),
       st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_any_records_give_a_text_report(records, summary):
    from eai_gym.report.text import text_report

    run = Run("r", "r.json", "virtualhome", "action_sequencing", "fixed", summary, records)
    text = text_report([run], task_lines=-1)
    assert text.startswith("Runs\n") and "Per-task drill-down" in text

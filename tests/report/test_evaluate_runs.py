"""``eai-gym report`` on runs of ``eai-gym evaluate`` (made here against the fake OpenAI-compatible server): an
offline mode, single-agent episodes and a two-agent rearrange episode, as run directories and as results files."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("openai")
pytest.importorskip("tenacity")

from eai_gym.cli import main  # noqa: E402
from eai_gym.evaluate.fake_server import FakeChatServer  # noqa: E402


def alfworld_oracle(messages: list[dict]) -> str:
    """A model that plays the optimal plan of the ALFWorld game whose goal the prompt states."""
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game
    from eai_gym.envs.alfworld.oracle import Oracle

    text = messages[-1]["content"]
    task = text.split("Your task:\n", 1)[1]
    goal = re.search(r"Your task is to: (.*)", task).group(1).strip().rstrip(".")
    for i in range(4):
        game = eval_game(i)
        if game.task_text(0).rstrip(".") == goal:
            engine = Engine(game)
            plan = Oracle(engine).plan(engine.initial_state())
            done = sum(line.startswith("> ") for line in task.split("History", 1)[-1].splitlines()) \
                if "History" in task else 0
            return plan[done] if done < len(plan) else "look"
    return "look"


def evaluate(run_dir, *args: str) -> int:
    return main(["evaluate", *args, "--run-dir", str(run_dir), "--concurrency", "1", "--max-retries", "0"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("evaluate_runs")
    with FakeChatServer(alfworld_oracle) as s:
        assert evaluate(d / "alf_won", "alfworld", "--mode", "episodes", "--model", "fake-model", "--base-url",
                        s.base_url, "--task", "0", "--task", "1", "--max-steps", "30") == 0
    with FakeChatServer() as s:  # replies that are no action: every step a parsing error, cut off by --max-steps
        assert evaluate(d / "alf_junk", "alfworld", "--mode", "episodes", "--model", "fake-model", "--base-url",
                        s.base_url, "--limit", "2", "--max-steps", "3") == 0
        assert evaluate(d / "vh", "virtualhome", "--mode", "action_sequencing", "--model", "fake-model",
                        "--base-url", s.base_url, "--limit", "3") == 0
    with FakeChatServer(lambda messages: "Done[]") as s:
        assert evaluate(d / "team", "rearrange", "--mode", "episodes", "--model", "agent_0=robot-model", "--model",
                        "agent_1=human-model", "--base-url", s.base_url, "--limit", "1") == 0
    with FakeChatServer(transient={"server_error": 1.0}, fail_attempts=100) as s:  # every request fails
        assert evaluate(d / "failed", "virtualhome", "--mode", "action_sequencing", "--model", "fake-model",
                        "--base-url", s.base_url, "--limit", "2", "--request-timeout", "5") == 3
    return d


def report(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["report", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_episodes_run_shows_world_mode_protocol_counts_model_and_tokens(runs, capsys):
    code, out, _ = report(capsys, str(runs / "alf_won"))
    assert code == 0
    assert "alf_won: alfworld episodes, protocol fixed (eai-gym evaluate)" in out
    assert "items 2, evaluated 2" in out and "model fake-model at http://127.0.0.1:" in out
    results = json.loads((runs / "alf_won" / "results.json").read_text())
    assert f"tokens {results['tokens']['total_tokens']} " in out and "request errors 0" in out
    headline = out.split("Headline figures")[1].split("\n\n")[0]
    assert re.search(r"success_rate\s+100\.00 %", headline) and re.search(r"progress_rate\s+100\.00 %", headline)
    assert re.search(r"all\s+2/2 \(100\.00 %\)", out.split("Success by task category")[1])
    assert "after step 1" in out.split("Progress over steps")[1]
    drill = out.split("Per-task drill-down")[1]
    assert re.search(r"\n  0\s+success", drill) and re.search(r"\n  1\s+success", drill)


def test_episodes_cut_off_are_evaluated_failures_with_their_errors(runs, capsys):
    code, out, _ = report(capsys, str(runs / "alf_junk"))
    assert code == 0 and "items 2, evaluated 2" in out
    assert re.search(r"all\s+0/2 \(0\.00 %\)", out) and re.search(r"parsing\s+6\n", out)
    assert re.search(r"mean_steps\s+3\.00 steps", out)


def test_two_agent_run_names_both_models(runs, capsys):
    code, out, _ = report(capsys, str(runs / "team"))
    assert code == 0 and "rearrange episodes, protocol fixed" in out
    assert "model agent_0=robot-model, agent_1=human-model at http" in out and "items 1, evaluated 1" in out


def test_offline_run_shows_the_modes_figures_in_percent(runs, capsys):
    code, out, _ = report(capsys, str(runs / "vh"))
    assert code == 0 and "vh: virtualhome action_sequencing, protocol fixed (eai-gym evaluate)" in out
    assert "items 3, evaluated 3" in out and re.search(r"trajectory_evaluation\.grammar_error\.parsing\s+100\.00 %", out)
    assert re.search(r"parsing error\s+3\n", out)


def test_failed_requests_are_counted(runs, capsys):
    code, out, _ = report(capsys, str(runs / "failed"))
    assert code == 0 and "request errors 2" in out and "request failed" in out


@pytest.mark.parametrize("run", ["alf_won", "vh", "team"])
def test_the_results_file_reports_as_its_run_directory(runs, capsys, run):
    _, by_dir, _ = report(capsys, str(runs / run))
    _, by_file, _ = report(capsys, str(runs / run / "results.json"))
    assert by_file == by_dir
    assert by_dir.count("model fake-model") + by_dir.count("robot-model") == 1


def test_html_report_of_evaluate_runs(runs, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "report.html"
    code, _, err = report(capsys, str(runs / "alf_won"), str(runs / "team"), str(runs / "vh"), "--out", str(out))
    assert code == 0 and "wrote" in err
    page = out.read_text()
    assert "No success outcomes" not in page and "no per-step progress" not in page
    for text in ("alfworld", "episodes", "rearrange", "action_sequencing", "fake-model", "agent_0=robot-model",
                 "100.00 %", "<h2>Headline figures</h2>"):
        assert text in page
    runs_table = page.split("<h2>Runs</h2>")[1].split("<h2>")[0]
    assert "<td>?</td>" not in runs_table


def test_an_out_inside_a_run_directory_is_refused(runs, capsys):
    target = runs / "vh" / "requests.jsonl"
    before = target.read_bytes()
    code, out, err = report(capsys, str(runs / "vh"), "--out", str(target))
    assert code == 2 and "refusing" in err and target.read_bytes() == before and out == ""

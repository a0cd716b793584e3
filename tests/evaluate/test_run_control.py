"""A run's control: options checked before any call, identical requests sent once, retries said out loud,
and Ctrl-C / SIGTERM stop a run promptly, keeping what finished."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading

import pytest

from eai_gym.cli import main
from eai_gym.evaluate.client import ModelClient
from eai_gym.evaluate.offline import run_offline
from eai_gym.evaluate.requests import RetryReporter
from eai_gym.evaluate.rundir import RunDir

from .conftest import read_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETTINGS = {"world": "virtualhome", "mode": "action_sequencing", "protocol": "fixed", "model": ["fake-model"],
            "endpoint": None, "sampling": {"temperature": 0.0}, "run_options": {}}


@pytest.mark.parametrize("flag,value", [
    ("--request-timeout", "0"), ("--request-timeout", "-1"), ("--request-timeout", "nan"),
    ("--request-timeout", "inf"), ("--temperature", "nan"), ("--temperature", "inf"), ("--temperature", "-0.5"),
    ("--max-tokens", "0"), ("--max-tokens", "-3"), ("--limit", "0"), ("--limit", "-1"), ("--concurrency", "0"),
    ("--max-steps", "0"), ("--max-steps", "-5"), ("--history", "-1"), ("--max-retries", "-1"),
    ("--max-reply-chars", "0"), ("--concurrency", "two"),
])
def test_a_bad_option_exits_2_naming_it_before_any_call(tmp_path, fake_server, capsys, flag, value):
    server = fake_server()
    with pytest.raises(SystemExit) as e:
        main(["evaluate", "alfworld", "--mode", "episodes", "--model", "m", "--base-url", server.base_url,
              "--run-dir", str(tmp_path / "run"), "--limit", "1", "--max-steps", "1", "--max-retries", "0",
              flag, value])  # (the last value of a flag is the one taken)
    assert e.value.code == 2 and flag in capsys.readouterr().err
    assert server.requests == 0 and server.models_calls == 0 and not (tmp_path / "run").exists()


def test_identical_prompts_in_flight_are_asked_once(tmp_path, fake_server):
    server = fake_server(answer=lambda messages: "same", delay_s=0.3)
    prompts = [{"identifier": f"t{i}", "llm_prompt": "the same prompt"} for i in range(6)]
    client = ModelClient(server.base_url, "k", backoff_s=0.01, timeout_s=10)
    with RunDir(str(tmp_path), SETTINGS, False) as run:
        result = run_offline(run, client, prompts, model="fake-model", sampling={"temperature": 0.0},
                             system_prompt=None, concurrency=6,
                             score=lambda items: {"summary": {}, "tasks": [{"identifier": it["identifier"],
                                                                            "output": it["llm_output"]}
                                                                           for it in items]})
    assert server.requests == 1
    assert [t["output"] for t in result["tasks"]] == ["same"] * 6
    log = [json.loads(line) for line in open(tmp_path / "requests.jsonl")]
    assert len(log) == 6 and sum(not (x["cached"] or x.get("shared")) for x in log) == 1


def test_retry_lines_are_rate_limited_and_name_the_cause():
    class Status(Exception):
        status_code = 429
        body = {"error": {"message": "slow down"}}

    now = [0.0]
    out = io.StringIO()
    reporter = RetryReporter("http://h/v1", out, interval_s=5.0, clock=lambda: now[0])
    assert "HTTP 429: slow down" in reporter.retrying("a", Status(), 1, 6, 1.0)
    for t in (1.0, 2.0, 3.0):
        now[0] = t
        assert reporter.retrying("b", Status(), 2, 6, 2.0) is None
    now[0] = 6.0
    line = reporter.retrying("c", Status(), 3, 6, 4.0)
    assert "3 more retries" in line and "http://h/v1" in line and "retry 3 of 6" in line
    assert out.getvalue().count("\n") == 2 and reporter.retries == 5 and reporter.last_error == "HTTP 429: slow down"


def test_retries_are_reported_on_stderr_when_it_is_not_a_terminal(tmp_path, fake_server, capsys):
    server = fake_server(answer=lambda messages: "{}", transient={"rate_limit": 1.0})
    assert main(["evaluate", "virtualhome", "--mode", "action_sequencing", "--model", "fake-model",
                 "--base-url", server.base_url, "--run-dir", str(tmp_path / "run"), "--limit", "1"]) == 0
    err = capsys.readouterr().err
    assert "retry 1 of 6" in err and "HTTP 429" in err and server.base_url in err


CHILD_ARGS = ["virtualhome", "--mode", "action_sequencing", "--model", "fake-model", "--limit", "12",
              "--concurrency", "4", "--request-timeout", "600", "--max-retries", "0"]


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupt_stops_at_once_keeps_what_finished_and_resume_completes(tmp_path, fake_server, sig, code):
    """Half the prompts are answered at once, the others only when released: the interrupted run must not wait
    for them (a grace of seconds, not the request timeout), must exit 130/143 and keep the finished replies."""
    release = threading.Event()
    arrived = iter(range(10**6))
    lock = threading.Lock()

    def answer(messages):  # the first three requests are answered, the others wait
        with lock:
            n = next(arrived)
        if n >= 3:
            release.wait(600)
        return "{}"
    server = fake_server(answer=answer)
    run = tmp_path / "run"
    child = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "evaluate", *CHILD_ARGS, "--base-url",
                              server.base_url, "--run-dir", str(run)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        while (len(_cached(run)) < 3 or server.requests < 4) and child.poll() is None:  # 3 in, 1+ in flight
            threading.Event().wait(0.05)
        finished = _cached(run)
        child.send_signal(sig)
        out, err = child.communicate(timeout=120)  # the slow requests would hold it for 600 s
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        release.set()
    assert child.returncode == code, err
    assert "rerun with --resume" in err and "Traceback" not in err
    assert not (run / "results.json").exists() and finished <= _cached(run)
    before = dict(server.calls)
    assert main(["evaluate", *CHILD_ARGS, "--base-url", server.base_url, "--run-dir", str(run), "--resume"]) == 0
    for text in finished:
        assert server.calls[text] == before[text], "a finished reply was asked again"
    assert len(read_json(run / "results.json")["tasks"]) == 12


def _cached(run) -> set[str]:
    out = set()
    for root, _, files in os.walk(os.path.join(run, "cache")):
        for f in files:
            if f.endswith(".json") and not f.startswith(".tmp"):
                try:
                    entry = read_json(os.path.join(root, f))
                except (OSError, ValueError):
                    continue
                out.add(json.dumps(entry["request"]["messages"], sort_keys=True))
    return out


def test_summary_is_printed_rounded_and_kept_whole(tmp_path, fake_server, capsys):
    from eai_gym.evaluate.command import rounded

    assert rounded({"a": 0.16499999999999998, "b": [1 / 3, 2], "c": "x", "d": float("nan")})["b"] == [0.3333, 2]
    server = fake_server(answer=lambda messages: "look")
    run = tmp_path / "run"
    assert main(["evaluate", "virtualhome", "--mode", "episodes", "--model", "m", "--base-url", server.base_url,
                 "--run-dir", str(run), "--limit", "3", "--max-steps", "2"]) == 0
    printed = json.loads(capsys.readouterr().out)
    kept = read_json(run / "results.json")["summary"]
    assert printed == rounded(kept) and kept != rounded(kept)  # (a mean of three progress values)

"""``eai-gym fake-llm`` as a real process: it prints its URL first, answers every world and mode ``evaluate``
runs in that world's format (gold outputs for the EAI prompts, legal actions in episodes), switches faults
on from its command line, and stops cleanly on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys

import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.evaluate.targets import modes_of
from eai_gym.scoring.score import score

from .conftest import read_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EVALUATE_MODES = [(w.name, m) for w in registry.worlds() for m in modes_of(w)]


def start(*args: str, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "fake-llm", "--port", "0", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    url = proc.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:") and url.endswith("/v1"), (url, proc.stderr.read())
    return proc, url


def stop(proc: subprocess.Popen) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def fake_llm():
    proc, url = start()
    yield url
    assert stop(proc) == 0


def gold_of(spec: registry.ModeSpec, identifier: str):
    gold = {str(it["identifier"]): it["llm_output"] for it in spec.gold_items(
        {o.name: o.default for o in spec.options})}
    parts = identifier.split("_")
    return next(gold[k] for k in ("_".join(parts[i:]) for i in range(len(parts))) if k in gold)


@pytest.mark.parametrize("world,mode", EVALUATE_MODES)
def test_evaluate_against_the_fake_llm(tmp_path, fake_llm, world, mode):
    run = tmp_path / "run"
    assert main(["evaluate", world, "--mode", mode, "--model", "fake-model", "--base-url", fake_llm,
                 "--run-dir", str(run), "--limit", "1", "--max-steps", "4", "--admissible"]) == 0
    result = read_json(run / "results.json")
    assert result["n_items"] == 1 and result.get("n_request_errors", 0) == 0
    if mode == "episodes":
        rec = result["tasks"][0]
        assert rec["status"] in ("finished", "max_steps") and rec["steps"] >= 1
        assert sum(rec["error_counts"].values()) == 0  # every action was one of the admissible ones
    else:
        spec = registry.mode(world, mode)
        replies = read_json(run / "replies.json")
        assert replies[0]["llm_output"] == gold_of(spec, replies[0]["identifier"])  # the task's gold output
        options = {o.name: o.default for o in spec.options}
        scored = score(spec, spec.default_protocol, options, items=replies, paths=["replies.json"])[0]
        assert result["summary"] == scored["summary"]
        assert result["tasks"][0].get("status") not in ("invalid_input", "format_error", "evaluation_error")


def test_the_readme_flow_runs_as_processes(tmp_path, fake_llm):
    run = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "eai_gym.cli", "evaluate", "alfworld", "--mode", "episodes",
                           "--model", "fake-model", "--base-url", fake_llm, "--run-dir", str(run), "--limit", "2",
                           "--max-steps", "5", "--admissible"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["episodes"] == 2 and summary["finished"] + summary["cut_off"] == 2


def test_faults_from_the_command_line(tmp_path):
    proc, url = start("--faults", "rate_limit=1,surrogate", "--model", "served", "--strict-model",
                      "--api-key-env", "FAKE_KEY", env={"FAKE_KEY": "sk-fake"})
    try:
        args = ["virtualhome", "--mode", "goal_interpretation", "--base-url", url, "--limit", "1",
                "--api-key-env", "EVAL_KEY"]
        os.environ["EVAL_KEY"] = "sk-fake"
        assert main(["evaluate", *args, "--model", "served", "--run-dir", str(tmp_path / "a")]) == 0
        log = [json.loads(line) for line in open(tmp_path / "a" / "requests.jsonl", encoding="utf-8")]
        assert log[0]["retries"] == 1 and log[0]["reply"].endswith("\ud800")
        assert main(["evaluate", *args, "--model", "other", "--run-dir", str(tmp_path / "b")]) == 2
        os.environ["EVAL_KEY"] = "sk-wrong"
        assert main(["evaluate", *args, "--model", "served", "--run-dir", str(tmp_path / "c")]) == 2
    finally:
        os.environ.pop("EVAL_KEY", None)
        assert stop(proc) == 0


@pytest.mark.parametrize("args,message", [(["--faults", "bogus=1"], "unknown fault"),
                                          (["--faults", "huge=2"], "from 0 to 1"),
                                          (["--port", "-1"], "--port")])
def test_bad_fake_llm_options_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as e:
        main(["fake-llm", *args])
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_a_port_in_use_exits_2(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert main(["fake-llm", "--port", str(s.getsockname()[1])]) == 2
    assert "cannot listen" in capsys.readouterr().err


def test_a_streamed_request_gets_the_same_reply_in_chunks():
    """Clients that always stream (verifiers' harness) get the whole reply through the openai client's stream."""
    openai = pytest.importorskip("openai")
    from eai_gym.evaluate.fake_server import FakeChatServer

    with FakeChatServer(lambda messages: "go to countertop 1") as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        messages = [{"role": "user", "content": "hi"}]
        whole = client.chat.completions.create(model="fake-model", messages=messages)
        parts = list(client.chat.completions.create(model="fake-model", messages=messages, stream=True,
                                                    stream_options={"include_usage": True}))
        client.close()
    streamed = "".join(c.choices[0].delta.content or "" for c in parts if c.choices)
    assert streamed == whole.choices[0].message.content == "go to countertop 1"
    assert [c.choices[0].finish_reason for c in parts if c.choices][-1] == "stop"
    assert parts[-1].usage.completion_tokens == whole.usage.completion_tokens

"""``eai-gym serve WORLD --protocol openenv`` as a process: its first line, ``openenv validate --url``, a session."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openenv")

URL = re.compile(r"^http://127\.0\.0\.1:[0-9]+$")
OPENENV_CLI = Path(sys.executable).with_name("openenv")


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "serve", "alfworld", "--protocol", "openenv",
                             "--port", "0", "--max-sessions", "4", "--split", "train", "--reward", "progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert URL.match(url), (url, proc.stderr.read() if proc.poll() is not None else "")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.mark.skipif(not OPENENV_CLI.exists(), reason="the openenv command is not installed beside this python")
def test_openenv_validate_url_passes(server):
    out = subprocess.run([str(OPENENV_CLI), "validate", "--url", server, "--json"], capture_output=True, text=True,
                         timeout=300)
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["passed"], report
    assert report["mode"] == "simulation"
    assert all(c["passed"] for c in report["criteria"]), report["criteria"]


def test_a_session_with_the_server_process(server):
    from openenv.core import GenericEnvClient

    with GenericEnvClient(base_url=server).sync() as env:
        first = env.reset(task="0")  # of the server's split, train
        assert first.observation["world"] == "alfworld" and first.observation["admissible_actions"]
        assert first.observation["split"] == "train"
        step = env.step({"command": first.observation["admissible_actions"][0]})
        assert step.observation["step"] == 1 and step.reward >= 0.0 and not step.done
        assert env.state()["reward_kind"] == "progress"  # the server's reward
        other = env.reset(task="0", split="eval_out_of_distribution", reward="success")
        assert other.observation["split"] == "eval_out_of_distribution" and other.observation["text"] != \
            first.observation["text"]
        assert env.state()["reward_kind"] == "success"


@pytest.mark.parametrize("args, message", [(["--max-steps", "0"], "--max-steps must be at least 1"),
                                           (["--max-sessions", "0"], "--max-sessions must be at least 1"),
                                           (["--world-protocol", "eai-1.0.5"], "invalid choice"),
                                           (["--split", "valid"], "invalid choice"),
                                           (["--reward", "dense"], "invalid choice")])
def test_bad_options_are_usage_errors(args, message):
    out = subprocess.run([sys.executable, "-m", "eai_gym.cli", "serve", "alfworld", "--protocol", "openenv",
                          "--port", "0", *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and message in out.stderr and not out.stdout


def test_a_busy_port_is_a_usage_error(server):
    port = server.rsplit(":", 1)[1]
    out = subprocess.run([sys.executable, "-m", "eai_gym.cli", "serve", "behavior", "--protocol", "openenv",
                          "--port", port], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in out.stderr

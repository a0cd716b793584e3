"""``eai-gym serve``: the registry picks the server of each protocol; every server's first line is its base URL."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from eai_gym import registry

requests = pytest.importorskip("requests")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

URL = re.compile(r"^http://127\.0\.0\.1:[0-9]+$")


def test_serve_alfworld_from_the_command_line():
    """No --protocol: the world's own server (AgentGym's protocol for alfworld), as before."""
    proc = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "serve", "alfworld", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert URL.match(url), url
        env = requests.post(url + "/create", timeout=30).json()["id"]
        reset = requests.post(url + "/reset", json={"id": env, "game": 0, "world_type": "Text"}, timeout=30).json()
        assert reset["observation"] and reset["available_actions"]
        step = requests.post(url + "/step", json={"id": env, "action": reset["available_actions"][0]}, timeout=30).json()
        assert set(step) >= {"observation", "reward", "available_actions", "done"}
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_explicit_agentgym_protocol_is_the_same_server():
    proc = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "serve", "alfworld", "--port", "0",
                             "--protocol", "agentgym"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()
        assert URL.match(url), url
        assert requests.get(url + "/", timeout=30).json() == "This is environment AlfWorld."
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_unknown_world_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "eai_gym.cli", "serve", "nosuchworld"], capture_output=True, text=True)
    assert out.returncode == 2 and "invalid choice" in out.stderr


@pytest.mark.parametrize("world", registry.world_names())
def test_every_world_is_served_with_openenv(world):
    assert "openenv" in registry.server_protocols(world)


@pytest.mark.parametrize("world", registry.world_names())
def test_unknown_protocol_is_a_usage_error_naming_the_protocols(world):
    out = subprocess.run([sys.executable, "-m", "eai_gym.cli", "serve", world, "--protocol", "carrier-pigeon"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "carrier-pigeon" in out.stderr and ", ".join(registry.server_protocols(world)) in out.stderr


def test_a_new_protocol_is_served_without_cli_code(monkeypatch, capsys):
    """A protocol added to the registry is reachable through ``eai-gym serve`` as it is."""
    from eai_gym.cli import main

    calls = []
    monkeypatch.setattr(registry, "SERVERS", registry.SERVERS + (
        registry.ServerSpec("echo", f"{__name__}:echo_server"),))
    monkeypatch.setattr(sys.modules[__name__], "echo_server", lambda world, argv: calls.append((world, argv)) or 0,
                        raising=False)
    assert main(["serve", "behavior", "--port", "0", "--protocol", "echo", "--x"]) == 0
    assert calls == [("behavior", ["--port", "0", "--x"])]


def test_registry_serve_rejects_a_protocol_the_world_lacks():
    with pytest.raises(registry.RegistryError, match="not carrier-pigeon"):
        registry.serve("alfworld", "carrier-pigeon", [])

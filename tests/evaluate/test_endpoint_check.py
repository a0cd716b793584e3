"""The endpoint is checked before the first item: nothing listening, a name that does not resolve, no
OpenAI-compatible route, a wrong key or an unknown model stop the run at once (exit 2, the URL and the cause
named, no run recorded); a server without a models route but with a chat route is used."""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from eai_gym.cli import main

ARGS = ["virtualhome", "--mode", "action_sequencing", "--model", "fake-model", "--limit", "2", "--max-retries", "1"]


def evaluate(base_url: str, run, *extra: str) -> int:
    return main(["evaluate", *ARGS, "--base-url", base_url, "--run-dir", str(run), *extra])


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return port


@pytest.fixture
def not_found_server():
    """An HTTP server that answers 404 to everything (a web server that is not a model endpoint)."""
    class Handler(BaseHTTPRequestHandler):
        def _404(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(404)
            self.send_header("Content-Length", "9")
            self.end_headers()
            self.wfile.write(b"not found")
        do_GET = do_POST = _404

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def assert_refused(run, err: str, url: str, *causes: str) -> None:
    assert url in err and any(c in err.lower() for c in causes), err
    assert not (run / "results.json").exists() and not (run / "settings.json").exists()


def test_nothing_listening(tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"
    assert evaluate(url, tmp_path / "run") == 2
    assert_refused(tmp_path / "run", capsys.readouterr().err, url, "connection refused")


def test_a_refused_run_leaves_no_folder_it_made_and_keeps_what_was_there(tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"
    assert evaluate(url, tmp_path / "new" / "nested" / "run") == 2
    assert not (tmp_path / "new").exists()
    (tmp_path / "mine" / "notes").mkdir(parents=True)
    assert evaluate(url, tmp_path / "mine") == 2
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["notes"]


def test_a_name_that_does_not_resolve(tmp_path, capsys):
    url = "http://no-such-host.invalid/v1"
    assert evaluate(url, tmp_path / "run") == 2
    assert_refused(tmp_path / "run", capsys.readouterr().err, url, "not known", "resolve", "name", "address")


def test_no_openai_route(tmp_path, capsys, not_found_server):
    assert evaluate(not_found_server, tmp_path / "run") == 2
    assert_refused(tmp_path / "run", capsys.readouterr().err, not_found_server, "404")


def test_a_wrong_key(tmp_path, capsys, fake_server, monkeypatch):
    server = fake_server(api_key="right")
    monkeypatch.setenv("OPENAI_API_KEY", "wrong")
    assert evaluate(server.base_url, tmp_path / "run") == 2
    assert_refused(tmp_path / "run", capsys.readouterr().err, server.base_url, "api key", "401")
    assert server.requests == 0


def test_an_unknown_model(tmp_path, capsys, fake_server):
    server = fake_server(strict_model=True, model="served-model")
    assert evaluate(server.base_url, tmp_path / "run") == 2
    err = capsys.readouterr().err
    assert_refused(tmp_path / "run", err, server.base_url, "fake-model")
    assert "served-model" in err


def test_a_server_without_a_models_route_is_used(tmp_path, fake_server):
    server = fake_server(answer=lambda messages: "{}", models_route=False)
    assert evaluate(server.base_url, tmp_path / "run") == 0
    assert (tmp_path / "run" / "results.json").exists()
    assert server.requests == 2 + 1  # the two items and the one-token check


def test_a_refused_run_leaves_a_directory_a_new_run_can_use_and_a_cached_resume_needs_no_endpoint(tmp_path,
                                                                                                   fake_server):
    run = tmp_path / "run"
    assert evaluate(f"http://127.0.0.1:{free_port()}/v1", run) == 2
    server = fake_server(answer=lambda messages: "{}")
    assert evaluate(server.base_url, run) == 0  # no --resume needed: nothing was recorded
    (run / "results.json").unlink()
    server_url = server.base_url
    server.stop()
    assert evaluate(server_url, run, "--resume") == 0  # the endpoint is gone, but every reply is in the cache
    assert (run / "results.json").exists()

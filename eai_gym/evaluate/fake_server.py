"""A deterministic OpenAI-compatible chat server, with fault injection (``eai-gym fake-llm`` runs one).

For tests, benchmarks and dry runs of ``eai-gym evaluate`` without a model: ``POST /v1/chat/completions``
answers with ``answer(messages)`` (by default the last user message's sha256, so replies are
reproducible), and ``GET /v1/models`` lists the model. It is built on the standard library's
``http.server``: it needs no extra, and it can misbehave below HTTP (drop a connection, send bytes that
are not UTF-8 or not JSON) where a web framework would not let it. Faults are chosen per request text, so
the same prompt meets the same fault on every run:

* ``transient``: ``{kind: fraction}`` — that fraction of prompts fail on their first ``fail_attempts``
  attempts with ``rate_limit`` (429 + ``Retry-After``), ``server_error`` (500), ``slow`` (the reply
  comes after ``slow_s`` seconds, past a client's timeout), ``drop`` (the connection is closed with no
  reply), ``malformed`` (200 with a body that is not JSON), ``non_utf8`` (200 with invalid UTF-8 bytes);
* ``strict_model``: a request for another model than ``model`` gets 404 (as hosted APIs answer);
* ``api_key``: when given, a request (models route included) without ``Authorization: Bearer <api_key>``
  gets 401;
* ``models_route``: False answers ``GET /v1/models`` with 404 (servers that only have the chat route);
* ``delay_s``: every reply takes that long (a model's latency);
* ``content``: ``{kind: fraction}`` — that fraction of prompts always get, instead of the answer:
  ``empty`` content, a ``huge`` reply (``huge_chars`` characters, one long line), or the answer followed
  by a lone ``surrogate`` (``\ud800``, valid JSON), or a ``nested`` reply (``[{"action": `` 1,000 times), or
  a ``digits`` reply (an action whose id has 5,000 digits).

``calls`` counts the requests per prompt text, so a test can check that nothing was asked twice;
``models_calls`` counts the requests to the models route.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

#: the largest request body the server reads (413 above)
MAX_BODY_BYTES = 64 * 2**20

TRANSIENT = ("rate_limit", "server_error", "slow", "drop", "malformed", "non_utf8")
CONTENT = ("empty", "huge", "surrogate", "nested", "digits")


def content_fault(kind: str, answer: str, huge_chars: int) -> str:
    """The reply a content fault gives instead of ``answer``."""
    if kind == "empty":
        return ""
    if kind == "huge":
        return "x" * huge_chars
    if kind == "surrogate":
        return answer + "\ud800"
    if kind == "nested":
        return '[{"action": ' * 1000
    return "[WALK] <kitchen> (" + "1" * 5000 + ")"  # digits


def _fraction_hit(text: str, kind: str, fraction: float) -> bool:
    h = int(hashlib.sha256(f"{kind}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < fraction


def default_answer(messages: list[dict[str, Any]]) -> str:
    text = str(messages[-1].get("content", ""))
    return "reply " + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


class FakeChatServer:
    """``with FakeChatServer(answer) as server: server.base_url`` — serves until the block ends."""

    def __init__(self, answer: Callable[[list[dict[str, Any]]], str] = default_answer, *, model: str = "fake-model",
                 transient: dict[str, float] | None = None, content: dict[str, float] | None = None,
                 fail_attempts: int = 1, slow_s: float = 2.0, retry_after: str = "0", delay_s: float = 0.0,
                 api_key: str | None = None, strict_model: bool = False, models_route: bool = True,
                 huge_chars: int = 100_000, host: str = "127.0.0.1", port: int = 0) -> None:
        for kind in transient or {}:
            if kind not in TRANSIENT:
                raise ValueError(f"unknown transient fault {kind!r}; expected one of {', '.join(TRANSIENT)}")
        for kind in content or {}:
            if kind not in CONTENT:
                raise ValueError(f"unknown content fault {kind!r}; expected one of {', '.join(CONTENT)}")
        self.answer = answer
        self.model = model
        self.transient = dict(transient or {})
        self.content = dict(content or {})
        self.fail_attempts = fail_attempts
        self.slow_s = slow_s
        self.retry_after = retry_after
        self.delay_s = delay_s
        self.api_key = api_key
        self.strict_model = strict_model
        self.models_route = models_route
        self.huge_chars = huge_chars
        self.host = host
        self.port = port
        self.calls: Counter[str] = Counter()
        self.requests = 0
        self.models_calls = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "the server is not started"
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self._server.server_address[1]}/v1"

    def _authorized(self, handler: Any) -> bool:
        return self.api_key is None or handler.headers.get("Authorization") == f"Bearer {self.api_key}"

    def start(self) -> "FakeChatServer":
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                # headers and body go out in two writes: without this, every reply waits for a delayed ACK
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None,
                      content_type: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:  # the client gave up (timeout) and closed the connection
                    self.close_connection = True

            def do_GET(self) -> None:  # noqa: N802
                if self.path.rstrip("/").endswith("/models") and owner.models_route:
                    with owner._lock:
                        owner.models_calls += 1
                    if not owner._authorized(self):
                        self._send(401, b'{"error": {"message": "invalid api key", "code": "invalid_api_key"}}')
                        return
                    self._send(200, json.dumps({"object": "list", "data": [
                        {"id": owner.model, "object": "model", "owned_by": "eai-gym"}]}).encode())
                else:
                    self._send(404, b'{"error": {"message": "not found"}}')

            def do_POST(self) -> None:  # noqa: N802
                text = self.headers.get("Content-Length") or "0"
                length = int(text) if text.isdigit() and len(text) < 12 else -1
                if not 0 <= length <= MAX_BODY_BYTES:
                    self.close_connection = True
                    self._send(413, b'{"error": {"message": "request body too large or without a length"}}')
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self.rfile.read(length)
                    self._send(404, b'{"error": {"message": "no such route", "code": "not_found"}}')
                    return
                if not owner._authorized(self):
                    self.rfile.read(length)
                    self._send(401, b'{"error": {"message": "invalid api key", "code": "invalid_api_key"}}')
                    return
                try:
                    request = json.loads(self.rfile.read(length))
                    messages = request["messages"]
                except (ValueError, KeyError, TypeError):
                    self._send(400, b'{"error": {"message": "bad request body"}}')
                    return
                if owner.strict_model and request.get("model") != owner.model:
                    self._send(404, json.dumps({"error": {"message": f"model {request.get('model')!r} not found",
                                                          "code": "model_not_found"}}).encode())
                    return
                owner._handle(self, request, messages)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that hung up mid-reply is not the server's error

        if ":" in self.host:
            Server.address_family = socket.AF_INET6
        self._server = Server((self.host, self.port), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "FakeChatServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def _handle(self, handler: Any, request: dict[str, Any], messages: list[dict[str, Any]]) -> None:
        text = json.dumps(messages, sort_keys=True)
        with self._lock:
            self.requests += 1
            self.calls[text] += 1
            attempt = self.calls[text]
        if attempt <= self.fail_attempts:
            for kind, fraction in sorted(self.transient.items()):
                if _fraction_hit(text, kind, fraction):
                    return self._fault(handler, kind)
        if self.delay_s:
            time.sleep(self.delay_s)
        try:
            content = self.answer(messages)
        except Exception as e:  # the test's answer function failed: say so, as a server would
            handler._send(500, json.dumps({"error": {"message": f"answer failed: {type(e).__name__}: {e}"}}).encode())
            return
        for kind, fraction in sorted(self.content.items()):
            if _fraction_hit(text, kind, fraction):
                content = content_fault(kind, content, self.huge_chars)
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": len(content.split()),
                 "total_tokens": prompt_tokens + len(content.split())}
        if request.get("stream"):
            return self._stream(handler, request, content, usage)
        body = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": request.get("model"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "finish_reason": "stop"}],
                "usage": usage}
        handler._send(200, json.dumps(body).encode())

    @staticmethod
    def _stream(handler: Any, request: dict[str, Any], content: str, usage: dict[str, int]) -> None:
        """A ``stream: true`` request, answered as OpenAI's API streams: server-sent events of chat-completion
        chunks (the whole reply in one delta, then the finish reason, then the usage), and ``[DONE]``."""
        head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": request.get("model")}
        chunks = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": content},
                                        "finish_reason": None}]},
                  {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                  {**head, "choices": [], "usage": usage}]
        body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
        handler._send(200, body, content_type="text/event-stream")

    def _fault(self, handler: Any, kind: str) -> None:
        if kind == "rate_limit":
            handler._send(429, b'{"error": {"message": "rate limited", "type": "rate_limit"}}',
                          {"Retry-After": self.retry_after})
        elif kind == "server_error":
            handler._send(500, b'{"error": {"message": "internal error"}}')
        elif kind == "slow":
            time.sleep(self.slow_s)
            handler._send(500, b'{"error": {"message": "too late"}}')
        elif kind == "drop":
            handler.close_connection = True
            handler.connection.shutdown(2)
        elif kind == "malformed":
            handler._send(200, b'{"id": "chatcmpl-fake", "choices": [')
        else:  # non_utf8
            handler._send(200, b'{"id": "x", "choices": [{"message": {"content": "\xff\xfe"}}]}')

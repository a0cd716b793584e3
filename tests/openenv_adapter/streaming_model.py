"""A scripted model that streams (``stream: true`` answered with server-sent events, as OpenAI's API does): what
verifiers' harness programs ask for. :class:`eai_gym.evaluate.fake_server.FakeChatServer` answers only whole
replies, so this test helper adds the streamed form on top of it. Run as a program it serves
:func:`eai_gym.openenv.gold.gold_reply` and prints its base URL (``.../v1``) on the first line."""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from eai_gym.evaluate.fake_server import FakeChatServer


class StreamingChatServer(FakeChatServer):
    """:class:`FakeChatServer` that answers a ``stream: true`` request with chat-completion chunks."""

    def _handle(self, handler: Any, request: dict[str, Any], messages: list[dict[str, Any]]) -> None:
        if not request.get("stream"):
            return super()._handle(handler, request, messages)
        with self._lock:
            self.requests += 1
        try:
            content = self.answer(messages)
        except Exception as e:  # noqa: BLE001 - the answer function failed: say so, as a server would
            handler._send(500, json.dumps({"error": {"message": f"answer failed: {type(e).__name__}: {e}"}}).encode())
            return
        head = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": request.get("model")}
        usage = {"prompt_tokens": 1, "completion_tokens": len(content.split()), "total_tokens": 1 + len(content.split())}
        chunks = [{**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": content},
                                        "finish_reason": None}]},
                  {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                  {**head, "choices": [], "usage": usage}]
        body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        try:
            handler.wfile.write(body)
        except OSError:
            handler.close_connection = True


if __name__ == "__main__":
    from eai_gym.openenv.gold import gold_reply

    with StreamingChatServer(gold_reply) as server:
        print(server.base_url, flush=True)
        threading.Event().wait()
    sys.exit(0)

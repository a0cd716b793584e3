"""What an env server checks of a request before its app reads it: an ASGI middleware (needs Starlette, which
FastAPI brings).

- A body longer than ``max_body_bytes`` is refused with HTTP 413, from its ``Content-Length`` when it gives one,
  else as soon as the bytes received pass the limit (the rest is never read or kept).
- A JSON body holding ``NaN``, ``Infinity`` or a number too large for a float (``1e400``), which Python's JSON
  reader accepts and no JSON standard does, is refused with HTTP 400 naming the number. Any other body reaches the
  app unchanged (a body that is not JSON at all is the app's to report).
"""

from __future__ import annotations

import json
import math
from typing import Any, Awaitable, Callable

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

#: the default request-body limit of ``eai-gym serve`` (``--max-body-bytes``)
DEFAULT_MAX_BODY_BYTES = 1_048_576


class _NonFinite(ValueError):
    pass


def _constant(name: str) -> float:
    raise _NonFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NonFinite(text if len(text) <= 40 else text[:40] + "...")
    return value


def non_finite_number(body: bytes) -> str | None:
    """The first ``NaN``/``Infinity``/overflowing number of a JSON body (None: there is none, or it is not JSON)."""
    if not body:
        return None
    try:
        json.loads(body, parse_constant=_constant, parse_float=_finite_float)
    except _NonFinite as e:
        return str(e)
    except (ValueError, RecursionError):  # not JSON (or too deep): the app's parser reports it
        return None
    return None


class RequestLimits:
    """The ASGI middleware (see the module docstring)."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]],
                 max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        if not isinstance(max_body_bytes, int) or isinstance(max_body_bytes, bool) or max_body_bytes < 1:
            raise ValueError(f"max_body_bytes must be a positive int, got {max_body_bytes!r}")
        self.app, self.max_body_bytes = app, max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"").strip()
        if declared.isdigit() and (len(declared) > 18 or int(declared) > self.max_body_bytes):
            await self._refuse(scope, receive, send, 413, self._too_large())
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            if len(body) > self.max_body_bytes:
                await self._refuse(scope, receive, send, 413, self._too_large())
                return
            if not message.get("more_body", False):
                break
        number = non_finite_number(bytes(body))
        if number is not None:
            await self._refuse(scope, receive, send, 400, f"the JSON body holds {number}, which is not a finite "
                                                          "number (JSON has no NaN or Infinity)")
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    def _too_large(self) -> str:
        return f"the request body is larger than this server's limit of {self.max_body_bytes} bytes (--max-body-bytes)"

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
        from starlette.responses import JSONResponse

        await JSONResponse({"detail": message}, status_code=status)(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body already read, then whatever the client sends next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay

"""What went wrong with a request to a model endpoint, in words a user can act on."""

from __future__ import annotations


class FatalRequestError(Exception):
    """The endpoint refused in a way that no retry can mend (authentication, permission, unknown model)."""


def root_cause(exc: BaseException) -> BaseException:
    """The innermost exception ``exc`` was raised from (e.g. the ``ConnectionRefusedError`` behind a client's
    connection error)."""
    seen = {id(exc)}
    while True:
        inner = exc.__cause__ or exc.__context__
        if inner is None or id(inner) in seen:
            return exc
        seen.add(id(inner))
        exc = inner


def describe_error(exc: BaseException) -> str:
    """One line naming what went wrong with a request: the HTTP status and the server's message, or the
    network-level cause (connection refused, name not resolved, timed out)."""
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        body = getattr(exc, "body", None)
        message = None
        if isinstance(body, dict):
            inner = body.get("error", body)
            message = inner.get("message") if isinstance(inner, dict) else inner
        return f"HTTP {status}: {str(message if message is not None else exc)[:300]}"
    name = type(exc).__name__
    if "Timeout" in name:
        return "no reply within the request timeout"
    cause = root_cause(exc)
    text = str(cause) or type(cause).__name__
    if text.startswith("[Errno") and "] " in text:
        text = text.split("] ", 1)[1]
    if isinstance(cause, ConnectionRefusedError):
        return f"connection refused: nothing listens there ({text})"
    if type(cause).__name__ == "gaierror":
        return f"the host name does not resolve ({text})"
    return f"{name}: {text[:300]}" if cause is exc else f"{text[:300]} ({type(cause).__name__})"

"""Chat requests to any OpenAI-compatible endpoint, through the official ``openai`` client.

One :class:`ChatRequest` is everything that determines a reply (model, messages, sampling settings); its
:meth:`ChatRequest.key` is the cache key. :class:`ModelClient` sends it with retries and backoff
(``tenacity``) on rate limits (429, honouring ``Retry-After``), server errors (5xx), timeouts, dropped
connections and malformed reply bodies; a request that still fails gives a :class:`ChatReply` with
``error`` set, never an exception, except for errors no retry can mend (a wrong key or model name:
:class:`FatalRequestError`), which stop the run. Each retry is reported to the caller (``on_retry``) with its
cause, and :meth:`ModelClient.cancel` ends the waits and the retries of every request at once (an interrupt).
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import threading
import time
import urllib.parse
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from .errors import FatalRequestError, describe_error

LLM_MISSING = "eai-gym evaluate needs the openai client library: pip install 'eai-gym[llm]'"


def public_endpoint(base_url: str | None) -> str | None:
    """``base_url`` without a user, password or query string (where keys sometimes hide)."""
    if base_url is None:
        return None
    parts = urllib.parse.urlsplit(base_url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


class _Cancelled(Exception):
    """Raised instead of an attempt after :meth:`ModelClient.cancel` (not retried)."""


#: the error of a request that was stopped by :meth:`ModelClient.cancel` (it is asked again by ``--resume``)
CANCELLED = "cancelled: the run was interrupted"


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion request: what the cache is keyed by."""

    model: str
    messages: tuple[tuple[str, str], ...]
    temperature: float | None = 0.0
    max_tokens: int | None = None
    seed: int | None = None

    @staticmethod
    def of(model: str, messages: list[dict[str, str]], **sampling: Any) -> "ChatRequest":
        return ChatRequest(model, tuple((m["role"], m["content"]) for m in messages), **sampling)

    def message_dicts(self) -> list[dict[str, str]]:
        return [{"role": r, "content": c} for r, c in self.messages]

    def key(self) -> str:
        """sha256 of the whole request (a reply is reused only for exactly the same request)."""
        body = {"model": self.model, "messages": [list(m) for m in self.messages], "temperature": self.temperature,
                "max_tokens": self.max_tokens, "seed": self.seed}
        return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


@dataclass
class ChatReply:
    """The outcome of one request: the reply text, or the error that remained after the retries."""

    content: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    latency_s: float = 0.0
    retries: int = 0
    error: str | None = None
    attempts: list[str] = field(default_factory=list)  # the error of each failed attempt

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _retry_after(exc: BaseException) -> float | None:
    """Seconds the server asked to wait (``retry-after-ms`` or ``Retry-After``: seconds or an HTTP date)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_tz(value)
        return None if parsed is None else max(0.0, email.utils.mktime_tz(parsed) - time.time())


class ModelClient:
    """Sends :class:`ChatRequest` s to ``base_url`` with ``max_retries`` retries (exponential backoff from
    ``backoff_s``, capped at ``backoff_max_s``, or the server's ``Retry-After`` when it gives one, capped
    the same way) and a per-attempt ``timeout_s``."""

    def __init__(self, base_url: str | None, api_key: str | None, *, timeout_s: float = 120.0, max_retries: int = 6,
                 backoff_s: float = 1.0, backoff_max_s: float = 60.0) -> None:
        try:
            import openai
        except ImportError:
            raise ImportError(LLM_MISSING) from None
        self._openai = openai
        self.base_url = base_url
        self.has_key = bool(api_key)
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self._cancelled = threading.Event()
        self._checked: bool | None = None  # None: check the endpoint before the first request
        self._check_lock = threading.Lock()
        # the client's own HTTP pool (its connection limits are far above any --concurrency); retries are ours
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s,
                                     max_retries=0)

    @property
    def endpoint(self) -> str:
        """The endpoint's URL (without secrets), for messages."""
        return public_endpoint(str(self._client.base_url).rstrip("/")) or "?"

    def close(self) -> None:
        self._client.close()

    def cancel(self) -> None:
        """Stop every request: no new attempt starts, backoff waits end now, and a request that is not in flight
        yet returns :data:`CANCELLED` (an attempt already in flight runs to its end or its timeout)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def check_endpoint(self, models: list[str]) -> list[str]:
        """Check, once, that the endpoint answers and accepts the key and ``models``
        (:func:`.probe.check_endpoint`); returns notes for the user. Raises :class:`FatalRequestError`."""
        from .probe import PROBE_TIMEOUT_S, check_endpoint

        with self._check_lock:
            if self._checked:
                return []
            notes = check_endpoint(self._client, self.endpoint, min(self.timeout_s, PROBE_TIMEOUT_S), self.has_key,
                                   models)
            self._checked = True
            return notes

    def check_before_first_request(self) -> None:
        """Make the first request that is sent check the endpoint first (a resumed run may need none)."""
        self._checked = False

    def _retryable(self, exc: BaseException) -> bool:
        o = self._openai
        if isinstance(exc, (o.AuthenticationError, o.PermissionDeniedError, o.NotFoundError, UnicodeEncodeError)):
            return False  # (a request that cannot be encoded fails the same way every time)
        if isinstance(exc, o.APIStatusError):
            return exc.status_code in (408, 409, 429) or exc.status_code >= 500
        # timeouts, dropped connections, bodies that are not a chat completion (JSON or UTF-8 errors)
        return isinstance(exc, (o.APIConnectionError, o.APIResponseValidationError, ValueError, KeyError,
                                TypeError, AttributeError, IndexError))

    def _wait(self, attempt: int, exc: BaseException) -> float:
        asked = _retry_after(exc)
        if asked is not None:
            return min(asked, self.backoff_max_s)
        return min(self.backoff_s * 2 ** attempt, self.backoff_max_s)

    def _once(self, request: ChatRequest) -> ChatReply:
        if self.cancelled:
            raise _Cancelled()
        kwargs: dict[str, Any] = {"model": request.model, "messages": request.message_dicts()}
        if request.temperature is not None:
            kwargs["temperature"] = request.temperature
        if request.max_tokens is not None:
            kwargs["max_tokens"] = request.max_tokens
        if request.seed is not None:
            kwargs["seed"] = request.seed
        completion = self._client.chat.completions.create(**kwargs)
        if isinstance(completion, (str, bytes)) or not getattr(completion, "choices", None):
            raise ValueError(f"the endpoint's reply is not a chat completion: {str(completion)[:200]!r}")
        choice = completion.choices[0]
        usage = getattr(completion, "usage", None)
        return ChatReply(content=choice.message.content or "",
                         prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                         completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
                         finish_reason=choice.finish_reason)

    def complete(self, request: ChatRequest,
                 on_retry: Callable[[BaseException, int, float], None] | None = None) -> ChatReply:
        """The reply to ``request`` (retrying what can be retried; ``on_retry(error, retry number, wait s)``
        before each wait). Raises :class:`FatalRequestError` only for errors that every request would hit."""
        from tenacity import RetryError, Retrying, retry_if_exception, stop_after_attempt

        if self._checked is False:
            self.check_endpoint([request.model])
        attempts: list[str] = []

        def wait(state: Any) -> float:
            return self._wait(state.attempt_number - 1, state.outcome.exception())

        def before_sleep(state: Any) -> None:
            exc = state.outcome.exception()
            attempts.append(f"{type(exc).__name__}: {str(exc)[:300]}")
            if on_retry is not None and not self.cancelled:
                on_retry(exc, len(attempts), state.upcoming_sleep)

        def stop(state: Any) -> bool:
            return self.cancelled or stop_after_attempt(self.max_retries + 1)(state)

        t0 = time.perf_counter()
        retrying = Retrying(stop=stop, wait=wait, before_sleep=before_sleep, sleep=self._cancelled.wait,
                            retry=retry_if_exception(self._retryable), reraise=False)
        if self.cancelled:
            reply = ChatReply(content=None, error=CANCELLED)
        else:
            try:
                reply = retrying(self._once, request)
            except RetryError as e:
                exc = e.last_attempt.exception()
                reply = ChatReply(content=None, error=CANCELLED if self.cancelled else
                                  f"{type(exc).__name__}: {str(exc)[:300]}")
            except _Cancelled:
                reply = ChatReply(content=None, error=CANCELLED)
            except Exception as exc:  # not retryable
                o = self._openai
                if isinstance(exc, (o.AuthenticationError, o.PermissionDeniedError, o.NotFoundError)):
                    raise FatalRequestError(f"{describe_error(exc)} (from {self.endpoint})") from None
                reply = ChatReply(content=None, error=f"{type(exc).__name__}: {str(exc)[:300]}")
        reply.latency_s = time.perf_counter() - t0
        reply.retries = len(attempts)
        reply.attempts = attempts
        return reply

"""Ask the model for many requests at once: the cache first, then ``concurrency`` requests in flight.

Identical requests in flight at the same time are sent once and share the reply (the others count as
answered from the cache, as they would be had they come a moment later). Retries are shown as they happen:
on the progress bar (retries so far and the last error) when stderr is a terminal, else as one line per
retry on stderr, at most one every :data:`RETRY_LINE_INTERVAL_S` seconds (the others are counted in the next).
"""

from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable, Sequence, TextIO

from .client import ChatReply, ChatRequest, FatalRequestError, ModelClient, describe_error
from .rundir import RunDir
from .workers import run_all

#: when stderr is not a terminal: at most one retry line per this many seconds
RETRY_LINE_INTERVAL_S = 5.0


class RetryReporter:
    """Says that a request is being retried, and why: a line on ``stream`` (rate-limited) or the bar's postfix."""

    def __init__(self, endpoint: str, stream: TextIO | None = None, interval_s: float = RETRY_LINE_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.endpoint = endpoint
        self.stream = stream
        self.interval_s = interval_s
        self.clock = clock
        self.lock = threading.Lock()
        self.retries = 0
        self.last_error: str | None = None
        self._last_line: float | None = None
        self._unsaid = 0

    def retrying(self, item: str, error: BaseException, retry: int, of: int, wait_s: float) -> str | None:
        """Note one retry; the line written for it (None: the bar shows it, or a line was written too recently)."""
        cause = describe_error(error)
        with self.lock:
            self.retries += 1
            self.last_error = cause
            if self.stream is None:
                return None
            now = self.clock()
            if self._last_line is not None and now - self._last_line < self.interval_s:
                self._unsaid += 1
                return None
            more = f" (and {self._unsaid} more retries since the last line)" if self._unsaid else ""
            self._last_line, self._unsaid = now, 0
            line = (f"eai-gym: {self.endpoint}: request {item} failed ({cause}); retry {retry} of {of} in "
                    f"{wait_s:.1f} s{more}")
            self.stream.write(line + "\n")
            self.stream.flush()
            return line


class RequestStats:
    """A run's requests: totals (shown on the progress bar and written to the results), the requests in flight
    (shared by identical requests) and the retry reports."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.cached = 0
        self.errors = 0
        self.retries = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.started = time.perf_counter()
        self.in_flight: dict[str, Future] = {}
        self.reporter: RetryReporter | None = None
        self.bar: Any = None

    def add(self, reply: ChatReply, cached: bool) -> None:
        with self.lock:
            self.requests += 1
            self.cached += cached
            self.errors += not reply.ok
            self.retries += reply.retries
            self.prompt_tokens += reply.prompt_tokens
            self.completion_tokens += reply.completion_tokens

    def postfix(self) -> dict[str, Any]:
        rate = (self.requests - self.cached) / max(1e-9, time.perf_counter() - self.started)
        out: dict[str, Any] = {"req/s": f"{rate:.1f}", "tokens": self.prompt_tokens + self.completion_tokens,
                               "errors": self.errors}
        if self.reporter is not None and self.reporter.retries:
            out["retries"] = self.reporter.retries
            out["last error"] = (self.reporter.last_error or "")[:60]
        return out

    def watch(self, bar: Any, client: ModelClient | None) -> None:
        """Show this run's progress on ``bar`` and its retries there (or as lines when the bar is off)."""
        self.bar = bar
        if client is not None:
            self.reporter = RetryReporter(client.endpoint, None if _bar_shown(bar) else sys.stderr)

    def on_retry(self, item: str, client: ModelClient) -> Callable[[BaseException, int, float], None]:
        def report(error: BaseException, retry: int, wait_s: float) -> None:
            if self.reporter is None:
                self.reporter = RetryReporter(client.endpoint, sys.stderr)
            self.reporter.retrying(item, error, retry, client.max_retries, wait_s)
            if self.bar is not None and _bar_shown(self.bar):
                self.bar.set_postfix(self.postfix())
        return report


def _bar_shown(bar: Any) -> bool:
    return bar is not None and not getattr(bar, "disable", True)


def progress_bar(total: int, label: str) -> Any:
    """A ``tqdm`` bar on stderr, silent when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="req", file=sys.stderr, disable=None, dynamic_ncols=True, leave=False)


def ask(run: RunDir, client: ModelClient | None, item: str, request: ChatRequest, stats: RequestStats) -> ChatReply:
    """One request: from the cache if a finished reply is there, else from the model (then cached); an identical
    request already in flight is not sent again: its reply is shared."""
    reply = run.cached(request)
    if reply is not None:
        run.log(item, request, reply, True)
        stats.add(reply, True)
        return reply
    key = request.key()
    with stats.lock:
        pending = stats.in_flight.get(key)
        owner = pending is None
        if owner:
            pending = stats.in_flight[key] = Future()
    assert pending is not None
    if not owner:
        reply = pending.result()  # raises what the request raised (e.g. the endpoint refused)
        run.log(item, request, reply, False, shared=True)
        stats.add(reply, True)
        return reply
    try:
        reply = run.cached(request)  # finished between the first look and the claim
        cached = reply is not None
        if reply is None:
            if client is None:
                raise FatalRequestError("no model endpoint to ask (the reply is not in the cache)")
            reply = client.complete(request, on_retry=stats.on_retry(item, client))
            run.store(request, reply)
        pending.set_result(reply)
    except BaseException as e:
        pending.set_exception(e)
        raise
    finally:
        with stats.lock:
            del stats.in_flight[key]
    run.log(item, request, reply, cached)
    stats.add(reply, cached)
    return reply


def ask_all(run: RunDir, client: ModelClient | None, requests: Sequence[tuple[str, ChatRequest]], concurrency: int,
            stats: RequestStats, label: str = "requests") -> list[ChatReply]:
    """The replies to ``requests`` (``(item id, request)`` pairs), in their order."""
    replies: list[ChatReply | None] = [None] * len(requests)
    todo = []
    bar = progress_bar(len(requests), label)
    stats.watch(bar, client)
    try:
        for i, (item, request) in enumerate(requests):
            reply = run.cached(request)
            if reply is not None:
                run.log(item, request, reply, True)
                stats.add(reply, True)
                replies[i] = reply
                bar.update(1)
            else:
                todo.append(i)

        def one(k: int) -> None:
            i = todo[k]
            replies[i] = ask(run, client, *requests[i], stats)
            bar.update(1)
            bar.set_postfix(stats.postfix(), refresh=False)

        if todo:
            run_all(one, len(todo), concurrency, on_stop=None if client is None else client.cancel)
    finally:
        bar.close()
    return [r for r in replies if r is not None]

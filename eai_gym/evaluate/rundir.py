"""The run directory of ``eai-gym evaluate``: the record of a run, and what makes it resumable.

Layout::

    DIR/settings.json     model, endpoint (no secrets), sampling, eai-gym version, world, mode, protocol, argv
    DIR/requests.jsonl    one line per request sent or answered from the cache: prompt, reply, tokens, latency, retries, error
    DIR/cache/ab/<key>.json   one reply per finished request, keyed by the sha256 of the whole request
    DIR/replies.json      the model's answers in the reference's file format (offline modes)
    DIR/results.json      summary, per-item records, token totals
    DIR/.lock             held (flock) while a run uses the directory

Every file is written whole (temp file + rename), so a run killed at any point leaves only finished
replies in the cache; ``--resume`` answers those from it and asks the model only for the rest.

Text is stored losslessly: a reply holding a lone surrogate (valid JSON, ``"\\ud800"``) is written as a JSON
escape, so it is cached and read back exactly as the model sent it. The cache keeps every finished reply
whole; ``requests.jsonl`` keeps at most :data:`.limits.LOGGED_TEXT_CHARS` of one prompt message or reply (a marker
says how much was left out), so a run's log stays proportional to what is useful in it.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import threading
from typing import Any

from ..scoring.io import write_json_atomic, write_text_atomic
from .client import ChatReply, ChatRequest
from .limits import LOGGED_TEXT_CHARS

#: refuse to start with less free space than this in the run directory's file system
MIN_FREE_BYTES = 16 * 1024 * 1024



def json_text(obj: Any) -> str:
    """``obj`` as one line of JSON that UTF-8 can always encode: non-ASCII text as it is, unless a string holds
    a lone surrogate, in which case the whole line is ASCII with JSON escapes (lossless either way)."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj)
    return text


def clipped(text: Any, limit: int = LOGGED_TEXT_CHARS) -> Any:
    """``text``, or its first ``limit`` characters and a marker saying how many more there were (anything
    that is not a string is returned as it is)."""
    if not isinstance(text, str) or len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters not shown]"


class RunDirError(Exception):
    """The run directory cannot be used (locked by another run, unwritable, full, another run's settings)."""


class RunDir:
    """An open run directory. Use as a context manager: it holds the directory's lock until closed."""

    def __init__(self, path: str, settings: dict[str, Any], resume: bool, *, begin: bool = True) -> None:
        self.path = path
        self.settings = settings
        self._lock_fd: int | None = None
        self._log_lock = threading.Lock()
        self._log: Any = None
        self._closed = False
        self._open(resume)
        if begin:
            self.begin()

    # --- opening ---------------------------------------------------------------------------------
    def _open(self, resume: bool) -> None:
        # what this run makes, removed again if it closes before it begins (an endpoint that does not answer
        # leaves no directory behind); innermost first
        self._made = [p for p in (os.path.join(self.path, ".lock"), os.path.join(self.path, "cache"))
                      if not os.path.lexists(p)]
        folder = os.path.abspath(self.path)
        while not os.path.lexists(folder):  # and the folders above it that makedirs makes
            self._made.append(folder)
            folder = os.path.dirname(folder)
        self._began = False
        try:
            os.makedirs(os.path.join(self.path, "cache"), exist_ok=True)
        except OSError as e:
            raise RunDirError(f"cannot create the run directory {self.path}: {e.strerror or e}") from None
        try:
            fd = os.open(os.path.join(self.path, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise RunDirError(f"cannot write in the run directory {self.path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RunDirError(f"{self.path} is in use by another eai-gym evaluate run") from None
        self._lock_fd = fd
        try:
            self._check_space()
            self._check_settings(resume)
        except BaseException:
            self.close()
            raise

    def begin(self) -> None:
        """Write ``settings.json`` and open ``requests.jsonl``: from here on, the directory holds a run (checks
        that must pass before a directory holds a run, such as the endpoint's, go between opening and this)."""
        if self._log is not None:
            return
        self._began = True
        try:
            write_json_atomic(os.path.join(self.path, "settings.json"), self.settings)
            self._log = open(os.path.join(self.path, "requests.jsonl"), "a", encoding="utf-8")
        except OSError as e:
            self.close()
            raise RunDirError(f"cannot write in the run directory {self.path}: {e.strerror or e}") from None

    def _check_space(self) -> None:
        probe = os.path.join(self.path, ".write-probe")
        try:
            with open(probe, "w", encoding="utf-8") as f:
                f.write("x" * 4096)
                f.flush()
                os.fsync(f.fileno())
            os.unlink(probe)
        except OSError as e:
            raise RunDirError(f"cannot write in the run directory {self.path}: {e.strerror or e}") from None
        free = shutil.disk_usage(self.path).free
        if free < MIN_FREE_BYTES:
            raise RunDirError(f"only {free // 1024} kB free where the run directory {self.path} is; "
                              f"need at least {MIN_FREE_BYTES // 2 ** 20} MB")

    def _check_settings(self, resume: bool) -> None:
        path = os.path.join(self.path, "settings.json")
        if not os.path.exists(path):
            return
        if not resume:
            raise RunDirError(f"{self.path} already holds a run; use --resume to continue it, or another --run-dir")
        try:
            with open(path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            raise RunDirError(f"cannot read {path}: {e}") from None
        for key in ("world", "mode", "protocol", "model", "endpoint", "sampling", "run_options"):
            if old.get(key) != self.settings.get(key):
                raise RunDirError(f"{self.path} holds a run with another {key} ({old.get(key)!r}, now "
                                  f"{self.settings.get(key)!r}); resume it with the same options or use another --run-dir")

    def close(self) -> None:
        """Release the directory. Requests still finishing in other threads (after an interrupt) write nothing
        more: neither the log nor the cache."""
        with self._log_lock:
            self._closed = True
            if self._log is not None:
                self._log.close()
                self._log = None
        if self._lock_fd is not None:
            if not self._began:
                self._remove_made()
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def _remove_made(self) -> None:
        """Remove what :meth:`_open` made (while the lock is held), folders only if empty."""
        for path in self._made:
            try:
                if path.endswith(".lock"):
                    os.unlink(path)
                else:
                    os.rmdir(path)
            except OSError:
                pass

    def __enter__(self) -> "RunDir":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- the reply cache ---------------------------------------------------------------------------
    def _cache_path(self, key: str) -> str:
        return os.path.join(self.path, "cache", key[:2], key + ".json")

    def cached(self, request: ChatRequest) -> ChatReply | None:
        """The finished reply to ``request`` from an earlier (possibly killed) run, if any."""
        try:
            with open(self._cache_path(request.key()), encoding="utf-8") as f:
                entry = json.load(f)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError):
            return None  # unreadable: ask again
        reply = entry.get("reply") if isinstance(entry, dict) else None
        if not isinstance(reply, dict) or not isinstance(reply.get("content"), str):
            return None  # not a reply this code wrote: ask again

        def number(key: str, kind: type) -> Any:
            value = reply.get(key, 0)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else kind(0)

        finish = reply.get("finish_reason")
        return ChatReply(content=reply["content"], prompt_tokens=int(number("prompt_tokens", int)),
                         completion_tokens=int(number("completion_tokens", int)),
                         finish_reason=finish if isinstance(finish, str) else None,
                         latency_s=float(number("latency_s", float)), retries=int(number("retries", int)))

    def store(self, request: ChatRequest, reply: ChatReply) -> None:
        """Keep a successful reply (failed requests are asked again on resume)."""
        if not reply.ok or self._closed:
            return
        path = self._cache_path(request.key())
        os.makedirs(os.path.dirname(path), exist_ok=True)
        entry = {"request": {"model": request.model, "messages": request.message_dicts(),
                             "temperature": request.temperature, "max_tokens": request.max_tokens,
                             "seed": request.seed},
                 "reply": {k: v for k, v in reply.to_json().items() if k not in ("error", "attempts")}}
        write_text_atomic(path, json_text(entry))

    def log(self, item: str, request: ChatRequest, reply: ChatReply, cached: bool, shared: bool = False) -> None:
        """Append the request and its outcome to ``requests.jsonl`` (each prompt message and the reply clipped
        to :data:`LOGGED_TEXT_CHARS`; ``shared``: the reply of an identical request that was in flight)."""
        record = {"item": item, "key": request.key(), "cached": cached,
                  "prompt": [{"role": r, "content": clipped(c)} for r, c in request.messages],
                  "reply": clipped(reply.content), "reply_chars": None if reply.content is None else len(reply.content),
                  "prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                  "finish_reason": reply.finish_reason, "latency_s": round(reply.latency_s, 6),
                  "retries": reply.retries, "error": reply.error, "attempt_errors": reply.attempts}
        if shared:
            record["shared"] = True
        line = json_text(record)
        with self._log_lock:
            if self._log is None:
                if self._closed:
                    return  # a request that finished after the run stopped
                raise RunDirError(f"{self.path}: the run has not begun (RunDir.begin)")
            self._log.write(line + "\n")
            self._log.flush()

    # --- outputs -----------------------------------------------------------------------------------
    def write(self, name: str, obj: Any) -> str:
        path = os.path.join(self.path, name)
        write_json_atomic(path, obj)
        return path

"""The JSONL results file of :func:`eai_gym.scoring.runner.run_items` (``--jsonl``, ``--resume``).

A first line ``{"run": ...}`` describes the run; then one line ``{"index": i, "record": ...}`` per finished item,
in finishing order. Lines are written whole, in batches, each batch flushed and fsynced, so a crash leaves the
finished lines and at most one line cut short, which :meth:`Journal.open` drops when resuming.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Iterable


class JournalError(Exception):
    """A results file that cannot be resumed (another run's, or not a results file)."""


class Journal:
    """Appends whole ``{"index", "record"}`` lines, in batches, each flushed and fsynced."""

    BATCH_LINES = 256
    BATCH_SECONDS = 1.0

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lines: list[str] = []
        self.last = time.monotonic()

    @classmethod
    def open(cls, path: str, run: dict, n: int, resume: bool,
             check: Callable[[Any], str | None] | None = None) -> tuple["Journal", dict[int, Any]]:
        """Start ``path`` afresh, or with ``resume`` keep the records of an earlier run of ``run`` (returned by
        index) and append to it; ``check(record)`` says what is wrong with a kept record (None: nothing), which
        is then an error naming its line."""
        run = json.loads(json.dumps(run, default=repr))
        done: dict[int, Any] = {}
        keep = read_journal(path, run, n, done, check) if resume and os.path.exists(path) else None
        if keep is None:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            journal = cls(fd)
            journal.lines.append(json.dumps({"run": run}) + "\n")
            journal.flush()
        else:
            os.truncate(path, keep)  # drop a line cut short: the next line starts on its own
            journal = cls(os.open(path, os.O_WRONLY | os.O_APPEND))
        return journal, done

    def add(self, index: int, record: Any) -> None:
        self.add_texts([index], [json.dumps(record)])

    def add_texts(self, indices: Iterable[int], texts: Iterable[str]) -> None:
        """Lines for records given as their JSON texts (``json.dumps(record)``): the same bytes as :meth:`add`
        (``json.dumps({"index": i, "record": r})`` is ``'{"index": i, "record": '`` + ``json.dumps(r)`` + ``'}'``)."""
        self.lines.extend(f'{{"index": {int(i)}, "record": {t}}}\n' for i, t in zip(indices, texts))
        if len(self.lines) >= self.BATCH_LINES or time.monotonic() - self.last >= self.BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        data = "".join(self.lines).encode("utf-8")
        self.lines = []
        while data:
            data = data[os.write(self.fd, data):]
        os.fsync(self.fd)
        self.last = time.monotonic()

    def close(self) -> None:
        if self.fd < 0:
            return
        try:
            self.flush()
        finally:
            os.close(self.fd)
            self.fd = -1


def read_journal(path: str, run: dict, n: int, done: dict[int, Any],
                 check: Callable[[Any], str | None] | None = None) -> int | None:
    """Fill ``done`` from an earlier run's file; the byte length of its whole valid lines (None: start
    afresh, the file holds nothing). Raises :class:`JournalError` naming the line that is not one of this run's
    results."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    keep = 0
    for k, raw in enumerate(lines):
        last = k == len(lines) - 1 or (k == len(lines) - 2 and lines[-1] == b"")
        if raw == b"" and k == len(lines) - 1:
            break
        try:
            obj = json.loads(raw)
            if k == 0:
                ok = isinstance(obj, dict) and set(obj) == {"run"} and isinstance(obj["run"], dict)
            else:
                ok = isinstance(obj, dict) and set(obj) == {"index", "record"} and type(obj["index"]) is int
        except (ValueError, RecursionError):  # not JSON (a number too long, lists nested too deep)
            ok = False
        if not ok or k == len(lines) - 1:  # the last line has no newline: a write cut short
            if last:
                break
            raise JournalError(f"{path}, line {k + 1}: not a results line; remove the file or drop --resume")
        if k == 0:
            if obj["run"] != run:
                diff = sorted(key for key in set(run) | set(obj["run"]) if run.get(key) != obj["run"].get(key))
                raise JournalError(f"{path} holds the results of another run (different {', '.join(diff)}); "
                                   "remove it or drop --resume")
        elif not 0 <= obj["index"] < n:
            raise JournalError(f"{path}, line {k + 1}: index {obj['index']} out of range for {n} items")
        else:
            problem = check(obj["record"]) if check is not None else None
            if problem:
                raise JournalError(f"{path}, line {k + 1}: {problem}, so it is not a record of this run; remove "
                                   "the file or drop --resume")
            done[obj["index"]] = obj["record"]
        keep += len(raw) + 1
    return keep or None

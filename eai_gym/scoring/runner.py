"""Run a per-item function over a list of items: serially, on a pool of processes, or on Ray.

:func:`run_items` calls ``fn(context, item)`` for every item and returns the results in input order,
whatever the backend. ``fn`` (and ``init``) must be module-level functions (picklable); ``context`` is
``init(*init_args)``, built once per worker process (once in-process when serial), e.g. a world.

* ``workers=1`` with the ``processes`` backend runs in this process, as a plain loop.
* ``workers=N`` starts N processes (:mod:`concurrent.futures`); items are sent in chunks, a bounded
  number at a time, so thousands of small items cost little overhead and memory.
* ``backend="ray"`` runs N Ray actors (each builds the context once). ``ray.init()`` connects to the
  cluster named by ``RAY_ADDRESS`` or starts a local one, unless Ray is already initialized.
* ``jsonl=PATH`` appends each result as it finishes, one line ``{"index": i, "record": ...}``, after a
  first line ``{"run": ...}`` describing the run. Lines are written whole, in batches, each batch
  flushed and fsynced. ``resume=True`` reads such a file (a last line cut short by a crash is dropped),
  keeps its results and runs only the missing items; the file must describe the same run.
* ``encode=F`` (e.g. ``json.dumps``): each result comes with ``F(result)``, computed where the result is
  made (by the worker, in parallel); the return value is then a list of ``(result, F(result))`` pairs.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import json
import os
import sys
import time
from typing import Any, Callable, Iterator, Sequence

from .io import progress

BACKENDS = ("processes", "ray")
JSONL_FORMAT = "eai-gym-results/1"
RAY_MISSING = "the ray backend needs Ray: pip install 'eai-gym[ray]'"
_MISSING = object()


class RunnerError(Exception):
    """A run that cannot start or resume (bad options, a results file of another run, Ray missing)."""


#: While scoring, the collector looks at young objects after this many allocations (Python's default: 700).
#: Scoring allocates many short-lived objects next to large long-lived task data (the decoded task records and
#: their scenes); every young collection walks the young objects that survive, so each task's data was walked
#: once per collection generation it passed through: at the default, ~40% of `eai-gym score virtualhome --gold`
#: (0.24 of 0.6 s CPU); at 20,000, 25 young and 2 middle collections still took 80-100 ms of the 0.33 s of the
#: 338 VirtualHome gold subgoal plans. The counter counts tracked objects allocated minus freed, so freed
#: (acyclic) garbage does not count: a whole ``--gold`` run of one world stays below 300,000 and needs no
#: collection at all. What waits longer is only garbage in reference cycles (measured: about one object per
#: VirtualHome action-sequencing item, nine per subgoal item), freed at the next collection.
YOUNG_GC_THRESHOLD = 500_000


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block, the cyclic collector looks at young objects only every
    :data:`YOUNG_GC_THRESHOLD` allocations (restored afterwards). At the end the objects still young are made
    old without being walked (``gc.freeze()`` then ``gc.unfreeze()``, unless objects were frozen before): at
    the restored threshold they would all be walked at once by the next allocation's young collection (~0.1 s
    after a ``--gold`` run); as old objects they are walked by the next full collection, with everything else."""
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], YOUNG_GC_THRESHOLD), *threshold[1:])
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        gc.set_threshold(*threshold)


def check_backend(backend: str) -> None:
    """Raise :class:`RunnerError` if ``backend`` is unknown or cannot be used here."""
    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")
    if backend == "ray":
        try:
            importlib.import_module("ray")
        except ImportError:
            raise RunnerError(RAY_MISSING) from None


def run_items(fn: Callable[[Any, Any], Any], items: Sequence[Any], *, init: Callable[..., Any] | None = None,
              init_args: tuple = (), workers: int = 1, backend: str = "processes", jsonl: str | None = None,
              resume: bool = False, run_info: dict | None = None, chunk_size: int | None = None,
              label: str = "scoring", log: Callable[[str], None] | None = None,
              encode: Callable[[Any], Any] | None = None) -> list[Any]:
    """``[fn(context, item) for item in items]``, computed by ``workers`` workers (0: one per CPU); with
    ``encode``, ``[(r, encode(r)) for r in ...]``."""
    check_backend(backend)
    if workers < 0:
        raise RunnerError(f"workers must be 0 (one per CPU) or more, got {workers}")
    if resume and not jsonl:
        raise RunnerError("resume needs a JSONL results file")
    log = log or (lambda msg: print(msg, file=sys.stderr))
    if workers == 0 and backend == "processes":
        workers = os.cpu_count() or 1
    n = len(items)
    results: list[Any] = [_MISSING] * n
    journal = None
    if jsonl:
        journal, done = _Journal.open(jsonl, {"format": JSONL_FORMAT, **(run_info or {})}, n, resume)
        for i, rec in done.items():
            results[i] = rec if encode is None else (rec, encode(rec))
        if resume:
            log(f"resuming from {jsonl}: {len(done)} of {n} items already scored")
    todo = [(i, items[i]) for i in range(n) if results[i] is _MISSING]
    if encode is not None:
        fn = functools.partial(_with_encoding, fn, encode)
    with fewer_collections():
        try:
            if todo:
                if backend == "ray":
                    stream = _ray(fn, todo, init, init_args, workers, chunk_size)
                elif workers == 1 or len(todo) == 1:
                    stream = _serial(fn, todo, init, init_args)
                else:
                    stream = _processes(fn, todo, init, init_args, workers, chunk_size)
                try:
                    for i, rec in progress(stream, len(todo), label):
                        results[i] = rec
                        if journal is not None:
                            journal.add(i, rec if encode is None else rec[0])
                finally:
                    close = getattr(stream, "close", None)
                    if close is not None:
                        close()  # stops the workers now, also on an error or Ctrl-C
        finally:
            if journal is not None:
                journal.close()
    return results


def _with_encoding(fn: Callable[[Any, Any], Any], encode: Callable[[Any], Any], context: Any, item: Any) -> tuple:
    result = fn(context, item)
    return result, encode(result)


def _chunk_size(n: int, workers: int, chunk_size: int | None) -> int:
    return chunk_size or max(1, min(64, -(-n // (workers * 8))))


def _chunks(todo: list, workers: int, chunk_size: int | None) -> Iterator[list]:
    size = _chunk_size(len(todo), workers, chunk_size)
    for k in range(0, len(todo), size):
        yield todo[k:k + size]


def _serial(fn, todo, init, init_args) -> Iterator[tuple[int, Any]]:
    context = init(*init_args) if init is not None else None
    for i, item in todo:
        yield i, fn(context, item)


# --- processes ------------------------------------------------------------------------------------

_CONTEXT: Any = None
#: in a worker started by fork: the parent's ``(index, item)`` list, inherited rather than sent chunk by chunk
_TODO: list = []


def _init_worker(init, init_args, todo: list | None = None) -> None:
    global _CONTEXT, _TODO
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    gc.set_threshold(max(gc.get_threshold()[0], YOUNG_GC_THRESHOLD), *gc.get_threshold()[1:])
    _CONTEXT = init(*init_args) if init is not None else None
    _TODO = todo or []


def _run_chunk(fn, chunk: list) -> list:
    return [(i, fn(_CONTEXT, item)) for i, item in chunk]


def _run_slice(fn, start: int, stop: int) -> list:
    return [(i, fn(_CONTEXT, item)) for i, item in _TODO[start:stop]]


def _processes(fn, todo, init, init_args, workers, chunk_size) -> Iterator[tuple[int, Any]]:
    """Chunks of ``todo`` on a process pool. Where workers are forked (Linux), they inherit ``todo`` when they
    start and are sent only which slice to run: the parent does not pickle every item, nor a worker unpickle it."""
    import multiprocessing
    from concurrent import futures

    forked = multiprocessing.get_start_method(allow_none=False) == "fork"
    size = _chunk_size(len(todo), workers, chunk_size)
    chunks = iter(range(0, len(todo), size)) if forked else _chunks(todo, workers, chunk_size)
    pool = futures.ProcessPoolExecutor(workers, initializer=_init_worker,
                                       initargs=(init, init_args, todo) if forked else (init, init_args))
    # Forked workers inherit the parent's objects (the items among them). Frozen while the pool forks (the first
    # submit forks every worker), they are in the workers' permanent generation: the workers' collections do not
    # walk them, so they neither spend the time nor write to (and so copy) the pages the parent shares with them.
    frozen = forked and gc.get_freeze_count() == 0
    if frozen:
        gc.freeze()
    pending: set = set()
    try:
        while True:
            while len(pending) < 3 * workers:  # a few chunks per worker in flight: no idle gaps, bounded memory
                chunk = next(chunks, None)
                if chunk is None:
                    break
                pending.add(pool.submit(_run_slice, fn, chunk, chunk + size) if forked
                            else pool.submit(_run_chunk, fn, chunk))
                if frozen:
                    gc.unfreeze()
                    frozen = False
            if not pending:
                break
            done, pending = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
            for fut in done:
                yield from fut.result()
    finally:
        if frozen:
            gc.unfreeze()
        pool.shutdown(wait=True, cancel_futures=True)


# --- ray ------------------------------------------------------------------------------------------

class _RayWorker:
    """One Ray actor: builds the context once, then runs chunks."""

    def __init__(self, init, init_args) -> None:
        self.context = init(*init_args) if init is not None else None

    def run(self, fn, chunk: list) -> list:
        return [(i, fn(self.context, item)) for i, item in chunk]


def _ray(fn, todo, init, init_args, workers, chunk_size) -> Iterator[tuple[int, Any]]:
    try:
        import ray
    except ImportError:
        raise RunnerError(RAY_MISSING) from None
    started = not ray.is_initialized()
    if started:
        ray.init()  # RAY_ADDRESS names an existing cluster; otherwise a local one is started
    actors: list = []
    try:
        workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_RayWorker)
        fn_ref = ray.put(fn)
        actors = [remote.remote(init, init_args) for _ in range(workers)]
        chunks = _chunks(todo, workers, chunk_size)
        load = {k: 0 for k in range(len(actors))}
        pending: dict = {}
        while True:
            while len(pending) < 2 * len(actors):
                chunk = next(chunks, None)
                if chunk is None:
                    break
                k = min(load, key=load.__getitem__)
                load[k] += 1
                pending[actors[k].run.remote(fn_ref, chunk)] = k
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                load[pending.pop(ref)] -= 1
                yield from ray.get(ref)
    finally:
        for a in actors:
            ray.kill(a)
        if started:
            ray.shutdown()


# --- the JSONL results file -----------------------------------------------------------------------

class _Journal:
    """Appends whole ``{"index", "record"}`` lines, in batches, each flushed and fsynced."""

    BATCH_LINES = 256
    BATCH_SECONDS = 1.0

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lines: list[str] = []
        self.last = time.monotonic()

    @classmethod
    def open(cls, path: str, run: dict, n: int, resume: bool) -> tuple["_Journal", dict[int, Any]]:
        run = json.loads(json.dumps(run, default=repr))
        done: dict[int, Any] = {}
        keep = _read(path, run, n, done) if resume and os.path.exists(path) else None
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
        self.lines.append(json.dumps({"index": index, "record": record}) + "\n")
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


def _read(path: str, run: dict, n: int, done: dict[int, Any]) -> int | None:
    """Fill ``done`` from an earlier run's file; the byte length of its whole valid lines (None: start
    afresh, the file holds nothing)."""
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
                ok = isinstance(obj, dict) and set(obj) == {"run"}
            else:
                ok = isinstance(obj, dict) and set(obj) == {"index", "record"} and type(obj["index"]) is int
        except ValueError:
            ok = False
        if not ok or k == len(lines) - 1:  # the last line has no newline: a write cut short
            if last:
                break
            raise RunnerError(f"{path}, line {k + 1}: not a results line; remove the file or drop --resume")
        if k == 0:
            if obj["run"] != run:
                diff = sorted(key for key in set(run) | set(obj["run"]) if run.get(key) != obj["run"].get(key))
                raise RunnerError(f"{path} holds the results of another run (different {', '.join(diff)}); "
                                  "remove it or drop --resume")
        elif not 0 <= obj["index"] < n:
            raise RunnerError(f"{path}, line {k + 1}: index {obj['index']} out of range for {n} items")
        else:
            done[obj["index"]] = obj["record"]
        keep += len(raw) + 1
    return keep or None

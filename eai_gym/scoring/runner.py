"""Run a per-item function over a list of items: serially, on a pool of processes, or on Ray.

:func:`run_items` calls ``fn(context, item)`` for every item and returns the results in input order,
whatever the backend: one result per item, an item whose function raises getting an error record instead
(:class:`Work`, the one per-item boundary). ``fn`` (and ``init``) must be module-level functions (picklable);
``context`` is ``init(*init_args)``, built once per worker process (once in-process when serial), e.g. a world.

* ``workers=1`` with the ``processes`` backend runs in this process, as a plain loop.
* ``workers=N`` starts N processes (:mod:`concurrent.futures`); items are sent in chunks, a bounded
  number at a time, so thousands of small items cost little overhead and memory.
* ``backend="ray"`` runs N Ray actors (each builds the context once). ``ray.init()`` connects to the
  cluster named by ``RAY_ADDRESS`` or starts a local one, unless Ray is already initialized.
* ``jsonl=PATH`` appends each result as it finishes, one line ``{"index": i, "record": ...}``, after a
  first line ``{"run": ...}`` describing the run. Lines are written whole, in batches, each batch
  flushed and fsynced. ``resume=True`` reads such a file (a last line cut short by a crash is dropped),
  keeps its results and runs only the missing items; the file must describe the same run.
* ``encode=True``: each result's JSON text (``json.dumps``) is made where the result is made (by the worker, in
  parallel) and sent back with the other texts of its chunk as one block of text; the return value is then
  ``(results, texts)``, ``texts`` a :class:`~eai_gym.scoring.results.RecordTexts`.
* ``keep=F``: of each result only ``F(result)`` is kept (computed where the result is made, after its JSON text:
  e.g. the fields a summary reads), so that only that is sent back and held in memory.

Stopping: an exception in the calling process (Ctrl-C's ``KeyboardInterrupt``, SIGTERM's
:class:`eai_gym.interrupts.Terminated`, an error) stops the run at once, whatever the backend: the items in flight
are abandoned, the pool's workers or the Ray actors are killed (and with them the planners they run:
:mod:`eai_gym.scoring.process_guard`), the JSONL file keeps every result received, and the exception goes on. Pool
workers also end by themselves if the calling process dies.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import sys
from typing import Any, Callable, Iterable, Iterator, Sequence

from .io import progress
from .items import describe_error, describe_item, item_identifier, plain_record
from .journal import Journal, JournalError
from .results import RecordTexts

BACKENDS = ("processes", "ray")
JSONL_FORMAT = "eai-gym-results/1"
RAY_MISSING = "the ray backend needs Ray: pip install 'eai-gym[ray]'"
_MISSING = object()


class RunnerError(Exception):
    """A run that cannot start or resume (bad options, a results file of another run, Ray missing)."""


class WorkerError(Exception):
    """A worker process died before returning its results (killed, out of memory, a crash in C code)."""


#: items per chunk, at most: what a worker is sent at a time, and what it sends back at once. Each chunk costs the
#: calling process about what a worker spends on a light item or two (the pool's threads hand its result over), so
#: chunks of hundreds of items keep the calling process from being the bottleneck (docs/benchmarks.md, "Figures
#: behind the code's choices")
CHUNK_ITEMS = 512
#: chunks per worker, at least (while chunks can be made that small): the last chunks to finish are short, so the
#: workers finish at about the same time
CHUNKS_PER_WORKER = 32


#: While scoring, the collector looks at young objects after this many allocations (Python's default: 700).
#: Scoring allocates many short-lived objects next to large long-lived task data (the decoded task records and
#: their scenes); every young collection walks the young objects that survive, so each task's data was walked
#: once per collection generation it passed through, a large share of a ``--gold`` run at the default
#: (docs/benchmarks.md, "Figures behind the code's choices"). The counter counts tracked objects allocated minus
#: freed, so freed (acyclic) garbage does not count: a whole ``--gold`` run of one world stays below this and needs
#: no collection at all. What waits longer is only garbage in reference cycles (about one object per VirtualHome
#: action-sequencing item, nine per subgoal item), freed at the next collection.
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
              label: str = "scoring", log: Callable[[str], None] | None = None, encode: bool = False,
              keep: Callable[[Any], Any] | None = None) -> Any:
    """``[fn(context, item) for item in items]``, computed by ``workers`` workers (0: one per CPU); with
    ``keep``, ``keep`` of each; with ``encode``, the pair of that list and the results' JSON texts
    (:class:`~eai_gym.scoring.results.RecordTexts`). The collector's settings are the caller's (a scoring run's:
    :func:`eai_gym.scoring.score.score`, under :func:`fewer_collections`); a worker sets its own."""
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
    texts = RecordTexts(n) if encode else None
    journal = None
    if jsonl:
        try:
            journal, done = Journal.open(jsonl, {"format": JSONL_FORMAT, **(run_info or {})}, n, resume,
                                         getattr(fn, "check_record", None))
        except JournalError as e:
            raise RunnerError(str(e)) from None
        for i, rec in sorted(done.items()):
            results[i] = rec if keep is None else keep(rec)
            if texts is not None:
                texts.add([i], json.dumps(rec))
        if resume:
            log(f"resuming from {jsonl}: {len(done)} of {n} items already scored")
    todo = [(i, items[i]) for i in range(n) if results[i] is _MISSING]
    work = Work(fn, encode or journal is not None, keep)  # the JSONL lines are written from the texts
    try:
        if todo:
            if backend == "ray":
                stream = _ray(work, todo, init, init_args, workers, chunk_size)
            elif workers == 1 or len(todo) == 1:
                stream = _serial(work, todo, init, init_args)
            else:
                stream = _processes(work, todo, init, init_args, workers, chunk_size)
            try:
                for start, kept, block in progress(stream, len(todo), label, count=lambda c: len(c[1])):
                    indices = [todo[start + j][0] for j in range(len(kept))]
                    for i, r in zip(indices, kept):
                        results[i] = r
                    if texts is not None:
                        texts.add(indices, block)
                    if journal is not None:
                        journal.add_texts(indices, block.split("\n"))
            finally:
                close = getattr(stream, "close", None)
                if close is not None:
                    close()  # stops the workers now, also on an error or Ctrl-C
    finally:
        if journal is not None:
            journal.close()
    return results if texts is None else (results, texts)


class Work:
    """What is done with each item: ``fn(context, item)``, its JSON text (``encode``: the texts of a chunk come
    back as one block, joined by newlines) and what is kept of it (``keep``; None: all of it).

    The one per-item boundary of every run (serial, processes, Ray): an exception from an item's function, or
    from encoding what it returned, becomes that item's record, ``fn.invalid_record(index, item, error)``
    (:class:`eai_gym.scoring.jobs.ItemWork`: the mode's record of an item it does not score) or, for a plain
    function, :func:`invalid_record`. One item never ends the run."""

    def __init__(self, fn: Callable[[Any, Any], Any], encode: bool, keep: Callable[[Any], Any] | None) -> None:
        self.fn, self.encode, self.keep = fn, encode, keep
        self.invalid: Callable[[int, Any, BaseException], Any] = getattr(fn, "invalid_record", invalid_record)

    def __call__(self, context: Any, chunk: Iterable[tuple[int, Any]]) -> tuple[list, str | None]:
        fn, keep, encode = self.fn, self.keep, self.encode
        kept, texts = [], []
        for index, item in chunk:
            try:
                result = fn(context, item)
                text = json.dumps(result) if encode else ""
            except Exception as error:  # noqa: BLE001 - the item's own failure: its record says what it was
                result = self._invalid(index, item, error)
                text = json.dumps(result) if encode else ""
            if encode:
                texts.append(text)
            kept.append(result if keep is None else keep(result))
        return kept, "\n".join(texts) if encode else None

    def _invalid(self, index: int, item: Any, error: BaseException) -> Any:
        try:
            record = self.invalid(index, item, error)
            json.dumps(record)
            return record
        except Exception:  # noqa: BLE001 - the mode's record builder failed too: the plain record
            return invalid_record(index, item, error)


def invalid_record(index: int, item: Any, error: BaseException) -> dict:
    """The record of an item whose function raised, for a function that names no record of its own."""
    ident = item_identifier(item)
    return plain_record(ident, "invalid_input", f"{describe_item(index, ident)} cannot be scored: "
                                                f"{describe_error(error)}")


def _chunk_size(n: int, workers: int, chunk_size: int | None) -> int:
    return chunk_size or max(1, min(CHUNK_ITEMS, n // (workers * CHUNKS_PER_WORKER)))


def _chunks(todo: list, workers: int, chunk_size: int | None) -> Iterator[tuple[int, list]]:
    size = _chunk_size(len(todo), workers, chunk_size)
    for k in range(0, len(todo), size):
        yield k, todo[k:k + size]


def _serial(work: Work, todo: list, init, init_args) -> Iterator[tuple[int, list, str | None]]:
    context = init(*init_args) if init is not None else None
    for k, pair in enumerate(todo):  # item by item: each is written to the JSONL file as it finishes
        yield (k, *work(context, (pair,)))


# --- processes ------------------------------------------------------------------------------------

_CONTEXT: Any = None
_WORK: Any = None
#: in a worker started by fork: the parent's ``(index, item)`` list, inherited rather than sent chunk by chunk
_TODO: list = []


def _init_worker(parent: int, work: Work, init, init_args, todo: list | None = None) -> None:
    global _CONTEXT, _TODO, _WORK
    import signal

    from .process_guard import end_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler, if forked: SIGTERM ends a worker at once
    end_with_parent(parent)
    gc.set_threshold(max(gc.get_threshold()[0], YOUNG_GC_THRESHOLD), *gc.get_threshold()[1:])
    _CONTEXT = init(*init_args) if init is not None else None
    _WORK = work
    _TODO = todo or []


def _run_chunk(start: int, chunk: list) -> tuple:
    return (start, *_WORK(_CONTEXT, chunk))


def _run_slice(start: int, stop: int) -> tuple:
    return (start, *_WORK(_CONTEXT, _TODO[start:stop]))


def _processes(work: Work, todo, init, init_args, workers, chunk_size) -> Iterator[tuple[int, list, str | None]]:
    """Chunks of ``todo`` on a process pool. Where workers are forked (Linux), they inherit ``todo`` (and
    ``work``) when they start and are sent only which slice to run: the parent does not pickle every item, nor a
    worker unpickle it. A worker that dies (killed, out of memory) ends the run with :class:`WorkerError`; an
    exception here (Ctrl-C, SIGTERM, an error) or in the caller kills the workers (:func:`_stop_pool`)."""
    import multiprocessing
    from concurrent import futures
    from concurrent.futures.process import BrokenProcessPool

    forked = multiprocessing.get_start_method(allow_none=False) == "fork"
    size = _chunk_size(len(todo), workers, chunk_size)
    chunks = iter(range(0, len(todo), size)) if forked else _chunks(todo, workers, chunk_size)
    initargs = (os.getpid(), work, init, init_args) + ((todo,) if forked else ())
    others = set(multiprocessing.active_children())  # child processes that are not this pool's
    pool = futures.ProcessPoolExecutor(workers, initializer=_init_worker, initargs=initargs)
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
                pending.add(pool.submit(_run_slice, chunk, chunk + size) if forked
                            else pool.submit(_run_chunk, *chunk))
                if frozen:
                    gc.unfreeze()
                    frozen = False
            if not pending:
                break
            done, pending = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
            for fut in done:
                try:
                    yield fut.result()
                except BrokenProcessPool:
                    raise WorkerError("a worker process ended abruptly (killed, or out of memory?) before "
                                      "returning its results; no results were written") from None
    except BaseException:  # an interruption, an error, or the caller closing the stream early
        _stop_pool(pool, others)
        raise
    finally:
        if frozen:
            gc.unfreeze()
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_pool(pool: Any, others: set) -> None:
    """Stop ``pool`` now: no new chunk starts, and its workers (the child processes not in ``others``) are
    killed in the middle of theirs, rather than waited for."""
    import multiprocessing

    pool.shutdown(wait=False, cancel_futures=True)
    workers = [p for p in multiprocessing.active_children() if p not in others]
    for p in workers:
        p.kill()
    for p in workers:
        p.join()


# --- ray ------------------------------------------------------------------------------------------

class _RayWorker:
    """One Ray actor: builds the context once, then runs chunks."""

    def __init__(self, init, init_args) -> None:
        self.context = init(*init_args) if init is not None else None

    def run(self, work: Work, start: int, chunk: list) -> tuple:
        return (start, *work(self.context, chunk))


def _ray(work: Work, todo, init, init_args, workers, chunk_size) -> Iterator[tuple[int, list, str | None]]:
    try:
        import ray
    except ImportError:
        raise RunnerError(RAY_MISSING) from None
    started = not ray.is_initialized()
    if started:
        _ray_init(ray)
    actors: list = []
    try:
        workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        remote = ray.remote(num_cpus=1)(_RayWorker)
        work_ref = ray.put(work)
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
                pending[actors[k].run.remote(work_ref, *chunk)] = k
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                load[pending.pop(ref)] -= 1
                yield ray.get(ref)
    finally:
        for a in actors:
            ray.kill(a)
        if started:
            ray.shutdown()


def _ray_init(ray: Any) -> None:
    """``ray.init()``: RAY_ADDRESS names an existing cluster; otherwise a local one is started. Ray sets its own
    SIGTERM handler (``sys.exit``) in the driver: the one before it is put back, so that SIGTERM stops the run as
    the command wants (:mod:`eai_gym.interrupts`)."""
    import signal
    import threading

    main = threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGTERM) if main else None
    try:
        ray.init()
    finally:
        if main and previous is not None:
            signal.signal(signal.SIGTERM, previous)

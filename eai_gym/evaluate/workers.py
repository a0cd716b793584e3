"""Run a function over many items on a few threads, and stop promptly when interrupted.

The threads are daemon threads: a request still in flight when the user presses Ctrl-C (or the run gets
SIGTERM) never holds the process open. :func:`run_all` hands the items out in order; when the waiting
thread is interrupted, or an item raises, it hands out nothing more, calls ``on_stop`` (which cancels the
requests' retries and waits), waits at most :data:`GRACE_S` for the items already running (their finished
replies reach the cache), and raises.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

#: seconds an interrupted run waits for the items already running before it stops
GRACE_S = 2.0


def run_all(fn: Callable[[int], Any], n: int, workers: int, *, on_stop: Callable[[], None] | None = None,
            grace_s: float = GRACE_S) -> list[Any]:
    """``[fn(i) for i in range(n)]`` on ``workers`` daemon threads. An exception from ``fn`` (or an interrupt of
    the calling thread) stops the others as described above and is raised in the calling thread."""
    results: list[Any] = [None] * n
    state = threading.Condition()
    next_index = 0
    running = 0
    failure: list[BaseException] = []
    stopped = False

    def worker() -> None:
        nonlocal next_index, running
        while True:
            with state:
                if stopped or failure or next_index >= n:
                    return
                i = next_index
                next_index += 1
                running += 1
            try:
                results[i] = fn(i)
            except BaseException as e:  # noqa: BLE001 - handed to the calling thread
                with state:
                    failure.append(e)
            finally:
                with state:
                    running -= 1
                    state.notify_all()

    threads = [threading.Thread(target=worker, name=f"eai-gym-evaluate-{k}", daemon=True)
               for k in range(max(1, min(workers, n)))]
    for t in threads:
        t.start()
    try:
        with state:
            while not failure and (next_index < n or running):
                state.wait(0.5)
        if failure:
            raise failure[0]
    except BaseException:
        with state:
            stopped = True
        if on_stop is not None:
            on_stop()
        with state:
            state.wait_for(lambda: running == 0, timeout=grace_s)
        raise
    return results


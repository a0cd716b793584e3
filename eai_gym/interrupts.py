"""SIGTERM stops a command the way Ctrl-C does.

Python turns SIGINT (Ctrl-C) into :class:`KeyboardInterrupt`, raised where the main thread is, so every
``finally`` runs: workers and planners are stopped, journals and caches are closed with what finished. SIGTERM
(``kill``, a job scheduler, a container stop) would end the process at once, with none of that. Within
:func:`sigterm_interrupts`, SIGTERM raises :class:`Terminated`, a ``KeyboardInterrupt``, so the same code handles
both; :func:`exit_code` is the shell's code for each: 130 (SIGINT) or 143 (SIGTERM).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any, Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (raised, like Ctrl-C's ``KeyboardInterrupt``, where the main thread was)."""


#: whether SIGTERM arrived within the current :func:`sigterm_interrupts` block (some libraries turn any exception a
#: signal handler raises into a plain ``KeyboardInterrupt``: Ray's ``ray.wait`` does)
_terminated = False


def _raise_terminated(signum: int, frame: Any) -> None:
    global _terminated
    # the first SIGTERM interrupts; more while the command stops would interrupt its cleanup, so they are ignored
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _terminated = True
    raise Terminated(f"signal {signum}")


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in the main thread (the first one; later ones are
    ignored while the command stops); the previous handler is restored afterwards. Outside the main thread
    (where Python cannot set handlers) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _terminated
    previous, _terminated = signal.signal(signal.SIGTERM, _raise_terminated), False
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """The exit code of a command stopped by ``interrupt``: 128 + the signal's number, as a shell reports a
    process the signal ended (143 for SIGTERM, 130 for SIGINT)."""
    return 128 + (signal.SIGTERM if isinstance(interrupt, Terminated) or _terminated else signal.SIGINT)

"""Processes that end with the process that started them.

A worker process, or a planner a worker started, must not outlive the run it works for: a killed worker would
leave its planner running (a planner can search for an hour), and a command killed outright would leave its
workers. Two tools, portable to every POSIX system (no ``prctl``, and no ``preexec_fn``, which is unsafe in a
process with threads):

* :func:`end_with_parent`: a thread that kills this process (SIGKILL) once its parent is gone; a pool worker
  starts it when it starts.
* Run as a script (:func:`guarded_command` builds the command line): a guard that runs a command in the guard's
  own process group and kills the whole group (the command and everything it started) when the caller dies, when
  the time given is up, when the guard itself is killed, or when it is sent SIGTERM, SIGINT or SIGHUP. So a planner
  call's time limit holds even when its caller is killed. The watching is done by a process the guard forks, so
  that it outlives a guard killed outright (Ray kills a dying worker's child processes, not theirs); the guard
  itself waits for the command (a blocking ``waitpid``: no wait added to a command that ends by itself).

As a script it imports only the standard library, and little of it (``python -I -S``: quick to start).
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

#: seconds between two looks at the processes watched
POLL_SECONDS = 0.2
#: seconds the guard waits past the time limit it is given (the caller's own limit normally acts first)
GRACE_SECONDS = 1.0


def end_with_parent(parent: int) -> None:
    """Start a daemon thread that kills this process (SIGKILL) as soon as its parent, the process ``parent``
    (its pid, passed down by the parent: asked here, it might already be another's), is gone."""
    import threading

    threading.Thread(target=_watch, args=(parent,), name="end-with-parent", daemon=True).start()


def guarded_command(command: list[str], seconds: float) -> list[str]:
    """The command line that runs ``command`` under the guard, for at most ``seconds`` (plus
    :data:`GRACE_SECONDS`), watching this process. Start it with ``start_new_session=True`` (else the guard
    makes a process group of its own): ``os.killpg`` of its pid ends the command and everything it started."""
    return [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid()),
            repr(float(seconds) + GRACE_SECONDS), "--", *command]


def _kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _kill_group() -> None:
    os.killpg(os.getpgrp(), signal.SIGKILL)  # the command, what it started, and this guard


def _watch(parent: int) -> None:
    """Kill this process once its parent is no longer ``parent`` (it died: this process was handed to another)."""
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    _kill_self()


def _caller_alive(caller: int, pidfd: int | None) -> bool:
    """Whether the process ``caller`` still runs (``pidfd``: a pidfd of it, where the system has them)."""
    if pidfd is not None:
        return not select.select([pidfd], [], [], 0)[0]  # a pidfd becomes readable when its process ends
    try:
        os.kill(caller, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:  # the pid is another user's now
        return False


def _watcher(caller: int, pidfd: int | None, deadline: float) -> None:
    """The watching process (a child of the guard, in its group): kill the group once the guard or the caller is
    gone, or ``deadline`` has passed."""
    guard = os.getppid()
    while os.getppid() == guard and _caller_alive(caller, pidfd) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
    _kill_group()


def _guard(argv: list[str]) -> int:
    """``CALLER SECONDS -- COMMAND...``: run COMMAND; return its exit code (128 + N when signal N ended it)."""
    if len(argv) < 4 or argv[2] != "--":
        print("usage: process_guard.py CALLER_PID SECONDS -- COMMAND [ARG...]", file=sys.stderr)
        return 2
    caller, deadline, command = int(argv[0]), time.monotonic() + float(argv[1]), argv[3:]
    if os.getpgrp() != os.getpid():  # not started in a session of its own: the group it kills must be its own
        os.setpgid(0, 0)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: _kill_group())
    try:
        pidfd: int | None = os.pidfd_open(caller)
    except (AttributeError, OSError):  # not Linux 5.3+, or the caller is gone already
        pidfd = None
    if not _caller_alive(caller, pidfd):
        return 128 + signal.SIGKILL
    try:
        child = os.posix_spawnp(command[0], command, os.environ)
    except OSError as e:
        print(f"cannot run {command[0]}: {e}", file=sys.stderr)
        return 127
    watcher = os.fork()
    if watcher == 0:
        _watcher(caller, pidfd, deadline)
        _kill_self()  # not reached: the watcher is in the group it kills
    status = os.waitpid(child, 0)[1]
    os.kill(watcher, signal.SIGKILL)
    os.waitpid(watcher, 0)
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(_guard(sys.argv[1:]))

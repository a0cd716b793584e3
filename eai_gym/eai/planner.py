"""The PDDL planner of the transition-modeling scorer: the real Fast Downward (``eai-gym[planner]``,
prebuilt in the ``up-fast-downward`` wheel), or any object with the :class:`Planner` interface.

Each planner call runs in its own temporary directory, in a process group of its own under a guard
(:mod:`eai_gym.scoring.process_guard`), with its timeout enforced by killing the whole group: by the caller, and
by the guard when the caller is gone (a killed worker, an interrupted run), so no planner outlives its run. A
verdict is a dict ``{"verdict", "seconds", "message"}`` with ``verdict`` one of ``solved``, ``unsolved`` (the
planner ran and found no plan, or could not read the domain), ``timeout`` or ``error`` (the planner could not be
run); it is that item's verdict, never the run's.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from functools import lru_cache
from typing import Protocol

from ..scoring.process_guard import guarded_command
from .builtin_planner import BuiltinPlanner

FD_ALIAS = "lama-first"
PLANNER_HINT = ("planner columns not computed: Fast Downward is not installed "
                "(pip install 'eai-gym[planner]')")
PLANNER_CHOICES = ("fast-downward", "builtin", "none")
_PLAN_STEP = re.compile(r"(.+) \(\d+?\)")
_TELLING = re.compile(r"Solution found!|No relaxed solution|Search stopped without finding a solution|"
                      r"Completely explored state space|[Ee]rror|exit code")


class PlannerUnavailable(RuntimeError):
    """The planner asked for cannot run here."""


class Planner(Protocol):
    name: str

    def version(self) -> str: ...

    def solve(self, domain: str, problem: str, timeout: float) -> dict: ...


@lru_cache(maxsize=1)
def fast_downward_script() -> str | None:
    """Path of ``fast-downward.py`` in the installed ``up-fast-downward`` wheel, or None."""
    spec = importlib.util.find_spec("up_fast_downward")  # the package itself is not imported
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        path = os.path.join(base, "downward", "fast-downward.py")
        if os.path.isfile(path):
            return path
    return None


class FastDownward:
    """Fast Downward ``--alias lama-first`` (as eai-eval 1.0.5 runs it); solved = "Solution found!" and a
    plan in its output, within the timeout."""

    name = "fast-downward"

    def __init__(self, alias: str = FD_ALIAS) -> None:
        script = fast_downward_script()
        if script is None:
            raise PlannerUnavailable(PLANNER_HINT)
        self.script = script
        self.alias = alias

    def version(self) -> str:
        return _fd_version(self.script)

    def solve(self, domain: str, problem: str, timeout: float) -> dict:
        with tempfile.TemporaryDirectory(prefix="eai-gym-fd-") as tmp:
            for name, text in (("domain.pddl", domain), ("problem.pddl", problem)):
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text)
            cmd = [sys.executable, self.script, "--alias", self.alias, "--sas-file", "output.sas",
                   "domain.pddl", "problem.pddl"]
            try:
                out, seconds = run_planner(cmd, tmp, timeout)
            except OSError as e:
                return {"verdict": "error", "seconds": 0.0, "message": f"cannot run Fast Downward: {e}"}
            if out is None:
                return {"verdict": "timeout", "seconds": round(seconds, 3),
                        "message": f"no answer within {timeout:g} s"}
        text = out.decode("utf-8", "replace")
        return {"verdict": fd_verdict(text, seconds, timeout), "seconds": round(seconds, 3),
                "message": _telling_lines(text)}


def run_planner(cmd: list[str], cwd: str, timeout: float) -> tuple[bytes | None, float]:
    """Run a planner's command line in ``cwd``, in a process group of its own under the guard
    (:func:`eai_gym.scoring.process_guard.guarded_command`): its output (stdout and stderr) and the seconds it
    took, the output None when it was not done within ``timeout`` (then it is killed, with all it started). An
    exception meanwhile (Ctrl-C, SIGTERM) kills it too before going on; a killed caller, through the guard.
    Raises ``OSError`` when it cannot be started."""
    start = time.perf_counter()
    proc = subprocess.Popen(guarded_command(cmd, timeout), cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.communicate()
        return None, time.perf_counter() - start
    except BaseException:  # interrupted (Ctrl-C, SIGTERM) or failing: the planner goes with this call
        _kill_group(proc)
        proc.wait()
        raise
    return out, time.perf_counter() - start


def fd_verdict(output: str, seconds: float, timeout: float) -> str:
    """``solved`` when Fast Downward's output reports a plan (eai-eval 1.0.5's test), else ``unsolved``;
    ``timeout`` when the call took longer than ``timeout``."""
    if seconds > timeout:
        return "timeout"
    if "Solution found!" not in output:
        return "unsolved"
    if "Plan length: 0 step" in output or _PLAN_STEP.search(output.lower()):
        return "solved"
    return "unsolved"


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _telling_lines(text: str) -> str:
    """The lines of Fast Downward's output that say what happened (solution, unsolvable, errors, exit
    codes), joined; else its last line."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    telling = [ln for ln in lines if _TELLING.search(ln)]
    return "; ".join(dict.fromkeys(telling))[:300] if telling else (lines[-1][:300] if lines else "")


@lru_cache(maxsize=4)
def _fd_version(script: str) -> str:
    try:
        pkg = importlib.metadata.version("up-fast-downward")
    except importlib.metadata.PackageNotFoundError:
        pkg = "?"
    try:
        out = subprocess.run([sys.executable, script, "--version"], capture_output=True, text=True,
                             timeout=60).stdout
        m = re.search(r"Fast Downward (\S+)", out)
        fd = m.group(1) if m else "?"
    except (OSError, subprocess.SubprocessError):
        fd = "?"
    return f"Fast Downward {fd} (up-fast-downward {pkg}), --alias {FD_ALIAS}"


def make_planner(spec: str | Planner | None) -> Planner | None:
    """A planner from its name (``fast-downward``, ``builtin``: :mod:`eai_gym.eai.builtin_planner`; ``none``
    or None: no planner), or the object given. Raises :class:`PlannerUnavailable` if Fast Downward was asked for and is missing."""
    if spec is None or spec == "none":
        return None
    if not isinstance(spec, str):
        return spec
    if spec == "fast-downward":
        return FastDownward()
    if spec == "builtin":
        return BuiltinPlanner()
    raise ValueError(f"unknown planner {spec!r}; expected one of {', '.join(PLANNER_CHOICES)}")


def default_planner() -> str:
    """``fast-downward`` when it is installed, else ``none`` (the planner columns are then not computed)."""
    return "fast-downward" if fast_downward_script() is not None else "none"


def choose_planner(option: str | None) -> str:
    """The planner a run uses for ``--planner`` (``auto``/None: Fast Downward when installed, else none).
    Raises :class:`eai_gym.scoring.runner.RunnerError` when Fast Downward is asked for and is missing."""
    from ..scoring.runner import RunnerError

    if option in (None, "auto"):
        return default_planner()
    if option == "fast-downward" and fast_downward_script() is None:
        raise RunnerError(f"--planner fast-downward: {PLANNER_HINT}")
    return option

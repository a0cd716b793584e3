"""An interrupted run leaves nothing running: SIGTERM or Ctrl-C (SIGINT to the process group) stops ``eai-gym score``
serially, on a process pool and on Ray, planners included, keeps the finished records for ``--resume``, and exits
143 / 130; a planner ends with its caller, whoever kills the caller.

Every process a test starts carries a marker in its environment (inherited by everything it starts, planners and
Ray's processes included): the test looks for processes that hold it, through ``/proc``. Waits are bounded by
construction (a deadline, then a failure naming what is left), not timed assertions."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SLOW_WORLD = HERE / "slow_world.py"
MARK = "EAI_GYM_TEST_RUN"
#: seconds any one wait may take before the test fails (a stopped run takes well under a second here)
PATIENCE = 120.0

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the processes left through /proc")


# ------------------------------------------------------------------------------ processes
def marked(token: str) -> list[tuple[int, str]]:
    """The live processes (not zombies) whose environment holds ``MARK=token``: pid and command line."""
    entry = f"{MARK}={token}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if entry not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                found.append((int(name), f.read().replace(b"\0", b" ").decode(errors="replace")))
        except OSError:  # gone meanwhile, or another user's
            continue
    return found


def planner_children(token: str) -> int:
    """How many held planners of the slow world (:data:`slow_world.HOLD`) have started their child."""
    return sum(c.startswith(f"{sys.executable} -c # slow-world-planner-child") for _, c in marked(token))


def wait_for(what: str, check, proc: subprocess.Popen | None = None):
    """Poll ``check()`` until it is truthy (returned); fail after :data:`PATIENCE` seconds, or if ``proc`` ends."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the command ended ({proc.returncode}) before {what}: {proc.stderr.read()}")
        time.sleep(0.1)
    pytest.fail(f"no {what} within {PATIENCE:g} s")


def kill_marked(token: str) -> list[tuple[int, str]]:
    """Kill what is left of a test's processes; what was left."""
    left = marked(token)
    for pid, _ in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left


@pytest.fixture
def token():
    """The marker of a test's processes; whatever of them a failing test leaves is killed afterwards."""
    value = uuid.uuid4().hex
    yield value
    kill_marked(value)


def assert_all_gone(token: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while marked(token) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = kill_marked(token)
    assert not left, f"still running {PATIENCE:g} s after the run stopped: {left}"


def start(argv: list[str], token: str) -> subprocess.Popen:
    """``argv`` in a session of its own (its process group is what a terminal's Ctrl-C signals), marked."""
    return subprocess.Popen(argv, env={**os.environ, MARK: token}, start_new_session=True, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def interrupt(proc: subprocess.Popen, how: str) -> tuple[int, str, str]:
    """Stop ``proc`` as ``how`` says (``SIGTERM`` to the process; ``SIGINT`` to its process group, as Ctrl-C);
    its exit code, stdout and stderr."""
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the command did not stop within {PATIENCE:g} s of {how}")
    return proc.returncode, out, err


EXIT_CODES = {"SIGTERM": 143, "SIGINT": 130}


# ------------------------------------------------------------------------------ eai-gym score, a slow world
def records(jsonl: Path) -> dict[int, dict]:
    lines = jsonl.read_text().splitlines()[1:]
    return {json.loads(line)["index"]: json.loads(line)["record"] for line in lines}


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_interrupted_run_stops_everything_keeps_what_finished_and_resumes(tmp_path, token, how, workers):
    flag = tmp_path / "hold"
    flag.write_text("")
    # held items (a planner each, until the flag goes) after quick ones: when every worker holds one, the quick
    # items before them are finished
    held = [3] if workers == "1" else [3, 7]
    items = [{"identifier": f"item{i}", "hold": str(flag) if i in held else None} for i in range(8)]
    plans, jsonl, out = tmp_path / "plans.json", tmp_path / "run.jsonl", tmp_path / "results.json"
    plans.write_text(json.dumps(items))
    argv = [sys.executable, str(SLOW_WORLD), "score", "slow", str(plans), "--workers", workers,
            "--jsonl", str(jsonl), "--out", str(out)]
    proc = start(argv, token)
    wait_for(f"{len(held)} held planner(s)", lambda: planner_children(token) == len(held), proc)
    code, stdout, err = interrupt(proc, how)
    assert code == EXIT_CODES[how], err
    assert "interrupted; the finished records are in" in err and "Traceback" not in err
    assert_all_gone(token)
    kept = records(jsonl)
    assert kept and set(kept) <= set(range(8)) - set(held) and not out.exists()

    flag.unlink()  # the held items now finish at once
    resumed = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=PATIENCE,
                             env={**os.environ, MARK: token})
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept)} of 8 items already scored" in resumed.stderr
    assert sorted(records(jsonl)) == list(range(8))  # each item once
    tasks = json.loads(out.read_text())["tasks"]
    assert [t["identifier"] for t in tasks] == [f"item{i}" for i in range(8)]
    assert all(t["status"] == "evaluated" for t in tasks)
    assert_all_gone(token)


# ------------------------------------------------------------------------------ the real planner
def fast_downward() -> None:
    from eai_gym.eai.planner import fast_downward_script

    if fast_downward_script() is None:
        pytest.skip("needs Fast Downward (pip install 'eai-gym[planner]')")


def behavior_outputs(tmp_path: Path) -> Path:
    """One model's published BEHAVIOR transition-modeling outputs: an item the planner works on for minutes
    (``chopping_vegetables``, up to the 200 s timeout) and two it answers in about a second."""
    import gzip

    data = HERE.parent / "reference" / "data" / "transition_modeling" / "outputs_behavior.json.gz"
    with gzip.open(data, "rt", encoding="utf-8") as f:
        items = next(iter(json.load(f).values()))
    slow = [i for i in items if i["identifier"].startswith("chopping_vegetables")]
    path = tmp_path / "outputs.json"
    path.write_text(json.dumps(slow + [i for i in items if i not in slow][:2]))
    return path


@pytest.mark.parametrize("how,backend", [("SIGTERM", "processes"), ("SIGINT", "processes"), ("SIGTERM", "ray")])
def test_transition_modeling_with_fast_downward_stops_its_workers_and_planners(tmp_path, token, how, backend):
    fast_downward()
    if backend == "ray":
        pytest.importorskip("ray")
    jsonl = tmp_path / "run.jsonl"
    argv = [sys.executable, "-m", "eai_gym.cli", "score", "behavior", str(behavior_outputs(tmp_path)),
            "--mode", "transition_modeling", "--planner", "fast-downward", "--workers", "2", "--backend", backend,
            "--jsonl", str(jsonl)]
    proc = start(argv, token)
    # the run has begun (its journal is there) and a planner searches: not the planner's version check, which
    # runs Fast Downward's binary too, before the run begins
    wait_for("a Fast Downward search", lambda: jsonl.exists() and any(
        c.split(" ")[0].endswith("/downward") for _, c in marked(token)), proc)
    code, _, err = interrupt(proc, how)
    assert code == EXIT_CODES[how], err
    assert "Traceback" not in err
    assert_all_gone(token)
    assert json.loads(jsonl.read_text().splitlines()[0])["run"]["mode"] == "transition_modeling"


# ------------------------------------------------------------------------------ a planner ends with its caller
CALLER = """
import sys
sys.path.insert(0, sys.argv[1])
import slow_world
from eai_gym.eai.planner import run_planner
run_planner([sys.executable, "-c", slow_world.HOLD, sys.argv[2]], sys.argv[3], 600.0)
"""


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_a_planner_ends_with_its_caller(tmp_path, token, signum):
    flag = tmp_path / "hold"
    flag.write_text("")
    caller = start([sys.executable, "-c", CALLER, str(HERE), str(flag), str(tmp_path)], token)
    wait_for("the planner's child", lambda: planner_children(token), caller)
    caller.send_signal(signum)  # the caller dies at once (no handler): only the guard can end the planner
    caller.communicate(timeout=PATIENCE)
    assert_all_gone(token)


def test_a_planner_killed_with_its_guard_ends_too(tmp_path, token):
    from eai_gym.scoring.process_guard import guarded_command

    flag = tmp_path / "hold"
    flag.write_text("")
    from slow_world import HOLD

    guard = start(guarded_command([sys.executable, "-c", HOLD, str(flag)], 600.0), token)
    wait_for("the planner's child", lambda: planner_children(token), guard)
    guard.kill()  # what Ray does to a dying worker's children
    guard.communicate(timeout=PATIENCE)
    assert_all_gone(token)


def test_a_planner_call_s_timeout_ends_the_planner_and_its_children(tmp_path, token):
    from slow_world import HOLD

    from eai_gym.eai.planner import run_planner

    flag = tmp_path / "hold"
    flag.write_text("")
    os.environ[MARK] = token
    try:
        out, seconds = run_planner([sys.executable, "-c", HOLD, str(flag)], str(tmp_path), 1.0)
    finally:
        del os.environ[MARK]
    assert out is None and seconds >= 1.0
    assert_all_gone(token)


def test_a_worker_ends_with_the_process_that_started_it(tmp_path, token):
    code = ("import os, time\n"
            "from eai_gym.scoring.process_guard import end_with_parent\n"
            "parent = os.getpid()\n"
            "if os.fork() == 0:\n"
            "    end_with_parent(parent)\n"
            "    time.sleep(600)\n"
            "time.sleep(600)\n")
    proc = start([sys.executable, "-c", code], token)
    wait_for("the worker", lambda: len(marked(token)) == 2, proc)
    proc.kill()
    proc.communicate(timeout=PATIENCE)
    assert_all_gone(token)

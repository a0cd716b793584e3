"""No command writes over anything but a regular file: every output path a command takes (``score --out`` and
``--jsonl``, ``prompts --out``, ``report --out``, ``evaluate --run-dir`` and the files in it), given a FIFO, a
socket, a character device, or a symlink to one or to nothing, is refused with exit 2 and a message naming it,
before any work, and left as it was. ``--out -`` writes to standard output."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from eai_gym import registry
from eai_gym.cli import main


def first_modes(has) -> list[tuple[str, str]]:
    """Each world's first mode for which ``has(mode)``."""
    firsts = ((w.name, next((m.name for m in w.modes if has(m)), None)) for w in registry.worlds())
    return [(world, mode) for world, mode in firsts if mode is not None]


GOLD_MODES = first_modes(lambda m: m.gold)
PROMPT_MODES = first_modes(lambda m: m.prompts)

# ------------------------------------------------------------------------------ special files
KINDS = ["fifo", "socket", "chardev", "symlink-to-fifo", "symlink-to-chardev", "symlink-to-nothing"]


def make_special(kind: str, path: Path) -> None:
    """Make ``path`` a special file of ``kind`` (skips where this system or user cannot)."""
    if kind.startswith("symlink-to-"):
        target = path.with_name(path.name + ".target")
        if kind != "symlink-to-nothing":
            make_special(kind.removeprefix("symlink-to-"), target)
        path.symlink_to(target.name)
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(path))
    elif kind == "chardev":  # what /dev/null is (1, 3): made here, so that a failing test damages nothing
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except (PermissionError, AttributeError):
            pytest.skip("cannot make a device here (needs root)")


def snapshot(path: Path) -> list:
    """What identifies ``path`` and, for a symlink, what it points to."""
    def one(p: Path):
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            return None
        return (stat.S_IFMT(st.st_mode), st.st_ino, st.st_rdev, os.readlink(p) if stat.S_ISLNK(st.st_mode) else None)
    target = path.with_name(path.name + ".target")
    return [one(path), one(target), sorted(p.name for p in path.parent.iterdir())]


@pytest.fixture
def endpoint():
    pytest.importorskip("openai")
    from eai_gym.evaluate.fake_server import FakeChatServer

    server = FakeChatServer(answer=lambda messages: "{}").start()
    yield server.base_url
    server.stop()


@pytest.fixture
def results_file(tmp_path_factory) -> Path:
    """A results file of ``eai-gym score`` (an input of ``report``)."""
    path = tmp_path_factory.mktemp("results") / "r.json"
    assert main(["score", "virtualhome", "--gold", "--out", str(path)]) == 0
    return path


def command(name: str, world_mode: tuple[str, str] | None, path: str, request) -> list[str]:
    world, mode = world_mode or ("", "")
    if name == "score --out":
        return ["score", world, "--gold", "--mode", mode, "--out", path]
    if name == "score --jsonl":
        return ["score", world, "--gold", "--mode", mode, "--jsonl", path]
    if name == "prompts --out":
        return ["prompts", world, "--mode", mode, "--out", path]
    if name == "report --out":
        pytest.importorskip("matplotlib")
        return ["report", str(request.getfixturevalue("results_file")), "--out", path]
    run_dir = path if name == "evaluate --run-dir" else os.path.dirname(path)
    return ["evaluate", "virtualhome", "--mode", "action_sequencing", "--model", "m", "--base-url",
            request.getfixturevalue("endpoint"), "--run-dir", run_dir, "--limit", "1", "--max-retries", "0"]


CASES = ([("score --out", wm) for wm in GOLD_MODES] + [("score --jsonl", wm) for wm in GOLD_MODES]
         + [("prompts --out", wm) for wm in PROMPT_MODES] + [("report --out", None), ("evaluate --run-dir", None),
                                                            ("evaluate --run-dir (a file in it)", None)])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name,world_mode", CASES, ids=[f"{n}-{wm[0] if wm else ''}" for n, wm in CASES])
def test_a_special_output_path_is_refused_before_any_work_and_left_as_it_was(tmp_path, monkeypatch, capsys, request,
                                                                             name, world_mode, kind):
    monkeypatch.chdir(tmp_path)  # short relative paths: a socket's path has a length limit
    if name.endswith("(a file in it)"):
        Path("run").mkdir()
        special = Path("run") / "results.json"
    else:
        special = Path("out.json")
    make_special(kind, special)
    argv = command(name, world_mode, str(special), request)
    capsys.readouterr()
    scored: list = []
    monkeypatch.setattr("eai_gym.scoring.score.score", lambda *a, **k: scored.append(a))
    before = snapshot(tmp_path / special)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert snapshot(tmp_path / special) == before and not scored and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("eai-gym: ") and str(special) in err
    what = {"fifo": "a FIFO", "socket": "a socket", "chardev": "a character device", "nothing": "does not exist"}
    assert what[kind.removeprefix("symlink-to-")] in err


def test_a_gold_run_on_a_fifo_does_not_block(tmp_path):
    """As a program (the CLI's own process), with the FIFO opened by no reader: refused at once."""
    fifo = tmp_path / "stream"
    make_special("fifo", fifo)
    for option in ("--jsonl", "--out"):
        run = subprocess.run([sys.executable, "-m", "eai_gym.cli", "score", "virtualhome", "--gold", option, str(fifo)],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and f"refusing to write to {fifo}: it is a FIFO" in run.stderr
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# ------------------------------------------------------------------------------ --out -
def test_score_out_dash_writes_the_results_to_standard_output(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["score", "virtualhome", "--gold", "--out", "r.json"]) == 0
    capsys.readouterr()
    assert main(["score", "virtualhome", "--gold", "--out", "-"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == json.loads(Path("r.json").read_text())  # the results, the summary among them
    assert sorted(os.listdir()) == ["r.json"] and "342 items" in err


def test_report_out_dash_writes_the_page_to_standard_output(tmp_path, monkeypatch, capsys, results_file):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["report", str(results_file), "--out", "-"]) == 0
    out, _ = capsys.readouterr()
    assert out.lstrip().lower().startswith("<!doctype html") and "virtualhome" in out and os.listdir() == []


def test_jsonl_dash_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["score", "virtualhome", "--gold", "--jsonl", "-"])
    assert e.value.code == 2 and "--jsonl needs a file path" in capsys.readouterr().err

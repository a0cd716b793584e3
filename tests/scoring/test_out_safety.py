"""``--out`` never destroys data: not an input (by any name), checked writable before any work, written
atomically, and kept in a recovery file when writing fails at the end."""

from __future__ import annotations

import json
import os
import stat

import pytest

from eai_gym.cli import main
from eai_gym.scoring import io as scoring_io
from eai_gym.scoring.similarity import gold_items


def plans_file(tmp_path, n: int = 3):
    path = tmp_path / "plans.json"
    path.write_text(json.dumps(gold_items("virtualhome")[:n]))
    return path


def refused(capsys, argv, protected) -> str:
    before = protected.read_bytes()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and protected.read_bytes() == before
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    return lines[0]


def test_out_equal_to_the_plans_file_is_refused(tmp_path, capsys):
    plans = plans_file(tmp_path)
    msg = refused(capsys, ["score", "virtualhome", str(plans), "--out", str(plans)], plans)
    assert msg.startswith("eai-gym: refusing to write over an input") and str(plans) in msg


def test_out_through_another_relative_path_or_a_symlink_is_refused(tmp_path, capsys, monkeypatch):
    plans = plans_file(tmp_path)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    refused(capsys, ["score", "virtualhome", "../plans.json", "--out", "../sub/../plans.json"], plans)
    link = tmp_path / "link.json"
    link.symlink_to(plans)
    msg = refused(capsys, ["score", "virtualhome", str(plans), "--out", str(link)], plans)
    assert "the same file under another name" in msg
    refused(capsys, ["score", "virtualhome", str(link), "--out", str(plans)], plans)


def test_other_inputs_and_outputs_are_protected_too(tmp_path, capsys):
    plans = plans_file(tmp_path)
    ref = tmp_path / "ref.json"
    ref.write_text(plans.read_text())
    refused(capsys, ["score", "virtualhome", str(plans), "--mode", "similarity", "--reference", str(ref),
                     "--out", str(ref)], ref)
    refused(capsys, ["score", "virtualhome", str(plans), "--jsonl", str(plans)], plans)
    episodes = tmp_path / "episodes.json"
    episodes.write_text("[]")
    refused(capsys, ["score", "rearrange", "--gold", "--mode", "actions", "--episodes", str(episodes),
                     "--out", str(episodes)], episodes)
    # a case file inside a folder of cases (it would be read as a case next time, and is one now)
    cases = tmp_path / "cases"
    cases.mkdir()
    case = cases / "case_001.input.json"
    case.write_text(json.dumps({"propositions": [], "worlds": [{}]}))
    refused(capsys, ["score", "rearrange", str(cases), "--mode", "facts", "--out", str(case)], case)


def test_report_refuses_to_overwrite_a_results_file(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    plans = plans_file(tmp_path)
    results = tmp_path / "r.json"
    assert main(["score", "virtualhome", str(plans), "--out", str(results)]) == 0
    capsys.readouterr()
    msg = refused(capsys, ["report", str(results), "--out", str(results)], results)
    assert "refusing to write" in msg


@pytest.mark.parametrize("where", ["proc", "under_a_file", "a_folder"])
def test_an_unwritable_out_is_refused_before_scoring(tmp_path, capsys, monkeypatch, where):
    plans = plans_file(tmp_path)
    (tmp_path / "a_file").write_text("x")
    out = {"proc": "/proc/eai-gym-test/results.json", "under_a_file": str(tmp_path / "a_file" / "r.json"),
           "a_folder": str(tmp_path)}[where]
    scored = []
    monkeypatch.setattr("eai_gym.scoring.score.score", lambda *a, **k: scored.append(1))
    msg = refused(capsys, ["score", "virtualhome", str(plans), "--out", out], plans)
    assert msg.startswith(f"eai-gym: cannot write the results to {out}") and not scored
    if where != "a_folder":  # the records streamed with --jsonl too
        msg = refused(capsys, ["score", "virtualhome", str(plans), "--jsonl", out.replace(".json", ".jsonl")], plans)
        assert msg.startswith("eai-gym: cannot write the results to") and not scored


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_folder_is_refused(tmp_path, capsys):
    plans = plans_file(tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        msg = refused(capsys, ["score", "virtualhome", str(plans), "--out", str(ro / "r.json")], plans)
    finally:
        ro.chmod(0o755)
    assert "cannot write the results" in msg


def test_a_write_that_fails_at_the_end_keeps_the_results_in_a_recovery_file(tmp_path, capsys, monkeypatch):
    plans = plans_file(tmp_path)
    out = tmp_path / "out" / "r.json"
    real = scoring_io.write_text_atomic

    def failing(path, text):
        if os.path.abspath(path) == str(out):
            raise OSError(28, "No space left on device")
        real(path, text)
    monkeypatch.setattr(scoring_io, "write_text_atomic", failing)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["score", "virtualhome", str(plans), "--out", str(out)]) == 2
    stdout, err = capsys.readouterr()
    assert json.loads(stdout)  # the summary is still printed
    (recovery,) = work.glob("eai-gym-results-*.json")
    assert f"cannot write {out} (No space left on device); the results are in {recovery}" in err
    assert len(json.loads(recovery.read_text())["tasks"]) == 3 and not out.exists()


def test_results_are_replaced_atomically(tmp_path, monkeypatch):
    """A crash while writing leaves the previous results file whole, and no temporary file behind."""
    out = tmp_path / "r.json"
    out.write_text('{"old": true}\n')

    def crash(src, dst):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        scoring_io.write_json_atomic(str(out), {"summary": {}, "tasks": [{"a": 1}]})
    assert out.read_text() == '{"old": true}\n' and sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def test_check_out_path_accepts_a_new_file_in_a_new_folder(tmp_path):
    scoring_io.check_out_path(str(tmp_path / "new" / "deeper" / "r.json"), [str(tmp_path / "missing.json")])
    assert (tmp_path / "new" / "deeper").is_dir() and not list((tmp_path / "new" / "deeper").iterdir())


# ------------------------------------------------------------------------------ what a write replaces
def test_a_replaced_file_keeps_its_permissions_and_a_new_file_follows_the_umask(tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old")
    out.chmod(0o640)
    scoring_io.write_text_atomic(str(out), "new")
    assert out.read_text() == "new" and stat.S_IMODE(out.stat().st_mode) == 0o640
    umask = os.umask(0o027)
    try:
        scoring_io.write_text_atomic(str(tmp_path / "fresh.json"), "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.json").stat().st_mode) == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_a_replaced_file_keeps_its_owner(tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old")
    os.chown(out, 12345, 23456)
    scoring_io.write_text_atomic(str(out), "new")
    assert (out.stat().st_uid, out.stat().st_gid) == (12345, 23456) and out.read_text() == "new"


def test_a_symlink_is_written_through_and_stays_a_symlink(tmp_path):
    target = tmp_path / "elsewhere" / "real.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "r.json"
    link.symlink_to(target)
    scoring_io.check_out_path(str(link))
    scoring_io.write_text_atomic(str(link), "new")
    assert link.is_symlink() and os.readlink(link) == str(target) and target.read_text() == "new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["real.json"]  # no temporary file left


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_special_file_that_appears_after_the_check_is_not_replaced(tmp_path, monkeypatch, capsys):
    """Between the check and the write (a long run), a FIFO takes the output's place: the results go to a
    recovery file, the FIFO stays."""
    out = tmp_path / "r.json"
    os.mkfifo(out)
    with pytest.raises(scoring_io.OutPathError, match="it is a FIFO"):
        scoring_io.write_text_atomic(str(out), "x")
    monkeypatch.chdir(tmp_path)
    written, problem = scoring_io.save_text(str(out), "results")
    assert stat.S_ISFIFO(os.lstat(out).st_mode) and written != str(out) and "it is a FIFO" in problem
    assert open(written).read() == "results"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_check_out_dir_refuses_a_special_folder_or_a_special_file_in_it(tmp_path):
    scoring_io.check_out_dir(str(tmp_path / "new"))  # nothing there yet: fine
    run = tmp_path / "run"
    (run / "cache").mkdir(parents=True)
    (run / "settings.json").write_text("{}")
    scoring_io.check_out_dir(str(run))
    os.mkfifo(run / "requests.jsonl")
    with pytest.raises(scoring_io.OutPathError, match="requests.jsonl: it is a FIFO"):
        scoring_io.check_out_dir(str(run))
    with pytest.raises(scoring_io.OutPathError, match="it is a FIFO .*, not a folder"):
        scoring_io.check_out_dir(str(run / "requests.jsonl"))
    with pytest.raises(scoring_io.OutPathError, match="it is a regular file, not a folder"):
        scoring_io.check_out_dir(str(run / "settings.json"))

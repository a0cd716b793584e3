"""The run directory: one run at a time, settings checked on resume, no secrets, unusable dirs refused early."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from eai_gym.evaluate.client import ChatReply, ChatRequest, public_endpoint
from eai_gym.evaluate.rundir import RunDir, RunDirError

SETTINGS = {"world": "virtualhome", "mode": "action_sequencing", "protocol": "fixed", "model": ["m"],
            "endpoint": "http://127.0.0.1:1/v1", "sampling": {"temperature": 0}, "run_options": {}}


def test_second_run_on_the_same_dir_is_refused(tmp_path):
    with RunDir(str(tmp_path), SETTINGS, False):
        with pytest.raises(RunDirError, match="in use by another"):
            RunDir(str(tmp_path), SETTINGS, True)
    with RunDir(str(tmp_path), SETTINGS, True):  # released on close
        pass


def test_lock_is_held_across_processes_and_released_by_death(tmp_path):
    code = ("import sys, time; from eai_gym.evaluate.rundir import RunDir; "
            f"r = RunDir(sys.argv[1], {SETTINGS!r}, False); print('locked', flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "locked"
        with pytest.raises(RunDirError, match="in use"):
            RunDir(str(tmp_path), SETTINGS, True)
    finally:
        child.kill()
        child.wait()
    with RunDir(str(tmp_path), SETTINGS, True):  # kill -9 released it
        pass


def test_existing_run_needs_resume_and_the_same_settings(tmp_path):
    with RunDir(str(tmp_path), SETTINGS, False):
        pass
    with pytest.raises(RunDirError, match="--resume"):
        RunDir(str(tmp_path), SETTINGS, False)
    with pytest.raises(RunDirError, match="another model"):
        RunDir(str(tmp_path), {**SETTINGS, "model": ["other"]}, True)


def test_unwritable_dir_is_refused_before_anything(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)
    try:
        if os.access(ro, os.W_OK):  # root ignores permission bits
            pytest.skip("running as a user that can write anywhere")
        with pytest.raises(RunDirError, match="cannot"):
            RunDir(str(ro / "run"), SETTINGS, False)
    finally:
        os.chmod(ro, 0o700)
    with pytest.raises(RunDirError, match="cannot"):
        RunDir("/proc/eai-gym-run", SETTINGS, False)


def test_full_disk_is_refused(tmp_path, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10**9, 10**9 - 1024, 1024))
    with pytest.raises(RunDirError, match="free"):
        RunDir(str(tmp_path), SETTINGS, False)


def test_cache_round_trip_and_failed_replies_are_not_cached(tmp_path):
    r1 = ChatRequest.of("m", [{"role": "user", "content": "a"}])
    r2 = ChatRequest.of("m", [{"role": "user", "content": "b"}])
    with RunDir(str(tmp_path), SETTINGS, False) as run:
        run.store(r1, ChatReply("yes", 3, 1, "stop"))
        run.store(r2, ChatReply(None, error="boom"))
        run.log("x", r1, ChatReply("yes", 3, 1, "stop"), False)
        assert run.cached(r1).content == "yes" and run.cached(r1).prompt_tokens == 3
        assert run.cached(r2) is None
    line = json.loads(open(tmp_path / "requests.jsonl").read())
    assert line["reply"] == "yes" and line["prompt"] == [{"role": "user", "content": "a"}]


def test_endpoint_is_written_without_secrets():
    assert public_endpoint("https://user:sk-secret@api.example.com:8443/v1?key=sk-x") == "https://api.example.com:8443/v1"
    assert public_endpoint(None) is None

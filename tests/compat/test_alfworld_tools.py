"""The exporter tool and the compat/serve benchmarks run (tiny sizes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout)


def test_exporter_writes_alfworld_folders(tmp_path):
    out = run("-m", "tools.convert.alfworld_export", str(tmp_path), "--split", "eval_out_of_distribution",
              "--total", "5", "--limit", "2")
    assert out.returncode == 0, out.stderr
    folders = sorted(p.parent for p in tmp_path.rglob("initial_state.pddl"))
    assert len(folders) == 5 and all((f / "traj_data.json").exists() for f in folders)
    assert {f.name.rsplit("_r", 1)[1] for f in folders} == {"0", "1", "2"}
    traj = json.loads((folders[0] / "traj_data.json").read_text())
    assert traj["task_type"] in folders[0].parent.name


def test_compat_benchmark_quick():
    out = run("-m", "benchmarks.bench_compat_alfworld", "--quick")
    assert out.returncode == 0, out.stderr
    rows = dict(line.split(" ", 1) for line in out.stdout.strip().splitlines())
    assert json.loads(rows["lockstep_batch"])["env_steps_per_cpu_s"] > 0
    assert json.loads(rows["pickle"])["pickled_bytes"] < 2000


def test_serve_benchmark_quick():
    pytest.importorskip("fastapi")
    out = run("-m", "benchmarks.bench_serve_alfworld", "--quick")
    assert out.returncode == 0, out.stderr
    rows = dict(line.split(" ", 1) for line in out.stdout.strip().splitlines())
    assert json.loads(rows["load"])["errors"] == 0 and len(json.loads(rows["cycles"])["server_rss_mb"]) == 11

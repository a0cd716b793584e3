"""The RL interfaces benchmark runs end to end (a tiny run) and reports every interface."""

from __future__ import annotations

import json

import pytest

from benchmarks import bench_rl_interfaces


def test_a_tiny_run_reports_each_interface_and_memory(tmp_path):
    out = tmp_path / "rl.json"
    assert bench_rl_interfaces.main(["--worlds", "alfworld", "--tasks", "1", "--steps", "3", "--instances", "2",
                                     "--repeats", "1", "--json", str(out)]) == 0
    res = json.loads(out.read_text())["interfaces"]["alfworld"]
    for name in ("gymnasium", "trl_success", "trl_progress"):
        assert res[name]["steps"] >= 1 and res[name]["steps_per_cpu_s"] > 0
    assert res["gymnasium"]["overhead_us_per_step"] == 0.0
    assert res["memory_bytes_per_instance"]["trl"] > 0


def test_unknown_worlds_are_a_usage_error():
    with pytest.raises(SystemExit) as e:
        bench_rl_interfaces.main(["--worlds", "minecraft"])
    assert e.value.code == 2

"""Distributed scoring with Ray: the same scores as a serial run, from workers on a Ray cluster.

    pip install 'eai-gym[ray]'
    python examples/ray_scoring.py                       # starts a local Ray instance
    RAY_ADDRESS=ray://head:10001 python examples/ray_scoring.py   # a running cluster

It scores the 100 BEHAVIOR gold plans serially and with ``--backend ray --workers 2`` and checks the two
result files are identical (what ``eai-gym score ... --backend ray`` guarantees).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path

from eai_gym.cli import main as eai_gym


def run(out_dir: Path) -> int:
    serial, ray = out_dir / "serial.json", out_dir / "ray.json"
    assert eai_gym(["score", "behavior", "--gold", "--out", str(serial)]) == 0
    assert eai_gym(["score", "behavior", "--gold", "--backend", "ray", "--workers", "2", "--out", str(ray)]) == 0
    a, b = json.loads(serial.read_text()), json.loads(ray.read_text())
    same = a == b
    print(f"serial and Ray results identical: {same} ({len(b['tasks'])} records; "
          f"task success rate {b['summary']['goal_evaluation']['task_success_rate']})")
    return 0 if same else 1


if __name__ == "__main__":
    if importlib.util.find_spec("ray") is None:
        print("Ray is not installed: pip install 'eai-gym[ray]'")
        sys.exit(0)
    with tempfile.TemporaryDirectory() as d:
        sys.exit(run(Path(d)))

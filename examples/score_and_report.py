"""Offline scoring of a plan file, then an HTML report comparing it with the gold plans.

    python examples/score_and_report.py [--out-dir DIR]

It writes a plans file in EAI's format (the gold plans of 60 VirtualHome tasks, every third with a step
dropped, as an LLM might), scores it and the gold plans with ``eai-gym score``, compares each plan with
its gold plan (``--mode similarity``), and writes ``report.html`` (needs ``pip install 'eai-gym[report]'``).
The same commands work from a shell: ``eai-gym score virtualhome plans.json --out mine.json`` then
``eai-gym report gold.json mine.json --out report.html``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

from eai_gym.cli import main as eai_gym
from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids


def write_plans(path: Path, n: int = 60) -> None:
    items = []
    for i, t in enumerate(task_ids()[:n]):
        steps = json.loads(gold_plan_json(t), object_pairs_hook=list)
        if i % 3 == 0 and len(steps) > 2:
            del steps[len(steps) // 2]
        llm_output = "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in steps) + "}"
        items.append({"identifier": t, "llm_output": llm_output})
    path.write_text(json.dumps(items, indent=1))


def run(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    plans = out_dir / "plans.json"
    write_plans(plans)
    assert eai_gym(["score", "virtualhome", "--gold", "--out", str(out_dir / "gold.json")]) == 0
    assert eai_gym(["score", "virtualhome", str(plans), "--out", str(out_dir / "mine.json")]) == 0
    assert eai_gym(["score", "virtualhome", str(plans), "--mode", "similarity",
                    "--out", str(out_dir / "similarity.json")]) == 0
    assert eai_gym(["report", str(out_dir / "gold.json"), str(out_dir / "mine.json"), "--name", "gold plans",
                    "--name", "my plans", "--out", str(out_dir / "report.html")]) == 0
    print(f"report: {out_dir / 'report.html'}")


if __name__ == "__main__":
    if importlib.util.find_spec("matplotlib") is None:
        sys.exit("the report needs matplotlib: pip install 'eai-gym[report]'")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out-dir", type=Path, default=None, help="where to write (default: a temporary folder)")
    a = ap.parse_args()
    if a.out_dir is None:
        with tempfile.TemporaryDirectory() as d:
            run(Path(d))
    else:
        run(a.out_dir)

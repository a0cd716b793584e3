#!/usr/bin/env python
"""Benchmark: transition-modeling scoring (VirtualHome) beside eai-eval 1.0.5, planner time separated.

    python benchmarks/bench_transition_modeling.py [--model gpt-4o-2024-05-13] [--limit N] [--workers 1 2]
        [--reference-python VENV/bin/python --reference-harness KIT/harness/transition_modeling/ref_tm_eval.py]

Inputs: one published model's VirtualHome replies (296, from tests/reference/data/transition_modeling/,
first ``--limit`` of them). eai-gym scores them in this process through the runner
(:func:`eai_gym.scoring.runner.run_items`, ``--protocol eai-1.0.5``): once without a planner (the logic
scores alone), then with Fast Downward for each ``--workers`` value; the planner's share is the sum of its
calls' wall times over the serial run's wall time. The reference, when given, runs the harness (eai-eval
1.0.5 unmodified, Fast Downward from up-fast-downward) on the same file with ``--workers 1`` in a
subprocess (whole-process wall time); the script checks both summaries are equal.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from eai_gym.eai.transition_modeling import world_scorer  # noqa: E402
from eai_gym.scoring.runner import run_items  # noqa: E402

vt = world_scorer("virtualhome")

OUTPUTS = os.path.join(HERE, "..", "tests", "reference", "data", "transition_modeling", "outputs_virtualhome.json.gz")


def _ours(items: list, planner: str, workers: int) -> dict:
    jobs = vt.jobs(items, "eai-1.0.5", planner)
    t = time.perf_counter()
    records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=workers)
    wall = time.perf_counter() - t
    result = jobs.summarize(records)
    planner_s = sum((r.get("planner") or {}).get("seconds", 0.0) for r in records)
    return {"planner": planner, "workers": workers, "wall_s": round(wall, 2), "planner_calls_s": round(planner_s, 2),
            "items_per_s": round(len(items) / wall, 1), "summary": result["summary"],
            "verdicts": result["planner"]["verdicts"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--model", default="gpt-4o-2024-05-13")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--reference-python")
    ap.add_argument("--reference-harness")
    ap.add_argument("--out", help="write the results as JSON here")
    a = ap.parse_args(argv)
    with gzip.open(OUTPUTS, "rt", encoding="utf-8") as f:
        items = json.load(f)[a.model][: a.limit]
    res: dict = {"model": a.model, "items": len(items), "cpus": os.cpu_count(),
                 "load_avg_1min_at_start": round(os.getloadavg()[0], 2)}
    vt.data()
    res["logic_only"] = _ours(items, "none", 1)
    print(f"eai-gym logic only: {res['logic_only']['wall_s']} s ({res['logic_only']['items_per_s']} items/s)", flush=True)
    runs = []
    for w in a.workers:
        r = _ours(items, "fast-downward", w)
        runs.append(r)
        print(f"eai-gym + Fast Downward, {w} worker(s): {r['wall_s']} s; planner calls {r['planner_calls_s']} s", flush=True)
    res["with_planner"] = runs
    serial = next((r for r in runs if r["workers"] == 1), None)
    if serial:
        res["planner_share_serial"] = round(serial["planner_calls_s"] / serial["wall_s"], 3)
        res["rest_serial_s"] = round(serial["wall_s"] - serial["planner_calls_s"], 2)
    if a.reference_python and a.reference_harness:
        with tempfile.TemporaryDirectory() as tmp:
            inp, out = os.path.join(tmp, "outputs.json"), os.path.join(tmp, "ref.json.gz")
            with open(inp, "w") as f:
                json.dump(items, f)
            t = time.perf_counter()
            subprocess.run([a.reference_python, os.path.abspath(a.reference_harness), "virtualhome", inp, a.model, out,
                            "--workers", "1"], check=True, capture_output=True, cwd=tmp)  # Fast Downward writes in cwd
            wall = time.perf_counter() - t
            with gzip.open(out, "rt") as f:
                ref = json.load(f)
        res["reference"] = {"workers": 1, "wall_s": round(wall, 2), "summary": ref["summary"]}
        res["summaries_equal"] = all(r["summary"] == ref["summary"] for r in runs)
        print(f"eai-eval 1.0.5, 1 worker: {wall:.1f} s; summaries equal: {res['summaries_equal']}", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(res, f, indent=1)
    print(json.dumps({k: v for k, v in res.items() if k not in ("logic_only", "with_planner", "reference")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Benchmark: VirtualHome action-sequencing scoring and env steps, against eai-eval 1.0.5 when given.

    python benchmarks/bench_virtualhome.py [--reference-python VENV/bin/python] [--limit N] [--json OUT]

* scoring: the packaged gold plans (342 by default) through ``eai-gym score`` in a fresh process
  (data loading included), for each protocol; with ``--reference-python`` (a Python that has
  ``eai-eval==1.0.5`` installed, e.g. from the reference kit's ``setup-virtualhome.sh``) the reference
  evaluator scores the same file on the same machine in the same run, and the ratio is printed;
* env: the median and 99th-percentile ``step()`` time of ``eai_gym/VirtualHome-v0`` replaying every
  gold plan, and ``reset()`` time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REFERENCE_DRIVER = r"""
import json, os, sys, tempfile, time, logging
logging.disable(logging.CRITICAL)
import virtualhome_eval
from virtualhome_eval.evaluation.action_sequencing.scripts.evaluate_results import evaluate_results
pkg = os.path.dirname(virtualhome_eval.__file__)
tmp = tempfile.mkdtemp()
d = os.path.join(tmp, "llm", "virtualhome", "action_sequencing"); os.makedirs(d)
with open(sys.argv[1]) as f: items = json.load(f)
with open(os.path.join(d, "bench_outputs.json"), "w") as f: json.dump(items, f)
class A: pass
a = A(); a.dataset = "virtualhome"; a.resource_dir = os.path.join(pkg, "resources")
a.dataset_dir = os.path.join(pkg, "dataset"); a.llm_response_path = os.path.join(tmp, "llm")
a.output_dir = os.path.join(tmp, "out")
t = time.perf_counter(); res = evaluate_results(a); dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "summary": res["bench"][0]}))
"""


def gold_items(limit: int | None) -> list[dict]:
    from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids
    ids = list(task_ids())[:limit]
    return [{"identifier": t, "llm_output": gold_plan_json(t)} for t in ids]


def time_ours(path: str, protocol: str, repeat: int) -> tuple[float, dict]:
    times, summary = [], None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "eai_gym.cli", "score", "virtualhome", path,
                            "--protocol", protocol, "--out", out], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
            summary = json.load(open(out))["summary"]
    return min(times), summary


IN_PROCESS = r"""
import json, sys, time
from eai_gym.scoring.virtualhome.action_sequencing import score_items
items = json.load(open(sys.argv[1]))
t = time.perf_counter(); res = score_items(items, sys.argv[2]); dt = time.perf_counter() - t
print(json.dumps({"seconds": dt}))
"""


def time_ours_in_process(path: str, protocol: str, repeat: int) -> float:
    """Scoring time after imports, data loading included (a fresh process each run)."""
    times = []
    for _ in range(repeat):
        r = subprocess.run([sys.executable, "-c", IN_PROCESS, path, protocol], capture_output=True,
                           text=True, check=True)
        times.append(json.loads(r.stdout.strip().splitlines()[-1])["seconds"])
    return min(times)


def time_reference(python: str, path: str) -> tuple[float, float, dict]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    t = time.perf_counter()
    r = subprocess.run([python, "-c", REFERENCE_DRIVER, path], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"reference failed: {r.stderr[-2000:]}")
    res = json.loads(r.stdout.strip().splitlines()[-1])
    return wall, res["seconds"], res["summary"]


def bench_env(limit: int | None) -> dict:
    import gymnasium as gym

    import eai_gym  # noqa: F401
    from eai_gym.envs.virtualhome.tasks import load_task, task_ids

    env = gym.make("eai_gym/VirtualHome-v0").unwrapped
    step_t, reset_t = [], []
    for tid in list(task_ids())[:limit]:
        t = time.perf_counter()
        env.reset(options={"task_id": tid})
        reset_t.append(time.perf_counter() - t)
        for line in load_task(tid).gold_plan:
            t = time.perf_counter()
            env.step(line)
            step_t.append(time.perf_counter() - t)
    step_t.sort()
    return {"steps": len(step_t), "step_median_us": 1e6 * statistics.median(step_t),
            "step_p99_us": 1e6 * step_t[int(0.99 * (len(step_t) - 1))],
            "reset_median_us": 1e6 * statistics.median(reset_t)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference-python", help="a python with eai-eval==1.0.5 installed")
    ap.add_argument("--limit", type=int, default=None, help="only the first N tasks")
    ap.add_argument("--repeat", type=int, default=3, help="runs of our scorer (the best is kept)")
    ap.add_argument("--json", help="also write the results to this JSON file")
    args = ap.parse_args(argv)
    results: dict = {"python": sys.version.split()[0], "machine": os.uname().machine, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        plans = os.path.join(tmp, "gold.json")
        items = gold_items(args.limit)
        json.dump(items, open(plans, "w"))
        results["n_plans"] = len(items)
        for protocol in ("eai-1.0.5", "fixed"):
            sec, summary = time_ours(plans, protocol, args.repeat)
            inner = time_ours_in_process(plans, protocol, args.repeat)
            results[f"eai_gym_{protocol}_s"] = sec
            results[f"eai_gym_{protocol}_in_process_s"] = inner
            print(f"eai-gym score ({protocol}), {len(items)} gold plans: whole process {sec:.2f} s, "
                  f"scoring after imports (data loading included) {inner:.2f} s")
            if protocol == "eai-1.0.5":
                ours_summary = summary
        if args.reference_python:
            wall, inner, ref_summary = time_reference(args.reference_python, plans)
            results.update(reference_wall_s=wall, reference_evaluate_s=inner,
                           summaries_equal=ref_summary == ours_summary,
                           ratio=wall / results["eai_gym_eai-1.0.5_s"],
                           ratio_in_process=inner / results["eai_gym_eai-1.0.5_in_process_s"])
            print(f"eai-eval 1.0.5, same plans: whole process {wall:.1f} s, evaluate_results after imports "
                  f"{inner:.1f} s")
            print(f"ratio reference / eai-gym (eai-1.0.5 protocol): whole processes {results['ratio']:.0f}x, "
                  f"after imports {results['ratio_in_process']:.0f}x; summaries equal: {results['summaries_equal']}")
    env = bench_env(args.limit)
    results["env"] = env
    print(f"env step: median {env['step_median_us']:.1f} us, p99 {env['step_p99_us']:.1f} us over "
          f"{env['steps']} gold-plan steps; reset median {env['reset_median_us']:.0f} us")
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Benchmark: BEHAVIOR action-sequencing scoring and env steps, against eai-eval 1.0.5 when given.

    python benchmarks/bench_behavior.py [--reference-python VENV/bin/python --reference-harness ref_beh_eval.py]

The reference needs iGibson; the reference kit's harness (``harness/behavior/ref_beh_eval.py``, with
its stand-ins for iGibson) runs its evaluator on the same plans, with the stand-in initial states
that eai-gym calls ``initial_state="reference-defaults"``.
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

IN_PROCESS = r"""
import json, sys, time
from eai_gym.scoring.behavior import score_items
items = json.load(open(sys.argv[1]))
t = time.perf_counter(); res = score_items(items, sys.argv[2], sys.argv[3]); dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "summary": res["summary"]}))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference-python")
    ap.add_argument("--reference-harness", help="the reference kit's harness/behavior/ref_beh_eval.py")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    from eai_gym.envs.behavior.tasks import task_ids, task_record

    plans = {t: task_record(t)["gold_plan"] for t in task_ids()}
    items = [{"identifier": t, "llm_output": json.dumps(p)} for t, p in plans.items()]
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "n_plans": len(items)}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gold.json")
        json.dump(items, open(path, "w"))
        for protocol, init in (("eai-1.0.5", "reference-defaults"), ("fixed", "calibrated")):
            best, summary = None, None
            for _ in range(args.repeat):
                r = subprocess.run([sys.executable, "-c", IN_PROCESS, path, protocol, init], capture_output=True,
                                   text=True, check=True)
                out = json.loads(r.stdout.strip().splitlines()[-1])
                best = out["seconds"] if best is None else min(best, out["seconds"])
                summary = out["summary"]
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "eai_gym.cli", "score", "behavior", path, "--protocol", protocol,
                            "--initial-state", init, "--out", os.path.join(tmp, "r.json")], check=True,
                           capture_output=True)
            whole = time.perf_counter() - t
            results[f"{protocol}/{init}"] = {"in_process_s": best, "whole_process_s": whole}
            print(f"eai-gym, {len(items)} gold plans, {protocol} / {init}: {best:.3f} s after imports, "
                  f"{whole:.2f} s whole process")
            if protocol == "eai-1.0.5":
                ours = summary
        if args.reference_python and args.reference_harness:
            plan_file = os.path.join(tmp, "plans.json")
            json.dump(plans, open(plan_file, "w"))
            t = time.perf_counter()
            r = subprocess.run([args.reference_python, args.reference_harness, "--plans", plan_file, "--out",
                                os.path.join(tmp, "ref"), "--name", "bench"], capture_output=True, text=True)
            wall = time.perf_counter() - t
            ref = json.load(open(os.path.join(tmp, "ref", "summary", "bench.json")))
            results["reference_whole_process_s"] = wall
            results["summaries_equal"] = ref == ours
            ratio = wall / results["eai-1.0.5/reference-defaults"]["whole_process_s"]
            print(f"eai-eval 1.0.5 (kit harness, no iGibson), same plans: {wall:.1f} s whole process; "
                  f"ratio {ratio:.0f}x; summaries equal: {ref == ours}")
    import gymnasium as gym

    import eai_gym  # noqa: F401  (registers the environments)

    env = gym.make("eai_gym/Behavior-v0").unwrapped
    times = []
    for t, plan in plans.items():
        env.reset(options={"task_id": t})
        for a in plan:
            s = time.perf_counter()
            env.step(json.dumps(a))
            times.append(time.perf_counter() - s)
    times.sort()
    results["env_step_median_us"] = 1e6 * statistics.median(times)
    print(f"env step: median {results['env_step_median_us']:.0f} us over {len(times)} gold-plan steps")
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

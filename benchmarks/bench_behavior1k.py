#!/usr/bin/env python
"""Benchmark: BEHAVIOR-1K data load, reset, random legal steps, check_goal and gold-plan scoring.

    python benchmarks/bench_behavior1k.py [--steps 5000] [--repeats 3] [--json OUT]

* data load: a fresh process importing the package and loading ``behavior1k.json.gz`` (whole process and the
  load alone);
* reset: ``env.reset(options={"activity": ...})`` over 200 activities (each activity's first reset compiles its
  goal; the median is reported);
* random legal steps: ``gymnasium.make("eai_gym/Behavior1K-v0", action_mode="index")`` with the default wrappers,
  each step reads ``info["action_mask"]``, samples a legal index and steps, a reset every 50 steps (the reset
  seed draws the activity: many activities per run); CPU time, the median of ``--repeats`` runs
  (``benchmarks/bench_random_legal.py``'s loop);
* check_goal: calls per second on the recorded goal states of the tests;
* gold scoring: ``score_gold()`` over all 1,016 activities, whole process.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

LOAD = r"""
import time
t = time.perf_counter()
from eai_gym.envs.behavior1k.data import raw
t1 = time.perf_counter(); raw(); t2 = time.perf_counter()
print(t2 - t1)
"""
GOLD = r"""
from eai_gym.scoring.behavior1k.action_sequencing import score_gold, summarize
recs = score_gold()
print(sum(r["success"] for r in recs), len(recs))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count()}

    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True, check=True)
    results["data_load_whole_process_s"] = time.perf_counter() - t
    results["data_load_s"] = float(out.stdout.strip())
    print(f"data load: {results['data_load_s']:.3f} s (whole process with imports "
          f"{results['data_load_whole_process_s']:.2f} s)")

    import gymnasium as gym

    import eai_gym  # noqa: F401
    from eai_gym.envs.behavior1k.data import activity_names

    names = list(activity_names())[::5][:200]
    env = gym.make("eai_gym/Behavior1K-v0")
    times = []
    for name in names:
        s = time.perf_counter()
        env.reset(options={"activity": name})
        times.append(time.perf_counter() - s)
    results["reset_median_ms"] = statistics.median(times) * 1000
    print(f"reset: median {results['reset_median_ms']:.2f} ms over {len(names)} activities")

    from benchmarks.bench_random_legal import make, walk

    env = make("behavior1k")  # gymnasium.make(..., action_mode="index"), the default wrappers
    walk(env, 200)  # warm: module data
    seen: set[str] = set()
    reset = env.unwrapped.reset

    def counted_reset(*a, **k):
        out = reset(*a, **k)
        seen.add(env.unwrapped.task.id)
        return out

    env.unwrapped.reset = counted_reset  # type: ignore[method-assign]
    rates = []
    for r in range(args.repeats):
        n, cpu = walk(env, args.steps, seed=r)
        rates.append(n / cpu)
    results["random_legal_steps_per_s"] = statistics.median(rates)
    results["random_legal_runs"] = [round(x) for x in rates]
    results["random_legal_activities"] = len(seen)
    print(f"random legal steps (index mode, exact mask each step, a reset every 50 steps, CPU time): median "
          f"{results['random_legal_steps_per_s']:.0f}/s over {args.repeats} x {args.steps} steps "
          f"(runs {results['random_legal_runs']}; {len(seen)} activities)")

    import gzip
    from pathlib import Path

    from eai_gym.envs.behavior1k import check_goal

    data = Path(__file__).resolve().parents[1] / "tests" / "reference" / "data" / "behavior1k" / "goal_verdicts.json.gz"
    if data.is_file():
        recorded = json.loads(gzip.decompress(data.read_bytes()))["activities"]
        calls = [(a, [r["atoms"][i] for i in st[1]]) for a, r in recorded.items() for st in r["states"]]
        for a, _ in calls:
            check_goal(a, [])  # compile every goal first
        s = time.perf_counter()
        for a, facts in calls:
            check_goal(a, facts)
        results["check_goal_per_s"] = len(calls) / (time.perf_counter() - s)
        print(f"check_goal: {results['check_goal_per_s']:.0f} calls/s over {len(calls)} recorded states")

    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", GOLD], capture_output=True, text=True, check=True)
    results["gold_scoring_whole_process_s"] = time.perf_counter() - t
    print(f"gold scoring, 1,016 activities ({out.stdout.strip()} succeed/items): "
          f"{results['gold_scoring_whole_process_s']:.2f} s whole process")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

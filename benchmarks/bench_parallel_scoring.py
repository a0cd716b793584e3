#!/usr/bin/env python
"""Benchmark: offline scoring of 10,000 plans, serial against ``--workers N``.

    python benchmarks/bench_parallel_scoring.py [--n 10000] [--workers 2] [--protocol fixed]
                                                [--mode action_sequencing|subgoal_decomposition]

Input: VirtualHome's packaged gold plans (what ``eai-gym score virtualhome --gold`` scores; the
goal-derived subgoal plans with ``--mode subgoal_decomposition``), repeated in order until there are
``--n`` of them, in one plans file. Each run is ``eai-gym score virtualhome PLANS -o OUT`` in a fresh
process, serial and parallel alternately, ``--repeat`` times each (the best time of each is reported:
shared machines are noisy); the script reports whole-process times, the scoring time the command
prints, the ratios, and checks the results files are byte-identical.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _items(mode: str, n: int) -> list[dict]:
    from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids, task_record

    if mode == "action_sequencing":
        gold = [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()]
    else:
        from eai_gym.envs.virtualhome.subgoals import goal_subgoal_plan

        gold = [{"identifier": t, "llm_output": json.dumps({"output": goal_subgoal_plan(task_record(t))})}
                for t in task_ids() if task_record(t)["tl_goal"]]
    return [gold[i % len(gold)] for i in range(n)]


def _run(cmd: list[str]) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.path.dirname(HERE),
                                                                      os.environ.get("PYTHONPATH")])))
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    scored = re.search(r"scored in ([0-9.]+) s", r.stderr)
    return wall, float(scored.group(1)) if scored else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--mode", choices=("action_sequencing", "subgoal_decomposition"), default="action_sequencing")
    ap.add_argument("--protocol", choices=("fixed", "eai-1.0.5"), default="fixed")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.path.insert(0, os.path.dirname(HERE))
    with tempfile.TemporaryDirectory() as tmp:
        plans = os.path.join(tmp, "plans.json")
        with open(plans, "w", encoding="utf-8") as f:
            json.dump(_items(args.mode, args.n), f)
        base = [sys.executable, "-m", "eai_gym.cli", "score", "virtualhome", plans, "--mode", args.mode,
                "--protocol", args.protocol]
        outs = [os.path.join(tmp, "serial.json"), os.path.join(tmp, "parallel.json")]
        runs: dict[int, list] = {0: [], 1: []}
        for _ in range(args.repeat):
            runs[0].append(_run(base + ["-o", outs[0]]))
            runs[1].append(_run(base + ["-o", outs[1], "--workers", str(args.workers)]))
        serial, parallel = [tuple(min(r[k] for r in runs[i]) for k in (0, 1)) for i in (0, 1)]
        with open(outs[0], "rb") as a, open(outs[1], "rb") as b:
            same = a.read() == b.read()
    print(f"virtualhome {args.mode}, protocol {args.protocol}: {args.n} plans, {os.cpu_count()} CPUs, "
          f"best of {args.repeat}")
    print(f"  {'':28} {'serial':>9} {'--workers ' + str(args.workers):>12} {'speed-up':>9}")
    for label, k in (("whole process", 0), ("scoring (as printed)", 1)):
        print(f"  {label:28} {serial[k]:8.2f}s {parallel[k]:11.2f}s {serial[k] / parallel[k]:8.2f}x")
    print(f"  results files identical: {same}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()

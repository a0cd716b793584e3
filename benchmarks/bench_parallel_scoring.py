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

CPU time is reported too, since wall-time speed-ups mean little on a machine whose cores other jobs share:
the command's own process (reading the plans, sending items, receiving and ordering records, the summary and
the results file) and its workers (each: start-up, task data, scoring), from ``getrusage``; the largest
worker's peak memory (max RSS); and the best speed-up two free cores allow for those CPU times (the parallel
run cannot take less wall time than its own process's CPU time, nor than half the CPU time of all its
processes).
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


#: runs ``eai-gym ARGS`` and prints the CPU time of its own process and of its (finished) worker processes,
#: then ends as the command does when run as a program (``os._exit``, not freeing the data at exit)
RUSAGE_WRAPPER = r"""
import json, os, resource, sys
from eai_gym.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as e:
    code = e.code
sys.stdout.flush()
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print("RUSAGE " + json.dumps({"self_cpu_s": me.ru_utime + me.ru_stime, "self_maxrss_mb": me.ru_maxrss / 1024,
      "workers_cpu_s": kids.ru_utime + kids.ru_stime, "worker_maxrss_mb": kids.ru_maxrss / 1024}), file=sys.stderr)
sys.stderr.flush()
os._exit(code if isinstance(code, int) else 1)
"""


def _run(cmd: list[str]) -> tuple[float, float, dict]:
    """Wall time, the scoring time the command prints, and its processes' CPU times and memory."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.path.dirname(HERE),
                                                                      os.environ.get("PYTHONPATH")])))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", RUSAGE_WRAPPER, *cmd], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    scored = re.search(r"scored in ([0-9.]+) s", r.stderr)
    usage = json.loads(r.stderr.rsplit("RUSAGE ", 1)[1])
    return wall, float(scored.group(1)) if scored else float("nan"), usage


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
        base = ["score", "virtualhome", plans, "--mode", args.mode, "--protocol", args.protocol]
        outs = [os.path.join(tmp, "serial.json"), os.path.join(tmp, "parallel.json")]
        runs: dict[int, list] = {0: [], 1: []}
        for _ in range(args.repeat):
            runs[0].append(_run(base + ["-o", outs[0]]))
            runs[1].append(_run(base + ["-o", outs[1], "--workers", str(args.workers)]))
        serial, parallel = [tuple(min(r[k] for r in runs[i]) for k in (0, 1)) for i in (0, 1)]
        cpu = [min(runs[i], key=lambda r: r[2]["self_cpu_s"] + r[2]["workers_cpu_s"])[2] for i in (0, 1)]
        with open(outs[0], "rb") as a, open(outs[1], "rb") as b:
            same = a.read() == b.read()
    print(f"virtualhome {args.mode}, protocol {args.protocol}: {args.n} plans, {os.cpu_count()} CPUs, "
          f"best of {args.repeat}")
    print(f"  {'':28} {'serial':>9} {'--workers ' + str(args.workers):>12} {'speed-up':>9}")
    for label, k in (("whole process", 0), ("scoring (as printed)", 1)):
        print(f"  {label:28} {serial[k]:8.2f}s {parallel[k]:11.2f}s {serial[k] / parallel[k]:8.2f}x")
    s_cpu = cpu[0]["self_cpu_s"] + cpu[0]["workers_cpu_s"]
    p_self, p_workers = cpu[1]["self_cpu_s"], cpu[1]["workers_cpu_s"]
    bound = s_cpu / max(p_self, (p_self + p_workers) / 2)
    print(f"  CPU: serial {s_cpu:.2f}s; --workers {args.workers}: its own process {p_self:.2f}s, workers "
          f"{p_workers:.2f}s (total {p_self + p_workers:.2f}s)")
    print(f"  best speed-up 2 free cores allow for these CPU times: {bound:.2f}x")
    print(f"  peak memory: serial process {cpu[0]['self_maxrss_mb']:.0f} MB; parallel: own process "
          f"{cpu[1]['self_maxrss_mb']:.0f} MB, largest worker {cpu[1]['worker_maxrss_mb']:.0f} MB")
    print(f"  results files identical: {same}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()

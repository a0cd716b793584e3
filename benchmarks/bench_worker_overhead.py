#!/usr/bin/env python
"""Where the extra CPU of ``--workers 2`` goes: the same plans scored serially and by two worker processes, the
workers once free to run at the same time on two CPUs and once pinned to one CPU (they then take turns).

    python benchmarks/bench_worker_overhead.py [--n 10000] [--rounds 3]

Input: VirtualHome's packaged gold plans repeated to ``--n`` (as ``bench_parallel_scoring.py``), protocol fixed,
each record JSON-encoded where it is made and only the fields the summary reads kept of it (as ``eai-gym score -o``
does). Each run is a fresh process calling
:func:`eai_gym.scoring.runner.run_items` (no file reading or writing); the three kinds of run alternate,
``--rounds`` times. Reported per run: the CPU time of the calling process and of its workers (``getrusage``),
and the workers' largest peak memory. If the pinned workers cost what the serial run costs while the free ones
cost more, the difference is the two processes running at once (shared caches and memory bandwidth of the
machine), not work the pool adds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

RUN = r"""
import json, os, resource, sys
kind, n = sys.argv[1], int(sys.argv[2])
from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids
gold = [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()]
items = json.loads(json.dumps([gold[i % len(gold)] for i in range(n)]))  # fresh objects, as read from a file
from eai_gym import registry
from eai_gym.scoring.runner import fewer_collections, run_items
mode = registry.mode("virtualhome", "action_sequencing")
jobs = registry.load(mode.jobs)(items, "fixed", {"gold_shortcut": None}, mode)
if kind == "pinned":
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # the workers inherit it
def cpu(who):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime
s0, c0 = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
with fewer_collections():
    out = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args,
                    workers=1 if kind == "serial" else 2, encode=True, keep=jobs.keep())
s1, c1 = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
assert len(out[0]) == n
print(json.dumps({"self_cpu_s": s1 - s0, "workers_cpu_s": c1 - c0,
                  "worker_maxrss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
sys.stdout.flush()
os._exit(0)
"""

KINDS = ("serial", "free", "pinned")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
        sys.exit("needs Linux and at least two CPUs")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.path.dirname(HERE),
                                                                      os.environ.get("PYTHONPATH")])))
    runs: dict[str, list[dict]] = {k: [] for k in KINDS}
    for _ in range(a.rounds):
        for kind in KINDS:
            p = subprocess.run([sys.executable, "-c", RUN, kind, str(a.n)], capture_output=True, text=True, env=env)
            if p.returncode != 0:
                sys.exit(f"{kind} failed: {p.stderr[-1500:]}")
            runs[kind].append(json.loads(p.stdout.strip().splitlines()[-1]))
    print(f"{a.n} VirtualHome gold plans (protocol fixed), {a.rounds} rounds, CPU seconds: median (range)")
    for kind, rs in runs.items():
        tot = [r["self_cpu_s"] + r["workers_cpu_s"] for r in rs]
        own = [r["self_cpu_s"] for r in rs]
        wk = [r["workers_cpu_s"] for r in rs]
        line = f"  {kind:7s} total {statistics.median(tot):6.2f} ({min(tot):.2f}-{max(tot):.2f})"
        if kind != "serial":
            line += (f"  calling process {statistics.median(own):.2f}  workers {statistics.median(wk):.2f} "
                     f"({min(wk):.2f}-{max(wk):.2f})  largest worker {max(r['worker_maxrss_mb'] for r in rs):.0f} MB")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

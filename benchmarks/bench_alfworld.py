#!/usr/bin/env python
"""Benchmark: the ALFWorld engine and oracle vs alfworld 0.4.2 + textworld 1.7.0 on the same games.

    python benchmarks/bench_alfworld.py [--games 8] [--reference-python VENV/bin/python --kit KIT]

Games and command walks: the unseen agreement set (``tests/reference/data/alfworld/unseen.json.gz``).
eai-gym: load the PDDL problem and reset (median), then each step with admissible commands, won
and the oracle's optimal plan computed (median, p99). Reference (when given): the kit harness runs
the same commands with admissible commands and the planner's plan every step; its reset is timed
with zero commands and its per-step time is (time with the walk − reset time) / steps, each a
whole process. Also: the registered env on the 134 shipped eval games (reset, oracle-guided steps
with ``expert_plan`` computed every step).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from eai_gym.envs.alfworld.engine import Engine
from eai_gym.envs.alfworld.game import game_from_pddl
from eai_gym.envs.alfworld.oracle import Oracle

DATA = Path(__file__).resolve().parents[1] / "tests" / "reference" / "data" / "alfworld" / "unseen.json.gz"


def ours(games: list) -> dict:
    resets, steps = [], []
    for name, c in games:
        t0 = time.perf_counter()
        engine = Engine(game_from_pddl(c["pddl"], c["traj"], name))
        oracle, state = Oracle(engine), engine.initial_state()
        engine.admissible(state)
        oracle.plan(state)
        resets.append(time.perf_counter() - t0)
        for row in c["transcripts"]["0.4/walk"][1:]:
            t0 = time.perf_counter()
            engine.step(state, row["command"])
            engine.admissible(state)
            engine.won(state)
            oracle.plan(state)
            steps.append(time.perf_counter() - t0)
    steps.sort()
    return {"reset_ms_median": round(1000 * statistics.median(resets), 3),
            "step_ms_median": round(1000 * statistics.median(steps), 3),
            "step_ms_p99": round(1000 * steps[int(0.99 * (len(steps) - 1))], 3), "steps": len(steps)}


def eval_split_env(episodes: int = 134, steps: int = 30) -> dict:
    """The registered env on the shipped eval games: reset, and steps following the oracle's plan
    (with ``expert_plan`` requested, so the oracle runs every step)."""
    import gymnasium as gym

    import eai_gym  # noqa: F401
    env = gym.make("eai_gym/AlfWorld-v0", request_infos=["admissible_commands", "won", "expert_plan"])
    resets, times = [], []
    for i in range(episodes):
        t0 = time.perf_counter()
        obs, info = env.reset(seed=i, options={"split": "eval", "index": i})
        resets.append(time.perf_counter() - t0)
        for _ in range(steps):
            cmd = info["expert_plan"][0] if info["expert_plan"] else "look"
            t0 = time.perf_counter()
            obs, r, term, trunc, info = env.step(cmd)
            times.append(time.perf_counter() - t0)
            if term or trunc:
                break
    times.sort()
    return {"episodes": episodes, "reset_ms_median": round(1000 * statistics.median(resets), 3),
            "step_ms_median": round(1000 * statistics.median(times), 3),
            "step_ms_p99": round(1000 * times[int(0.99 * (len(times) - 1))], 3), "steps": len(times)}


def reference(games: list, python: str, kit: str) -> dict:
    harness = os.path.join(kit, "harness", "alfworld", "ref_alfworld.py")
    resets, per_step = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, c in games:
            spec = os.path.join(tmp, "spec.json")
            Path(spec).write_text(json.dumps(c["spec"]))
            cmds = [r["command"] for r in c["transcripts"]["0.4/walk"][1:]]
            cf = os.path.join(tmp, "cmds.txt")
            Path(cf).write_text("\n".join(cmds) + "\n")
            t0 = time.perf_counter()
            subprocess.run([python, harness, spec, "--out", os.path.join(tmp, "a")], check=True, capture_output=True)
            t_reset = time.perf_counter() - t0
            t0 = time.perf_counter()
            subprocess.run([python, harness, spec, "--commands-file", cf, "--out", os.path.join(tmp, "b")],
                           check=True, capture_output=True)
            t_all = time.perf_counter() - t0
            resets.append(t_reset)
            per_step.append(max(t_all - t_reset, 0.0) / len(cmds))
    return {"process_with_reset_s_median": round(statistics.median(resets), 3),
            "step_ms_median": round(1000 * statistics.median(per_step), 2)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--reference-python")
    p.add_argument("--kit")
    args = p.parse_args()
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    games = [(n, c) for n, c in sorted(data.items()) if c["transcripts"]][: args.games]
    res = {"games": len(games), "eai_gym": ours(games), "eai_gym_env_eval_split": eval_split_env()}
    if args.reference_python and args.kit:
        res["reference"] = reference(games, args.reference_python, args.kit)
        res["step_ratio"] = round(res["reference"]["step_ms_median"] / res["eai_gym"]["step_ms_median"], 1)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Benchmark: the ALFWorld engine and oracle vs alfworld 0.4.2 + textworld 1.7.0 on the same games.

    python benchmarks/bench_alfworld.py [--games 8] [--reference-python VENV/bin/python --kit KIT]

Games and command walks: the unseen agreement set (``tests/reference/data/alfworld/unseen.json.gz``).
eai-gym: load the PDDL problem and reset (median), then each step with admissible commands, won
and the oracle's optimal plan computed (median, p99). Reference (when given): the kit harness runs
the same commands with admissible commands and the planner's plan every step; its reset is timed
with zero commands and its per-step time is (time with the walk − reset time) / steps, each a
whole process. With the reference, also the first ``--eval-games`` shipped eval games written as PDDL
problems, both engines following the oracle's plan (and the reference must win each). Also: the registered env on the 134 shipped eval games (reset, oracle-guided steps
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


def eval_split_side_by_side(python: str, kit: str, games: int) -> dict:
    """Both engines on the first shipped eval games (written as ALFWorld PDDL problems), following the
    oracle's plan: eai-gym's per-step time with admissible commands and the optimal plan, against the
    reference harness's (time with the plan - time with no command) / steps."""
    from eai_gym.envs.alfworld.generator import eval_game, game_to_pddl

    harness = os.path.join(kit, "harness", "alfworld", "ref_alfworld.py")
    ours_steps, ref_steps = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(games):
            game = eval_game(i)
            engine = Engine(game)
            oracle, state = Oracle(engine), engine.initial_state()
            plan = oracle.plan(state)
            for cmd in plan:
                t0 = time.perf_counter()
                engine.step(state, cmd)
                engine.admissible(state)
                engine.won(state)
                oracle.plan(state)
                ours_steps.append(time.perf_counter() - t0)
            pddl, traj, cf = (os.path.join(tmp, n) for n in ("p.pddl", "t.json", "c.txt"))
            Path(pddl).write_text(game_to_pddl(game))
            Path(traj).write_text(json.dumps({"task_type": game.task_type, "pddl_params": game.params}))
            Path(cf).write_text("\n".join(plan) + "\n")
            t0 = time.perf_counter()
            subprocess.run([python, harness, pddl, "--traj", traj, "--out", os.path.join(tmp, "a")], check=True,
                           capture_output=True)
            t_reset = time.perf_counter() - t0
            t0 = time.perf_counter()
            subprocess.run([python, harness, pddl, "--traj", traj, "--commands-file", cf, "--out",
                            os.path.join(tmp, "b")], check=True, capture_output=True)
            ref_steps.append(max(time.perf_counter() - t0 - t_reset, 0.0) / len(plan))
            rows = [json.loads(line) for line in Path(os.path.join(tmp, "b")).read_text().splitlines() if line.strip()]
            assert rows[-1]["won"], f"eval game {i}: the reference does not reach the goal with the oracle's plan"
    ours_ms = 1000 * statistics.median(ours_steps)
    ref_ms = 1000 * statistics.median(ref_steps)
    return {"games": games, "eai_gym_step_ms_median": round(ours_ms, 4), "reference_step_ms_median": round(ref_ms, 2),
            "ratio": round(ref_ms / ours_ms, 1), "reference_wins_every_game": True}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--reference-python")
    p.add_argument("--kit")
    p.add_argument("--eval-games", type=int, default=20, help="eval games run side by side with the reference")
    args = p.parse_args()
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    games = [(n, c) for n, c in sorted(data.items()) if c["transcripts"]][: args.games]
    res = {"games": len(games), "eai_gym": ours(games), "eai_gym_env_eval_split": eval_split_env()}
    if args.reference_python and args.kit:
        res["reference"] = reference(games, args.reference_python, args.kit)
        res["step_ratio"] = round(res["reference"]["step_ms_median"] / res["eai_gym"]["step_ms_median"], 1)
        res["eval_split_side_by_side"] = eval_split_side_by_side(args.reference_python, args.kit, args.eval_games)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()

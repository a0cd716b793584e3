#!/usr/bin/env python
"""Benchmark: every world through the RL trainers' in-process interfaces, beside the Gymnasium env.

    python -m benchmarks.bench_rl_interfaces [--worlds alfworld,...] [--tasks 5] [--steps 20] [--instances 32]
        [--before DIR [--no-interfaces]] [--json OUT]

- ``interfaces``: the same tasks and the same scripted actions (a seeded random walk over each task's legal
  actions, made once on the Gymnasium env) played through the Gymnasium env (``gymnasium.make`` + reset/step),
  TRL's ``environment_factory`` class (:mod:`eai_gym.rl.trl`: ``reset(**row)`` + ``act``) and, when skyrl-gym is
  installed, SkyRL's text env (:mod:`eai_gym.rl.skyrl`: ``make`` + ``init`` + ``step``), each with the success
  reward and with the dense ``progress`` reward. Steps per CPU-second (resets included), each interface's per-step
  overhead over the Gymnasium env (the same run, the same steps), and memory per instance (``tracemalloc``: the
  bytes still held by ``--instances`` instances, each reset to a task, divided by their number).
- ``incremental`` (with ``--before DIR``, a checkout of eai-gym before the per-step metrics were kept from step to
  step, e.g. ``git worktree add /tmp/before <commit>``): the ProgressRate wrapper's step and the legal-action
  listing (each task set's ``legal_actions``), per step, in a subprocess on ``DIR`` and one on this tree,
  alternated, on the same walks: the before/after ratio of each.

CPU time (``time.process_time``) is what one core reaches whatever else the machine runs; compare ratios from
one run, not rates from different days. Figures: docs/rl.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]


def task_env(ts: Any, task: str, **env_kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """The Gymnasium env playing ``task`` of task set ``ts`` (no step limit, no env checker; ``env_kwargs`` added to
    the task's make arguments, e.g. ALFWorld's ``dialect``) and the reset options of the task."""
    import gymnasium as gym

    env_id, kwargs, options = ts.hooks.play(task, ts.protocols[0])
    return gym.make(env_id, max_episode_steps=-1, disable_env_checker=True, **{**kwargs, **env_kwargs}), options


def gym_step(env: Any, action: Any) -> bool:
    """One action on a Gymnasium env of the registry, a multi-tick skill run to its end; whether the episode ended."""
    _o, _r, terminated, truncated, info = env.step(action)
    while info.get("busy") and not (terminated or truncated):
        _o, _r, terminated, truncated, info = env.step(None)
    return bool(terminated or truncated)


def walks(world: str, tasks: int, steps: int, seed: int = 0, **env_kwargs: Any) -> list[tuple[str, list[str]]]:
    """Per task (the first ``tasks`` of the world's task set): a seeded random walk over its legal actions, on the
    env made with ``env_kwargs`` (:func:`task_env`)."""
    import numpy as np

    import eai_gym  # noqa: F401
    from eai_gym.tasksets import task_sets

    ts = task_sets()[world]
    rng = np.random.default_rng(seed)
    out = []
    for task in ts.ids()[:tasks]:
        env, options = task_env(ts, task, **env_kwargs)
        env.reset(seed=0, options=options)
        actions: list[str] = []
        for _ in range(steps):
            legal = ts.legal_actions(env)
            action = legal[int(rng.integers(len(legal)))] if legal else "Wait[]"
            actions.append(action)
            if gym_step(env, action):
                break
        out.append((task, actions))
        env.close()
    return out


def _gym_player(world: str) -> Callable[[list[tuple[str, list[str]]]], int]:
    from eai_gym.tasksets import task_sets

    ts = task_sets()[world]

    def play(plan: list[tuple[str, list[str]]]) -> int:
        n = 0
        for task, actions in plan:
            env, options = task_env(ts, task)
            env.reset(seed=0, options=options)
            for action in actions:
                n += 1
                if gym_step(env, action):
                    break
        return n
    return play


def _trl_player(world: str, reward: str) -> Callable[[list[tuple[str, list[str]]]], int]:
    from eai_gym.rl.trl import environment_class

    env = environment_class(world, reward=reward, max_steps=10_000)()

    def play(plan: list[tuple[str, list[str]]]) -> int:
        n = 0
        for task, actions in plan:
            env.reset(task=task, prompt=[{"role": "user", "content": ""}])
            for action in actions:
                env.act(command=action)
                n += 1
                if env._episode.done:
                    break
        return n
    return play


def _skyrl_player(world: str, reward: str) -> Callable[[list[tuple[str, list[str]]]], int]:
    import skyrl_gym

    from eai_gym.rl.skyrl import env_id

    ident = env_id(world)

    def play(plan: list[tuple[str, list[str]]]) -> int:
        n = 0
        for task, actions in plan:  # SkyRL makes one env per trajectory
            env = skyrl_gym.make(ident, env_config={"reward": reward, "max_steps": 10_000}, extras={"task": task})
            env.init([{"role": "user", "content": ""}])
            for action in actions:
                n += 1
                if env.step(action)["done"]:
                    break
            env.close()
        return n
    return play


def _cpu_rate(play: Callable[[Any], int], plan: Any, repeats: int) -> dict[str, float]:
    play(plan)  # warm: module data, caches
    rates, per_step = [], []
    for _ in range(repeats):
        t0 = time.process_time()
        n = play(plan)
        dt = time.process_time() - t0
        rates.append(n / dt)
        per_step.append(dt / n * 1e6)
    return {"steps": n, "steps_per_cpu_s": round(statistics.median(rates)), "us_per_step": statistics.median(per_step)}


def memory_per_instance(make: Callable[[str], Any], tasks: list[str], instances: int) -> int:
    make(tasks[0])  # module data and caches first: what stays is the instances' own
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [make(tasks[i % len(tasks)]) for i in range(instances)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    held = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del kept
    return held // instances


def interfaces(world: str, tasks: int, steps: int, instances: int, repeats: int) -> dict[str, Any]:
    from eai_gym.rl.trl import environment_class
    from eai_gym.tasksets import task_sets

    plan = walks(world, tasks, steps)
    players = {"gymnasium": _gym_player(world)}
    for reward in ("success", "progress"):
        players[f"trl_{reward}"] = _trl_player(world, reward)
    try:
        import eai_gym.rl.skyrl  # noqa: F401
        players.update({f"skyrl_{r}": _skyrl_player(world, r) for r in ("success", "progress")})
    except ImportError:
        pass
    out: dict[str, Any] = {name: _cpu_rate(play, plan, repeats) for name, play in players.items()}
    base = out["gymnasium"]["us_per_step"]
    for name, res in out.items():
        res["overhead_us_per_step"] = round(res["us_per_step"] - base, 1)
        res["us_per_step"] = round(res["us_per_step"], 1)
    ts = task_sets()[world]

    def gym_instance(task: str) -> Any:
        env, options = task_env(ts, task)
        env.reset(seed=0, options=options)
        return env

    cls = environment_class(world)

    def trl_instance(task: str) -> Any:
        env = cls()
        env.reset(task=task)
        return env

    ids = [t for t, _ in plan]
    out["memory_bytes_per_instance"] = {"gymnasium": memory_per_instance(gym_instance, ids, instances),
                                        "trl": memory_per_instance(trl_instance, ids, instances)}
    return out


# -- before/after: the per-step metric costs, in a subprocess per tree ----------------------------------------------

def metric_costs(world: str, tasks: int, steps: int, repeats: int) -> dict[str, float]:
    """Per step (us, median over repeats): the raw env step, the step through ProgressRate, the legal listing."""
    import eai_gym  # noqa: F401
    from eai_gym.tasksets import task_sets
    from eai_gym.wrappers import ProgressRate

    ts = task_sets()[world]
    plan = walks(world, tasks, steps)
    searches = _count_plan_searches()

    def run(wrap: bool, listing: bool) -> float:
        total, n = 0.0, 0
        for task, actions in plan:
            env, options = task_env(ts, task)
            if wrap:
                env = ProgressRate(env)
            env.reset(seed=0, options=options)
            for action in actions:
                t0 = time.process_time()
                ended = gym_step(env, action)
                if listing:
                    ts.legal_actions(env)
                total += time.process_time() - t0
                n += 1
                if ended:
                    break
        return total / max(n, 1) * 1e6

    run(True, True)  # warm
    out: dict[str, list[float]] = {"raw": [], "progress_rate": [], "listing": []}
    for _ in range(repeats):
        out["raw"].append(run(False, False))
        out["progress_rate"].append(run(True, False))
        out["listing"].append(run(False, True))
    med = {k: statistics.median(v) for k, v in out.items()}
    searches["n"] = 0
    steps_run = sum(len(actions) for _, actions in plan)
    run(True, False)
    return {"raw_us": med["raw"], "progress_rate_us": med["progress_rate"] - med["raw"],
            "listing_us": med["listing"] - med["raw"], "plan_searches_per_step": searches["n"] / max(steps_run, 1)}


def _count_plan_searches() -> dict[str, int]:
    """Count the plan searches behind the progress measures (a count, not a time: the same on any machine): the
    plan-length hook of the task-text worlds and ALFWorld's oracle search."""
    from eai_gym.envs.alfworld.oracle import Oracle
    from eai_gym.envs.base import TaskTextEnv

    count = {"n": 0}
    targets = [(Oracle, "_search")] + [(cls, "shortest_plan_length") for cls in TaskTextEnv.__subclasses__()
                                       if "shortest_plan_length" in vars(cls)]
    for cls, name in targets:
        fn = getattr(cls, name)

        def counted(self, *args, _fn=fn):
            count["n"] += 1
            return _fn(self, *args)
        setattr(cls, name, counted)
    return count


def incremental(before: Path, worlds: list[str], tasks: int, steps: int, repeats: int) -> dict[str, Any]:
    """The metric costs on ``before`` and on this tree, each world's two subprocesses one after the other."""
    out: dict[str, Any] = {}
    for world in worlds:
        got = {}
        for label, tree in (("before", before), ("after", ROOT)):
            code = (f"import importlib.util, json, sys; sys.path.insert(0, {str(tree)!r}); import eai_gym; "
                    f"assert eai_gym.__file__.startswith({str(tree)!r}), eai_gym.__file__; "
                    f"spec = importlib.util.spec_from_file_location('bench_rl', {__file__!r}); "
                    f"m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
                    f"print(json.dumps(m.metric_costs({world!r}, {tasks}, {steps}, {repeats})))")
            res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=3600)
            if res.returncode != 0:
                raise RuntimeError(f"{label} {world}: {res.stderr[-2000:]}")
            got[label] = json.loads(res.stdout.strip().splitlines()[-1])
        before_, after_ = got["before"], got["after"]
        got["ratio_before_over_after"] = {k: round(before_[k] / after_[k], 2) if after_[k] > 0 else None
                                          for k in ("progress_rate_us", "listing_us", "plan_searches_per_step")}
        for label in ("before", "after"):
            got[label] = {k: round(v, 3 if k == "plan_searches_per_step" else 1) for k, v in got[label].items()}
        out[world] = got
    return out


def main(argv: list[str] | None = None) -> int:
    from eai_gym import registry

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--worlds", default=",".join(w.name for w in registry.worlds() if w.agent_prompt))
    p.add_argument("--tasks", type=int, default=5)
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--instances", type=int, default=32)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--before", type=Path, default=None, help="a checkout of eai-gym to compare the metric costs with")
    p.add_argument("--json", type=Path, default=None, help="also write the results here")
    p.add_argument("--no-interfaces", action="store_true", help="only the before/after metric costs")
    args = p.parse_args(argv)
    worlds = [w for w in args.worlds.split(",") if w]
    unknown = [w for w in worlds if w not in registry.world_names()]
    if unknown:
        p.error(f"unknown world(s) {', '.join(unknown)}")
    results: dict[str, Any] = {"interfaces": {}}
    for world in [] if args.no_interfaces else worlds:
        results["interfaces"][world] = interfaces(world, args.tasks, args.steps, args.instances, args.repeats)
        print(json.dumps({world: results["interfaces"][world]}), flush=True)
    if args.before is not None:
        results["incremental"] = incremental(args.before, worlds, args.tasks, args.steps, args.repeats)
        print(json.dumps({"incremental": results["incremental"]}), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

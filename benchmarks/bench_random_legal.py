"""Random legal steps per second through the public API (the first speed target of docs/benchmarks.md, "Speed at the limit").

``gymnasium.make(ID, action_mode="index")`` with the default wrappers (the env checker, order enforcing,
the step limit), every step reads ``info["action_mask"]``, samples one legal index, steps; a reset every 50
steps (counted). CPU time of the whole loop; the median over ``--repeats`` runs (the machine is shared)::

    python benchmarks/bench_random_legal.py --steps 5000 --repeats 5
    python benchmarks/bench_random_legal.py --profile virtualhome      # cProfile: the top functions
    python benchmarks/bench_random_legal.py --profile virtualhome --steps 3000 --revisit 5   # the steady state
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time

import numpy as np

ENV_IDS = {"virtualhome": "eai_gym/VirtualHome-v0", "behavior": "eai_gym/Behavior-v0",
           "rearrange": "eai_gym/Rearrange-v0", "alfworld": "eai_gym/AlfWorld-v0",
           "behavior1k": "eai_gym/Behavior1K-v0"}


#: the parts of a step whose cumulative shares ``--profile`` prints besides the mask
PARTS = ("goal_status", "observation", "execute", "advance")


def make(world: str):
    import gymnasium as gym

    import eai_gym  # noqa: F401

    return gym.make(ENV_IDS[world], action_mode="index")


def walk(env, steps: int, seed: int = 0, episode_len: int = 50) -> tuple[int, float]:
    """``steps`` random legal steps; returns (steps, CPU seconds of the whole loop, resets included)."""
    rng = np.random.default_rng(seed)
    ep = 0
    cpu0 = time.process_time()
    obs, info = env.reset(seed=ep)
    n = 0
    while n < steps:
        legal = np.flatnonzero(info["action_mask"])
        a = int(legal[rng.integers(len(legal))])
        obs, r, term, trunc, info = env.step(a)
        n += 1
        if term or trunc or n % episode_len == 0:
            ep += 1
            obs, info = env.reset(seed=ep)
    return n, time.process_time() - cpu0


def steps_per_s(world: str, steps: int, repeats: int) -> dict:
    env = make(world)
    walk(env, min(200, steps))  # warm: module data, caches
    rates = []
    for r in range(repeats):
        n, cpu = walk(env, steps, seed=r)
        rates.append(n / cpu)
    return {"world": world, "steps": steps, "repeats": repeats, "median_steps_per_s": statistics.median(rates),
            "runs": [round(x) for x in rates]}


def profile(world: str, steps: int, top: int = 5, revisit: int = 0,
            parts: tuple[str, ...] = ()) -> list[tuple[str, float]]:
    """The ``top`` functions by own time (tottime) over a walk, with their share of the walk; then the shares
    spent inside the functions named in ``parts`` (cumulative, ``("NAME (cumulative)", share)``), and last the
    share inside the env's ``legal_mask``, as ``("legal_mask (cumulative)", share)``.

    ``revisit``: first walk ``revisit`` times ``steps`` steps with the seeds 0, 1, ... (what the timing runs
    do), then profile a walk with the seed ``revisit``: the same tasks again, with other actions (the steady
    state of runs 2–5); by default the profiled walk follows a 200-step warm-up (mostly first visits)."""
    env = make(world)
    walk(env, 200)
    for r in range(revisit):
        walk(env, steps, seed=r)
    prof = cProfile.Profile()
    prof.enable()
    walk(env, steps, seed=revisit)
    prof.disable()
    st = pstats.Stats(prof, stream=io.StringIO())
    total = st.total_tt
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]
    out = []
    for (file, line, fn), (_cc, _nc, tt, _ct, _callers) in rows:
        short = "/".join(file.split("/")[-2:])
        out.append((f"{short}:{line}({fn})", tt / total))
    for name in (*parts, "legal_mask"):
        ct = max((ct for (_f, _l, fn), (_cc, _nc, _tt, ct, _c) in st.stats.items() if fn == name), default=0.0)
        out.append((f"{name} (cumulative)", ct / total))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default=",".join(ENV_IDS))
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--profile", default="", help="profile these worlds instead (comma-separated)")
    ap.add_argument("--revisit", type=int, default=0,
                    help="with --profile: profile after this many timing-run walks (the same tasks again)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.profile:
        for w in args.profile.split(","):
            print(f"{w}:")
            for name, share in profile(w, args.steps, revisit=args.revisit, parts=PARTS):
                print(f"  {100 * share:5.1f}%  {name}")
        return 0
    for w in args.worlds.split(","):
        res = steps_per_s(w, args.steps, args.repeats)
        print(json.dumps(res) if args.json else
              f"{w:12s} {res['median_steps_per_s']:9,.0f} steps/s (median CPU of {args.repeats}; runs {res['runs']})")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Benchmark: the multi-agent rearrange world and envs on the shipped validation episodes.

    python benchmarks/bench_rearrange_env.py [--episodes 60] [--steps 200] [--seed 0] [--json OUT]

Measures, on the first N shipped episodes (round-robin over the task kinds):
* random legal-action rollouts in the PettingZoo parallel env, index mode (both agents pick a
  random index allowed by ``info["action_mask"]``; the mask is computed every tick): ticks/s and
  agent-steps/s;
* the same random policy on the world alone, with the catalogue's legal actions drawn from the
  mask once per tick (no observation text): ticks/s;
* text-mode rollouts of the two-agent oracle scripts through the parallel env (observations and
  infos built every tick): ticks/s, and ``reset`` time;
* oracle replay (``run_scripts``, world + evaluation engine only): ticks/s.
PARTNR itself needs habitat-sim and gated data, so no reference runs here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from eai_gym.envs.rearrange import catalogue as cat
from eai_gym.envs.rearrange.env import RearrangeParallelEnv
from eai_gym.envs.rearrange.episode import TASK_KINDS, shipped_episodes
from eai_gym.envs.rearrange.oracle import oracle_scripts
from eai_gym.envs.rearrange.rollout import run_scripts
from eai_gym.envs.rearrange.world import RearrangeWorld


def pick_episodes(n: int) -> list:
    eps = shipped_episodes()
    by_kind = {k: [e for e in eps if e.task_kind == k] for k in TASK_KINDS}
    out = []
    i = 0
    while len(out) < n and any(by_kind.values()):
        k = TASK_KINDS[i % len(TASK_KINDS)]
        if by_kind[k]:
            out.append(by_kind[k].pop(0))
        i += 1
    return out


def random_index_env(episodes: list, steps: int, seed: int) -> dict:
    env = RearrangeParallelEnv(action_mode="index", max_steps=steps)
    rng = np.random.default_rng(seed)
    ticks = 0
    t0 = time.perf_counter()
    for ep in episodes:
        obs, infos = env.reset(seed=seed, options={"episode_id": ep.episode_id})
        while env.agents:
            acts = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
            obs, _, _, _, infos = env.step(acts)
            ticks += 1
    dt = time.perf_counter() - t0
    return {"ticks": ticks, "seconds": round(dt, 3), "ticks_per_s": round(ticks / dt, 1),
            "agent_steps_per_s": round(2 * ticks / dt, 1)}


def random_world(episodes: list, steps: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    ticks = 0
    t0 = time.perf_counter()
    for ep in episodes:
        w = RearrangeWorld(ep)
        acts = cat.catalogue(w)
        while w.ticks < steps and not w.done:
            choice = {}
            for a in w.agents:
                if w.idle(a):
                    choice[a] = acts[int(rng.choice(np.flatnonzero(cat.legal_mask(w, a, acts))))]
            w.step(choice)
            ticks += 1
    dt = time.perf_counter() - t0
    return {"ticks": ticks, "seconds": round(dt, 3), "ticks_per_s": round(ticks / dt, 1)}


def oracle_env(episodes: list, plans: dict) -> dict:
    env = RearrangeParallelEnv()
    ticks = 0
    resets = []
    t0 = time.perf_counter()
    for ep in episodes:
        r0 = time.perf_counter()
        obs, infos = env.reset(options={"episode_id": ep.episode_id})
        resets.append(time.perf_counter() - r0)
        queues = {a: list(s) for a, s in plans[ep.episode_id].items()}
        while env.agents:
            acts = {a: (queues[a].pop(0) if queues[a] else "Done[]") if not infos[a]["busy"] else "Wait[]"
                    for a in env.agents}
            obs, _, _, _, infos = env.step(acts)
            ticks += 1
    dt = time.perf_counter() - t0
    return {"ticks": ticks, "seconds": round(dt, 3), "ticks_per_s": round(ticks / dt, 1),
            "reset_ms_median": round(1000 * statistics.median(resets), 2)}


def oracle_replay(episodes: list, plans: dict) -> dict:
    ticks = 0
    t0 = time.perf_counter()
    for ep in episodes:
        ticks += run_scripts(ep, plans[ep.episode_id]).steps
    dt = time.perf_counter() - t0
    return {"ticks": ticks, "seconds": round(dt, 3), "ticks_per_s": round(ticks / dt, 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--episodes", type=int, default=60)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default=None)
    args = p.parse_args()
    episodes = pick_episodes(args.episodes)
    t0 = time.perf_counter()
    plans = {e.episode_id: oracle_scripts(e) for e in episodes}
    planning = time.perf_counter() - t0
    res = {"episodes": len(episodes),
           "oracle_planning": {"seconds": round(planning, 3), "ms_per_episode": round(1000 * planning / len(episodes), 2)},
           "random_legal_index_env": random_index_env(episodes, args.steps, args.seed),
           "random_legal_world": random_world(episodes, args.steps, args.seed),
           "oracle_text_env": oracle_env(episodes, plans),
           "oracle_replay_world": oracle_replay(episodes, plans)}
    print(json.dumps(res, indent=1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()

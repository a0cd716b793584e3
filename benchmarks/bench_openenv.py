#!/usr/bin/env python
"""Benchmark: every world through OpenEnv's WebSocket against the same environment in process.

    python -m benchmarks.bench_openenv [--worlds alfworld ...] [--steps 400] [--sessions 64] [--quick]

For each world (from the registry): the gold plan of its first task with one, replayed episode after episode
(reset, then the plan's actions) until ``--steps`` steps:

- ``in_process``: :class:`eai_gym.openenv.environment.EaiGymEnvironment` called directly (the adapter, the
  world's env and the four metric wrappers, admissible actions listed);
- ``websocket``: the same calls through OpenEnv's ``/ws`` with the typed client
  (:class:`eai_gym.openenv.client.EaiGymEnv`, ``.sync()``), the server (the app of ``eai-gym serve WORLD
  --protocol openenv``) in a thread of this process on loopback;
- ``overhead_ms_per_step``: the difference of the two per-step times (serialisation, the socket, the event
  loop: what the WebSocket hop costs);
- ``memory``: this process's resident memory before and after ``--sessions`` sessions each reset on a task
  (server and client both live here; the client side of a connection is a few tens of kB), per session.

Steps/s count the steps' time only (resets are timed apart: ``*_reset_ms``); each figure is the median of
``--repeats`` runs measured side by side, in-process and WebSocket alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

from .procstat import rss_mb


def episode_actions(world: str, task: str) -> list[Any]:
    """The gold plan's actions, as the in-process env answers them (several agents: joint actions)."""
    from eai_gym.openenv.episode import EpisodeConfig, WorldEpisode
    from eai_gym.openenv.gold import GoldPlayer

    episode, player = WorldEpisode(EpisodeConfig(world)), GoldPlayer(world, task)
    view, actions = episode.reset(task=task), []
    while not view.done:
        action = player.next(view)
        if action is None:
            break
        actions.append(action)
        view = episode.step(action)
    episode.close()
    return actions


def run_in_process(world: str, task: str, actions: list[Any], steps: int) -> tuple[float, float]:
    """Steps per second (the steps' time only) and milliseconds per reset."""
    from eai_gym.openenv.environment import EaiGymEnvironment
    from eai_gym.openenv.episode import EpisodeConfig
    from eai_gym.openenv.models import EaiAction, action_model

    env = EaiGymEnvironment(EpisodeConfig(world))
    model = action_model(env.episode.facts)
    typed = [EaiAction(command=a) if isinstance(a, str) else model(**a) for a in actions]
    done, stepping, resetting, resets = 0, 0.0, 0.0, 0
    while done < steps:
        t0 = time.perf_counter()
        env.reset(task=task)
        t1 = time.perf_counter()
        for a in typed[:steps - done]:
            env.step(a)
        stepping += time.perf_counter() - t1
        resetting += t1 - t0
        resets += 1
        done += min(len(typed), steps - done)
    return steps / stepping, 1000 * resetting / resets


def run_websocket(url: str, task: str, actions: list[Any], steps: int) -> tuple[float, float]:
    from eai_gym.openenv.client import EaiGymEnv

    with EaiGymEnv(base_url=url, message_timeout_s=300).sync() as env:
        env.reset(task=task)  # connect outside the clock
        done, stepping, resetting, resets = 0, 0.0, 0.0, 0
        while done < steps:
            t0 = time.perf_counter()
            env.reset(task=task)
            t1 = time.perf_counter()
            for a in actions[:steps - done]:
                env.step(a)
            stepping += time.perf_counter() - t1
            resetting += t1 - t0
            resets += 1
            done += min(len(actions), steps - done)
        return steps / stepping, 1000 * resetting / resets


def session_memory(url: str, world: str, n: int) -> dict[str, float]:
    from eai_gym.openenv.client import EaiGymEnv
    from eai_gym.openenv.episode import world_facts

    ids = world_facts(world).ids

    async def open_all() -> float:
        clients = [EaiGymEnv(base_url=url, message_timeout_s=300) for _ in range(n)]
        try:
            for i, c in enumerate(clients):
                await c.reset(task=ids[i % len(ids)])
            return rss_mb()
        finally:
            await asyncio.gather(*(c.close() for c in clients))

    before = rss_mb()
    after = asyncio.run(open_all())
    return {"sessions": n, "rss_before_mb": round(before, 1), "rss_after_mb": round(after, 1),
            "mb_per_session": round((after - before) / n, 3)}


def bench_world(world: str, steps: int, repeats: int, sessions: int) -> dict[str, Any]:
    from eai_gym.openenv.episode import EpisodeConfig
    from eai_gym.openenv.gold import gold_tasks
    from eai_gym.openenv.server import build_app, running

    task = gold_tasks(world)[0]
    actions = episode_actions(world, task)
    with running(build_app(EpisodeConfig(world), max_sessions=max(sessions, 2), idle_timeout=0)) as url:
        inproc, ws = [], []
        run_in_process(world, task, actions, min(steps, 20))  # warm both paths
        run_websocket(url, task, actions, min(steps, 20))
        for _ in range(repeats):
            inproc.append(run_in_process(world, task, actions, steps))
            ws.append(run_websocket(url, task, actions, steps))
        memory = session_memory(url, world, sessions)
    a, b = statistics.median(r[0] for r in inproc), statistics.median(r[0] for r in ws)
    return {"task": task, "plan_steps": len(actions), "steps": steps, "in_process_steps_per_s": round(a, 1),
            "in_process_reset_ms": round(statistics.median(r[1] for r in inproc), 2),
            "websocket_reset_ms": round(statistics.median(r[1] for r in ws), 2),
            "websocket_steps_per_s": round(b, 1), "in_process_ms_per_step": round(1000 / a, 3),
            "websocket_ms_per_step": round(1000 / b, 3), "overhead_ms_per_step": round(1000 / b - 1000 / a, 3),
            "ratio": round(a / b, 2), "memory": memory}


def markdown(results: dict[str, Any]) -> str:
    lines = ["| world | in process steps/s | WebSocket steps/s | ms/step in process | ms/step WebSocket | "
             "overhead ms/step | reset ms in process / WebSocket | MB per session |", "|---|---|---|---|---|---|---|---|"]
    for world, r in results["worlds"].items():
        lines.append(f"| {world} | {r['in_process_steps_per_s']:,.0f} | {r['websocket_steps_per_s']:,.0f} | "
                     f"{r['in_process_ms_per_step']} | {r['websocket_ms_per_step']} | {r['overhead_ms_per_step']} | "
                     f"{r['in_process_reset_ms']} / {r['websocket_reset_ms']} | {r['memory']['mb_per_session']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from eai_gym import registry

    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_openenv", description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", nargs="+", default=list(registry.world_names()))
    ap.add_argument("--steps", type=int, default=None, help="steps per run (default 400; --quick: 40)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sessions", type=int, default=64, help="sessions opened for the memory figure (default 64)")
    ap.add_argument("--quick", action="store_true", help="40 steps, 1 repeat, 8 sessions (a smoke run)")
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args(argv)
    unknown = [w for w in args.worlds if w not in registry.world_names()]
    if unknown:
        print(f"bench_openenv: unknown world(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.quick:
        args.repeats, args.sessions = 1, 8
    args.steps = args.steps or (40 if args.quick else 400)
    if args.steps < 1 or args.repeats < 1 or args.sessions < 1:
        print("bench_openenv: --steps, --repeats and --sessions must be at least 1", file=sys.stderr)
        return 2
    results = {"meta": {"steps": args.steps, "repeats": args.repeats, "python": sys.version.split()[0]},
               "worlds": {w: bench_world(w, args.steps, args.repeats, args.sessions) for w in args.worlds}}
    text = json.dumps(results, indent=2)
    print(text)
    print(markdown(results), file=sys.stderr)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

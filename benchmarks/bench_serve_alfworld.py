#!/usr/bin/env python
"""Benchmark: ``eai-gym serve alfworld`` under load, over loopback.

    python -m benchmarks.bench_serve_alfworld [--clients 256] [--max-steps 30] [--cycles 10000] [--quick]

Starts the server (``eai_gym.serve.alfworld.main``, ``--port 0``, dialect 0.3) as a subprocess, then:

- ``clients``: N concurrent clients (threads), each AgentGym's sequence — ``/create``, ``/reset`` on one of the
  134 shipped eval games (numbered after the 3,553 train games), ``/step`` with a random available action until
  ``done`` or ``--max-steps``, ``/close``: requests/s, p50/p99 latency per request, server RSS after;
- ``cycles``: create/reset/close cycles, one client: server RSS at the start and every tenth of the run (flat
  means no leak), and the cycle rate.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import requests

from .procstat import rss_mb

N_TRAIN = 3553


def server_rss_mb(pid: int) -> float:
    return round(rss_mb(pid), 1)


def wait_until_up(url: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Poll ``GET url/`` until the server answers (any HTTP status); raise if it exits or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            requests.get(url + "/", timeout=2)
            return
        except requests.ConnectionError:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with status {proc.returncode} before answering at {url}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"no answer at {url} within {timeout:.0f} s")
            time.sleep(0.05)


def start_serve(*args: str) -> tuple[subprocess.Popen, str]:
    """``eai-gym serve ARGS...`` (e.g. ``alfworld --port 0``) in a subprocess; its base URL (the first line it
    prints) once it answers."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from eai_gym_command import main; sys.exit(main())",
                             "serve", *args], stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()  # the first line: the base URL
    if not url.startswith("http"):
        proc.kill()
        raise RuntimeError(f"eai-gym serve {' '.join(args)} did not start (first line {url!r})")
    wait_until_up(url, proc)
    return proc, url


def start(*args: str) -> tuple[subprocess.Popen, str]:
    """``eai-gym serve alfworld`` on a free port with idle envs kept (extra ``args``: ``--dialect``, ``--games``...)."""
    return start_serve("alfworld", "--port", "0", "--idle-timeout", "0", *args)


class AgentGymClient:
    """The HTTP calls of AgentGym's ``AlfWorldEnvClient`` (``agentenv/envs/alfworld.py`` at 3ef9235): ``POST
    /create`` in the constructor, then ``/reset`` ``{id, game, world_type}`` and ``/step`` ``{id, action}``, each a
    ``requests.post`` of its own (a new connection per call) unless a ``session`` is given; ``/close`` is eai-gym's
    addition (AgentGym's server has no such route)."""

    def __init__(self, base: str, session: requests.Session | None = None, timeout: float = 300) -> None:
        self.base, self.http, self.timeout = base, session or requests, timeout
        ok = self.http.post(f"{base}/create", timeout=timeout)
        if ok.status_code != 200 or "id" not in ok.json():
            raise RuntimeError(f"{base}/create failed: {ok.status_code} {ok.text[:200]}")
        self.env_id = ok.json()["id"]

    def _post(self, path: str, data: dict[str, Any]) -> dict[str, Any]:
        data["id"] = self.env_id
        res = self.http.post(f"{self.base}/{path}", json=data, timeout=self.timeout)
        if res.status_code != 200:
            raise RuntimeError(f"{self.base}/{path}: HTTP {res.status_code} {res.text[:200]}")
        return res.json()

    def reset(self, game: int, world_type: str = "Text") -> dict[str, Any]:
        return self._post("reset", {"game": game, "world_type": world_type})

    def step(self, action: str) -> dict[str, Any]:
        return self._post("step", {"action": action})

    def close(self) -> dict[str, Any]:
        return self._post("close", {})


def clients(url: str, n: int, max_steps: int) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    errors = [0]

    def play(k: int) -> None:
        rng = random.Random(k)
        mine = []

        def call(fn, *args):
            t0 = time.perf_counter()
            r = fn(*args)
            mine.append(time.perf_counter() - t0)
            return r

        client = call(AgentGymClient, url, requests.Session(), 120)
        r = call(client.reset, N_TRAIN + k % 134)
        actions = r["available_actions"]
        for _ in range(max_steps):
            r = call(client.step, rng.choice(actions))
            if "error" in r:
                with lock:
                    errors[0] += 1
                break
            actions = r["available_actions"]
            if r["done"]:
                break
        call(client.close)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=play, args=(k,)) for k in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    dt = time.perf_counter() - t0
    latencies.sort()
    return {"clients": n, "requests": len(latencies), "requests_per_s": round(len(latencies) / dt),
            "p50_ms": round(1000 * statistics.median(latencies), 2),
            "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2), "errors": errors[0]}


def cycles(url: str, pid: int, n: int) -> dict:
    s = requests.Session()
    rss = [server_rss_mb(pid)]
    t0 = time.perf_counter()
    for k in range(n):
        idx = s.post(url + "/create", timeout=60).json()["id"]
        s.post(url + "/reset", json={"id": idx, "game": N_TRAIN + k % 134, "world_type": "Text"}, timeout=60)
        s.post(url + "/close", json={"id": idx}, timeout=60)
        if (k + 1) % max(1, n // 10) == 0:
            rss.append(server_rss_mb(pid))
    dt = time.perf_counter() - t0
    return {"cycles": n, "cycles_per_s": round(n / dt, 1), "server_rss_mb": rss}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=256)
    ap.add_argument("--max-steps", type=int, default=30)
    ap.add_argument("--cycles", type=int, default=10_000)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.clients, args.max_steps, args.cycles = 4, 3, 20
    proc, url = start()
    try:
        warm = cycles(url, proc.pid, 134)  # every eval game generated once before measuring
        out = {"warmup_cycles": warm["cycles"], "load": clients(url, args.clients, args.max_steps)}
        out["load"]["server_rss_mb_after"] = server_rss_mb(proc.pid)
        print("load", json.dumps(out["load"]), flush=True)
        out["cycles"] = cycles(url, proc.pid, args.cycles)
        print("cycles", json.dumps(out["cycles"]), flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

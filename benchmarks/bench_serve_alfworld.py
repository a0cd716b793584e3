#!/usr/bin/env python
"""Benchmark: ``eai-gym serve alfworld`` under load, over loopback (issue 22 §2).

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

import requests

N_TRAIN = 3553


def server_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def start() -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from eai_gym.serve.alfworld import main; "
                             "sys.exit(main(sys.argv[1:]))", "--port", "0", "--idle-timeout", "0"],
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()  # the first line: the base URL
    for _ in range(200):
        try:
            requests.get(url + "/", timeout=2)
            break
        except requests.ConnectionError:
            time.sleep(0.05)
    return proc, url


def clients(url: str, n: int, max_steps: int) -> dict:
    latencies: list[float] = []
    lock = threading.Lock()
    errors = [0]

    def play(k: int) -> None:
        s = requests.Session()
        rng = random.Random(k)
        mine = []

        def call(method, path, **kw):
            t0 = time.perf_counter()
            r = s.request(method, url + path, timeout=120, **kw).json()
            mine.append(time.perf_counter() - t0)
            return r

        idx = call("POST", "/create")["id"]
        r = call("POST", "/reset", json={"id": idx, "game": N_TRAIN + k % 134, "world_type": "Text"})
        actions = r["available_actions"]
        for _ in range(max_steps):
            r = call("POST", "/step", json={"id": idx, "action": rng.choice(actions)})
            if "error" in r:
                with lock:
                    errors[0] += 1
                break
            actions = r["available_actions"]
            if r["done"]:
                break
        call("POST", "/close", json={"id": idx})
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

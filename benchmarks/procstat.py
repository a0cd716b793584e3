"""Memory and CPU time of a process and of the processes it started, read from ``/proc`` (Linux).

The benchmarks that run a server in another process (``bench_serve_alfworld``, ``bench_interfaces``) count the
server's children too: AgentGym's alfworld server, for one, starts a process per environment (textworld's
asynchronous batch env). ``pss`` (proportional set size) splits the pages a forked child shares with its parent
between them, so a tree's PSS is what it costs the machine; a tree's RSS counts shared pages once per process.
"""

from __future__ import annotations

import os


def _status_kb(pid: int | str, key: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:  # the process ended
        return None
    return None


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of one process in MB (``nan`` if it has ended)."""
    kb = _status_kb(pid, "VmRSS")
    return float("nan") if kb is None else kb / 1024


def tree_pids(pid: int) -> list[int]:
    """``pid`` and every live process below it (children read from ``/proc/PID/task/TID/children``)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
            except OSError:
                continue
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return 0
    return 0


def tree_memory_mb(pid: int) -> dict[str, float]:
    """The tree's summed RSS and PSS in MB and its number of processes."""
    pids = tree_pids(pid)
    rss = sum(_status_kb(p, "VmRSS") or 0 for p in pids)
    return {"rss_mb": round(rss / 1024, 1), "pss_mb": round(sum(_pss_kb(p) for p in pids) / 1024, 1),
            "processes": len(pids)}


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by the tree's live processes and the children they waited for."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in tree_pids(pid):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick

#!/usr/bin/env python
"""Benchmark: ALFWorld through every interface eai-gym offers, beside AgentGym's own server, on one load.

    python -m benchmarks.bench_interfaces [--envs 16] [--games 32] [--walk 30] [--rounds 2] [--repeats 3]
        [--agentgym-python VENV/bin/python [--agentgym-home DIR] | --agentgym-url URL --agentgym-home DIR]
        [--out DIR] [--quick]

The load: ``--games`` of the 134 eval games (ALFWorld's task set), each with a seeded random walk of ``--walk``
admissible commands made once on the Gymnasium env in alfworld 0.3's dialect (``bench_rl_interfaces.walks``; a
walk that wins ends there); ``--envs`` environments open at once, each playing ``--rounds`` episodes per repeat (env
``i`` of round ``r`` plays game ``(r * envs + i) mod games``). Every interface plays the same load:

- ``gymnasium``: ``--envs`` envs ``gymnasium.make("eai_gym/AlfWorld-v0", dialect="0.3")`` stepped in lockstep;
- ``compat``: one ``eai_gym.compat.alfworld`` ``AlfredTWEnv(...).init_env(batch_size=envs)`` over the load's games
  (its reset draws them from its own seeded cycle, as alfworld's does; each slot plays its game's walk);
- ``trl`` / ``skyrl``: ``eai_gym.rl.trl.environment_class`` instances (``reset(**row)``, ``act``) and SkyRL-gym envs
  (``eai_gym.rl.skyrl``: made per trajectory, ``init``, ``step``), in lockstep, success reward;
- ``serve``: ``eai-gym serve alfworld`` (a subprocess), one thread per client making AgentGym's client's HTTP calls
  (``bench_serve_alfworld.AgentGymClient``: ``requests.post`` per call);
- ``openenv_in_process``: the OpenEnv server's per-session ``Environment`` called directly (the world's env in the
  metric wrappers; the ``openenv`` row without the socket);
- ``openenv``: ``eai-gym serve alfworld --protocol openenv`` (a subprocess) and the typed client
  ``eai_gym.openenv.client.EaiGymEnv``, one asyncio session per env (it speaks alfworld 0.4: ``put X in/on Y`` is
  sent as ``move X to Y``);
- ``agentgym`` (the reference, optional): AgentGym's ``agentenv-alfworld`` server (WooooDyy/AgentGym 3ef9235,
  alfworld 0.3.3 + textworld 1.7.0, what its setup.sh installs) with the same client as ``serve``. Then ``serve``
  plays the same game folders, numbered the same way (``--games HOME/.cache/alfworld --mapping`` AgentGym's two
  files; ``benchmarks/agentgym_reference.py`` writes them).

A repeat plays every interface in turn (a first, untimed repeat warms them and checks the load: the observations of
``serve`` and ``agentgym`` step by step, the translated commands' admissibility for ``openenv``); an in-process
interface plays a repeat's load ``--passes`` times (it takes milliseconds); figures are medians over ``--repeats``.
Per interface: env steps/s in the step phase (wall) and ms per step; CPU ms per step (this process plus the
server's process tree: what a step costs the machine, whatever else runs on it) and its overhead over the in-process
Gymnasium env's; reset ms (the reset phase's wall time per env reset); memory per env (in process: the bytes
``--envs`` more envs hold, ``tracemalloc``; a server: its process tree's PSS growth once ``--envs`` sessions are
reset, per session). ``--out DIR`` writes ``interfaces.json`` and ``interfaces.md``.

The reference, built here (Python 3.9 as AgentGym's README asks; fast-downward and jericho compile for minutes)::

    python3.9 -m venv $AGENTGYM_VENV && mkdir $AGENTGYM_VENV/src
    $AGENTGYM_VENV/bin/pip install --upgrade pip
    git -C AgentGym archive 3ef9235 agentenv-alfworld | tar -x -C $AGENTGYM_VENV/src   # a WooooDyy/AgentGym clone
    echo 'spacy<3.8' > $AGENTGYM_VENV/constraints.txt       # newer spacy needs Python >= 3.10
    CMAKE_POLICY_VERSION_MINIMUM=3.5 $AGENTGYM_VENV/bin/pip install alfworld==0.3.3 \\
        -c $AGENTGYM_VENV/constraints.txt                    # AgentGym's setup.sh: alfworld==0.3.3
    # (it resolved to textworld 1.7.0 and torch 2.8.0 with its nvidia-* wheels, ~3 GB; the server imports torch)
    $AGENTGYM_VENV/bin/pip uninstall -y opencv-python
    $AGENTGYM_VENV/bin/pip install -e $AGENTGYM_VENV/src/agentenv-alfworld
    python -m benchmarks.bench_interfaces --agentgym-python $AGENTGYM_VENV/bin/python --out bench-results

(no ``alfworld-download``: the server reads the home folder this benchmark writes). To run the server yourself:
``--agentgym-home DIR`` with ``--agentgym-python`` prepares ``DIR`` (or reuses it), then
``HOME=DIR $AGENTGYM_VENV/bin/alfworld --host 127.0.0.1 --port 36001`` and ``--agentgym-url
http://127.0.0.1:36001 --agentgym-home DIR``.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import agentgym_reference as reference
from .interface_runners import (
    DIALECT,
    WORLD,
    AgentGymProtocolRunner,
    CompatRunner,
    GymRunner,
    OpenEnvInProcessRunner,
    OpenEnvRunner,
    Phase,
    Runner,
    SkyrlRunner,
    TrlRunner,
)


class UsageError(ValueError):
    """Arguments that cannot run (the message says which); ``main`` prints it and exits 2."""


#: a walk must end before alfworld's 50-step limit (AgentGym's server and ``eai-gym serve alfworld`` both apply it)
MAX_WALK = 49


def make_load(games: int, walk: int, seed: int = 0) -> tuple[list[str], dict[str, list[str]]]:
    """The load's task ids and each task's commands (:func:`.bench_rl_interfaces.walks`, dialect 0.3)."""
    from .bench_rl_interfaces import walks

    plan = walks(WORLD, games, walk, seed, dialect=DIALECT)
    return [t for t, _ in plan], dict(plan)


def assignment(tasks: list[str], envs: int, r: int) -> list[str]:
    return [tasks[(r * envs + i) % len(tasks)] for i in range(envs)]


def open_runner(runner: Runner, envs: int, tasks: list[str], instances: bool) -> dict[str, Any]:
    """Open ``envs`` envs; the memory per env (see the module docstring)."""
    if runner.in_process:
        from .bench_rl_interfaces import memory_per_instance

        runner.open(envs, tasks)
        if not instances:
            return {"method": "not measured (--no-memory)"}
        per = memory_per_instance(runner.instance, tasks, envs)  # type: ignore[attr-defined]
        return {"mb_per_env": round(per / 2**20, 3), "method": "tracemalloc, in process"}
    if runner.server_pid is None:
        runner.open(envs, tasks)
        return {"method": "not measured (a server this benchmark did not start)"}
    before = runner.memory()
    runner.open(envs, tasks)
    runner.round(assignment(tasks, envs, 0), {t: [] for t in tasks})
    after = runner.memory()
    return {"mb_per_env": round((after["pss_mb"] - before["pss_mb"]) / envs, 3), "method": "server PSS growth",
            "server_before": before, "server_after": after}


def summarize(runs: list[Phase], resets: int, passes: int) -> dict[str, Any]:
    """Medians over the repeats (``resets``: env resets per pass; ``passes``: times each repeat played the load)."""
    rates = [p.steps / p.step_s for p in runs]
    rate = statistics.median(rates)
    return {"steps_per_repeat": runs[0].steps // passes, "passes": passes, "steps_per_s": round(rate, 1),
            "runs": [round(r, 1) for r in rates], "ms_per_step": round(1000 / rate, 4),
            "cpu_ms_per_step": round(statistics.median(1000 * p.cpu_s / p.steps for p in runs), 4),
            "reset_ms": round(statistics.median(1000 * p.reset_s / (resets * passes) for p in runs), 3)}


def compare_observations(a: dict[str, list[str]], b: dict[str, list[str]]) -> dict[str, Any]:
    pairs = [(x, y) for t in a if t in b for x, y in zip(a[t], b[t])]
    diff = [(x, y) for x, y in pairs if x != y]
    return {"steps_compared": len(pairs), "different": len(diff), "first_difference": list(diff[0]) if diff else None}


def start_servers(args: argparse.Namespace, tasks: list[str], stack: list[Any]) -> tuple[list[Runner], dict[str, str]]:
    """The server runners (and why one is left out); ``stack`` collects what to stop."""
    from .bench_serve_alfworld import N_TRAIN, start, start_serve

    skipped: dict[str, str] = {}
    games = {t: N_TRAIN + int(t) for t in tasks}
    serve_args: list[str] = ["--dialect", DIALECT, "--max-envs", "0"]
    agentgym: Runner | None = None
    if args.agentgym_python or args.agentgym_url:
        if args.agentgym_home:
            home = Path(args.agentgym_home)
        else:
            scratch = tempfile.mkdtemp(prefix="agentgym-home-")
            stack.append(lambda: shutil.rmtree(scratch))
            home = Path(scratch) / "home"
        if not (home / reference.GAMES_FILE).exists():
            if not args.agentgym_python:
                raise UsageError(f"--agentgym-home {home} has no {reference.GAMES_FILE}: prepare it with "
                                 "--agentgym-python PY --agentgym-home DIR")
            if home.exists():
                raise UsageError(f"--agentgym-home {home} exists but has no {reference.GAMES_FILE}: give a new "
                                 "folder (it is written fresh) or one this benchmark prepared")
            reference.prepare_home(home, args.agentgym_python, tasks)
        prepared = json.loads((home / reference.GAMES_FILE).read_text())
        missing = [t for t in tasks if t not in prepared["games"]]
        if missing:
            raise UsageError(f"--agentgym-home {home} has no game for task(s) {', '.join(missing[:5])}: "
                             "prepare a new home for this load")
        games = {t: prepared["games"][t] for t in tasks}
        serve_args += ["--games", str(home / ".cache" / "alfworld"), "--mapping", *prepared["mappings"]]
        if args.agentgym_url:
            url, pid = args.agentgym_url.rstrip("/"), None
        else:
            ref_proc, url = reference.start(args.agentgym_python, home, home / "server.log")
            stack.append(lambda: reference.stop(ref_proc))
            pid = ref_proc.pid
        agentgym = AgentGymProtocolRunner("agentgym", "AgentGym `agentenv-alfworld` + alfworld 0.3.3 (reference)",
                                          url, pid, games, closable=False)
    else:
        skipped["agentgym"] = ("AgentGym's server was not given (--agentgym-python VENV/bin/python of a venv with "
                               "agentenv-alfworld, or --agentgym-url URL --agentgym-home DIR): no reference row")
    serve_proc, serve_url = start(*serve_args)
    stack.append(lambda: _stop(serve_proc))
    runners: list[Runner] = [AgentGymProtocolRunner("serve", "`eai-gym serve alfworld` + AgentGym's client calls",
                                                    serve_url, serve_proc.pid, games, closable=True)]
    try:
        import openenv  # noqa: F401
        openenv_proc, url2 = start_serve(WORLD, "--protocol", "openenv", "--port", "0", "--idle-timeout", "0",
                                         "--max-sessions", str(args.envs + 2))
        stack.append(lambda: _stop(openenv_proc))
        runners.append(OpenEnvRunner(url2, openenv_proc.pid))
    except ImportError:
        skipped["openenv"] = "openenv is not installed (pip install 'eai-gym[openenv]')"
    return runners + ([agentgym] if agentgym else []), skipped


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run(args: argparse.Namespace) -> dict[str, Any]:
    tasks, walks = make_load(args.games, args.walk, args.seed)
    runners: list[Runner] = [GymRunner(), CompatRunner(), TrlRunner()]
    skipped: dict[str, str] = {}
    try:
        import eai_gym.rl.skyrl  # noqa: F401
        runners.append(SkyrlRunner())
    except ImportError:
        skipped["skyrl"] = "skyrl-gym is not installed (pip install 'eai-gym[skyrl]')"
    try:
        import openenv  # noqa: F401
        runners.append(OpenEnvInProcessRunner())
    except ImportError:
        skipped["openenv_in_process"] = "openenv is not installed (pip install 'eai-gym[openenv]')"
    stack: list[Any] = []
    results: dict[str, Any] = {}
    try:
        servers, more = start_servers(args, tasks, stack)
        runners += servers
        skipped.update(more)
        memory = {r.name: open_runner(r, args.envs, tasks, not args.no_memory) for r in runners}
        stack.extend(r.close for r in runners)
        runs: dict[str, list[Phase]] = {r.name: [] for r in runners}
        checks: dict[str, Any] = {}
        for repeat in range(args.repeats + 1):
            for r in runners:
                passes = args.passes if r.in_process and repeat else 1
                phases = [r.round(assignment(tasks, args.envs, k), walks, record=repeat == 0)
                          for _ in range(passes) for k in range(args.rounds)]
                if repeat == 0:
                    checks[r.name] = {t: o for p in phases for t, o in p.observations.items()}
                    if r.name == "openenv":
                        checks["openenv_off_admissible"] = sum(p.off_admissible for p in phases)
                    continue
                runs[r.name].append(Phase(sum(p.steps for p in phases), sum(p.reset_s for p in phases),
                                          sum(p.step_s for p in phases), sum(p.cpu_s for p in phases)))
        for r in runners:
            passes = args.passes if r.in_process else 1
            results[r.name] = {"label": r.label, **summarize(runs[r.name], args.envs * args.rounds, passes),
                               "memory": memory[r.name]}
            if r.server_pid:
                results[r.name]["server_after_run"] = r.memory()
    finally:
        for stop in reversed(stack):
            try:
                stop()
            except Exception as e:  # noqa: BLE001 - the next ones still stop
                print(f"bench_interfaces: while stopping: {e}", file=sys.stderr)
    base = results["gymnasium"]
    ref = results.get("agentgym")
    for res in results.values():
        res["overhead_ms_per_step"] = round(res["ms_per_step"] - base["ms_per_step"], 4)
        res["cpu_overhead_ms_per_step"] = round(res["cpu_ms_per_step"] - base["cpu_ms_per_step"], 4)
        res["gymnasium_over_this"] = round(base["steps_per_s"] / res["steps_per_s"], 2)
        if ref:
            res["this_over_agentgym"] = round(res["steps_per_s"] / ref["steps_per_s"], 1)
            res["agentgym_cpu_over_this"] = round(ref["cpu_ms_per_step"] / res["cpu_ms_per_step"], 1)
    load_checks: dict[str, Any] = {"openenv_commands_not_admissible": checks.get("openenv_off_admissible")}
    if "agentgym" in checks:
        load_checks["serve_vs_agentgym_step_observations"] = compare_observations(checks["serve"], checks["agentgym"])
    return {"meta": {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": _commit(),
                     "machine": f"{platform.machine()}, {_cpus()} CPUs", "python": platform.python_version(),
                     "command": "python -m benchmarks.bench_interfaces " + " ".join(args.argv)},
            "load": {"games": len(tasks), "walk": args.walk, "envs": args.envs, "rounds": args.rounds,
                     "repeats": args.repeats, "in_process_passes": args.passes, "dialect": DIALECT, "seed": args.seed,
                     "steps_per_repeat": base["steps_per_repeat"]},
            "interfaces": results, "skipped": skipped, "load_checks": load_checks}


def _commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False,
                         cwd=Path(__file__).resolve().parent)
    return out.stdout.strip() or "?"


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0))


def markdown(res: dict[str, Any]) -> str:
    m, load = res["meta"], res["load"]
    ref = "agentgym" in res["interfaces"]
    lines = [f"{m['date']}, {m['machine']}, Python {m['python']}, commit {m['commit']}: `{m['command']}`", "",
             (f"Load: {load['envs']} envs at once, {load['games']} eval games, a seeded random walk of {load['walk']} "
              f"admissible commands per episode (dialect {load['dialect']}), {load['rounds']} episodes per env, "
              f"{load['steps_per_repeat']:,} steps per repeat (played {load['in_process_passes']} times in process); "
              f"medians of {load['repeats']} repeats."), "",
             "| interface | env steps/s | ms/step | CPU ms/step | CPU overhead ms/step | reset ms | MB per env |"
             + (" steps/s vs AgentGym | AgentGym's CPU/step over this |" if ref else ""),
             "|---|---|---|---|---|---|---|" + ("---|---|" if ref else "")]
    for r in res["interfaces"].values():
        mem = r["memory"].get("mb_per_env")
        lines.append(f"| {r['label']} | {r['steps_per_s']:,.0f} | {r['ms_per_step']:.3f} | {r['cpu_ms_per_step']:.3f} | "
                     f"{r['cpu_overhead_ms_per_step']:+.3f} | {r['reset_ms']:.2f} | "
                     f"{'—' if mem is None else f'{mem:.3f}'} |"
                     + (f" {r['this_over_agentgym']:,}x | {r['agentgym_cpu_over_this']:,}x |" if ref else ""))
    for name, why in res["skipped"].items():
        lines.append(f"\n{name}: skipped — {why}")
    checks = res["load_checks"]
    if "serve_vs_agentgym_step_observations" in checks:
        c = checks["serve_vs_agentgym_step_observations"]
        lines.append(f"\nSame load: `serve` and AgentGym's server gave {c['steps_compared'] - c['different']} equal "
                     f"observations of {c['steps_compared']} steps.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_interfaces", description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=16, help="environments (sessions) open at once (default 16)")
    ap.add_argument("--games", type=int, default=32, help="eval games in the load (1..134, default 32)")
    ap.add_argument("--walk", type=int, default=30, help=f"commands per episode (1..{MAX_WALK}, default 30)")
    ap.add_argument("--rounds", type=int, default=2, help="episodes per env per repeat (default 2)")
    ap.add_argument("--repeats", type=int, default=3, help="timed repeats, after one untimed (default 3)")
    ap.add_argument("--passes", type=int, default=10,
                    help="times an in-process interface plays each repeat's load (its steps take microseconds; default 10)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agentgym-python", help="python of a venv with agentenv-alfworld: start AgentGym's server")
    ap.add_argument("--agentgym-url", help="base URL of a running AgentGym alfworld server (needs --agentgym-home)")
    ap.add_argument("--agentgym-home", help="the reference server's HOME (prepared here with --agentgym-python)")
    ap.add_argument("--no-memory", action="store_true", help="skip the in-process memory measurement")
    ap.add_argument("--quick", action="store_true",
                    help="2 envs, 4 games, 5 commands, 1 round, 1 repeat, 1 pass (a smoke run)")
    ap.add_argument("--out", help="write interfaces.json and interfaces.md here")
    args = ap.parse_args(argv)
    if args.quick:
        args.envs, args.games, args.walk, args.rounds, args.repeats, args.passes = 2, 4, 5, 1, 1, 1
    problems = [p for p in (
        not 1 <= args.games <= 134 and f"--games must be 1..134, not {args.games}",
        not 1 <= args.walk <= MAX_WALK and f"--walk must be 1..{MAX_WALK}, not {args.walk}",
        min(args.envs, args.rounds, args.repeats, args.passes) < 1
        and "--envs, --rounds, --repeats and --passes must be at least 1",
        args.agentgym_url and not args.agentgym_home and "--agentgym-url needs --agentgym-home",
        args.agentgym_url and args.agentgym_python and "give --agentgym-url or --agentgym-python, not both") if p]
    if problems:
        ap.error(problems[0])
    args.argv = argv
    from eai_gym.interrupts import exit_code, sigterm_interrupts

    try:
        with sigterm_interrupts():  # SIGTERM unwinds as Ctrl-C does: the servers started here are stopped
            res = run(args)
    except UsageError as e:
        print(f"bench_interfaces: {e}", file=sys.stderr)
        return 2
    except (RuntimeError, OSError) as e:  # a server that did not start or answer, a reference venv that is not one
        print(f"bench_interfaces: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:  # Ctrl-C or SIGTERM: the servers are stopped already
        print("bench_interfaces: interrupted", file=sys.stderr)
        return exit_code(e)
    text = markdown(res)
    print(text)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "interfaces.json").write_text(json.dumps(res, indent=2) + "\n")
        (out / "interfaces.md").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

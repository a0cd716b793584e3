#!/usr/bin/env python
"""Benchmark: ALFWorld through ``eai_gym.compat.alfworld`` at RL-training scale (issues 19 and 22).

    python -m benchmarks.bench_compat_alfworld [--steps 200] [--envs 256] [--folder DIR] [--ray 16]
        [--reference-python VENV/bin/python --reference-folder DIR] [--expert-walks] [--quick]

Each scenario runs in a fresh subprocess (so RSS deltas are its own) and prints one JSON object:

Throughput is given per second of wall time and, where the work is one process's, per second of the process's
CPU time (``time.process_time``: what one core reaches, whatever else the machine runs).

- ``compat_vs_gym``: steps per CPU-second through ``compat.alfworld`` (``batch_size=1``, ``won`` + admissible commands) and
  through the Gymnasium env ``eai_gym/AlfWorld-v0`` (same infos) on the same eval games and random admissible
  commands;
- ``lockstep``: ``--envs`` games stepped together, as one ``batch_size=N`` env and as N ``batch_size=1`` envs:
  env-steps/s (one core) and memory per env (RSS after making and resetting them, minus RSS before, / N);
- ``pickle``: the pickled size of an ``AlfredTWEnv`` (train split) and the time to pickle and unpickle it
  once per actor for 256 actors;
- ``startup`` (with ``--folder``, e.g. 8,810 games written by ``python -m tools.convert.alfworld_export --total 8810``):
  ``AlfredTWEnv`` indexing the folder, then ``init_env(1)`` and the first ``reset()``;
- ``ray`` (with ``--ray N`` and Ray installed): verl-agent's pattern — the base env passed to N Ray actors, each
  ``init_env(batch_size=1).seed(s)`` — stepped in lockstep; env-steps/s and whether every episode's
  observations equal the in-process run's;
- ``reference`` (with ``--reference-python`` of an alfworld 0.4.2 venv and ``--reference-folder`` holding
  ``game.tw-pddl`` files, e.g. from ``tools/reference/alfworld_compat.py``): one alfworld
  ``AlfredTWEnv(...).init_env(batch_size=1)`` — RSS, reset time and steps/s on random admissible commands;
- ``expert``: the cost of alfworld's default DAgger config on the train split (the handcoded expert's
  ``extra.expert_plan`` and ``facts`` every step) on random admissible commands: 16 envs in lockstep on the eval
  split (no expert) against 16 on the train split (expert on), then ``--envs`` envs on the train split with the
  expert on against off (DQN config: no expert); each batch in its own process, the two batches compared stepped
  in alternating turns of 20 steps (so both see the same machine load); their env-steps per CPU-second and
  ratios; RSS growth per env; the pickled size of one step's infos with the expert on;
- ``expert_exact`` (``--one expert_exact [--exact-steps 30]``): the expert's abstract model against the search it
  replaces on every shipped game, both dialects, on seeded walks half following the expert: answers and costs
  compared after every step, disagreements settled by the from-scratch definition; counts the model's fallbacks;
- ``expert_walks`` (``--expert-walks``): every shipped game (train, in- and out-of-distribution eval), both
  dialects, a random walk with the handcoded expert consulted after every step; counts exceptions and expert
  commands that are neither admissible nor ``look``.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import time
from pathlib import Path

from .procstat import rss_mb

EVAL = "eval_out_of_distribution"


def config(**env):
    from eai_gym.compat.alfworld import default_config

    c = default_config()
    c["env"].update(env)
    c["dagger"]["training"]["max_nb_steps_per_episode"] = 10_000
    return c


def compat_vs_gym(steps: int) -> dict:
    import gymnasium as gym

    import eai_gym  # noqa: F401 - registers the ids
    from eai_gym.compat.alfworld import AlfredTWEnv

    rng = random.Random(0)
    env = AlfredTWEnv(config(), EVAL).init_env(batch_size=1)
    _, infos = env.reset()
    commands, t = [], 0.0
    for k in range(steps):
        cmd = rng.choice(infos["admissible_commands"][0])
        commands.append(cmd)
        t0 = time.process_time()
        _, _, _, infos = env.step([cmd])
        t += time.process_time() - t0
    compat_sps = steps / t
    g = gym.make("eai_gym/AlfWorld-v0", request_infos=["admissible_commands", "won"]).unwrapped
    g.games = [env.runs[0].engine.game]
    g.reset(seed=0, options={"template": 0})
    t0 = time.process_time()
    for cmd in commands:
        g.step(cmd)
    gym_sps = steps / (time.process_time() - t0)
    return {"steps": steps, "compat_steps_per_cpu_s": round(compat_sps), "gym_steps_per_cpu_s": round(gym_sps),
            "compat_over_gym": round(compat_sps / gym_sps, 3)}


def lockstep(n: int, steps: int, single: bool) -> dict:
    from eai_gym.compat.alfworld import AlfredTWEnv

    base = AlfredTWEnv(config(), EVAL)
    rng = random.Random(1)
    before = rss_mb()
    if single:
        envs = [base.init_env(batch_size=1) for _ in range(n)]
        for i, e in enumerate(envs):
            e.seed(i)
        infos = [e.reset()[1] for e in envs]
        made = rss_mb()
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(steps):
            infos = [e.step([rng.choice(i["admissible_commands"][0])])[3] for e, i in zip(envs, infos)]
    else:
        env = base.init_env(batch_size=n)
        _, info = env.reset()
        made = rss_mb()
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(steps):
            _, _, _, info = env.step([rng.choice(a) for a in info["admissible_commands"]])
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"envs": n, "form": f"{n} x batch_size=1" if single else f"batch_size={n}", "batch_steps": steps,
            "env_steps_per_s": round(n * steps / dt), "env_steps_per_cpu_s": round(n * steps / cpu), "rss_mb_per_env": round((made - before) / n, 3),
            "rss_mb_total": round(rss_mb(), 1)}


def pickling(actors: int = 256) -> dict:
    from eai_gym.compat.alfworld import AlfredTWEnv

    env = AlfredTWEnv(config(), "train")
    data = pickle.dumps(env)
    t0 = time.process_time()
    clones = [pickle.loads(pickle.dumps(env)) for _ in range(actors)]
    t1 = time.process_time()
    for c in clones:
        c.init_env(batch_size=1)
    t2 = time.process_time()
    return {"pickled_bytes": len(data), "actors": actors, "pickle_unpickle_cpu_ms_total": round(1000 * (t1 - t0), 1),
            "then_init_env_cpu_ms_total": round(1000 * (t2 - t1), 1)}


def startup(folder: str) -> dict:
    t0 = time.perf_counter()
    from eai_gym.compat.alfworld import AlfredTWEnv

    t_import = time.perf_counter() - t0
    c = config()
    c["dataset"]["data_path"] = folder
    t1, c1 = time.perf_counter(), time.process_time()
    base = AlfredTWEnv(c, "train")
    t_index = time.perf_counter() - t1
    env = base.init_env(batch_size=1)
    obs, _ = env.reset()
    t_total, c_total = time.perf_counter() - t1, time.process_time() - c1
    return {"games": base.num_games, "import_s": round(t_import, 3), "index_s": round(t_index, 3),
            "index_and_first_reset_s": round(t_total, 3), "index_and_first_reset_cpu_s": round(c_total, 3),
            "first_obs_chars": len(obs[0])}


def ray_actors(n: int, steps: int) -> dict:
    import ray

    from eai_gym.compat.alfworld import AlfredTWEnv

    base = AlfredTWEnv(config(), EVAL)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        @ray.remote(num_cpus=0.1)
        class Worker:  # verl-agent's AlfworldWorker pattern
            def __init__(self, seed, base_env):
                self.env = base_env.init_env(batch_size=1)
                self.env.seed(seed)

            def reset(self):
                return self.env.reset()

            def step(self, action):
                return self.env.step([action])

        workers = [Worker.remote(i, base) for i in range(n)]
        rng = random.Random(2)
        t0 = time.perf_counter()
        results = ray.get([w.reset.remote() for w in workers])
        trace = [[r[0][0]] for r in results]
        infos = [r[1] for r in results]
        for _ in range(steps):
            actions = [rng.choice(i["admissible_commands"][0]) for i in infos]
            results = ray.get([w.step.remote(a) for w, a in zip(workers, actions)])
            infos = [r[3] for r in results]
            for t, r in zip(trace, results):
                t.append(r[0][0])
        dt = time.perf_counter() - t0
    finally:
        ray.shutdown()
    rng = random.Random(2)
    local = [base.init_env(batch_size=1) for _ in range(n)]
    for i, e in enumerate(local):
        e.seed(i)
    rs = [e.reset() for e in local]
    same_trace = [[r[0][0]] for r in rs]
    infos = [r[1] for r in rs]
    for _ in range(steps):
        actions = [rng.choice(i["admissible_commands"][0]) for i in infos]
        outs = [e.step([a]) for e, a in zip(local, actions)]
        infos = [o[3] for o in outs]
        for t, o in zip(same_trace, outs):
            t.append(o[0][0])
    return {"actors": n, "steps": steps, "env_steps_per_s": round(n * steps / dt),
            "same_as_in_process": trace == same_trace}


REFERENCE_SNIPPET = """
import json, random, sys, time
def rss():
    return [int(l.split()[1]) / 1024 for l in open('/proc/self/status') if l.startswith('VmRSS:')][0]
from alfworld.agents.environment.alfred_tw_env import AlfredTWEnv
folder, steps = sys.argv[1], int(sys.argv[2])
c = {"dataset": {"data_path": folder, "eval_id_data_path": folder, "eval_ood_data_path": folder,
     "num_train_games": -1, "num_eval_games": -1},
     "env": {"type": "AlfredTWEnv", "domain_randomization": False, "task_types": [1, 2, 3, 4, 5, 6],
     "expert_type": "handcoded", "goal_desc_human_anns_prob": 0.0},
     "general": {"training_method": "dagger"}, "dagger": {"training": {"max_nb_steps_per_episode": 10000}}}
before = rss()
env = AlfredTWEnv(c, train_eval="eval_out_of_distribution").init_env(batch_size=1)
t0 = time.perf_counter(); obs, infos = env.reset(); t_reset = time.perf_counter() - t0
after = rss()
rng = random.Random(0)
t0 = time.perf_counter()
for _ in range(steps):
    obs, s, d, infos = env.step([rng.choice(infos["admissible_commands"][0])])
dt = time.perf_counter() - t0
print(json.dumps({"reset_s": round(t_reset, 3), "steps": steps, "steps_per_s": round(steps / dt, 2),
                  "rss_mb_after_reset": round(after, 1), "rss_mb_delta_env": round(after - before, 1)}))
"""


def reference(python: str, folder: str, steps: int) -> dict:
    out = subprocess.run([python, "-c", REFERENCE_SNIPPET, folder, str(steps)], capture_output=True, text=True,
                         timeout=3600)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def _lockstep_worker(conn, split: str, n: int, method: str) -> None:
    """One batch of ``n`` envs in its own process, stepped on request (see :func:`expert`): sends the RSS growth
    per env once made and reset, then the CPU seconds of each chunk of lockstep steps it is asked for, then (RSS
    growth per env, one step's pickled infos)."""
    from eai_gym.compat.alfworld import AlfredTWEnv

    c = config()
    c["general"]["training_method"] = method
    c["rl"]["training"]["max_nb_steps_per_episode"] = 10_000
    before = rss_mb()
    env = AlfredTWEnv(c, split).init_env(batch_size=n)
    _, info = env.reset()
    conn.send((rss_mb() - before) / n)
    rng = random.Random(4)
    while (k := conn.recv()) is not None:
        t0 = time.process_time()
        for _ in range(k):
            _, _, _, info = env.step([rng.choice(a) for a in info["admissible_commands"]])
        conn.send(time.process_time() - t0)
    conn.send(((rss_mb() - before) / n, len(pickle.dumps({k: v[0] for k, v in info.items()}))))


def _alternating_rates(batches: list[tuple[str, int, str]], steps: int, chunk: int = 20) -> list[dict]:
    """Env-steps per CPU-second of each (split, envs, training method) batch, each in its own process, stepped
    in turns of ``chunk`` lockstep steps (the first to go alternating), so that the batches compared share the
    machine's conditions (the load of other processes changes CPU time per step) and none pays for another's
    memory or garbage collection."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    links = []
    for split, n, method in batches:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_lockstep_worker, args=(theirs, split, n, method), daemon=True)
        proc.start()
        links.append((proc, mine))
    made = [conn.recv() for _, conn in links]
    cpu = [0.0] * len(links)
    done = 0
    turn = 0
    while done < steps:
        k = min(chunk, steps - done)
        order = list(range(len(links)))
        for i in (order if turn % 2 == 0 else order[::-1]):
            links[i][1].send(k)
            cpu[i] += links[i][1].recv()
        done += k
        turn += 1
    out = []
    for (split, n, method), (proc, conn), rss, t in zip(batches, links, made, cpu):
        conn.send(None)
        grown, info_bytes = conn.recv()
        proc.join()
        out.append({"rate": n * steps / t, "rss_mb_per_env": max(rss, grown), "info_bytes": info_bytes})
    return out


def expert(n: int, steps: int) -> dict:
    eval16, train16 = _alternating_rates([(EVAL, 16, "dagger"), ("train", 16, "dagger")], steps)
    on, off = _alternating_rates([("train", n, "dagger"), ("train", n, "dqn")], steps)
    return {"steps": steps, "eval_16_env_steps_per_cpu_s": round(eval16["rate"]),
            "train_expert_16_env_steps_per_cpu_s": round(train16["rate"]),
            "train_expert_over_eval": round(train16["rate"] / eval16["rate"], 3),
            "envs": n, "train_expert_on_env_steps_per_cpu_s": round(on["rate"]),
            "train_expert_off_env_steps_per_cpu_s": round(off["rate"]),
            "expert_off_over_on": round(off["rate"] / on["rate"], 2),
            "rss_mb_per_env_expert_on": round(on["rss_mb_per_env"], 3),
            "rss_mb_per_env_expert_off": round(off["rss_mb_per_env"], 3),
            "pickled_infos_bytes_per_game_step": train16["info_bytes"]}


def expert_walks(steps: int) -> dict:
    from eai_gym.compat.alfworld import AlfredTWEnv

    counts = {"games": 0, "expert_calls": 0, "raised": 0, "not_admissible_nor_look": 0}
    t0 = time.perf_counter()
    for dialect in ("0.3", "0.4"):
        for split in ("train", "eval_in_distribution", EVAL):
            base = AlfredTWEnv(config(dialect=dialect), split)
            rng = random.Random(f"{dialect}{split}")
            for path in base.game_files:
                sub = AlfredTWEnv(config(dialect=dialect), split)
                sub.game_files = [path]
                try:
                    env = sub.init_env(batch_size=1, extras=["expert_plan"])
                    _, infos = env.reset()
                    for _ in range(steps):
                        _, _, _, infos = env.step([rng.choice(infos["admissible_commands"][0])])
                        counts["expert_calls"] += 1
                        plan = infos["extra.expert_plan"][0]
                        if plan != ["look"] and plan[0] not in infos["admissible_commands"][0]:
                            counts["not_admissible_nor_look"] += 1
                except Exception:  # noqa: BLE001 - counted: the point is that it never happens
                    counts["raised"] += 1
                counts["games"] += 1
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    return counts


def expert_exact(steps: int, follow: float = 0.5) -> dict:
    """The expert's abstract model against the search it replaces, on every shipped game in both dialects: a
    seeded walk per game (each step the expert's command with probability ``follow``, else a random admissible
    command), both asked after every step for the next command and the optimal cost; where they disagree, the
    from-scratch definition (:func:`reference_next`, the oracle's own search) says which is right."""
    from eai_gym.compat.alfworld import load_game, shipped_paths
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.expert import Expert, reference_next
    from eai_gym.envs.alfworld.expert_search import SearchExpert

    counts = {"games": 0, "states": 0, "answers_differ": 0, "costs_differ": 0, "model_wrong": 0, "search_wrong": 0,
              "fallbacks": 0, "model_not_applicable_games": 0}
    t0 = time.perf_counter()
    for split in ("train", "eval_in_distribution", EVAL):
        for path in shipped_paths(split):
            game = load_game(path)
            for dialect in ("0.4", "0.3"):
                engine = Engine(game, dialect)
                model, search = Expert(engine), SearchExpert(engine)
                counts["model_not_applicable_games"] += model.model.reason is not None
                rng = random.Random(f"{path}{dialect}")
                state = engine.initial_state()
                for _ in range(steps):
                    mine, theirs = model.next_command(state), search.next_command(state)
                    counts["states"] += 1
                    if model.cost(state) != search.cost(state):
                        counts["costs_differ"] += 1
                    if mine != theirs:
                        counts["answers_differ"] += 1
                        truth = reference_next(engine, state)
                        counts["model_wrong"] += mine != truth
                        counts["search_wrong"] += theirs != truth
                    commands = engine.commands(state)
                    text = theirs if theirs is not None and rng.random() < follow else rng.choice(sorted(commands))
                    engine.apply(state, commands[text])
                counts["fallbacks"] += model.fallbacks
                counts["games"] += 1
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    return counts


def run_one(name: str, args: argparse.Namespace) -> dict:
    if name == "compat_vs_gym":
        return compat_vs_gym(args.steps * 10)
    if name in ("lockstep_batch", "lockstep_single"):
        return lockstep(args.envs, args.steps, name == "lockstep_single")
    if name == "pickle":
        return pickling()
    if name == "startup":
        return startup(args.folder)
    if name == "ray":
        return ray_actors(args.ray, args.steps)
    if name == "expert":
        return expert(args.envs, args.steps)
    if name == "expert_walks":
        return expert_walks(args.walk_steps)
    if name == "expert_exact":
        return expert_exact(args.exact_steps)
    raise ValueError(name)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--folder", default=None)
    ap.add_argument("--ray", type=int, default=0)
    ap.add_argument("--reference-python", default=None)
    ap.add_argument("--reference-folder", default=None)
    ap.add_argument("--expert-walks", action="store_true")
    ap.add_argument("--walk-steps", type=int, default=6)
    ap.add_argument("--exact-steps", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke run)")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.quick:
        args.steps, args.envs = 5, 8
    if args.one:
        print(json.dumps(run_one(args.one, args)))
        return 0
    names = ["compat_vs_gym", "lockstep_batch", "lockstep_single", "pickle", "expert"]
    names += ["startup"] if args.folder else []
    names += ["ray"] if args.ray else []
    names += ["expert_walks"] if args.expert_walks else []
    results = {}
    for name in names:
        cmd = [sys.executable, "-m", "benchmarks.bench_compat_alfworld", "--one", name] + [
            a for a in (argv if argv is not None else sys.argv[1:])]
        out = subprocess.run(cmd, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
                             env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
        results[name] = (json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0
                         else {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]})
        print(name, json.dumps(results[name]), flush=True)
    if args.reference_python and args.reference_folder:
        results["reference"] = reference(args.reference_python, args.reference_folder, args.steps)
        print("reference", json.dumps(results["reference"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

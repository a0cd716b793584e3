#!/usr/bin/env python
"""Generate symbolic states for every BEHAVIOR-1K activity and record bddl 3.6.0's goal verdicts on them.

For each of the 1,016 activities (seeded, deterministic):

* ``init``: the positive ``:init`` atoms plus ``real`` for every declared entity not ``future``;
* ``walk``: states met by a seeded hill-climb (at most 400 flips) from the initial state towards the goal (flipping atoms the goal
  reads, scored by eai-gym's own evaluator, so the recorded verdicts test it rather than follow it); the last
  one is the best state found (goal-satisfying for most activities);
* ``flip``: one-fact perturbations of that best state (each atom the goal reads toggled, capped at 80), and
  a few two-fact ones; one-fact perturbations of the initial state (capped at 40);
* ``random``: random subsets of the atoms the goal reads, at several densities.

The states are sent to the reference harness (``reference/harness/behavior1k/ref_bddl_goal.py``, bddl 3.6.0's own
evaluator) and the verdicts are written to ``tests/reference/data/behavior1k/goal_verdicts.json.gz``:
``{activity: {"atoms": [[pred, args...]...], "states": [[kind, [atom index...], satisfied, "0110"]...]}}``.

Usage: python -m tools.reference.behavior1k_goal_states --ref-python /work/refvenvs/<name>-bddl/bin/python
           [--harness PATH] [--seed 0] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile

from eai_gym.envs.behavior1k.data import activity_names, activity_record
from eai_gym.envs.behavior1k.goals import activity_goal
from tools.common import KIT, REFERENCE_DATA, write_gz

MAX_FLIPS, N_PAIRS, N_RANDOM, WALK_STEPS = 80, 12, 36, 400


def initial_facts(name: str) -> set[tuple[str, ...]]:
    rec = activity_record(name)
    facts = {tuple(lit) for lit in rec["init"] if lit[0] != "not"}
    future = {f[1] for f in facts if f[0] == "future"}
    for names in rec["objects"].values():
        facts.update(("real", n) for n in names if n not in future)
    return facts


def hill_climb(name: str, start: set, rng: random.Random) -> list[frozenset]:
    goal = activity_goal(name)
    atoms = sorted({a for c in goal.conditions for a in c.atoms})
    state = set(start)
    score = sum(goal.evaluate(state))
    seen = [frozenset(state)]
    steps = 0
    while score < len(goal.conditions) and steps < WALK_STEPS and atoms:
        steps += 1
        wanted = [a for c, ok in zip(goal.conditions, goal.evaluate(state)) if not ok for a in c.atoms]
        best, best_score = [], -1
        for atom in sorted(set(wanted)):
            state ^= {atom}
            s = sum(goal.evaluate(state))
            state ^= {atom}
            if s > best_score:
                best, best_score = [atom], s
            elif s == best_score:
                best.append(atom)
        if best_score <= score and rng.random() < 0.5:
            best = [rng.choice(atoms)]
        state ^= {rng.choice(best)}
        score = sum(goal.evaluate(state))
        if len(seen) < 6 or score == len(goal.conditions):
            seen.append(frozenset(state))
    if seen[-1] != frozenset(state):
        seen.append(frozenset(state))
    return seen[:4] + seen[-2:] if len(seen) > 6 else seen


def states_for(name: str, seed: int) -> list[tuple[str, frozenset]]:
    rng = random.Random(f"{seed}:{name}")
    start = initial_facts(name)
    out: list[tuple[str, frozenset]] = [("init", frozenset(start))]
    walk = hill_climb(name, start, rng)
    out += [("walk", s) for s in walk[1:]]
    best = walk[-1]
    goal_atoms = sorted({a for c in activity_goal(name).conditions for a in c.atoms})
    flips = goal_atoms if len(goal_atoms) <= MAX_FLIPS else rng.sample(goal_atoms, MAX_FLIPS)
    out += [("flip", best ^ {a}) for a in sorted(flips)]
    init_flips = goal_atoms if len(goal_atoms) <= MAX_FLIPS // 2 else rng.sample(goal_atoms, MAX_FLIPS // 2)
    out += [("flip", frozenset(start) ^ {a}) for a in sorted(init_flips)]
    if len(goal_atoms) > 1:
        out += [("flip", best ^ set(rng.sample(goal_atoms, 2))) for _ in range(N_PAIRS)]
    for i in range(N_RANDOM):
        p = (0.1, 0.3, 0.5, 0.7, 0.9, 0.97)[i % 6]
        out.append(("random", frozenset(a for a in goal_atoms if rng.random() < p)))
    unique, seen = [], set()
    for kind, s in out:
        if s not in seen:
            seen.add(s)
            unique.append((kind, s))
    return unique


#: the reference kit's bddl 3.6.0 goal evaluator, in the kit's usual place (``../shared/reference`` beside the checkout)
BDDL_HARNESS = os.path.join(KIT, "harness", "behavior1k", "ref_bddl_goal.py")


def run_bddl_harness(ref_python: str, harness: str, requests: list[dict]) -> list[dict]:
    """bddl 3.6.0's verdict on each request (``{"activity", "facts", ...}``), through the kit's harness run with
    ``ref_python``, in request order."""
    with tempfile.TemporaryDirectory() as tmp:
        req, out = os.path.join(tmp, "requests.json"), os.path.join(tmp, "verdicts.json")
        with open(req, "w") as f:
            json.dump(requests, f)
        subprocess.run([ref_python, os.path.abspath(harness), req, "--out", out], check=True)
        with open(out) as f:
            return json.load(f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref-python", required=True, help="python of a venv with bddl==3.6.0 installed")
    ap.add_argument("--harness", default=BDDL_HARNESS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=os.path.join(REFERENCE_DATA, "behavior1k",
                                                  "goal_verdicts.json.gz"))
    args = ap.parse_args()
    requests, index = [], []
    for name in activity_names():
        for kind, state in states_for(name, args.seed):
            requests.append({"activity": name, "facts": [list(a) for a in sorted(state)]})
            index.append((name, kind, state))
    verdicts = run_bddl_harness(args.ref_python, args.harness, requests)
    data: dict[str, dict] = {}
    for (name, kind, state), v in zip(index, verdicts):
        if v.get("error") or v.get("warnings"):
            raise SystemExit(f"harness error or warning on {name}: {v.get('error') or v.get('warnings')}")
        rec = data.setdefault(name, {"atoms": [], "states": [], "_ix": {}})
        ids = []
        for atom in sorted(state):
            if atom not in rec["_ix"]:
                rec["_ix"][atom] = len(rec["atoms"])
                rec["atoms"].append(list(atom))
            ids.append(rec["_ix"][atom])
        bits = "".join("1" if c["satisfied"] else "0" for c in v["conditions"])
        rec["states"].append([kind, sorted(ids), v["satisfied"], bits])
    for rec in data.values():
        del rec["_ix"]
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    write_gz(args.out, {"harness": "reference/harness/behavior1k/ref_bddl_goal.py (bddl 3.6.0)",
                         "seed": args.seed, "activities": data})
    n = len(verdicts)
    print(f"{n} states over {len(data)} activities, {sum(1 for v in verdicts if v['satisfied'])} satisfied -> "
          f"{args.out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Find a gold plan for every BEHAVIOR-1K activity with eai-gym's planner and package them.

Runs :func:`eai_gym.builders.behavior1k.planner.plan` (best-first width search over the world's legal actions) on
each of the 1,016 activities, replays every plan found through the world (it must execute and reach the goal),
and writes ``eai_gym/data/behavior1k/gold_plans.json.gz``: ``{"plans": {activity: [action, ...]},
"unsolved": {activity: reason}, "planner": {...}}``.

With ``--previous FILE ...`` the plans of earlier runs that still replay are kept; the others are planned again,
except the earlier run's unsolved activities unless ``--retry`` (they keep their reason, or the static one).

Usage: python -m tools.convert.behavior1k_gold_plans [--max-nodes N] [--only NAME ...] [--previous FILE ... [--retry [--retry-limit N]]] [--out PATH]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time

from eai_gym.builders.behavior1k.diagnose import unreachable
from eai_gym.builders.behavior1k.planner import plan
from eai_gym.core import Episode
from eai_gym.envs.behavior1k.data import activity_names
from eai_gym.envs.behavior1k.world import Behavior1KWorld, load_task
from tools.common import PACKAGE_DATA, write_gz


def replay(activity: str, steps: tuple[str, ...]) -> str:
    world = Behavior1KWorld()
    task = load_task(activity)
    ep = Episode(world, activity, task.initial_state)
    for text in steps:
        step = ep.step_text(text)
        if not step.ok:
            return f"step {step.index} {text} fails on replay: {step.message}"
    return "" if world.goal_status(ep.trajectory, task.goal).success else "the replayed plan does not reach the goal"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-nodes", type=int, default=30_000)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--previous", nargs="+", default=[],
                    help="earlier gold_plans.json.gz files (e.g. of runs over parts with --only): keep their plans "
                         "that still replay (the first file's plan of an activity first)")
    ap.add_argument("--retry", action="store_true", help="with --previous: plan its unsolved activities again")
    ap.add_argument("--retry-limit", type=int, help="with --retry: at most this many (the first by name)")
    ap.add_argument("--note", default="", help="how the --previous files were made, for GOLD_PLANS.md")
    ap.add_argument("--out", default=os.path.join(PACKAGE_DATA, "behavior1k", "gold_plans.json.gz"))
    args = ap.parse_args()
    plans, unsolved = {}, {}
    previous, before = {}, {}
    for path in args.previous:
        with gzip.open(path) as f:
            old = json.load(f)
        for name, steps in old["plans"].items():
            previous.setdefault(name, steps)
        for name, reason in old["unsolved"].items():
            before.setdefault(name, reason)
    t0 = time.time()
    retried = 0
    for i, name in enumerate(args.only or activity_names()):
        if name in previous and not replay(name, tuple(previous[name])):
            plans[name] = previous[name]
            continue
        static = unreachable(name)
        if name in before and (static or not args.retry or (args.retry_limit is not None and retried >= args.retry_limit)):
            unsolved[name] = static or before[name]
            continue
        retried += name in before
        r = plan(name, max_nodes=args.max_nodes)
        if r.plan is None:
            unsolved[name] = static or f"the planner found no plan: {r.reason}"
        else:
            problem = replay(name, r.plan)
            if problem:
                unsolved[name] = problem
            else:
                plans[name] = list(r.plan)
        if i % 50 == 49:
            print(f"{i + 1} activities, {len(plans)} solved, {time.time() - t0:.0f} s", flush=True)
    write_gz(args.out, {"planner": {"name": "best-first width search (eai_gym.builders.behavior1k.planner)",
                                     "max_nodes": args.max_nodes},
                         "plans": dict(sorted(plans.items())), "unsolved": dict(sorted(unsolved.items()))})
    n = len(plans) + len(unsolved)
    notes = os.path.join(os.path.dirname(args.out), "GOLD_PLANS.md")
    with open(notes, "w") as f:
        f.write(GOLD_NOTES.format(solved=len(plans), n=n, note=args.note + "\n\n" if args.note else "",
                                  command=" ".join(
                    os.path.basename(a) if a.endswith(".gz") else a for a in _without_note(sys.argv[1:])),
                                  steps=sum(len(p) for p in plans.values()),
                                  unsolved="\n".join(f"- `{k}`: {v}" for k, v in sorted(unsolved.items()))))
    print(f"{len(plans)} of {n} activities solved -> {args.out}")


def _without_note(argv: list[str]) -> list[str]:
    """The command's arguments without ``--note TEXT`` (the note is written as a paragraph of its own)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--note":
            skip = True
        elif not a.startswith("--note="):
            out.append(a)
    return out


GOLD_NOTES = """# BEHAVIOR-1K gold plans

`gold_plans.json.gz` was written by `python -m tools.convert.behavior1k_gold_plans {command}` (with `--previous`, the
plans of earlier runs that still replay are kept): eai-gym's planner (`eai_gym/builders/behavior1k/planner.py`,
best-first width search over the world's legal actions) on each of the {n} activities of bddl 3.6.0
(`behavior1k.json.gz`, see `PROVENANCE.md`), every plan replayed through the world (it executes without error
and reaches the goal as bddl 3.6.0 evaluates it). These are eai-gym's plans for eai-gym's symbolic model
(`docs/behavior1k.md`), not plans from BEHAVIOR-1K.

{note}
**{solved} of {n} activities have a plan** ({steps} steps in all). The others, with the reason (a static check
of the goal against the world's actions and rules when it finds one, else the search budget):

{unsolved}
"""


if __name__ == "__main__":
    main()

"""Instructions per random legal step, counted by valgrind's callgrind: a measure that does not move with the load
of a shared machine, to compare two trees of the package.

Each world is walked as ``bench_random_legal.py`` walks it (``gymnasium.make(ID, action_mode="index")``, one legal
index drawn at random each step, a reset every 50 steps): a 200-step warm-up, then ``--walks`` walks of ``--steps``
steps (seeds 0, 1, ...). Two processes run under callgrind, the warm-up alone and the warm-up with the walks; the
difference of their instruction counts over the walks' steps is the figure (imports, data loading and the warm-up
cancel out). ``PYTHONHASHSEED=0`` and ``setarch -R`` (no address randomization) make a count repeat to within a few
hundred instructions per step::

    python benchmarks/instructions_per_step.py --tree /path/to/old/checkout --tree . --worlds virtualhome,alfworld

Needs ``valgrind`` (and ``setarch``) on the PATH; each world takes about a minute per tree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WORLDS = ("virtualhome", "behavior", "rearrange", "alfworld", "behavior1k")

WALK = """
import sys
sys.path.insert(0, {here!r})
from bench_random_legal import make, walk
env = make({world!r})
walk(env, 200)
for seed in range({walks}):
    walk(env, {steps}, seed=seed)
"""


def count(tree: str, world: str, steps: int, walks: int) -> int:
    """The instructions callgrind counts for one process that walks ``world`` on ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
               WALK.format(here=HERE, world=world, steps=steps, walks=walks)]
        if shutil.which("setarch"):
            cmd = ["setarch", os.uname().machine, "-R", *cmd]
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": os.path.abspath(tree)}
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"{world} on {tree}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
        with open(out, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"(?:summary|totals): (\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError(f"{world} on {tree}: no instruction total in callgrind's output")


def per_step(tree: str, world: str, steps: int, walks: int) -> float:
    return (count(tree, world, steps, walks) - count(tree, world, steps, 0)) / (steps * walks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", required=True,
                    help="a checkout of eai-gym (its folder holding eai_gym/); give two or more to compare")
    ap.add_argument("--worlds", default=",".join(WORLDS))
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--walks", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="one JSON line per world")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        ap.error("needs valgrind on the PATH")
    for world in args.worlds.split(","):
        figures = {tree: per_step(tree, world, args.steps, args.walks) for tree in args.tree}
        if args.json:
            print(json.dumps({"world": world, "instructions_per_step": figures}), flush=True)
        else:
            first = figures[args.tree[0]]
            cells = [f"{tree}: {n:,.0f}" + ("" if tree == args.tree[0] else f" ({n / first - 1:+.1%})")
                     for tree, n in figures.items()]
            print(f"{world:12s} " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""ALFWorld ``reset()`` from a game folder (``initial_state.pddl`` + ``traj_data.json``): PDDL parse and world
build, CPU time, median over games (a speed target of docs/benchmarks.md, "Speed at the limit")::

    python benchmarks/bench_alfworld_reset.py [--games 20] [--rounds 4]

The first round parses each folder's problem; later rounds reset the same folders again (the parsed
problem text is kept, :func:`eai_gym.envs.alfworld.pddl.parse_problem`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "reference" / "data" / "alfworld" / "unseen.json.gz"


def measure(n_games: int, rounds: int) -> dict[str, float]:
    import gymnasium as gym

    import eai_gym  # noqa: F401

    games = list(json.loads(gzip.open(DATA).read()).items())[:n_games]
    with tempfile.TemporaryDirectory() as d:
        folders = []
        for i, (_name, c) in enumerate(games):
            f = Path(d) / f"game{i}"
            f.mkdir()
            (f / "initial_state.pddl").write_text(c["pddl"])
            (f / "traj_data.json").write_text(json.dumps(c["traj"]))
            folders.append(str(f))
        env = gym.make("eai_gym/AlfWorld-v0")
        first, again = [], []
        for r in range(rounds):
            for f in folders:
                t = time.process_time()
                env.reset(options={"game": f})
                (first if r == 0 else again).append(time.process_time() - t)
    return {"games": len(folders), "first_reset_ms_median": 1e3 * statistics.median(first),
            "again_reset_ms_median": 1e3 * statistics.median(again) if again else float("nan")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=4)
    a = ap.parse_args(argv)
    print(json.dumps(measure(a.games, a.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

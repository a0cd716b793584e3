#!/usr/bin/env python
"""Write the shipped ALFWorld eval split (``eai_gym/data/alfworld/eval.json``).

    python -m tools.convert.alfworld_splits

134 games with the task-type mix of ALFWorld's valid_unseen (24 pick-and-place, 31 clean, 23 heat,
21 cool, 18 look, 17 pick-two), on ALFWorld's test floor plans (1–6 of each room kind). For each
type, seeds 0, 1, 2, ... are tried with the generator; a game is kept when its goal does not hold at
the start and the oracle solves it. Only (task type, floor plan, seed) is stored: the generator
rebuilds each game the same way every time.
"""

from __future__ import annotations

import argparse
import collections
import json

from eai_gym.envs.alfworld.engine import Engine
from eai_gym.envs.alfworld.generator import EVAL_MIX, GenerationError, generate_game
from eai_gym.envs.alfworld.oracle import Oracle
from tools.common import PACKAGE_DATA

OUT = PACKAGE_DATA / "alfworld" / "eval.json"


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    games, rejected, lengths = [], collections.Counter(), []
    for task_type, count in EVAL_MIX.items():
        seed = 0
        kept = 0
        while kept < count:
            try:
                game = generate_game(seed, task_type, split="eval")
            except GenerationError as e:
                rejected[f"generation: {str(e)[:40]}"] += 1
                seed += 1
                continue
            engine = Engine(game)
            state = engine.initial_state()
            plan = None if engine.won(state) else Oracle(engine).plan(state)
            if plan:
                floorplan = game.name.rsplit("-", 2)[1]
                games.append([task_type, floorplan, seed])
                lengths.append(len(plan))
                kept += 1
            else:
                rejected["won at the start" if engine.won(state) else "unsolvable"] += 1
            seed += 1
    OUT.write_text(json.dumps({"generator": "eai_gym.envs.alfworld.generator", "mix": EVAL_MIX, "games": games},
                              indent=0) + "\n")
    print(f"{OUT}: {len(games)} games, oracle plan length mean {sum(lengths) / len(lengths):.2f}, "
          f"max {max(lengths)}; rejected {dict(rejected)}")


if __name__ == "__main__":
    main()

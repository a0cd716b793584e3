"""Write eai-gym's shipped ALFWorld games as ALFWorld-layout game folders (no alfworld needed).

    python -m tools.convert.alfworld_export OUT [--split train|eval_in_distribution|eval_out_of_distribution]
        [--limit N]

Each game becomes ``OUT/json_2.1.1/<train|valid_seen|valid_unseen>/<task folder>/<trial>/`` with
``initial_state.pddl`` (written by ``eai_gym.envs.alfworld.generator.game_to_pddl``) and ``traj_data.json``
(``task_type``, ``pddl_params``). Point alfworld's config ``dataset.*_path`` (or ``eai-gym serve alfworld
--games``) at ``OUT/json_2.1.1/<folder>``. The games are eai-gym's own (generated on ALFWorld's floor plans,
see docs/alfworld.md); nothing is copied from ALFWorld's data.
"""

from __future__ import annotations

import argparse
import sys
import time

from eai_gym.compat.alfworld.game_files import SHIPPED_SPLITS, export_game, shipped_paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--split", default="train", choices=list(SHIPPED_SPLITS))
    ap.add_argument("--limit", type=int, default=None, help="export the first N games only")
    ap.add_argument("--repeat", type=int, default=1,
                    help="write each game this many times under trial folders _r0, _r1, ... (to build large folders)")
    ap.add_argument("--total", type=int, default=None,
                    help="write exactly N games: each of the split's first ceil(N / R) games R times (trial folders "
                         "_r0, _r1, ...), R the smallest repeat that reaches N (e.g. 8810)")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    n = 0
    paths = shipped_paths(args.split, args.limit)
    if args.total is not None:
        repeat = -(-args.total // len(paths))
        for k in range(args.total):
            path, r = divmod(k, repeat)
            export_game(paths[path], args.out, f"_r{r}")
            n += 1
    else:
        for path in paths:
            for r in range(args.repeat):
                export_game(path, args.out, "" if args.repeat == 1 else f"_r{r}")
                n += 1
    print(f"wrote {n} games under {args.out}/json_2.1.1 in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

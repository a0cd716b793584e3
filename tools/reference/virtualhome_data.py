#!/usr/bin/env python
"""Cross-check the packaged VirtualHome data against the installed reference (eai-eval 1.0.5).

Run with a Python that has ``eai-eval==1.0.5`` installed (e.g. the venv made by the reference kit's
``setup-virtualhome.sh``) and ``PYTHONHASHSEED=0``. It imports the reference and compares, for every
task: the relevant-object keys, the gold script, the action-goal order, and the gold-test result.
Usage: PYTHONHASHSEED=0 <venv>/bin/python -m tools.reference.virtualhome_data
"""

from __future__ import annotations

import argparse
import os
import sys


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("set PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    import virtualhome_eval
    from virtualhome_eval.simulation.evolving_graph import eval_utils as EU
    from virtualhome_eval.simulation.evolving_graph import utils

    pkg = os.path.dirname(virtualhome_eval.__file__)
    root = os.path.join(pkg, "dataset", "programs_processed_precond_nograb_morepreconds")
    from eai_gym.envs.virtualhome.tasks import task_ids, task_record  # the packaged data (scene_1.bin)

    props, placing, equiv = (utils.load_properties_data(), utils.load_object_placing(),
                             utils.load_name_equivalence())
    bad = 0
    for fid in task_ids():
        rec = task_record(fid)
        goals = rec["vh_goal"]["goal"]
        node_goals = EU.remove_duplicate_dicts([g for g in goals if "id" in g])
        edge_goals = EU.remove_duplicate_dicts([g for g in goals if "from_id" in g])
        action_goals = list(set(rec["vh_goal"]["actions"]))
        planner, _, gd_actions, _, _ = EU.construct_planner(equiv, props, placing, scenegraph_id=1,
                                                            script_id=fid, dataset_root=root)
        *_, rel = planner.get_symbolic_goal_nl(node_goals, edge_goals, action_goals=action_goals)
        ours = sorted(f"{n}_{i}" for n, i in rec["relevant"])
        problems = []
        if sorted(rel) != ours:
            problems.append(f"relevant {sorted(set(rel) ^ set(ours))}")
        if gd_actions != rec["gold_script"]:
            problems.append("gold script")
        if action_goals != rec["action_goals_hash0"]:
            problems.append("action goal order")
        if problems:
            bad += 1
            print(fid, "; ".join(problems))
    print(f"{len(task_ids()) - bad}/{len(task_ids())} tasks agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

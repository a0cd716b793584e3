"""Record alfworld 0.4.2 / textworld 1.7.0's batch-env behaviour on a folder of games, for
tests/compat/test_alfworld_reference.py (run with the reference venv's python; needs alfworld 0.4.2).

    /work/refvenvs/alfworld/bin/python -m tools.reference.alfworld_compat OUT.json [--games 12]

Steps: write the first ``--games`` shipped eval games as ALFWorld folders with eai-gym's exporter (run
by the project venv before: ``--folder``), add a ``game.tw-pddl`` to each (alfworld's ``alfred.pddl`` and
``alfred.twl2`` from the installed wheel, the task added by ``add_task_to_grammar``, as
``alfworld-generate`` does), then through ``AlfredTWEnv(config, train_eval).init_env(batch_size)``:

- the game order for several seeds (``extra.gamefile`` of successive resets), relative to the folder;
- the info keys and value types on reset and after a step, for the eval split and for the train split
  under DAgger with the handcoded and the planner expert, and the obs/scores/dones container types.

Output JSON records versions and the command line. The games are eai-gym's own; nothing of alfworld's
data is written to the output.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def describe(value):
    if isinstance(value, (list, tuple)):
        inner = sorted({describe(v) for v in value})
        return f"{type(value).__name__}[{'|'.join(inner)}]"
    return type(value).__name__


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--folder", required=True, help="ALFWorld-layout folder written by the exporter (valid_unseen)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 7, 1234, 99999])
    ap.add_argument("--resets", type=int, default=30)
    args = ap.parse_args()
    import alfworld
    from alfworld.agents.environment.alfred_tw_env import AlfredTWEnv
    from alfworld.agents.utils.misc import add_task_to_grammar

    data = os.path.join(os.path.dirname(alfworld.__file__), "data")
    domain = open(os.path.join(data, "alfred.pddl")).read()
    grammar = open(os.path.join(data, "alfred.twl2")).read()
    for root, _dirs, files in os.walk(args.folder):
        if "traj_data.json" in files:
            traj = json.load(open(os.path.join(root, "traj_data.json")))
            problem = open(os.path.join(root, "initial_state.pddl")).read()
            with open(os.path.join(root, "game.tw-pddl"), "w") as f:
                json.dump({"pddl_domain": domain, "grammar": add_task_to_grammar(grammar, traj),
                           "pddl_problem": problem, "solvable": True}, f)
    config = {"dataset": {"data_path": args.folder, "eval_id_data_path": args.folder, "eval_ood_data_path": args.folder,
                          "num_train_games": -1, "num_eval_games": -1},
              "env": {"type": "AlfredTWEnv", "domain_randomization": False, "task_types": [1, 2, 3, 4, 5, 6],
                      "expert_type": "handcoded", "goal_desc_human_anns_prob": 0.0},
              "general": {"training_method": "dagger"}, "dagger": {"training": {"max_nb_steps_per_episode": 50}}}
    rel = lambda p: os.path.relpath(p, args.folder)  # noqa: E731
    from importlib.metadata import version
    out = {"versions": {"alfworld": version("alfworld"), "textworld": version("textworld")},
           "command": " ".join(sys.argv), "orders": {}, "infos": {}}
    base = AlfredTWEnv(config, train_eval="eval_out_of_distribution")
    out["game_files"] = [rel(p) for p in base.game_files]
    env = base.init_env(batch_size=1)
    out["orders"]["default"] = [rel(env.reset()[1]["extra.gamefile"][0]) for _ in range(args.resets)]
    for seed in args.seeds:
        env.seed(seed)
        out["orders"][str(seed)] = [rel(env.reset()[1]["extra.gamefile"][0]) for _ in range(args.resets)]
    env.close()
    for split, expert in (("eval_out_of_distribution", None), ("train", "handcoded"), ("train", "planner")):
        config["env"]["expert_type"] = expert or "handcoded"
        env = AlfredTWEnv(config, train_eval=split).init_env(batch_size=2)
        obs, infos = env.reset()
        step = env.step(["look", "inventory"])
        out["infos"][f"{split}/{expert}"] = {
            "reset_types": [describe(obs), describe(infos)], "reset": {k: describe(v) for k, v in sorted(infos.items())},
            "step_types": [describe(x) for x in step[:3]], "step": {k: describe(v) for k, v in sorted(step[3].items())},
            "expert_plan_reset": infos.get("extra.expert_plan"),
            "facts_example": str(infos["facts"][0][0]) if "facts" in infos else None}
        env.close()
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Record the orders in which eai-eval 1.0.5's VirtualHome prompt generator lists set-derived items.

The generator builds several lists by iterating Python sets of strings (or of enum members, whose hash
is their name's), so their order is CPython's set iteration order under the hash seed in force. This
script reproduces those orders by building the same sets, from the same reference objects and in the
same insertion sequence as the generator, in a process started with ``PYTHONHASHSEED=0``. It must run
with the Python of a reference venv (``setup-virtualhome.sh``); ``tools/convert/eai_prompts.py`` calls it
and stores the orders (only orders and the id/edge keys they rank, no text) in eai-gym's data.

    PYTHONHASHSEED=0 VENV/bin/python -m tools.convert.eai_prompts_orders OUT.json
"""

from __future__ import annotations

import argparse
import json
import os
import os.path as osp
import sys

import virtualhome_eval.simulation.evolving_graph.utils as vh_utils
from virtualhome_eval.agent_eval import default_dataset_dir, default_resource_dir
from virtualhome_eval.simulation.evolving_graph.eval_utils import construct_planner
from virtualhome_eval.simulation.evolving_graph.motion_planner import MotionPlanner


def diff_orders(planner) -> dict:
    """Orders of one task: changed nodes, all shown nodes, initial-only edges, property/state lists."""
    diff_a, diff_b = MotionPlanner.filter_unique_subdicts(planner.init_state.to_dict(),
                                                          planner.final_state_dict)
    existing, added = set(), set()
    for dic in (diff_a, diff_b):
        for d in dic["nodes"]:
            existing.add(d["id"])
    for dic in (diff_a, diff_b):
        for d in dic["edges"]:
            added.add(d["from_id"])
            added.add(d["to_id"])
    added = added - existing
    shown = existing.union(added)
    props, states = {}, {}
    for node_id in shown:
        nd = planner.env_graph.get_node(node_id).to_dict()
        props[str(node_id)] = nd["properties"]
        states[str(node_id)] = nd["states"]
    init_dict = planner.init_state.to_dict()
    in_scene_order = [n["id"] for n in init_dict["nodes"] if n["id"] in shown]
    scene_props = {str(n["id"]): n["properties"] for n in init_dict["nodes"] if n["id"] in shown}
    return {
        "shown": list(shown),
        "changed": list(existing),
        "init_nodes": [d["id"] for d in diff_a["nodes"]],
        "init_edges": [[d["from_id"], d["relation_type"], d["to_id"]] for d in diff_a["edges"]],
        "props": props,
        "states": states,
        "scene_order": in_scene_order,
        "scene_props": {k: v for k, v in scene_props.items() if v != props[k]},
    }


def goal_edge_order(planner, edge_goals: list) -> list[int]:
    """Positions (in ``edge_goals``) of the goal-edge predicates in the subgoal prompt's set order."""
    names = planner.id_to_name
    transform = {"ON": "ONTOP", "SITTING": "ONTOP", "CLOSE": "NEXT_TO"}
    keys, first = set(), {}
    for i, e in enumerate(edge_goals):
        rel = transform.get(e["relation_type"], e["relation_type"])
        key = f"{rel}({names[e['from_id']]}.{e['from_id']}, {names[e['to_id']]}.{e['to_id']})"
        first.setdefault(key, i)
        keys.add(key)
    return [first[k] for k in keys]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="the JSON file to write")
    args = ap.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("run with PYTHONHASHSEED=0")
    data_dir = osp.join(default_dataset_dir, "programs_processed_precond_nograb_morepreconds")
    with open(osp.join(default_resource_dir, "virtualhome", "task_state_LTL_formula_accurate.json")) as f:
        tasks = json.load(f)["scene_1"]
    with open(osp.join(default_resource_dir, "virtualhome", "relation_object_pairs.json")) as f:
        pairs = json.load(f)
    equivalence, properties, placing = (vh_utils.load_name_equivalence(), vh_utils.load_properties_data(),
                                        vh_utils.load_object_placing())
    out = {"relation_object_pairs": {k: list(set(v)) for k, v in pairs.items()}, "tasks": {}}
    for task_dicts in tasks.values():
        for file_id, goal in task_dicts.items():
            planner = construct_planner(equivalence, properties, placing, scenegraph_id=1,
                                        script_id=file_id, dataset_root=data_dir)[0]
            rec = diff_orders(planner)
            edges = [g for g in goal["vh_goal"]["goal"] if "from_id" in g]
            rec["goal_edges"] = goal_edge_order(planner, edges)
            out["tasks"][file_id] = rec
    with open(args.out, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Convert the VirtualHome task data of the eai-eval 1.0.5 wheel into eai-gym's packaged format.

Reads the published wheel (``pip download --no-deps eai-eval==1.0.5``; the script downloads it when
``--wheel`` is not given) and writes ``eai_gym/data/virtualhome/``:

* ``scene_1.bin`` — one shared base scene (the majority value of every node and edge over the 342
  initial graphs) and, per task, the differences of its initial graph from the base and of its final
  graph from its initial graph, the goals (``vh_goal``, ``tl_goal``), the gold script, the relevant
  objects the action-sequencing evaluator accepts, and the order in which eai-eval 1.0.5 iterates
  the action goals (``list(set(...))`` under ``PYTHONHASHSEED=0``), packed by ``tools/convert/virtualhome_pack.py``
  (format 6: marshal data a task at a time, see ``eai_gym/envs/virtualhome/task_data.py``);
* ``resources.json.gz`` — the class resources the simulator ships (object properties per class,
  possible states per class, class-name equivalences);
* ``PROVENANCE.md`` and ``LICENSE-eai-eval.txt``.

Only JSON data is read from the wheel; no code of the reference is imported or copied.
Usage: python -m tools.convert.virtualhome [--wheel PATH] [--out DIR]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

from tools.common import PACKAGE_DATA, write_gz

PKG = "virtualhome_eval"
DATASET = f"{PKG}/dataset/programs_processed_precond_nograb_morepreconds"
GRAPHS = f"{DATASET}/init_and_final_graphs/TrimmedTestScene1_graph/results_intentions_march-13-18"
SCRIPTS = f"{DATASET}/executable_programs/TrimmedTestScene1_graph/results_intentions_march-13-18"
TASKS = f"{PKG}/resources/virtualhome/task_state_LTL_formula_accurate.json"
VERSION = "1.0.5"
FORMAT = 6  # 5: packed by tools/convert/virtualhome_pack.py (a task's record decoded only when the task is used); 6: plain
#            header without the base edges (read and decoded only where used)


def fetch_wheel(dest: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", f"eai-eval=={VERSION}",
                    "-d", dest, "-q"], check=True)
    return next(os.path.join(dest, f) for f in os.listdir(dest) if f.endswith(".whl"))


# ------------------------------------------------------------------ node/edge normal forms
def node_tuple(n: dict) -> list:
    """Compact node: [id, class_name, category, sorted properties, sorted states] (upper case)."""
    return [n["id"], n["class_name"], n.get("category"),
            sorted({p.upper() for p in n["properties"]}), sorted({s.upper() for s in n["states"]})]


def edge_tuple(e: dict) -> tuple:
    return (e["from_id"], e["relation_type"].upper(), e["to_id"])


def unique_graph(g: dict) -> tuple[dict, list]:
    """Nodes by id (last definition wins, as the simulator's loader does) and unique edges in order."""
    nodes = {}
    for n in g["nodes"]:
        nodes[n["id"]] = n
    seen, edges = set(), []
    for e in g["edges"]:
        t = edge_tuple(e)
        if t not in seen:
            seen.add(t)
            edges.append(t)
    return nodes, edges


# ------------------------------------------------------------------ the evaluator's relevant objects
def _loaded_node_dict(n: dict) -> dict:
    """A node as the simulator's graph loader re-serialises it (key order and normalisation matter,
    because the evaluator compares nodes by their ``str``)."""
    bb = n.get("bounding_box")
    return {"id": n["id"], "class_name": n["class_name"], "category": n.get("category"),
            "properties": sorted({p.upper() for p in n["properties"]}),
            "states": sorted({s.upper() for s in n["states"]}),
            "prefab_name": n.get("prefab_name"),
            "bounding_box": None if bb is None else {"center": bb["center"], "size": bb["size"]}}


def relevant_objects(init: dict, final: dict) -> list[tuple[str, int]]:
    """(class_name, id) of every object whose node or any of whose edges differs between the initial
    graph (as loaded by the simulator) and the raw final graph: the objects the action-sequencing
    evaluator of eai-eval 1.0.5 lets a plan mention (its ``relevant_name_to_id`` keys)."""
    init_nodes, init_edges = unique_graph(init)
    a_nodes = {str(_loaded_node_dict(n)) for n in init_nodes.values()}
    a_edges = {str({"from_id": f, "relation_type": r, "to_id": t}) for f, r, t in init_edges}
    b_nodes, b_edges = set(), set()
    for n in final["nodes"]:
        d = dict(n)
        d["properties"] = sorted(d["properties"])
        d["states"] = sorted(d["states"])
        b_nodes.add(str(d))
    for e in final["edges"]:
        b_edges.add(str(e))
    ids = set()
    by_id_init = {n["id"]: n for n in init["nodes"]}
    for nodes in (a_nodes ^ b_nodes,):
        for s in nodes:
            ids.add(_id_of(s))
    for s in a_edges ^ b_edges:
        f, t = _edge_ids_of(s)
        ids.update((f, t))
    return sorted((by_id_init[i]["class_name"], i) for i in ids)


def _id_of(node_str: str) -> int:
    return int(node_str.split("'id': ", 1)[1].split(",", 1)[0])


def _edge_ids_of(edge_str: str) -> tuple[int, int]:
    f = int(edge_str.split("'from_id': ", 1)[1].split(",", 1)[0].rstrip("}"))
    t = int(edge_str.split("'to_id': ", 1)[1].split(",", 1)[0].rstrip("}"))
    return f, t


# ------------------------------------------------------------------ gold scripts
def gold_script(text: str) -> list[str]:
    """Script lines ``[WALK] <computer> (1.417)`` normalised to ``[WALK] <computer> (417)``
    (the id is the part after the last dot), tokens re-joined with single spaces."""
    out = []
    for line in text.splitlines(keepends=True):
        if not line.startswith("["):
            continue
        parts = line.strip().split()
        words = [parts[0]]
        for part in parts[1:]:
            if "(" in part and ")" in part:
                words.append("(" + part.split(".")[-1][:-1] + ")")
            else:
                words.append(part)
        out.append(" ".join(words))
    return out


def hash0_orders(action_lists: dict[str, list[str]]) -> dict[str, list[str]]:
    """``list(set(actions))`` for every task, computed in a child interpreter with PYTHONHASHSEED=0
    (the order eai-eval 1.0.5 scores action goals in when run that way)."""
    code = ("import json,sys; d=json.load(sys.stdin); "
            "json.dump({k: list(set(v)) for k, v in d.items()}, sys.stdout)")
    env = dict(os.environ, PYTHONHASHSEED="0")
    res = subprocess.run([sys.executable, "-c", code], input=json.dumps(action_lists),
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(res.stdout)


# ------------------------------------------------------------------ diffs
def node_diff(base: dict[int, list], other: dict[int, list]) -> dict:
    """``objects``: nodes new or differing in class, category or properties (full form);
    ``states``: ``[id, [states]]`` for the other nodes whose states differ; ``del``: removed ids."""
    objects, states = [], []
    for i in sorted(other):
        b, o = base.get(i), other[i]
        if b is None or b[1:4] != o[1:4]:
            objects.append(o)
        elif b[4] != o[4]:
            states.append([i, o[4]])
    removed = sorted(i for i in base if i not in other)
    return {"objects": objects, "states": states, "del": removed}


def group_edges(edges) -> list:
    """Edges grouped by source and relation: ``[[from, rel, [to, ...]], ...]`` (sorted)."""
    groups: dict[tuple, list] = {}
    for f, r, t in sorted(edges):
        groups.setdefault((f, r), []).append(t)
    return [[f, r, ts] for (f, r), ts in groups.items()]


def edge_diff(base: set, other: set) -> dict:
    return {"add": group_edges(other - base), "del": group_edges(base - other)}


def convert(wheel: str, out_dir: str) -> dict:
    z = zipfile.ZipFile(wheel)
    read = lambda name: z.read(name).decode("utf-8")  # noqa: E731
    tasks_raw = json.loads(read(TASKS))["scene_1"]
    order = [(name, fid) for name, group in tasks_raw.items() for fid in group]

    inits, finals, records = {}, {}, {}
    for name, fid in order:
        graphs = json.loads(read(f"{GRAPHS}/file{fid}.json"))
        inits[fid] = graphs["init_graph"]
        finals[fid] = graphs["final_graph"]

    # base scene over the initial graphs: the nodes present in most tasks (in their most common form)
    # and the edges present in most tasks
    node_votes: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    edge_votes: collections.Counter = collections.Counter()
    norm_init = {}
    for fid, g in inits.items():
        nodes, edges = unique_graph(g)
        nt = {i: node_tuple(n) for i, n in nodes.items()}
        es = set(edges)
        norm_init[fid] = (nt, es)
        for i, t in nt.items():
            node_votes[i][json.dumps(t)] += 1
        edge_votes.update(es)
    half = len(inits) / 2
    base_nodes = {}
    for i, votes in node_votes.items():
        if sum(votes.values()) > half:  # present in most tasks: keep its most common form
            base_nodes[i] = json.loads(min(votes, key=lambda v: (-votes[v], v)))
    base_edges = {e for e, c in edge_votes.items() if c > half and e[0] in base_nodes and e[2] in base_nodes}

    action_lists = {fid: tasks_raw[name][fid]["vh_goal"]["actions"] for name, fid in order}
    hashed = hash0_orders(action_lists)

    for name, fid in order:
        nt, es = norm_init[fid]
        fnodes, fedges = unique_graph(finals[fid])
        ft = {i: node_tuple(n) for i, n in fnodes.items()}
        script_text = read(f"{SCRIPTS}/file{fid}.txt")
        lines = script_text.splitlines()
        entry = tasks_raw[name][fid]
        records[fid] = {
            "id": fid,
            "task": name,
            "title": lines[0].strip(),
            "description": lines[1].strip() if len(lines) > 1 else "",
            "init": {"nodes": node_diff(base_nodes, nt), "edges": edge_diff(base_edges, es)},
            "final": {"nodes": node_diff(nt, ft), "edges": edge_diff(es, set(fedges))},
            "vh_goal": entry["vh_goal"],
            "tl_goal": entry["tl_goal"],
            "action_goals_hash0": hashed[fid],
            "gold_script": gold_script(script_text),
            "relevant": relevant_objects(inits[fid], finals[fid]),
        }

    scene = {
        "format": FORMAT,
        "source": f"eai-eval=={VERSION}",
        "scene": "TrimmedTestScene1_graph",
        "character_id": 65,
        "base": {"nodes": [base_nodes[i] for i in sorted(base_nodes)],
                 "edges": group_edges(base_edges)},
        "task_order": [fid for _, fid in order],
        "tasks": {fid: json.dumps(rec, separators=(",", ":")) for fid, rec in records.items()},
    }
    resources = {
        "properties_data": json.loads(read(f"{PKG}/resources/properties_data.json")),
        "object_states": json.loads(read(f"{PKG}/resources/object_states.json")),
        "class_name_equivalence": json.loads(read(f"{PKG}/resources/class_name_equivalence.json")),
        "action_space": json.loads(read(f"{PKG}/resources/virtualhome/action_space.json")),
        "vocabulary": json.loads(read(f"{PKG}/resources/vocabulary.json")),
    }
    os.makedirs(out_dir, exist_ok=True)
    from tools.convert.virtualhome_pack import FILE_NAME, pack

    with open(os.path.join(out_dir, FILE_NAME), "wb") as f:
        f.write(pack(scene))
    write_gz(os.path.join(out_dir, "resources.json.gz"), resources)
    with open(os.path.join(out_dir, "LICENSE-eai-eval.txt"), "w") as f:
        f.write(read(f"eai_eval-{VERSION}.dist-info/LICENSE"))
    sha = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    with open(os.path.join(out_dir, "PROVENANCE.md"), "w") as f:
        f.write(PROVENANCE.format(version=VERSION, sha=sha, n=len(records),
                                  wheel=os.path.basename(wheel)))
    return scene


PROVENANCE = """# VirtualHome task data — provenance

Generated by `tools/convert/virtualhome.py` from the published wheel `{wheel}`
(`pip download --no-deps eai-eval=={version}`, sha256 `{sha}`), the package of the Embodied Agent
Interface benchmark (https://github.com/embodied-agent-interface/embodied-agent-interface),
licensed MIT (see `LICENSE-eai-eval.txt`, copied from the wheel).

Contents:
- `scene_1.bin`: {n} tasks of `virtualhome_eval/resources/virtualhome/task_state_LTL_formula_accurate.json`
  (scene_1 = `TrimmedTestScene1_graph`, acting character 65): initial and final graphs from
  `dataset/programs_processed_precond_nograb_morepreconds/init_and_final_graphs/...` stored as a shared base
  scene plus per-task differences (edges grouped as `[from, relation, [to, ...]]`; nodes keep id, class name, category, properties and states; prefab names
  and bounding boxes are dropped, nothing reads them), `vh_goal`, `tl_goal`, the gold scripts of
  `executable_programs/...` normalised to `[ACTION] <name> (id)`, the relevant objects the action-sequencing
  evaluator accepts (nodes whose serialised form differs between the initial and final graph, plus endpoints
  of differing edges), and the action goals in the order eai-eval {version} iterates them under
  `PYTHONHASHSEED=0`. Packed by `tools/convert/virtualhome_pack.py` (format 6, layout in
  `eai_gym/envs/virtualhome/task_data.py`): marshal data of the header (task order, an index of offsets, the
  base scene's nodes and its edge indexes precomputed), of each task's record with the indexes of its goals
  once duplicates are removed, and of the base scene's grouped edges, so that a command reads and decodes only
  the tasks it uses.
- `resources.json.gz`: `resources/properties_data.json`, `resources/object_states.json`,
  `resources/class_name_equivalence.json`, `resources/virtualhome/action_space.json`,
  `resources/vocabulary.json` (the subgoal-decomposition vocabulary).

Regenerate with `python -m tools.convert.virtualhome` (same output byte for byte).
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", help="path to eai_eval-1.0.5-py3-none-any.whl (downloaded if omitted)")
    ap.add_argument("--out", default=os.path.join(PACKAGE_DATA, "virtualhome"))
    args = ap.parse_args(argv)
    wheel = args.wheel
    tmp = None
    if wheel is None:
        tmp = tempfile.mkdtemp(prefix="eai_eval_wheel_")
        wheel = fetch_wheel(tmp)
    scene = convert(wheel, os.path.normpath(args.out))
    print(f"wrote {len(scene['tasks'])} tasks, base scene {len(scene['base']['nodes'])} nodes / "
          f"{len(scene['base']['edges'])} edges to {os.path.normpath(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

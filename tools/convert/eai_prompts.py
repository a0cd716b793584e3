#!/usr/bin/env python
"""Convert eai-eval 1.0.5's prompt templates and prompt resources into eai-gym's packaged data.

Reads the published wheel (``pip download --no-deps eai-eval==1.0.5``; downloaded when ``--wheel`` is not
given) as data — the templates are Python string constants, read with ``ast`` without importing anything —
and writes:

* ``eai_gym/data/virtualhome/prompts.json.gz``: the four VirtualHome templates, the goal-interpretation
  resources (relation types, action space, relation/object pairs), the first two lines of each gold script
  (task name and description, exactly as the generator reads them), the transition-modeling inputs (task
  ids, skipped task categories, gold operator names and parameters per task, PDDL problem files), and the
  orders eai-eval 1.0.5's generator gives set-derived lists under ``PYTHONHASHSEED=0`` (recorded by
  ``tools/convert/eai_prompts_orders.py`` in a reference venv: ``--ref-python``);
* ``eai_gym/data/behavior/prompts.json.gz``: the goal-interpretation and action-sequencing templates with
  the goal-interpretation inputs (initial conditions, object states, instructions, task → demo), and the
  subgoal-decomposition and transition-modeling prompts eai-eval 1.0.5 ships (their generators need
  iGibson);
* ``PROVENANCE-prompts.md`` in both folders.

With ``--reference DIR`` it also writes the BEHAVIOR reference prompts for the tests (the files the wheel
ships, as lists in the reference's order) to ``DIR/behavior_<module>.json.gz``.

Usage: python -m tools.convert.eai_prompts --ref-python VENV/bin/python [--wheel PATH] [--reference DIR]
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

from tools.common import PACKAGE_DATA, checkout_env

VERSION = "1.0.5"
VH = "virtualhome_eval"
BE = "behavior_eval"
FORMAT = 1
# Task categories the VirtualHome transition-modeling generator skips (a literal list in its code).
TM_SKIPPED = ["Wash dishes by hand", "Write an email", "Wash hands"]


def fetch_wheel(dest: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", f"eai-eval=={VERSION}",
                    "-d", dest, "-q"], check=True)
    return next(os.path.join(dest, f) for f in os.listdir(dest) if f.endswith(".whl"))


def string_constant(source: str, name: str) -> str:
    """The value of the module-level string assignment ``name = "..."`` in Python source."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(f"no string constant {name!r}")


def write_gz(path: str, obj: object) -> None:
    with gzip.GzipFile(path, "wb", mtime=0, compresslevel=9) as f:
        f.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def record_orders(ref_python: str) -> dict:
    """Run :mod:`tools.convert.eai_prompts_orders` in the reference venv under PYTHONHASHSEED=0."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "orders.json")
        subprocess.run([ref_python, "-m", "tools.convert.eai_prompts_orders", out],
                       env=checkout_env(PYTHONHASHSEED="0"), cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def compact_orders(task: dict) -> dict:
    """Keep only what the prompts use; drop lists equal to their sorted form to save space."""
    keep = {k: task[k] for k in ("shown", "changed", "init_nodes", "init_edges", "goal_edges")}
    keep["props"] = {k: v for k, v in task["props"].items() if v != sorted(v)}
    keep["states"] = {k: v for k, v in task["states"].items() if v != sorted(v)}
    if task["scene_order"] != sorted(task["shown"]):
        raise ValueError("the initial graph does not list the shown objects by ascending id")
    if task["scene_props"]:
        raise ValueError("a node's property order differs between the scene and its graph")
    return keep


def virtualhome(z: zipfile.ZipFile, orders: dict) -> dict:
    read = lambda p: z.read(p).decode("utf-8")  # noqa: E731
    res = f"{VH}/resources/virtualhome"
    ev = f"{VH}/evaluation"
    templates = {
        "goal_interpretation": string_constant(read(f"{ev}/goal_interpretation/prompts/one_shot.py"), "prompt"),
        "action_sequencing": string_constant(read(f"{ev}/action_sequencing/prompts/one_shot.py"), "prompt"),
        "subgoal_decomposition": string_constant(read(f"{ev}/subgoal_decomposition/prompts/meta_prompt.py"),
                                                 "target_task_prompt"),
        "transition_modeling": string_constant(read(f"{ev}/transition_modeling/prompts/one_shot.py"), "prompt"),
    }
    tasks = json.loads(read(f"{res}/task_state_LTL_formula_accurate.json"))["scene_1"]
    scripts = (f"{VH}/dataset/programs_processed_precond_nograb_morepreconds/executable_programs/"
               "TrimmedTestScene1_graph/results_intentions_march-13-18")
    headers, order = {}, []
    for name, by_id in tasks.items():
        for tid in by_id:
            order.append(tid)
            lines = read(f"{scripts}/file{tid}.txt").splitlines(keepends=True)
            headers[tid] = [lines[0], lines[1]]
    success = json.loads(read(f"{res}/success_task.json"))
    id2action = json.loads(read(f"{res}/id2action.json"))
    gold = json.loads(read(f"{res}/gold_action.json"))
    problems = {}
    for name, by_id in tasks.items():
        if name in TM_SKIPPED:
            continue
        for tid in by_id:
            if tid in success:
                problems[tid] = read(f"{res}/problem_pddl/{'_'.join(name.split())}/{tid}.pddl")
    pairs = json.loads(read(f"{res}/relation_object_pairs.json"))
    return {
        "format": FORMAT,
        "templates": templates,
        "task_order": order,
        "script_headers": headers,
        "relation_types": json.loads(read(f"{res}/relation_types.json")),
        "action_space": json.loads(read(f"{res}/action_space.json")),
        "object_states_full": json.loads(read(f"{VH}/resources/object_states_full.json")),
        "relation_object_pairs": {k: sorted(set(v)) for k, v in pairs.items()},
        "relation_object_pairs_hash0": orders["relation_object_pairs"],
        "transition_modeling": {
            "skipped_task_names": TM_SKIPPED,
            "success_task_ids": sorted(success),
            "operators": {tid: id2action[tid] for tid in problems},
            "operator_parameters": {k: v["action_parameters"] for k, v in gold.items()},
            "problems": problems,
        },
        "orders_hash0": {tid: compact_orders(orders["tasks"][tid]) for tid in order},
    }


# The shipped BEHAVIOR action-sequencing prompts were made from a template with one more trailing space
# than the wheel's one_shot.py, at the end of rule 8; the packaged template follows the shipped prompts.
RULE_8_END = "(e.g. peach_0_part_0).\n"


def shipped_action_template(template: str) -> str:
    if template.count(RULE_8_END) != 1:
        raise ValueError("the BEHAVIOR action-sequencing template changed: rule 8 not found once")
    return template.replace(RULE_8_END, RULE_8_END[:-1] + " \n")


def behavior(z: zipfile.ZipFile, reference_dir: str | None) -> dict:
    read = lambda p: z.read(p).decode("utf-8")  # noqa: E731
    gi = f"{BE}/evaluation/goal_interpretation/resources"
    task_to_demo = json.loads(read(f"{gi}/data/task_to_demo.json"))
    conditions = json.loads(read(f"{gi}/data/all_conditions.json"))
    shipped = {m: json.loads(read(f"{BE}/evaluation/{m}/resources/prompts/helm_prompts.json"))
               for m in ("action_sequencing", "subgoal_decomposition", "transition_modeling")}
    data = {
        "format": FORMAT,
        "demo_order": json.loads(read(f"{BE}/data/demo_names.json")),
        "templates": {
            "goal_interpretation": read(f"{gi}/prompt_template/behavior_goal_interpretation.txt"),
            "action_sequencing": shipped_action_template(string_constant(
                read(f"{BE}/evaluation/action_sequencing/resources/prompt_templates/one_shot.py"), "prompt")),
        },
        "goal_interpretation": {
            "task_to_demo": task_to_demo,
            "initial_conditions": {d: conditions[d]["initial_conditions"] for d in task_to_demo.values()},
            "objects": json.loads(read(f"{gi}/data/all_objects.json")),
            "instructions": json.loads(read(f"{gi}/data/instructions_by_activity_name.json")),
        },
        "shipped_prompts": {m: [[p["identifier"], p["llm_prompt"]] for p in shipped[m]]
                            for m in ("subgoal_decomposition", "transition_modeling")},
    }
    if reference_dir:
        os.makedirs(reference_dir, exist_ok=True)
        gi_prompts = json.loads(read(f"{gi}/data/goal_interpretation_prompts.json"))
        lists = {"goal_interpretation": [{"identifier": d, "llm_prompt": gi_prompts[d]}
                                         for d in task_to_demo.values()], **shipped}
        for m, prompts in lists.items():
            write_gz(os.path.join(reference_dir, f"behavior_{m}.json.gz"), prompts)
    return data


PROVENANCE = """# Prompt data — provenance

`prompts.json.gz` is generated by `tools/convert/eai_prompts.py` from the published wheel
`eai_eval-{version}-py3-none-any.whl` (`pip download --no-deps eai-eval=={version}`, sha256 `{sha}`), the
package of the Embodied Agent Interface benchmark
(https://github.com/embodied-agent-interface/embodied-agent-interface), licensed MIT (`LICENSE-eai-eval.txt`).
The prompt templates are string data read from the wheel's template files with `ast` (nothing is imported).

{body}
Regenerate with `python -m tools.convert.eai_prompts --ref-python VENV/bin/python` (VENV from
`setup-virtualhome.sh`; same output byte for byte).
"""

VH_BODY = """Contents (`virtualhome_eval/`): the templates of `evaluation/{{goal_interpretation,action_sequencing,
transition_modeling}}/prompts/one_shot.py` (`prompt`) and `evaluation/subgoal_decomposition/prompts/meta_prompt.py`
(`target_task_prompt`); `resources/virtualhome/{{relation_types,action_space,relation_object_pairs}}.json` and
`resources/object_states_full.json` (possible states per class); the first two lines (task name, description) of each
`dataset/.../executable_programs/.../file<ID>.txt`; for transition modeling `success_task.json`, `id2action.json`,
the `action_parameters` of `gold_action.json` and the `problem_pddl/<task>/<ID>.pddl` files (the task categories
the generator skips are listed in the converter).

`orders_hash0` and `relation_object_pairs_hash0` are orders, not text: the order in which eai-eval {version}'s
generator lists set-derived items (shown and changed nodes, initial-only edges, property and state lists, goal
edges of the subgoal prompt, relation targets) when run with `PYTHONHASHSEED=0`, recorded by
`tools/convert/eai_prompts_orders.py` building the same sets from the reference's own objects in a process with that
seed (Python 3.11). Property and state lists already in sorted order are omitted.
"""

BE_BODY = """Contents (`behavior_eval/`): the goal-interpretation template
`evaluation/goal_interpretation/resources/prompt_template/behavior_goal_interpretation.txt` and its inputs
(`resources/data/{task_to_demo,all_objects,instructions_by_activity_name}.json`, the `initial_conditions` of
`all_conditions.json`); the action-sequencing template `evaluation/action_sequencing/resources/prompt_templates/
one_shot.py` (`prompt`, with the trailing space the shipped prompts have after rule 8 restored; the
prompt's states and objects come from eai-gym's BEHAVIOR task data); `data/demo_names.json`
(the order of the 100 demos). `shipped_prompts`: the 100 prompts each of
`evaluation/{subgoal_decomposition,transition_modeling}/resources/prompts/helm_prompts.json`, as shipped — their
generators need iGibson scene state that the symbolic task data does not hold.
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Convert eai-eval 1.0.5's prompt templates and resources.")
    ap.add_argument("--wheel", help=f"path to eai_eval-{VERSION}-py3-none-any.whl (downloaded if omitted)")
    ap.add_argument("--ref-python", help="python of a venv with eai-eval 1.0.5 installed")
    ap.add_argument("--orders", help="orders already recorded by tools/convert/eai_prompts_orders.py (instead of --ref-python)")
    ap.add_argument("--out", default=str(PACKAGE_DATA))
    ap.add_argument("--reference", help="also write the BEHAVIOR reference prompts here (tests)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or fetch_wheel(tmp)
        sha = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        if args.orders:
            with open(args.orders) as f:
                orders = json.load(f)
        elif args.ref_python:
            orders = record_orders(args.ref_python)
        else:
            ap.error("give --ref-python (or --orders)")
        with zipfile.ZipFile(wheel) as z:
            vh, be = virtualhome(z, orders), behavior(z, args.reference)
    for world, data, body in (("virtualhome", vh, VH_BODY.format(version=VERSION)), ("behavior", be, BE_BODY)):
        folder = os.path.join(args.out, world)
        write_gz(os.path.join(folder, "prompts.json.gz"), data)
        with open(os.path.join(folder, "PROVENANCE-prompts.md"), "w") as f:
            f.write(PROVENANCE.format(version=VERSION, sha=sha, body=body))
        print(f"{world}: {os.path.getsize(os.path.join(folder, 'prompts.json.gz'))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Check eai-gym's BEHAVIOR-1K goal-interpretation scoring against eai-eval 1.0.5's own BEHAVIOR evaluator.

EAI has no BEHAVIOR-1K goal interpretation; what eai-gym claims is that it scores BEHAVIOR-1K replies *as
eai-eval 1.0.5 scores BEHAVIOR's*. This tool runs the reference's unchanged
``behavior_eval.evaluation.goal_interpretation.scripts.evaluate_results.evaluate_results`` on BEHAVIOR-1K: its
data paths (``behavior_eval.goal_int_resources_path``, ``behavior_eval.demo_name_path``) point at a folder holding
eai-gym's BEHAVIOR-1K gold (``all_conditions.json``: per activity, the goal conditions of
:mod:`eai_gym.envs.behavior1k.interpretation`), the declared objects (``all_objects.json``) and the 1,016
activity names, and its module-level state lists (``object_states``) are bddl 3.6.0's unary and binary predicates.

* ``cases OUT.json.gz`` (eai-gym's Python): writes the inputs: the gold, the objects, the state lists and four
  generated model files of one reply per activity (``gold``; ``partial``: the last option of each conjunct with
  every third condition dropped and wrong ones added; ``noisy``: gold plus hallucinated states and objects,
  wrong lengths, upper case, single quotes, text around the JSON, a string-valued key; ``unreadable``: every
  fourth reply unparsable or with nested braces first, the others partial).
* ``reference CASES.json.gz --out REF.json.gz`` (a reference venv's Python, e.g. ``setup-behavior.sh``): runs the
  evaluator on each model file and records its summary and, per activity, its detailed analysis (the condition
  lists replaced by the sha256 of the whole analysis, to keep the file small).

``tests/reference/test_behavior1k_goal_interpretation_reference.py`` compares eai-gym (``protocol="eai-1.0.5"``)
with the recorded results.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import sys
import tempfile

from tools.common import add_import_path

MODULE = "behavior_eval.evaluation.goal_interpretation.scripts.evaluate_results"
KINDS = ("gold", "partial", "noisy", "unreadable")


def analysis_digest(detail: dict) -> str:
    return hashlib.sha256(json.dumps(detail, sort_keys=True).encode()).hexdigest()


def _partial(gold: dict, rng: random.Random, objects: list[str]) -> list:
    out = []
    for options in gold.values():
        out += [c for i, c in enumerate(options[-1]) if i % 3 != 2]
    out.append(["open", rng.choice(objects)])
    out.append(["not", ["inside", rng.choice(objects), rng.choice(objects)]])
    return out


def make_cases() -> dict:
    from eai_gym.envs.behavior1k import interpretation as I
    from eai_gym.envs.behavior1k.data import activity_names

    rng = random.Random(23)
    acts = list(activity_names())
    gold = {a: I.gold_conditions(a) for a in acts}
    objects = {a: list(I.legal_objects(a)) for a in acts}
    files: dict[str, list] = {k: [] for k in KINDS}
    for n, a in enumerate(acts):
        first = [c for options in gold[a].values() for c in options[0]]
        node = [c for c in first if len(c) == 2 and c[0] != "not" or c[0] == "not" and len(c[1]) == 2]
        edge = [c for c in first if c not in node]
        files["gold"].append({"identifier": a, "llm_output": json.dumps({"node goals": node, "edge goals": edge})})
        partial = _partial(gold[a], rng, objects[a])
        files["partial"].append({"identifier": a, "llm_output": json.dumps({"node goals": partial})})
        noisy = first + [["dusty", objects[a][0]], ["cooked", "ghost.n.01_1"], ["ontop", objects[a][0]],
                         ["Inside", objects[a][-1], objects[a][0]]]
        text = json.dumps({"node goals": noisy[::2], "edge goals": noisy[1::2]})
        text = [text, text.replace('"', "'"), f"Here is the goal:\n{text}\nDone.", text.upper()][n % 4]
        if n % 7 == 0:
            text = json.dumps({"explanation": "ok", "node goals": noisy})
        files["noisy"].append({"identifier": a, "llm_output": text})
        bad = ["no json at all", '{"node goals": [["cooked", "x"]], "meta": {"a": []}}',
               '{"node goals": [["cooked"' + "]]", "{}"][n // 4 % 4]
        files["unreadable"].append({"identifier": a, "llm_output": bad if n % 4 == 0 else
                                    json.dumps({"edge goals": partial})})
    return {"generated_by": "tools/reference/behavior1k_goal_interpretation.py cases", "activities": acts,
            "gold": gold, "objects": objects, "node_states": list(I.node_states()),
            "edge_states": list(I.edge_states()), "files": files}


def run_reference(cases: dict) -> dict:
    import importlib

    import behavior_eval

    fake = tempfile.mkdtemp(prefix="fake-igibson-")
    os.makedirs(os.path.join(fake, "igibson"))
    for f in ("__init__.py", "object_states.py"):
        open(os.path.join(fake, "igibson", f), "w").close()
    add_import_path(fake)  # the stand-in igibson package, before the evaluator imports it
    mod = importlib.import_module(MODULE)
    res = tempfile.mkdtemp(prefix="b1k-gi-res-")
    os.makedirs(os.path.join(res, "data"))
    data = {"all_conditions.json": {a: {"initial_conditions": {}, "goal_conditions": cases["gold"][a]}
                                    for a in cases["activities"]},
            "all_objects.json": {a: {o: [] for o in cases["objects"][a]} for a in cases["activities"]},
            "llm_prompts.json": {}, "instructions_by_activity_name.json": {}, "task_to_demo.json": {}}
    for name, value in data.items():
        with open(os.path.join(res, "data", name), "w") as f:
            json.dump(value, f)
    names = os.path.join(res, "demo_names.json")
    with open(names, "w") as f:
        json.dump(cases["activities"], f)
    behavior_eval.goal_int_resources_path, behavior_eval.demo_name_path = res, names
    mod.object_states = {"node_states": cases["node_states"], "edge_states": cases["edge_states"]}
    out: dict = {"reference": "eai-eval 1.0.5 behavior_eval goal_interpretation evaluate_results, on BEHAVIOR-1K data",
                 "files": {}}
    for kind, items in cases["files"].items():
        work = tempfile.mkdtemp(prefix="b1k-gi-")
        os.makedirs(os.path.join(work, "in"))
        with open(os.path.join(work, "in", f"{kind}_outputs.json"), "w") as f:
            json.dump(items, f)
        mod.evaluate_results(os.path.join(work, "in"), os.path.join(work, "out"))
        summary = json.load(open(os.path.join(work, "out", "summary", f"{kind}_performance_scores.json")))
        detail = json.load(open(os.path.join(work, "out", "log", "detailed_analyses",
                                             f"{kind}_detailed_analysis.json")))
        out["files"][kind] = {"summary": summary,
                              "analyses": {a: analysis_digest(d) for a, d in detail.items()}}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cases")
    c.add_argument("out")
    r = sub.add_parser("reference")
    r.add_argument("cases")
    r.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    if args.cmd == "cases":
        result = make_cases()
    else:
        with gzip.open(args.cases, "rt") as f:
            result = run_reference(json.load(f))
    with gzip.open(args.out, "wt") as f:
        json.dump(result, f)  # key order kept: the gold's conjuncts are in file order
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Rewritten published subgoal-decomposition replies for ``tools/reference/published_plans.py``'s ``mutants``,
``pack-mutants`` and ``compare`` commands: rules that make eai-eval 1.0.5's temporal-order check meet a missing
step that names no missing precondition (its ``'list index out of range'`` crash), with a control that must not,
run through the reference harness and stored in ``tests/reference/data/published_plans/
reference_subgoal_mutants.json.gz``. Run the commands through ``python -m tools.reference.published_plans``.
"""

from __future__ import annotations

import json
import os
import re
import sys

from tools.common import read_gz, write_gz
from tools.reference.published_runs import DATA, inputs, run_harness, score

#: ``mutants``: rules that rewrite a published subgoal reply's ``output`` list (``entries``) for the task ``tid``;
#: they exercise eai-eval 1.0.5's temporal-order check on a missing step that names no missing precondition (SIT
#: or LIE on an object with too many things on it, CUT without a knife), with controls that must not reach it.
#: mat.173 and mat.401 are occupied in every task's initial scene, chair.103 never; couch.352 is occupied for
#: lying (not sitting) in 128 tasks.
CHAR_ONTOP = re.compile(r"ONTOP\(\s*character\.65\s*,[^)]*\)")
MUTANTS = {
    "ontop_to_occupied_mat": ("every ONTOP(character.65, X) made ONTOP(character.65, mat.173), appended if none",
                              lambda e, tid: [CHAR_ONTOP.sub("ONTOP(character.65, mat.173)", x) for x in e]
                              if any(CHAR_ONTOP.search(x) for x in e) else e + ["ONTOP(character.65, mat.173)"]),
    "prepend_occupied_mat": ("ONTOP(character.65, mat.401) first", lambda e, tid: ["ONTOP(character.65, mat.401)", *e]),
    "prepend_couch": ("ONTOP(character.65, couch.352) first (SIT, then LIE, is tried)",
                      lambda e, tid: ["ONTOP(character.65, couch.352)", *e]),
    "prepend_cut": ("CUT(x) first, x the task's first cuttable and eatable object (tasks without one skipped)",
                    lambda e, tid: None if (x := _cuttable(tid)) is None else [f"CUT({x})", *e]),
    "prepend_free_chair": ("ONTOP(character.65, chair.103) first (control)",
                           lambda e, tid: ["ONTOP(character.65, chair.103)", *e]),
}
#: llama-3-8b-chat's reply to 875_1 (the published item that shows the rule) with mat.173 replaced by each object
VARIANT_OBJECTS = ("mat.173", "mat.401", "bed.105", "couch.352", "chair.103", "bench.227", "toilet.37")


def _cuttable(tid: str) -> str | None:
    from eai_gym.envs.virtualhome.tasks import load_task

    s = load_task(tid).initial_state
    return next((f"{o.name}.{o.id}" for _, o in sorted(s.scene.objects.items())
                 if {"CUTTABLE", "EATABLE"} <= o.properties), None)


def _entries(llm_output: str) -> list[str] | None:
    from eai_gym.eai.subgoal_output import NotParseable, output_entries

    try:
        return list(output_entries(llm_output, llm_output.strip().replace("}}", "}")))
    except NotParseable:
        return None


def mutant_batches() -> dict[str, dict]:
    """``{batch: {"rule", "items": [{"identifier", "model", "llm_output"}]}}``, identifiers unique in a batch.
    A rule's batch takes every 15th task from the 9th (875_1 among them), task ``i`` from the ``(i // 15) % 15``-th
    model (the next model whose reply parses, if that one does not); a mutated reply is ``{"output": [...]}``."""
    published = inputs("subgoal_decomposition")
    names = sorted(published)
    batches: dict[str, dict] = {}
    for rule, (_, mutate) in MUTANTS.items():
        items = []
        for i in range(8, len(published[names[0]]), 15):
            for k in range(len(names)):
                model = names[(i // 15 + k) % len(names)]
                item = published[model][i]
                entries = _entries(item["llm_output"])
                if entries is not None:
                    break
            new = mutate(entries, item["identifier"][len("scene_1_"):])
            if new is not None:
                items.append({"identifier": item["identifier"], "model": model,
                              "llm_output": json.dumps({"output": new})})
        batches[rule] = {"rule": MUTANTS[rule][0], "items": items}
    llama = next(it for it in published["llama-3-8b-chat"] if it["identifier"] == "scene_1_875_1")
    for obj in VARIANT_OBJECTS:
        batches[f"llama_875_1_{obj}"] = {
            "rule": f"llama-3-8b-chat's 875_1 reply with mat.173 replaced by {obj}",
            "items": [{**llama, "model": "llama-3-8b-chat", "llm_output": llama["llm_output"].replace("mat.173", obj)}]}
    return batches


def run_mutants(out_dir: str, python: str, kit: str) -> None:
    """Writes ``out_dir/<batch>_outputs.json`` and runs the harness on each (skipping results that exist)."""
    os.makedirs(out_dir, exist_ok=True)
    for name, batch in mutant_batches().items():
        src, out = os.path.join(out_dir, f"{name}_outputs.json"), os.path.join(out_dir, f"{name}.json")
        with open(src, "w") as f:
            json.dump([{k: it[k] for k in ("identifier", "llm_output")} for it in batch["items"]], f)
        if not os.path.exists(out):
            run_harness("subgoal_decomposition", src, out, name, python, kit)


def pack_mutants(out_dir: str) -> None:
    """``reference_subgoal_mutants.json.gz``: per batch its rule, items (with the published model each reply
    comes from), the reference's summary and per item :func:`subgoal_entry` plus a NotParseable item's message."""
    import ast

    from tests.reference.virtualhome_compare import subgoal_entry

    batches = mutant_batches()
    for name, batch in batches.items():
        run_ = json.load(open(os.path.join(out_dir, f"{name}.json")))
        ref = {}
        for ident, e in sorted(run_["error_info"].items()):
            ref[ident] = subgoal_entry(e)
            info = ast.literal_eval(e["info"])
            if info[0] == "NotParseable" and isinstance(info[1], str):
                ref[ident]["message"] = info[1]
        batch.update(summary=run_["summary"], summary_exception=run_["summary_exception"], seed=run_["seed"],
                     reference=ref)
    doc = {"reference": "eai-eval==1.0.5 virtualhome_eval (PyPI, MIT), Python 3.11, PYTHONHASHSEED=0",
           "harness": "eai-gym reference kit harness/virtualhome/ref_vh_eval.py --num-workers 1 --seed 0",
           "inputs": "tools/reference/published_plans.py mutants: published replies (inputs.json.gz) rewritten",
           "batches": batches}
    write_gz(os.path.join(DATA, "reference_subgoal_mutants.json.gz"), doc, sort_keys=True)
    print(f"packed {len(batches)} batches into reference_subgoal_mutants.json.gz", file=sys.stderr)


def compare_mutants() -> int:
    """One line per mutant batch; the number of batches that differ."""
    doc = read_gz(os.path.join(DATA, "reference_subgoal_mutants.json.gz"))
    if not doc:
        return 0
    agree = n_items = 0
    for name, batch in sorted(doc["batches"].items()):
        ours = score("subgoal_decomposition", batch["items"])
        by_id = {r["identifier"]: r for r in ours["tasks"]}
        bad = {k: p for k, e in batch["reference"].items() if (p := mutant_problems(by_id[k], e))}
        same = not bad and ours["summary"] == batch["summary"]
        agree += same
        n_items += len(batch["reference"])
        crashes = sum(e.get("message") == "list index out of range" for e in batch["reference"].values())
        print(f"subgoal_decomposition mutants {name}: {'agree' if same else 'DIFFER'}, "
              f"{len(batch['reference']) - len(bad)} of {len(batch['reference'])} items "
              f"({crashes} 'list index out of range')", flush=True)
        for ident, problems in sorted(bad.items())[:5]:
            print(f"  {ident}: {problems}")
    print(f"subgoal_decomposition mutants: {agree} of {len(doc['batches'])} batches agree ({n_items} items)")
    return len(doc["batches"]) - agree


def mutant_problems(rec: dict, entry: dict) -> list:
    from tests.reference.virtualhome_compare import subgoal_problems

    problems = subgoal_problems(rec, entry)
    if "message" in entry and rec["message"] != entry["message"]:
        problems.append(("message", rec["message"], entry["message"]))
    return problems

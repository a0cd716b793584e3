"""The EAI paper's published action-sequencing and subgoal-decomposition outputs, eai-eval 1.0.5's runs on them
(the reference kit's harness) and eai-gym's scores of them: what :mod:`tools.reference.published_plans` (the
commands) and :mod:`tools.reference.published_subgoal_mutants` share. Data in
``tests/reference/data/published_plans/``.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile

from tools.common import REFERENCE_DATA, read_gz, write_gz
from tools.reference.published_goal_interpretation import fetch_wheel, provenance, read_models

DATA = os.path.join(REFERENCE_DATA, "published_plans")
#: eai-gym mode -> the wheel's folder of published outputs
FOLDERS = {"action_sequencing": "virtualhome_eval/llm_response/action_sequence/",
           "subgoal_decomposition": "virtualhome_eval/llm_response/subgoal_decomposition/"}
#: the harness's per-item action-sequencing fields the comparison reads
AS_FIELDS = ("identifier", "status", "error_type", "executable", "success", "goal_eval", "runtime_errors",
             "counter_delta")


def write_inputs(wheel: str | None) -> None:
    wheel = wheel or fetch_wheel(tempfile.mkdtemp(prefix="vh_eval_"))
    doc = {**provenance(wheel, "virtualhome_eval/llm_response/"),
           "modules": {m: read_models(wheel, folder) for m, folder in FOLDERS.items()}}
    os.makedirs(DATA, exist_ok=True)
    write_gz(os.path.join(DATA, "inputs.json.gz"), doc, sort_keys=True)
    print(f"wrote {os.path.join(DATA, 'inputs.json.gz')}", file=sys.stderr)


def inputs(module: str) -> dict[str, list]:
    doc = read_gz(os.path.join(DATA, "inputs.json.gz"))
    if not doc:
        raise SystemExit(f"{DATA}/inputs.json.gz is missing: "
                         "run `python -m tools.reference.published_plans inputs` first")
    return doc["modules"][module]


def run(module: str, out_dir: str, python: str, kit: str, models: list[str] | None,
        span: tuple[int, int] | None = None, reverse: bool = False) -> None:
    """The harness on every model (or ``models``), on all its items or on ``items[start:stop]`` (written to
    ``<model>.items<start>-<stop>.json``: the reference's summary of those items alone). A model whose result
    file exists is skipped (so a stopped run resumes, and two runs, one ``reverse``, can share the models)."""
    os.makedirs(out_dir, exist_ok=True)
    for model, items in sorted(inputs(module).items(), reverse=reverse):
        name = model if span is None else f"{model}.items{span[0]}-{span[1]}"
        if (models and model not in models) or os.path.exists(os.path.join(out_dir, f"{name}.json")):
            continue
        src = os.path.join(out_dir, f"{name}_outputs.json")
        with open(src, "w") as f:
            json.dump(items if span is None else items[span[0]:span[1]], f)
        run_harness(module, src, os.path.join(out_dir, f"{name}.json"), model, python, kit)


def run_harness(module: str, src: str, out: str, model: str, python: str, kit: str) -> None:
    """The kit's harness on one input file (subgoal decomposition: one worker, ``random.seed(0)``)."""
    harness = os.path.join(kit, "harness", "virtualhome", "ref_vh_eval.py")
    extra = ["--num-workers", "1", "--seed", "0"] if module == "subgoal_decomposition" else []
    cmd = ["nice", "-n", "10", python, harness, module, src, out, "--model", model, *extra]
    print(" ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


LEGACY_DRIVER = """
import json, os, shutil, sys, tempfile
import virtualhome_eval
from virtualhome_eval.agent_eval import agent_evaluation
assert os.environ.get("PYTHONHASHSEED") == "0" and virtualhome_eval.__file__.startswith(sys.argv[3]), virtualhome_eval.__file__
tmp = tempfile.mkdtemp()
os.makedirs(f"{tmp}/llm/action_sequence")
shutil.copy(sys.argv[1], f"{tmp}/llm/action_sequence/")
res = agent_evaluation(mode="evaluate_results", eval_type="action_sequence", llm_response_path=f"{tmp}/llm",
                       output_dir=f"{tmp}/out")
json.dump(res, open(sys.argv[2], "w"), indent=1, default=repr)
"""


def run_legacy(model: str, out: str, python: str, package_dir: str) -> None:
    """virtualhome-eval 0.1.1's own action-sequence evaluator (the package unpacked in ``package_dir``, put first
    on ``PYTHONPATH`` of the eai-eval 1.0.5 venv, whose dependencies it shares) on one model's published file;
    its log goes to ``./logs/``."""
    src = os.path.join(tempfile.mkdtemp(), f"{model}_outputs.json")
    with open(src, "w") as f:
        json.dump(inputs("action_sequencing")[model], f)
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": package_dir}
    subprocess.run(["nice", "-n", "10", python, "-c", LEGACY_DRIVER, src, out, package_dir], check=True, env=env)


def pack(module: str, out_dir: str) -> None:
    """A run on ``items[a:b]`` of a model (``<model>.items<a>-<b>.json``) goes under ``"subsets"``. The runs
    already stored in ``reference_<module>.json.gz`` are kept unless ``out_dir`` has a run of the same name,
    which replaces it (so a directory holding one new run adds that run)."""
    from tests.reference.virtualhome_compare import subgoal_entry

    stored = read_gz(os.path.join(DATA, f"reference_{module}.json.gz"))
    models, subsets = dict(stored.get("models", {})), dict(stored.get("subsets", {}))
    kept = len(models) + len(subsets)
    for path in sorted(glob.glob(os.path.join(out_dir, "*.json"))):
        if path.endswith("_outputs.json"):
            continue
        run_ = json.load(open(path))
        name = os.path.basename(path)[:-len(".json")]
        if module == "action_sequencing":
            items = {t["identifier"]: {k: t[k] for k in AS_FIELDS if k in t} for t in run_["tasks"]}
        else:  # an entry whose info is None was never evaluated (a run stopped early)
            items = {ident: subgoal_entry(e) for ident, e in sorted((run_["error_info"] or {}).items())
                     if e["info"] is not None}
        rec = {"summary": run_["summary"], "summary_exception": run_["summary_exception"],
               "counters": run_.get("counters"), "seed": run_.get("seed"), "items": items}
        kept -= name in models or name in subsets
        if ".items" in name:
            model, span = name.split(".items")
            start, stop = (int(x) for x in span.split("-"))
            subsets[name] = {**rec, "model": model, "start": start, "stop": stop, "note": run_.get("note")}
        else:
            models[name] = rec
    doc = {"reference": "eai-eval==1.0.5 virtualhome_eval (PyPI, MIT), Python 3.11, PYTHONHASHSEED=0",
           "harness": "eai-gym reference kit harness/virtualhome/ref_vh_eval.py"
                      + (" --num-workers 1 --seed 0" if module == "subgoal_decomposition" else ""),
           "models": models, "subsets": subsets}
    write_gz(os.path.join(DATA, f"reference_{module}.json.gz"), doc, sort_keys=True)
    print(f"packed {len(models)} models and {len(subsets)} subsets into reference_{module}.json.gz "
          f"({kept} of them kept from the stored file)", file=sys.stderr)


def score(module: str, items: list) -> dict:
    """eai-gym's ``protocol="eai-1.0.5"`` result for one model's items (summary and per-item records)."""
    if module == "action_sequencing":
        from eai_gym.scoring.virtualhome.action_sequencing import score_items

        return score_items(items, "eai-1.0.5")
    from eai_gym.scoring.virtualhome.subgoal_decomposition import score_items

    return score_items(items, "eai-1.0.5", seed=0)


def differences(module: str, ours: dict, ref: dict) -> dict[str, list]:
    """``{identifier: problems}`` of the items where eai-gym and the reference differ."""
    from tests.reference.virtualhome_compare import compare_item, subgoal_problems

    out, seen = {}, set()
    for rec in ours["tasks"]:
        key = rec["identifier"] if module == "action_sequencing" else f"scene_1_{rec.get('task_id')}"
        theirs = ref["items"].get(key)
        if theirs is None:  # not evaluated by the reference (a run stopped early)
            continue
        seen.add(key)
        problems = compare_item(rec, theirs) if module == "action_sequencing" else subgoal_problems(rec, theirs)
        if problems:
            out[rec["identifier"]] = problems
    for key in sorted(set(ref["items"]) - seen):
        out[key] = ["eai-gym has no record of this item"]
    return out


def compare_module(module: str, models: list[str] | None) -> int:
    """Prints one line per model and per subset run of ``module``, then a total; returns how many runs differ."""
    doc = read_gz(os.path.join(DATA, f"reference_{module}.json.gz"))
    published = inputs(module)
    runs = [(m, m, 0, None) for m in sorted(doc["models"])]
    runs += [(name, r["model"], r["start"], r["stop"]) for name, r in sorted(doc.get("subsets", {}).items())]
    agree = checked = n_items = 0
    for name, model, start, stop in runs:
        if models and model not in models:
            continue
        ref = doc["models"].get(name) or doc["subsets"][name]
        ours = score(module, published[model][start:stop])
        diff = differences(module, ours, ref)
        summary = "no reference summary" if ref["summary"] is None else (
            "summary equal" if ours["summary"] == ref["summary"] else "summary DIFFERS")
        same = not diff and summary != "summary DIFFERS"
        agree += same
        checked += 1
        n_items += len(ref["items"])
        print(f"{module} {name}: {summary}, {len(ref['items']) - len(diff)} of {len(ref['items'])} "
              "reference items agree", flush=True)
        for ident, problems in sorted(diff.items())[:5]:
            print(f"  {ident}: {problems}")
    print(f"{module} VirtualHome: {agree} of {checked} runs agree ({n_items} reference items; "
          f"{len(doc['models'])} whole-model runs)")
    return checked - agree

#!/usr/bin/env python
"""eai-eval 1.0.5 and eai-gym on the EAI paper's published action-sequencing and subgoal-decomposition outputs.

The outputs: ``virtualhome-eval==0.1.1`` (PyPI, MIT), folders ``virtualhome_eval/llm_response/action_sequence/``
(342 items per model, the older ``{"WALK": ["sofa"], ...}`` format without object ids) and
``.../subgoal_decomposition/`` (338 per model), 15 models each, VirtualHome only (the wheel holds no BEHAVIOR
outputs of these modules). Read as data with ``tools/published_goal_interpretation.py``'s helpers.

* ``inputs [--wheel PATH]``: writes ``tests/reference/data/published_plans/inputs.json.gz`` =
  ``{"source", "wheel", "sha256", "license", "modules": {module: {model: items}}}`` (items unchanged);
* ``run MODULE OUT_DIR --python REF_PY [--kit DIR] [--models M ...] [--items A:B] [--reverse]``: runs the reference
  kit's harness (``harness/virtualhome/ref_vh_eval.py``: eai-eval 1.0.5 imported from the venv of ``REF_PY``,
  unmodified, ``PYTHONHASHSEED=0``; subgoal decomposition with one worker and ``random.seed(0)`` before the run)
  on every model (or on ``items[A:B]`` of each), one process at a time under ``nice``, writing ``OUT_DIR/<model>.json``
  (``<model>.items<A>-<B>.json``) and skipping the files that exist;
* ``pack MODULE OUT_DIR``: adds those files to ``tests/reference/data/published_plans/reference_<module>.json.gz``
  = ``{"reference", "harness", "models": {model: {"summary", "summary_exception", "counters", "items"}},
  "subsets": {"<model>.items<A>-<B>": {... "model", "start", "stop"}}}`` (stored runs of other names are kept),
  per item the fields the tests compare (action sequencing: the harness's status, error type, executable,
  success, goal counts, runtime errors and counter contributions; subgoal decomposition: category, success, goal
  counts, error types of the branches run, actions of a correct plan; see ``tests/reference/virtualhome_compare.py``);
* ``legacy MODEL OUT --python REF_PY --package-dir DIR``: virtualhome-eval 0.1.1's own action-sequence evaluator,
  which reads the name-only format, on one model (see docs/reproduce.md);
* ``mutants OUT_DIR --python REF_PY`` / ``pack-mutants OUT_DIR``: the harness on published subgoal replies
  rewritten by the rules of ``published_subgoal_mutants.MUTANTS`` (a missing step that names no missing precondition), stored in
  ``reference_subgoal_mutants.json.gz``;
* ``compare [--module M] [--models M ...]``: scores every model with eai-gym ``protocol="eai-1.0.5"`` and prints,
  per stored run, whether its summary and every item agree with the stored reference, then "N of M runs agree"
  (and, without ``--models``, the same for the mutant batches).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "reference"))
sys.path.insert(0, HERE)

from published_goal_interpretation import fetch_wheel, provenance, read_models  # noqa: E402
from transition_modeling_reference import read_gz, write_gz  # noqa: E402

DATA = os.path.join(HERE, "..", "tests", "reference", "data", "published_plans")
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
    write_gz(os.path.join(DATA, "inputs.json.gz"), doc)
    print(f"wrote {os.path.join(DATA, 'inputs.json.gz')}", file=sys.stderr)


def inputs(module: str) -> dict[str, list]:
    doc = read_gz(os.path.join(DATA, "inputs.json.gz"))
    if not doc:
        raise SystemExit(f"{DATA}/inputs.json.gz is missing: run `python {sys.argv[0]} inputs` first")
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
    from virtualhome_compare import subgoal_entry

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
    write_gz(os.path.join(DATA, f"reference_{module}.json.gz"), doc)
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
    from virtualhome_compare import compare_item, subgoal_problems

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


def compare(modules: list[str], models: list[str] | None) -> int:
    """Prints one line per model and per subset run; returns 1 if anything differs."""
    failures = 0
    for module in modules:
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
        failures += checked - agree
        if module == "subgoal_decomposition" and not models:
            from published_subgoal_mutants import compare_mutants

            failures += compare_mutants()
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("inputs")
    a.add_argument("--wheel")
    r = sub.add_parser("run")
    r.add_argument("module", choices=sorted(FOLDERS))
    r.add_argument("out_dir")
    r.add_argument("--python", required=True, help="the Python of a venv with eai-eval 1.0.5")
    r.add_argument("--kit", default=os.path.join(HERE, "..", "..", "shared", "reference"))
    r.add_argument("--models", nargs="*")
    r.add_argument("--items", help="START:STOP, a slice of each model's items")
    r.add_argument("--reverse", action="store_true", help="models in reverse name order")
    lg = sub.add_parser("legacy", help="virtualhome-eval 0.1.1's action-sequence evaluator on one model")
    lg.add_argument("model")
    lg.add_argument("out")
    lg.add_argument("--python", required=True, help="the Python of the eai-eval 1.0.5 venv")
    lg.add_argument("--package-dir", required=True, help="the unpacked virtualhome_eval-0.1.1 wheel")
    p = sub.add_parser("pack")
    p.add_argument("module", choices=sorted(FOLDERS))
    p.add_argument("out_dir")
    mu = sub.add_parser("mutants", help="the reference on rewritten subgoal replies (see published_subgoal_mutants.py)")
    mu.add_argument("out_dir")
    mu.add_argument("--python", required=True, help="the Python of a venv with eai-eval 1.0.5")
    mu.add_argument("--kit", default=os.path.join(HERE, "..", "..", "shared", "reference"))
    pm = sub.add_parser("pack-mutants")
    pm.add_argument("out_dir")
    c = sub.add_parser("compare")
    c.add_argument("--module", choices=sorted(FOLDERS))
    c.add_argument("--models", nargs="*")
    args = ap.parse_args(argv)
    if args.cmd == "inputs":
        write_inputs(args.wheel)
    elif args.cmd == "run":
        span = tuple(int(x) for x in args.items.split(":")) if args.items else None
        run(args.module, args.out_dir, args.python, args.kit, args.models, span, args.reverse)
    elif args.cmd == "legacy":
        run_legacy(args.model, args.out, args.python, args.package_dir)
    elif args.cmd == "mutants":
        from published_subgoal_mutants import run_mutants

        run_mutants(args.out_dir, args.python, args.kit)
    elif args.cmd == "pack-mutants":
        from published_subgoal_mutants import pack_mutants

        pack_mutants(args.out_dir)
    elif args.cmd == "pack":
        pack(args.module, args.out_dir)
    else:
        return compare([args.module] if args.module else sorted(FOLDERS), args.models)
    return 0


if __name__ == "__main__":
    sys.exit(main())

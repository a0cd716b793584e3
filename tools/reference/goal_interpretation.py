#!/usr/bin/env python
"""Run eai-eval 1.0.5's goal-interpretation evaluators on LLM-output files and record what they report.

Run it with the Python of a reference venv (``bash ../shared/reference/harness/setup-virtualhome.sh VENV``:
eai-eval 1.0.5 with its dependencies, which include ``behavior_eval``); it imports the installed
evaluators and copies none of their code. It re-executes itself with ``PYTHONHASHSEED=0`` (the seed
eai-gym's ``protocol="eai-1.0.5"`` reproduces).

* ``vh FILE... --out OUT.json``: VirtualHome (``virtualhome_eval ... goal_interpretation ...
  evaluate_results``), one model file at a time. Per item it records what the evaluator logs at INFO
  level: whether the reply failed to parse, the TP/FP/FN it adds per goal kind, and how many predicted
  goals it counted as badly formatted or hallucinated. When the evaluator raises on an item, the
  exception and the item are recorded and the run is repeated without that item (the evaluator itself
  would abort the whole run), so every other item still gets its reference record.
* ``behavior FILE... --out OUT.json``: BEHAVIOR (``behavior_eval ... goal_interpretation ...
  evaluate_results``) with a stand-in ``igibson`` package whose ``object_states`` module is empty (the
  evaluator imports ``igibson.object_states`` and then shadows the name with its own dict; nothing else
  of iGibson is used). Records the summary and the per-demo detailed analysis. A crash is recorded and
  the run repeated with the item that caused it given the reply ``""`` (an empty prediction), or, for
  the KeyError of a demo without an item, with ``""`` items added for the missing demos, so every other
  demo still gets its reference record.
* ``name-to-id --out OUT.json``: for every VirtualHome task, the relevant ``(name, id)`` pairs the
  evaluator gets from ``get_relevant_nodes`` (sorted) and, for the class names with several relevant
  objects, the id its ``name -> id`` map ends with (it is built by iterating a set, so the winner depends
  on the hash seed).
* ``package-names RAW.json``: writes ``eai_gym/data/virtualhome/goal_interpretation_names.json`` (the
  ambiguous-name map of a ``name-to-id`` run) with its provenance; any Python runs this step.

``--hash-seed=N`` runs the evaluators under ``PYTHONHASHSEED=N`` instead of 0 (to show what varies).

Model files are lists of ``{"identifier", "llm_output"}``; the model name is the file name without
``_outputs.json`` / ``.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import shutil
import sys
import tempfile
import traceback

from tools.common import PACKAGE_DATA, add_import_path

VH_MODULE = "virtualhome_eval.evaluation.goal_interpretation.scripts.evaluate_results"
BEH_MODULE = "behavior_eval.evaluation.goal_interpretation.scripts.evaluate_results"
_COUNTS = re.compile(r"^TP_(node|edge|action)_goals: (-?\d+), FP_\w+: (-?\d+), FN_\w+: (-?\d+)$")
_TASK = re.compile(r"^Task is .*, file_id is (.*)$")


def model_name(path: str) -> str:
    base = os.path.basename(path)
    for suffix in ("_outputs.json", ".json"):
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base


class _ItemLog(logging.Handler):
    """Turns the evaluator's INFO lines into per-item records."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.items: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        m = _TASK.match(msg)
        if m:
            self.items.append({"identifier": m.group(1), "parse_error": False, "goal_format_errors": 0,
                               "hallucinations": 0})
            return
        if not self.items:
            return
        cur = self.items[-1]
        if msg.startswith("format wrong num is"):
            cur["parse_error"] = True
        elif msg.endswith("has format wrong output") and not cur["parse_error"]:
            cur["goal_format_errors"] += 1
        elif msg.endswith("has hallucination output"):
            cur["hallucinations"] += 1
        else:
            m = _COUNTS.match(msg)
            if m:
                cur[m.group(1)] = [int(m.group(2)), int(m.group(3)), int(m.group(4))]


def _vh_once(items: list, name: str) -> tuple[dict | None, list, str | None]:
    import importlib

    from virtualhome_eval import agent_eval

    mod = importlib.import_module(VH_MODULE)
    logger = logging.getLogger(VH_MODULE)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    handler = _ItemLog()
    logger.handlers = [handler]
    work = tempfile.mkdtemp(prefix="gi-ref-")
    try:
        d = os.path.join(work, "in", "virtualhome", "goal_interpretation")
        os.makedirs(d)
        with open(os.path.join(d, f"{name}_outputs.json"), "w") as f:
            json.dump(items, f)

        class Args:
            dataset = "virtualhome"
            llm_response_path = os.path.join(work, "in")
            resource_dir = agent_eval.default_resource_dir
            dataset_dir = agent_eval.default_dataset_dir
            output_dir = os.path.join(work, "out")
            scene_id = 1

        try:
            result = mod.evaluate_results(Args())
        except Exception as e:  # the evaluator aborts the whole run
            return None, handler.items, f"{type(e).__name__}: {e}"
        return result[name][0], handler.items, None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_vh(path: str) -> dict:
    items = json.load(open(path))
    name = model_name(path)
    crashes = []
    active = list(range(len(items)))
    while True:
        summary, logged, error = _vh_once([items[i] for i in active], name)
        if error is None:
            break
        # the item being scored when it raised: the last one that started, unless that one finished (it
        # was logged as unparsable or got its action counts); then the next, which raised before its
        # first log line (an unknown identifier)
        done = bool(logged) and (logged[-1]["parse_error"] or "action" in logged[-1])
        pos = len(logged) if done or not logged else len(logged) - 1
        logged = logged[:pos]
        crashes.append({"index": active[pos], "identifier": items[active[pos]]["identifier"], "error": error})
        del active[pos]
    records = []
    for i, rec in zip(active, logged):
        rec["index"] = i
        records.append(rec)
    return {"model": name, "summary": summary if not crashes else None, "summary_without_crashes": summary,
            "crashes": crashes, "items": records}


def _behavior_once(items: list, name: str, fake_dir: str) -> tuple[dict | None, dict | None, str | None]:
    import importlib

    add_import_path(fake_dir)  # the stand-in igibson package, before the evaluator imports it
    mod = importlib.import_module(BEH_MODULE)
    work = tempfile.mkdtemp(prefix="gi-ref-")
    try:
        d = os.path.join(work, "in")
        os.makedirs(d)
        with open(os.path.join(d, f"{name}_outputs.json"), "w") as f:
            json.dump(items, f)
        out = os.path.join(work, "out")
        try:
            mod.evaluate_results(d, out)
        except BaseException as e:  # noqa: BLE001 - the reference calls exit(1) on some inputs
            return None, None, f"{type(e).__name__}: {e}"
        summary = json.load(open(os.path.join(out, "summary", f"{name}_performance_scores.json")))
        detail = json.load(open(os.path.join(out, "log", "detailed_analyses", f"{name}_detailed_analysis.json")))
        return summary, detail, None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _fake_igibson() -> str:
    d = tempfile.mkdtemp(prefix="fake-igibson-")
    os.makedirs(os.path.join(d, "igibson"))
    for f in ("__init__.py", "object_states.py"):
        open(os.path.join(d, "igibson", f), "w").close()
    return d


def _crashing_item(items: list, demo_names: list) -> tuple[int | None, str]:
    """The index of the first item whose reply alone makes the evaluator raise, and the exception
    (``(None, "")``: none does)."""
    import importlib

    mod = importlib.import_module(BEH_MODULE)
    data = mod.goal_interpretation_data()
    by_id = {}
    for i, it in enumerate(items):
        ident = it.get("identifier") if isinstance(it, dict) else None
        if isinstance(ident, str):
            by_id[ident] = i
    for i, it in enumerate(items):
        try:
            parsed, _ = mod.parse_json(it["llm_output"], "m")
            demo = it["identifier"]
            hash(demo)
            if demo not in demo_names or by_id.get(demo) != i:
                continue
            sat, unsat, fp, pred = mod.evaluate_goals(parsed, data.demo_to_conds[demo]["goal_conditions"])
            mod.per_demo_error_analysis(demo, sat, unsat, fp, pred, data)
            mod.dataset_error_analysis(sat, unsat, fp, pred, 0)
        except Exception as e:
            return i, f"{type(e).__name__}: {e}"
    return None, ""


def run_behavior(path: str, fake_dir: str) -> dict:
    import behavior_eval

    items = json.load(open(path))
    name = model_name(path)
    demo_names = json.load(open(behavior_eval.demo_name_path))
    crashes = []
    while True:
        summary, detail, error = _behavior_once(items, name, fake_dir)
        if error is None:
            break
        i, item_error = _crashing_item(items, demo_names)
        present = {it.get("identifier") for it in items
                   if isinstance(it, dict) and isinstance(it.get("identifier"), str)}
        missing = [d for d in demo_names if d not in present]
        crashes.append({"index": i, "identifier": None if i is None else items[i].get("identifier"),
                        "missing_demos": missing if i is None else [], "error": item_error or error})
        if i is None and not missing:
            break
        items = [dict(it) if isinstance(it, dict) else it for it in items]
        if i is None:  # the KeyError of a demo without an item: score those demos as predicting nothing
            items += [{"identifier": d, "llm_output": ""} for d in missing]
        else:
            items[i] = {"identifier": items[i].get("identifier") if isinstance(items[i], dict) else None,
                        "llm_output": ""}
    return {"model": name, "summary": summary if not crashes else None,
            "summary_with_crashing_replies_emptied": summary, "crashes": crashes, "items": detail}


def run_name_to_id() -> dict:
    from virtualhome_eval import agent_eval
    from virtualhome_eval.simulation.evolving_graph import eval_utils as EU
    from virtualhome_eval.simulation.evolving_graph import utils

    logging.disable(logging.CRITICAL)
    props, placing, equiv = utils.load_properties_data(), utils.load_object_placing(), utils.load_name_equivalence()
    tasks = json.load(open(os.path.join(agent_eval.default_resource_dir, "virtualhome",
                                        "task_state_LTL_formula_accurate.json")))["scene_1"]
    data_dir = os.path.join(agent_eval.default_dataset_dir, "programs_processed_precond_nograb_morepreconds")
    out = {}
    for t in tasks.values():
        for fid in t:
            planner = EU.construct_planner(equiv, props, placing, scenegraph_id=1, script_id=fid,
                                           dataset_root=data_dir)[0]
            nodes = list(planner.get_relevant_nodes(script_id=fid))
            name_to_id = {}
            for n, i in nodes:
                name_to_id[n] = i
            names = [n for n, _ in nodes]
            amb = {n: name_to_id[n] for n in sorted(set(names)) if names.count(n) > 1}
            out[fid] = {"relevant": sorted(nodes), "ambiguous": amb}
    return out


PACKAGED_NAMES = os.path.join(PACKAGE_DATA, "virtualhome", "goal_interpretation_names.json")


def package_names(raw_path: str, out: str) -> int:
    raw = json.load(open(raw_path))
    tasks = {fid: v["ambiguous"] for fid, v in sorted(raw.items()) if v["ambiguous"]}
    doc = {"source": "eai-eval==1.0.5 virtualhome_eval (MIT), Python 3.11, PYTHONHASHSEED=0",
           "generated_by": "tools/reference/goal_interpretation.py name-to-id, then package-names",
           "meaning": "per task, for each class name shared by several relevant objects, the id the "
                      "goal-interpretation evaluator's name->id map ends with (it iterates a set)",
           "tasks": tasks}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(tasks)} tasks to {out}", file=sys.stderr)
    return 0


def _run_under_hash_seed(argv: list[str]) -> None:
    """Re-execute this tool under ``PYTHONHASHSEED`` = ``--hash-seed=N`` (default 0) unless it runs so already,
    before any evaluator is imported."""
    seed = next((a.split("=", 1)[1] for a in argv if a.startswith("--hash-seed=")), "0")
    if os.environ.get("PYTHONHASHSEED") != seed:
        os.execve(sys.executable, [sys.executable, "-m", __spec__.name, *argv], dict(os.environ, PYTHONHASHSEED=seed))


def main(argv: list[str] | None = None) -> int:
    _run_under_hash_seed(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("world", choices=["vh", "behavior", "name-to-id", "package-names"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--hash-seed", default="0", help="PYTHONHASHSEED for the evaluators (default 0)")
    args = ap.parse_args(argv)
    if args.world == "package-names":
        return package_names(args.files[0], args.out or PACKAGED_NAMES)
    if not args.out:
        ap.error("--out is required")
    if args.world == "name-to-id":
        result: object = run_name_to_id()
    elif args.world == "vh":
        result = {model_name(p): run_vh(p) for p in args.files}
    else:
        fake = _fake_igibson()
        try:
            result = {model_name(p): run_behavior(p, fake) for p in args.files}
        finally:
            shutil.rmtree(fake, ignore_errors=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:
        traceback.print_exc()
        sys.exit(1)

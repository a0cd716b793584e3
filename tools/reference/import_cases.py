#!/usr/bin/env python
"""Copy the recorded reference cases the tests compare against into ``tests/reference/data/``.

The reference kit (``../shared/reference/cases/``, produced by running eai-eval 1.0.5 through the kit's
harness) is not available on every machine, so the tests read trimmed copies: inputs unchanged, and of
each recorded output only the fields the tests compare (VirtualHome: summary, counters, and per item
the status, executable flag, error type, success, goal counts, runtime errors and counter
contributions; BEHAVIOR: summary, crashes, and per item the error-type record, goal counts and
per-step execution flags; PARTNR: everything but the traceback lines; ALFWorld: the transcripts without
the handcoded expert's next command).
Usage: python -m tools.reference.import_cases [--kit ../shared/reference]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys

from tools.common import KIT, REFERENCE_DATA, write_gz

OUT = str(REFERENCE_DATA)

ITEM_FIELDS = ("identifier", "status", "executable", "error_type", "error_action", "success",
               "runtime_errors", "counter_delta")
GOAL_FIELDS = ("node_matched", "node_total", "edge_matched", "edge_total", "action_matched", "action_total")

VIRTUALHOME = {
    # input file -> recorded output file (None: input only)
    "quirk_inputs.json": "quirk_outputs_action_sequencing.json",
    "gold_inputs.json": "gold_outputs_action_sequencing.json",
    "perturbed_inputs.json": "perturbed_outputs_action_sequencing.json",
    "quirk_lowercase_crash_input.json": "quirk_lowercase_crash_output.json",
    "quirk_putobjback_crash_input.json": "quirk_putobjback_crash_output.json",
    "quirk_greet_crash_input.json": "quirk_greet_crash_output.json",
}
NOSHORTCUT = "gold_outputs_action_sequencing_noshortcut.json"


def trim_item(t: dict) -> dict:
    out = {k: t[k] for k in ITEM_FIELDS if k in t}
    if t.get("goal_eval"):
        out["goal_eval"] = {k: t["goal_eval"][k] for k in GOAL_FIELDS}
    return out


def trim_output(d: dict, items: list) -> dict:
    tasks = d["tasks"]
    if isinstance(tasks, dict):  # first harness version: keyed by identifier
        tasks = [tasks[it["identifier"]] for it in items]
    out = {k: d.get(k) for k in ("summary", "summary_exception", "counters", "batch_summary",
                                 "batch_counters") if k in d}
    out["tasks"] = [trim_item(t) for t in tasks]
    return out


BEHAVIOR_RUNS = ["gold", "pert_drop", "pert_swap", "pert_duplicate", "pert_nonexistent_object",
                 "pert_wrong_hand", "pert_syntax"]
GOAL_COUNTS = ("all_goal_satisfied_graph", "tot_predicates", "tot_edge_predicates", "tot_node_predicates",
               "satisfied_predicates", "satisfied_edge_predicates", "satisfied_node_predicates")


def import_behavior(kit: str) -> int:
    """Per run: the input rows, the crashes, the summary, and per item the reference's error_type dict,
    goal counts and per-step execution flags."""
    src = os.path.join(kit, "cases", "behavior")
    dst = os.path.join(OUT, "behavior")
    os.makedirs(dst, exist_ok=True)
    for run in BEHAVIOR_RUNS:
        name = run.replace("pert_", "")
        rows = json.load(open(os.path.join(src, run, f"{name}.json")))
        log = json.load(open(os.path.join(src, run, "log", f"{name}.json")))
        out = {
            "inputs": rows,
            "crashes": sorted(json.load(open(os.path.join(src, run, f"{name}_crashes.json")))),
            "summary": json.load(open(os.path.join(src, run, "summary", f"{name}.json"))),
            "results": {r["identifier"]: {
                "error_type": r["llm_rst"]["error_type"],
                "goal_rst": {k: r["llm_rst"]["goal_rst"].get(k) for k in GOAL_COUNTS},
                "steps": [[e["action"], e["execution_success"]] for e in r["llm_rst"].get("execution_info") or []],
            } for r in log},
        }
        with open(os.path.join(dst, f"{run}.json"), "w") as f:
            json.dump(out, f, separators=(",", ":"))
    return len(BEHAVIOR_RUNS)


def _write_sorted_gz(path: str, obj: object) -> None:
    """Sorted compact JSON, gzipped without a name or time in the header (the same bytes every run)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_gz(path, obj, sort_keys=True)


def import_partnr(kit: str) -> int:
    """The recorded PARTNR evaluation cases (100 random, 4 hand-made) as one gzipped bundle of
    ``{"name", "input", "expected"}``; inputs unchanged, outputs without the traceback lines."""
    src = os.path.join(kit, "cases", "partnr")
    bundle = []
    for sub in ("", "handmade"):
        folder = os.path.join(src, sub)
        for name in sorted(n for n in os.listdir(folder) if n.endswith(".input.json")):
            stem = name[: -len(".input.json")]
            with open(os.path.join(folder, name)) as f:
                case = json.load(f)
            with open(os.path.join(folder, f"{stem}.expected.json")) as f:
                expected = json.load(f)
            expected.pop("traceback_tail", None)
            bundle.append({"name": f"{sub}/{stem}" if sub else stem, "input": case, "expected": expected})
    _write_sorted_gz(os.path.join(OUT, "partnr", "recorded_cases.json.gz"), bundle)
    return len(bundle)


def import_alfworld(kit: str) -> int:
    """The recorded ALFWorld transcripts (alfworld 0.4.2 + textworld 1.7.0 through the kit's harness)
    as one gzipped bundle: per case its spec, PDDL problem and traj data, and per dialect and command
    sequence the transcript rows (command, obs, won, done, admissible, planner_plan, aq_progress) —
    unchanged except that the handcoded expert's next command (seeded random choices) is dropped."""
    src = os.path.join(kit, "cases", "alfworld")
    bundle: dict = {}
    for name in sorted(n for n in os.listdir(src) if n.endswith(".json") and not n.endswith(".traj.json")):
        case = name[:-5]
        with open(os.path.join(src, name)) as f:
            spec = json.load(f)
        with open(os.path.join(src, f"{case}.pddl")) as f:
            pddl = f.read()
        runs = {}
        for dialect, folder in (("0.4", src), ("0.3", os.path.join(src, "dialect-0.3"))):
            for t in sorted(n for n in os.listdir(folder) if n.startswith(case + ".") and n.endswith(".jsonl")):
                with open(os.path.join(folder, t)) as f:
                    rows = [json.loads(line) for line in f if line.strip()]
                keep = ("step", "command", "obs", "won", "done", "admissible", "planner_plan", "aq_progress")
                runs[f"{dialect}/{t[len(case) + 1:-len('.transcript.jsonl')]}"] = [
                    {k: r[k] for k in keep if k in r} for r in rows]
        bundle[case] = {"spec": spec, "pddl": pddl,
                        "traj": {"task_type": spec["task_type"], "pddl_params": spec["pddl_params"]},
                        "transcripts": runs}
    _write_sorted_gz(os.path.join(OUT, "alfworld", "transcripts.json.gz"), bundle)
    return sum(len(c["transcripts"]) for c in bundle.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kit", default=str(KIT))
    args = ap.parse_args(argv)
    src = os.path.join(args.kit, "cases", "virtualhome")
    dst = os.path.join(OUT, "virtualhome")
    os.makedirs(dst, exist_ok=True)
    for inp, outp in VIRTUALHOME.items():
        shutil.copyfile(os.path.join(src, inp), os.path.join(dst, inp))
        items = json.load(open(os.path.join(src, inp)))
        trimmed = trim_output(json.load(open(os.path.join(src, outp))), items)
        with open(os.path.join(dst, outp), "w") as f:
            json.dump(trimmed, f, separators=(",", ":"))
    items = json.load(open(os.path.join(src, "gold_inputs.json")))
    trimmed = trim_output(json.load(open(os.path.join(src, NOSHORTCUT))), items)
    with open(os.path.join(dst, NOSHORTCUT), "w") as f:
        json.dump(trimmed, f, separators=(",", ":"))
    for name in ("subgoal_goal_and_split", "subgoal_goal_then_split", "subgoal_perturbed"):
        shutil.copyfile(os.path.join(src, f"{name}_inputs.json"), os.path.join(dst, f"{name}_inputs.json"))
        out = json.load(open(os.path.join(src, f"{name}_outputs.json")))
        with open(os.path.join(dst, f"{name}_outputs.json"), "w") as f:
            json.dump({k: out[k] for k in ("seed", "num_workers", "summary", "error_info")}, f,
                      separators=(",", ":"))
    shutil.copyfile(os.path.join(src, "action_sequencing_abort_patterns.json"),
                    os.path.join(dst, "action_sequencing_abort_patterns.json"))
    print(f"copied {len(VIRTUALHOME) + 2} case files to {os.path.normpath(dst)}")
    print(f"copied {import_partnr(args.kit)} PARTNR cases to {os.path.normpath(os.path.join(OUT, 'partnr'))}")
    print(f"copied {import_behavior(args.kit)} BEHAVIOR runs to {os.path.normpath(os.path.join(OUT, 'behavior'))}")
    print(f"copied {import_alfworld(args.kit)} ALFWorld transcripts to {os.path.normpath(os.path.join(OUT, 'alfworld'))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

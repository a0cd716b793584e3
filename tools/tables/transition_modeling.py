#!/usr/bin/env python
"""The per-model transition-modeling table of docs/transition_modeling.md: eai-eval 1.0.5's overall
figures (from tests/reference/data/transition_modeling/) beside eai-gym's, computed now.

    python -m tools.tables.transition_modeling [--world virtualhome|behavior] [--planner none|fast-downward|builtin]
                                              [--planner-timeout S] [--known-only] [--workers N] [--models M ...]
                                              [--limit N] [--subsets] [--protocol eai-1.0.5|fixed]

Without a planner the eai-gym planner column reads "-" (not computed). The reference planner column is
filled for the models whose reference run included the planner (``--subsets``: the reference runs on a
model's first replies instead of the models). With a planner, every eai-gym verdict is compared with the
reference's verdict for that reply wherever the stored data holds one (from any run: the model's, or a
subset's; a reply whose reference call hit a lowered timeout has none); eai-gym's timeouts are listed
apart. A row agrees when its logic figures are equal, no verdict differs, and the planner percentages
are equal where both are computed (eai-gym's only counts when it had no timeout). Prints a markdown table,
a line per model on the verdicts, and a line counting the rows that agree.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys

from eai_gym.eai.transition_modeling import world_scorer
from eai_gym.scoring.runner import run_items
from tools.common import REFERENCE_DATA

bt = world_scorer("behavior")
vt = world_scorer("virtualhome")

DATA = os.path.join(REFERENCE_DATA, "transition_modeling")
WORLDS = {"virtualhome": vt, "behavior": bt}


def _load(name: str) -> dict:
    with gzip.open(os.path.join(DATA, name), "rt", encoding="utf-8") as f:
        return json.load(f)


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}".rstrip("0").rstrip(".")


def reference_verdicts(doc: dict, model: str) -> dict[str, str]:
    """The reference's planner verdict (``succeeded``/``failed``) for each reply of ``model`` that has one in the
    stored data: from the model's run and its subsets' runs with the planner, leaving out the calls that hit a
    lowered timeout (their verdict under the reference's own timeout is not known)."""
    runs = [r for r in [doc["models"].get(model, {})] if r.get("planner_run")]
    runs += [r for _, r in sorted(doc.get("subsets", {}).items()) if r["model"] == model and r["planner_run"]]
    known: dict[str, str] = {}
    for run in runs:
        for ident, item in run["items"].items():
            if item.get("planner") is None or (run.get("planner_timeout") and item.get("timed_out")):
                continue
            if known.setdefault(ident, item["planner"]) != item["planner"]:
                raise SystemExit(f"{model} {ident}: the stored reference runs disagree on its planner verdict")
    return known


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world", choices=sorted(WORLDS), default="virtualhome")
    ap.add_argument("--planner", choices=["none", "fast-downward", "builtin"], default="none")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--planner-timeout", type=float,
                    help="seconds per Fast Downward call (default: the reference's, 100 VirtualHome, 200 BEHAVIOR)")
    ap.add_argument("--known-only", action="store_true",
                    help="run the planner only on the replies with a stored reference verdict (the eai-gym planner "
                         "column then reads '-'); the logic columns still cover every reply")
    ap.add_argument("--protocol", choices=["eai-1.0.5", "fixed"], default="eai-1.0.5",
                    help="fixed: see what the documented fixes change (the reference columns stay eai-1.0.5's)")
    ap.add_argument("--models", nargs="*")
    ap.add_argument("--limit", type=int, help="score only the first N replies of each model")
    ap.add_argument("--subsets", action="store_true", help="the reference's runs on a model's first replies")
    a = ap.parse_args(argv)
    mod = WORLDS[a.world]
    outputs = _load(f"outputs_{a.world}.json.gz")
    doc = _load(f"reference_{a.world}.json.gz")
    if a.subsets:
        ref = doc.get("subsets", {})
        rows = [(name, [x for x in outputs[r["model"]] if x["identifier"] in r["items"]])
                for name, r in sorted(ref.items())]
    else:
        ref = doc["models"]
        rows = [(m, outputs[m][: a.limit]) for m in (a.models or sorted(outputs))]
    print("| model | eai-eval 1.0.5 P / R / F1 | eai-gym P / R / F1 | eai-eval 1.0.5 planner % | eai-gym planner % |")
    print("|---|---|---|---|---|")
    agree = compared = 0
    notes = []
    for model, items in rows:
        base = ref[model].get("model", model)
        timeout = {} if a.planner_timeout is None else {"planner_timeout": a.planner_timeout}
        known = reference_verdicts(doc, base) if a.planner != "none" else {}
        planned = [x for x in items if x["identifier"] in known] if a.known_only else items
        jobs = mod.jobs(planned, a.protocol, a.planner, **timeout)
        records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=a.workers)
        if len(planned) < len(items):  # the logic scores of every reply; the planner only where it is compared
            logic_jobs = mod.jobs(items, a.protocol, "none")
            logic_records = run_items(logic_jobs.fn, logic_jobs.units, init=logic_jobs.init,
                                      init_args=logic_jobs.init_args, workers=a.workers)
            ours = logic_jobs.summarize(logic_records)["summary"]["overall"]
        else:
            ours = jobs.summarize(records)["summary"]["overall"]
        theirs = ref[model]["summary"]["overall"] if a.limit is None else {}
        differ: list = []
        timeouts: list = []
        if a.planner != "none":
            n = unknown = 0
            for rec in records:
                if rec.get("planner") is None:
                    continue
                if rec["planner"]["verdict"] == "timeout":
                    timeouts.append(rec["identifier"])
                elif rec["identifier"] not in known:
                    unknown += 1
                else:
                    n += 1
                    if (rec["planner"]["verdict"] == "solved") != (known[rec["identifier"]] == "succeeded"):
                        differ.append(rec["identifier"])
            notes.append(f"{model}: {n} planner verdicts compared, {len(differ)} differ {differ}; eai-gym timed out "
                         f"on {len(timeouts)} {timeouts}; {unknown} without a reference verdict")
        logic = [ours[k] for k in ("precision", "recall", "f1")]
        ref_logic = [theirs.get(k) for k in ("precision", "recall", "f1")]
        ok = logic == ref_logic
        ok = ok and not differ
        ref_planner = theirs.get("planner_success_rate")
        if ref[model].get("planner_timeout") and any(it.get("timed_out") for it in ref[model]["items"].values()):
            ref_planner = None  # a call cut at a lowered timeout counts as failed: not the reference's figure
        if ref_planner is not None and ours["planner_success_rate"] is not None and not timeouts:
            ok = ok and ref_planner == ours["planner_success_rate"]
        compared += 1
        agree += ok
        print(f"| {model} | {' / '.join(_fmt(x) for x in ref_logic)} | {' / '.join(_fmt(x) for x in logic)} | "
              f"{_fmt(ref_planner)} | {_fmt(ours['planner_success_rate'])} |", flush=True)
    print()
    for line in notes:
        print(line)
    print(f"{agree} of {compared} rows agree on every figure both sides computed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

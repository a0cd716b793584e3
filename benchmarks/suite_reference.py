"""The references on the same inputs, in the same run, for ``python -m benchmarks`` (when their
interpreters are given). Each entry: what eai-gym takes, what the reference takes, the ratio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

GAICO_DRIVER = r"""
import json, sys, time
from gaico.metrics.structured import PlanningJaccard, PlanningLCS
pairs = json.load(open(sys.argv[1]))
lcs, jac = PlanningLCS(), PlanningJaccard()
t = time.perf_counter()
for g, r in pairs:
    lcs._single_calculate(g, r); jac._single_calculate(g, r)
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def _entry(ours: float, ref: float, unit: str, **extra: Any) -> dict[str, Any]:
    return {"ours": f"{ours:.4g} {unit}", "reference": f"{ref:.4g} {unit}", "ratio": ref / ours, **extra}


def virtualhome(python: str, tmp: Path, quick: bool) -> dict[str, Any]:
    from benchmarks.bench_virtualhome import gold_items, time_ours, time_ours_in_process, time_reference

    path = tmp / "vh-gold.json"
    items = gold_items(60 if quick else None)
    path.write_text(json.dumps(items))
    ours, ours_summary = time_ours(str(path), "eai-1.0.5", 1 if quick else 3)
    inner = time_ours_in_process(str(path), "eai-1.0.5", 1 if quick else 3)
    wall, ref_inner, ref_summary = time_reference(python, str(path))
    return _entry(ours, wall, "s", what=f"action-sequencing scoring of {len(items)} gold plans, whole process",
                  summaries_equal=ours_summary == ref_summary,
                  after_imports={"ours_s": inner, "reference_s": ref_inner, "ratio": ref_inner / inner})


def behavior(python: str, kit: str, tmp: Path) -> dict[str, Any]:
    out = tmp / "beh.json"
    harness = os.path.join(kit, "harness", "behavior", "ref_beh_eval.py")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_behavior.py"), "--reference-python", python,
                    "--reference-harness", harness, "--repeat", "1", "--json", str(out)], check=True,
                   capture_output=True, cwd=ROOT)
    r = json.loads(out.read_text())
    ours = r["eai-1.0.5/reference-defaults"]["whole_process_s"]
    return _entry(ours, r["reference_whole_process_s"], "s",
                  what=f"action-sequencing scoring of {r['n_plans']} gold plans, whole process",
                  summaries_equal=r.get("summaries_equal"))


def alfworld(python: str, kit: str, quick: bool) -> dict[str, Any]:
    from benchmarks.bench_alfworld import eval_split_side_by_side

    r = eval_split_side_by_side(python, kit, 3 if quick else 20)
    return _entry(r["eai_gym_step_ms_median"], r["reference_step_ms_median"], "ms",
                  what=f"step with admissible commands, won and the oracle plan, {r['games']} eval games")


def gaico(python: str, tmp: Path) -> dict[str, Any]:
    from eai_gym.metrics import plan_jaccard, plan_lcs

    pairs = []
    for name in ("gaico.json", "unseen.json"):
        data = json.loads((ROOT / "tests" / "reference" / "data" / "gaico" / name).read_text())
        pairs += [(c["gen"], c["ref"]) for c in data["cases"]]
    path = tmp / "pairs.json"
    path.write_text(json.dumps(pairs))
    t = time.perf_counter()
    for _ in range(10):
        for g, r in pairs:
            plan_lcs(g, r)
            plan_jaccard(g, r)
    ours = (time.perf_counter() - t) / 10
    runs = [json.loads(subprocess.run([python, "-c", GAICO_DRIVER, str(path)], check=True, capture_output=True,
                                      text=True).stdout.strip().splitlines()[-1])["seconds"] for _ in range(3)]
    return _entry(1e3 * ours, 1e3 * min(runs), "ms", what=f"LCS + Jaccard of {len(pairs)} plan pairs (after imports)")


def references(a: Any, worlds: list[str], tmp: Path) -> dict[str, Any]:
    jobs = []
    if a.eai_python and "virtualhome" in worlds:
        jobs.append(("virtualhome scoring (eai-eval 1.0.5)", lambda: virtualhome(a.eai_python, tmp, a.quick)))
    if a.behavior_python and "behavior" in worlds:
        jobs.append(("behavior scoring (eai-eval 1.0.5, kit harness)", lambda: behavior(a.behavior_python, a.kit, tmp)))
    if a.alfworld_python and "alfworld" in worlds:
        jobs.append(("alfworld step (alfworld 0.4.2)", lambda: alfworld(a.alfworld_python, a.kit, a.quick)))
    if a.gaico_python:
        jobs.append(("plan similarity (gaico 0.4.0)", lambda: gaico(a.gaico_python, tmp)))
    out: dict[str, Any] = {}
    for name, job in jobs:
        print(f"[reference] {name} ...", file=sys.stderr)
        try:
            out[name] = job()
        except (OSError, subprocess.CalledProcessError, RuntimeError, KeyError, ValueError) as e:
            detail = getattr(e, "stderr", "") or ""
            out[name] = {"error": f"{type(e).__name__}: {str(e)[:200]} {str(detail)[-300:]}".strip()}
    return out

#!/usr/bin/env python
"""Benchmark and agreement: the builtin planner (``--planner builtin``) beside Fast Downward's verdicts.

    python benchmarks/bench_builtin_planner.py --world virtualhome|behavior [--models M ...] [--timeout S]
        [--fast-downward] [--out FILE.json]

For every published reply (tests/reference/data/transition_modeling/outputs_<world>.json.gz) that has a
stored eai-eval 1.0.5 planner verdict (Fast Downward, see that folder's PROVENANCE.md), the domain eai-gym
builds for it and the item's problem go to the builtin planner (``--timeout``, default 20 s); with
``--fast-downward``, also to Fast Downward in this process (same timeout), for the time side by side.
Prints the counts: builtin verdict equal to the reference's, different (each listed), timed out; and the
builtin's (and Fast Downward's) total, median and largest seconds per call. One process, one call at a time.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from eai_gym.eai import transition_modeling as tm  # noqa: E402
from eai_gym.eai.builtin_planner import BuiltinPlanner  # noqa: E402
from eai_gym.eai.planner import FastDownward  # noqa: E402
from eai_gym.eai.transition_modeling import world_scorer  # noqa: E402
from eai_gym.logic.pddl_operators import OperatorFormatError, complete_domain  # noqa: E402
from tools.tables.transition_modeling import reference_verdicts  # noqa: E402

bt = world_scorer("behavior")
vt = world_scorer("virtualhome")

DATA = os.path.join(HERE, "..", "tests", "reference", "data", "transition_modeling")
WORLDS = {"virtualhome": vt, "behavior": bt}


def _load(name: str) -> dict:
    with gzip.open(os.path.join(DATA, name), "rt", encoding="utf-8") as f:
        return json.load(f)


def _times(xs: list[float]) -> dict:
    return {"calls": len(xs), "total_s": round(sum(xs), 1), "median_s": round(statistics.median(xs), 3) if xs else None,
            "max_s": round(max(xs), 2) if xs else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--world", choices=sorted(WORLDS), required=True)
    ap.add_argument("--models", nargs="*")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--fast-downward", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    data = WORLDS[a.world].data()
    outputs = _load(f"outputs_{a.world}.json.gz")
    doc = _load(f"reference_{a.world}.json.gz")
    builtin, fd = BuiltinPlanner(), (FastDownward() if a.fast_downward else None)
    counts = {"agree": 0, "differ": 0, "timeout": 0}
    differ, timeouts, b_s, fd_s = [], [], [], []
    for model in a.models or sorted(outputs):
        known = reference_verdicts(doc, model)
        for item in outputs[model]:
            ident = item["identifier"]
            if ident not in known:
                continue
            try:
                predicted = tm.read_reply(item["llm_output"])
            except OperatorFormatError:
                continue
            domain = complete_domain(data.base_domain, predicted, data.gold_operators)
            r = builtin.solve(domain, data.problems[ident], a.timeout)
            b_s.append(r["seconds"])
            if fd is not None:
                fd_s.append(fd.solve(domain, data.problems[ident], a.timeout)["seconds"])
            if r["verdict"] == "timeout":
                counts["timeout"] += 1
                timeouts.append([model, ident, known[ident]])
            elif (r["verdict"] == "solved") == (known[ident] == "succeeded"):
                counts["agree"] += 1
            else:
                counts["differ"] += 1
                differ.append([model, ident, known[ident], r["verdict"], r["message"]])
        print(model, counts, flush=True)
    res = {"world": a.world, "timeout_s": a.timeout, "cpus": os.cpu_count(), "counts": counts,
           "builtin": _times(b_s), "fast_downward": _times(fd_s) if fd else None, "differ": differ,
           "timeouts": timeouts}
    print(json.dumps({k: v for k, v in res.items() if k not in ("differ", "timeouts")}))
    for row in differ:
        print("DIFFER", *row)
    for row in timeouts:
        print("TIMEOUT", *row)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

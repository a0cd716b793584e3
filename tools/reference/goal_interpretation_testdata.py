#!/usr/bin/env python
"""Pack recorded eai-eval 1.0.5 goal-interpretation results into eai-gym's test data.

Inputs: the JSON files ``tools/reference/goal_interpretation.py`` wrote (``vh`` and ``behavior`` runs)
and the folder ``tools/reference/goal_interpretation_cases.py`` wrote. Outputs, in
``tests/reference/data/goal_interpretation/`` (gzip JSON, sorted keys, reproducible bytes):

* ``virtualhome_reference.json.gz``: per model, the reference summary (``None`` when it aborted), the
  aborts (item index, identifier, exception) and per item what the evaluator logs (parse failure,
  ``[TP, FP, FN]`` per goal kind, badly formatted and hallucinated goal counts) and the summary of the
  run without the items it aborted on;
* ``behavior_reference.json.gz``: per model, the summary, the summary after the replies it aborted on
  were replaced by ``""`` (and missing demos added as ``""``), the aborts, and the per-demo analysis;
* ``generated_inputs.json.gz``: the generated model files of both worlds.

Usage: python -m tools.reference.goal_interpretation_testdata --vh-ref A.json [B.json ...] --beh-ref C.json --cases DIR
"""

from __future__ import annotations

import argparse
import glob
import gzip
import json
import os
import sys

from tools.common import REFERENCE_DATA

OUT = os.path.join(REFERENCE_DATA, "goal_interpretation")
REFERENCE = "eai-eval==1.0.5 (virtualhome_eval, behavior_eval; PyPI, MIT), Python 3.11.7, PYTHONHASHSEED=0"


def _write(name: str, doc: dict) -> None:
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(gzip.compress(json.dumps(doc, sort_keys=True).encode(), 9, mtime=0))
    print(f"wrote {os.path.normpath(path)} ({os.path.getsize(path)} bytes)", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vh-ref", nargs="+", required=True)
    ap.add_argument("--beh-ref", nargs="+", required=True)
    ap.add_argument("--cases", required=True)
    args = ap.parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    generated = {world: {os.path.basename(p)[:-len("_outputs.json")]: json.load(open(p))
                         for p in sorted(glob.glob(os.path.join(args.cases, world, "*_outputs.json")))}
                 for world in ("virtualhome", "behavior")}
    vh: dict = {}
    for path in args.vh_ref:
        for name, r in json.load(open(path)).items():
            source = "generated" if name in generated["virtualhome"] else "published"
            vh[f"{source}/{name}"] = {k: r[k] for k in ("summary", "summary_without_crashes", "crashes", "items")}
    beh: dict = {}
    for path in args.beh_ref:
        for name, r in json.load(open(path)).items():
            beh[f"generated/{name}"] = {k: r[k] for k in ("summary", "summary_with_crashing_replies_emptied",
                                                          "crashes", "items")}
    _write("virtualhome_reference.json.gz", {"reference": REFERENCE, "generated_by":
                                             "tools/reference/goal_interpretation.py vh", "models": vh})
    _write("behavior_reference.json.gz", {"reference": REFERENCE, "generated_by":
                                          "tools/reference/goal_interpretation.py behavior", "models": beh})
    _write("generated_inputs.json.gz", {"generated_by": "tools/reference/goal_interpretation_cases.py", **generated})
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run the reference harness ref_tm_eval.py (path in $REF_TM_EVAL) with eai-eval 1.0.5's Fast Downward call
timed: each call's seconds and whether it hit the timeout are recorded per item, and ``--planner-timeout T``
lowers the reference's timeout (200 s BEHAVIOR, 100 s VirtualHome) to T for a first, quicker pass.

A call that ends before T gives the verdict it gives under the reference's own timeout (Fast Downward's
lama-first search is deterministic; the timeout only cuts it), so only the items that hit T (``timed_out``)
need the full timeout. No code of the reference is changed: its ``FD.plan_from_pddl`` is wrapped.
Run with the reference venv's python, from the repository root::

    REF_TM_EVAL=<kit>/harness/transition_modeling/ref_tm_eval.py <venv>/bin/python \\
        -m tools.reference.transition_modeling_timed {virtualhome|behavior} OUTPUTS.json MODEL OUT.json.gz \\
        [--workers N] [--planner-timeout T]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import runpy
import sys
import tempfile
import time


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("world", choices=["virtualhome", "behavior"])
    ap.add_argument("outputs")
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--planner-timeout", type=float)
    ap.parse_known_args(argv)  # --help, and a clear error on missing arguments; ref_tm_eval.py parses the rest
    from virtualhome_eval.evaluation.transition_modeling.scripts import evaluate_results as er

    limit = None
    if "--planner-timeout" in argv:
        i = argv.index("--planner-timeout")
        limit = float(argv[i + 1])
        del argv[i:i + 2]
    calls_file = tempfile.NamedTemporaryFile(prefix="ref-tm-calls-", suffix=".jsonl", delete=False).name
    original = er.FD.plan_from_pddl

    def timed_plan_from_pddl(self, dom_file, prob_file, *args, timeout=100, **kwargs):
        used = timeout if limit is None else min(timeout, limit)
        ident = os.path.splitext(os.path.basename(dom_file))[0]
        start = time.time()
        outcome = "plan"
        try:
            return original(self, dom_file, prob_file, *args, timeout=used, **kwargs)
        except Exception as e:  # the reference's own failure path; re-raised unchanged
            outcome = "timeout" if "timed out" in str(e) else "exception"
            raise
        finally:
            with open(calls_file, "a", encoding="utf-8") as f:  # one short line per call: appends do not interleave
                f.write(json.dumps({"identifier": ident, "seconds": round(time.time() - start, 3),
                                    "outcome": outcome, "timeout": used}) + "\n")

    er.FD.plan_from_pddl = timed_plan_from_pddl
    sys.argv = ["ref_tm_eval.py", *argv]
    try:
        runpy.run_path(os.environ.get("REF_TM_EVAL", "ref_tm_eval.py"), run_name="__main__")
        calls = {}
        with open(calls_file, encoding="utf-8") as f:
            for line in f:
                c = json.loads(line)
                calls[c.pop("identifier")] = c
    finally:
        os.unlink(calls_file)
    out = argv[3]
    with gzip.open(out, "rt") as f:
        doc = json.load(f)
    doc["planner_timeout"] = limit
    for it in doc["items"]:
        c = calls.get(it["identifier"])
        if c is not None:
            it["planner_seconds"] = c["seconds"]
            it["timed_out"] = c["outcome"] == "timeout"
    with gzip.open(out, "wt") as f:
        json.dump(doc, f, sort_keys=True)


if __name__ == "__main__":
    main()

"""Run the reference harness ref_tm_eval.py (path in $REF_TM_EVAL) with eai-eval 1.0.5's planner replaced by one
that always fails: the logic scores (precision/recall/F1, format errors, hallucinations) are the reference's own.

Run with the reference venv's python, from the repository root::

    REF_TM_EVAL=<kit>/harness/transition_modeling/ref_tm_eval.py <venv>/bin/python \\
        -m tools.reference.transition_modeling_logic_only {virtualhome|behavior} OUTPUTS.json MODEL OUT.json.gz \\
        [--workers N]

The arguments go to ref_tm_eval.py unchanged.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys


class PlannerSkipped:
    """Stands in for eai-eval's Fast Downward wrapper: every plan request fails."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    def plan_from_pddl(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("planner skipped (logic-only run)")


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("world", choices=["virtualhome", "behavior"])
    ap.add_argument("outputs")
    ap.add_argument("model")
    ap.add_argument("out")
    ap.parse_known_args(argv)  # --help, and a clear error on missing arguments; ref_tm_eval.py parses the rest
    from virtualhome_eval.evaluation.transition_modeling.scripts import evaluate_results as er

    er.FD = PlannerSkipped
    sys.argv = ["ref_tm_eval.py", *argv]
    runpy.run_path(os.environ.get("REF_TM_EVAL", "ref_tm_eval.py"), run_name="__main__")


if __name__ == "__main__":
    main()

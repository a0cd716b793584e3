"""Run the reference harness ref_tm_eval.py (path in $REF_TM_EVAL) with eai-eval 1.0.5's planner replaced by one
that always fails: the logic scores (precision/recall/F1, format errors, hallucinations) are the reference's own.
Run with the reference venv's python. usage: python ref_transition_modeling_logic_only.py {virtualhome|behavior} OUTPUTS.json MODEL OUT.json.gz [--workers N]"""
import os
import runpy
import sys

from virtualhome_eval.evaluation.transition_modeling.scripts import evaluate_results as er


class PlannerSkipped:
    def __init__(self, *args, **kwargs):
        pass

    def plan_from_pddl(self, *args, **kwargs):
        raise RuntimeError("planner skipped (logic-only run)")


er.FD = PlannerSkipped
sys.argv = ["ref_tm_eval.py", *sys.argv[1:]]
runpy.run_path(os.environ.get("REF_TM_EVAL", "ref_tm_eval.py"), run_name="__main__")

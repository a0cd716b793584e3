#!/usr/bin/env python
"""Check the packaged BEHAVIOR-1K gold plans with bddl 3.6.0's own goal evaluator.

Every gold plan (or those of ``--only``) is replayed through eai-gym's world; its final state, restricted to the
atoms over the activity's declared instances (the undeclared intermediates the rules pass through are eai-gym's
bookkeeping, never read by bddl), goes to the reference harness (``reference/harness/behavior1k/ref_bddl_goal.py``,
bddl's ``Conditions`` / ``get_goal_conditions`` / ``evaluate_goal_conditions``). The script prints how many final
states bddl finds satisfying, and lists every activity where bddl's verdict or its per-conjunct verdicts differ from
``check_goal``'s (exit status 1 if any).

Usage: python -m tools.reference.behavior1k_gold --ref-python /work/refvenvs/<name>-bddl/bin/python
           [--harness PATH] [--plans PATH] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os

from eai_gym.core import Episode
from eai_gym.envs.behavior1k import check_goal
from eai_gym.envs.behavior1k.data import activity_record
from eai_gym.envs.behavior1k.world import Behavior1KWorld, load_task
from tools.common import PACKAGE_DATA
from tools.reference.behavior1k_goal_states import BDDL_HARNESS, run_bddl_harness


def final_facts(activity: str, steps: list[str]) -> list[list[str]]:
    """The state after ``steps`` as check_goal's facts over the declared instances."""
    world = Behavior1KWorld()
    ep = Episode(world, activity, load_task(activity).initial_state)
    for text in steps:
        step = ep.step_text(text)
        if not step.ok:
            raise SystemExit(f"{activity}: step {step.index} {text} fails: {step.message}")
    declared = {i for names in activity_record(activity)["objects"].values() for i in names}
    return [list(f) for f in sorted(ep.state.facts) if all(a in declared for a in f[1:])]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref-python", required=True, help="python of a venv with bddl==3.6.0 installed")
    ap.add_argument("--harness", default=BDDL_HARNESS)
    ap.add_argument("--plans", default=os.path.join(PACKAGE_DATA, "behavior1k",
                                                    "gold_plans.json.gz"))
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    with gzip.open(args.plans) as f:
        plans = json.load(f)["plans"]
    names = sorted(args.only or plans)
    requests = [{"activity": a, "id": a, "facts": final_facts(a, plans[a])} for a in names]
    verdicts = run_bddl_harness(args.ref_python, args.harness, requests)
    differ = []
    for r, v in zip(requests, verdicts):
        ours = check_goal(r["activity"], r["facts"])
        theirs = [c["satisfied"] for c in v["conditions"]]
        if v.get("error") or v.get("warnings") or ours["satisfied"] != v["satisfied"] or ours["conditions"] != theirs:
            differ.append(r["activity"])
            print(f"{r['activity']}: eai-gym {ours}, bddl {v.get('satisfied')} {theirs} "
                  f"{v.get('error') or v.get('warnings') or ''}")
    ok = sum(1 for v in verdicts if v["satisfied"])
    print(f"{len(requests)} gold plans replayed; bddl 3.6.0 finds {ok} final states satisfying; "
          f"{len(requests) - len(differ)} agree with check_goal, {len(differ)} differ")
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""List the BEHAVIOR-1K goal literals forced beyond the syntax (eai_gym.logic.bddl_backbone).

For every activity (or those of ``--only``): the literals its goal forces that no conjunct lists as necessary
(through ``and``/``forall``/``not``), marking those the conjuncts force only together; then the counts.

Usage: python -m tools.tables.behavior1k_forced_literals [--only NAME ...]
"""

from __future__ import annotations

import argparse

from eai_gym.envs.behavior1k.data import activity_names
from eai_gym.envs.behavior1k.goals import activity_goal, goal_forced_literals, joint_goal_literals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    beyond = joint = 0
    names = args.only or activity_names()
    unknown = sorted(set(names) - set(activity_names()))
    if unknown:
        ap.error(f"unknown BEHAVIOR-1K activities: {', '.join(unknown)}")
    for name in names:
        listed = {lit for c in activity_goal(name).conditions for lit in c.necessary_literals()}
        extra = [lit for lit in goal_forced_literals(name) if lit not in listed]
        together = set(joint_goal_literals(name))
        if extra:
            beyond += 1
            joint += bool(together)
            print(f"{name}:")
            for atom, positive in extra:
                print(f"  {'' if positive else 'not '}{atom}{'  (conjuncts together)' if (atom, positive) in together else ''}")
    print(f"{len(names)} activities: {beyond} with literals forced beyond the necessary ones, {joint} with literals "
          "the conjuncts force only together")


if __name__ == "__main__":
    main()

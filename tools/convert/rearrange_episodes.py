#!/usr/bin/env python
"""Generate and validate the shipped rearrange episode set (``eai_gym/data/rearrange/episodes_val.json.gz``).

    python -m tools.convert.rearrange_episodes [--per-kind 7] [--out PATH]

For every shipped house and every task kind, episodes are generated with seeds 0, 1, 2, ... until
``--per-kind`` of them pass validation:

1. the spec loads and validates under both protocols (``fixed`` and ``partnr``);
2. every handle a proposition or constraint names exists (objects, furniture, floors, rooms);
3. at step 0 nothing is satisfied: task percent complete 0 and no success (PARTNR's ci.json has an
   episode that starts solved, partnr-planner issue #18);
4. the two-agent oracle and the single-agent oracle both reach task state success 1.0, replayed with
   ``run_scripts`` under the ``fixed`` protocol, without a failed action.

Prints the number generated and rejected per reason. Output is deterministic (sorted JSON, gzip
without a timestamp).
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from eai_gym.builders.rearrange.generator import KINDS, GenerationError, generate_episode
from eai_gym.envs.rearrange.episode import save_episodes
from eai_gym.envs.rearrange.houses import house_ids, load_house
from eai_gym.envs.rearrange.oracle import OracleError, oracle_scripts
from eai_gym.envs.rearrange.rollout import run_scripts
from tools.common import PACKAGE_DATA

OUT = PACKAGE_DATA / "rearrange" / "episodes_val.json.gz"


def handles_exist(episode, house) -> bool:
    names = set(episode.object_classes) | set(house.furniture_by_name) | set(house.floors) | set(house.room_by_name)
    for p in episode.evaluation["evaluation_propositions"]:
        for key, value in p["args"].items():
            if key in ("number", "l2_threshold") or not isinstance(value, list):
                continue
            flat = [h for v in value for h in (v if isinstance(v, list) else [v])]
            if not set(flat) <= names:
                return False
    return True


def validate(episode, house) -> str | None:
    """None if the episode is valid, else the reason."""
    for protocol in ("fixed", "partnr"):
        try:
            episode.spec(protocol)
        except ValueError as e:
            return f"spec ({protocol}): {e}"
    if not handles_exist(episode, house):
        return "missing handle"
    try:
        two = oracle_scripts(episode)
        one = oracle_scripts(episode, agents=("agent_0",))
    except OracleError as e:
        return f"oracle: {str(e).split(':')[0]}"
    r2, r1 = run_scripts(episode, two), run_scripts(episode, one)
    if r2.percent_at_start != 0.0:
        return "satisfied at step 0"
    if not (r2.success and r1.success):
        return "oracle replay does not succeed"
    if r2.failures or r1.failures:
        return "oracle replay has failed actions"
    episode.info["oracle_steps"] = {"two_agents": r2.steps, "single_agent": r1.steps}
    return None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--per-kind", type=int, default=7)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    episodes = []
    rejected: collections.Counter = collections.Counter()
    tried = 0
    for hid in house_ids():
        house = load_house(hid)
        for kind in KINDS:
            seed = kept = 0
            while kept < args.per_kind:
                if seed > 200:
                    raise SystemExit(f"{hid} {kind}: fewer than {args.per_kind} valid episodes in 200 seeds")
                tried += 1
                try:
                    ep = generate_episode(house, kind, seed, f"{hid}_{kind}_{kept:02d}")
                except GenerationError as e:
                    rejected[f"generation: {str(e)[:40]}"] += 1
                    seed += 1
                    continue
                reason = validate(ep, house)
                seed += 1
                if reason:
                    rejected[reason if len(reason) < 60 else reason[:60] + "..."] += 1
                    continue
                episodes.append(ep)
                kept += 1
    save_episodes(episodes, args.out, {"generator": "tools/convert/rearrange_episodes.py", "per_kind": args.per_kind,
                                       "houses": house_ids(), "kinds": list(KINDS)})
    print(f"{args.out}: {len(episodes)} episodes ({tried} generated, {tried - len(episodes)} rejected), "
          f"{args.out.stat().st_size} bytes")
    for reason, n in sorted(rejected.items(), key=lambda kv: -kv[1]):
        print(f"  rejected {n:4d}: {reason}")


if __name__ == "__main__":
    main()

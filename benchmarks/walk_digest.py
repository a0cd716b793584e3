"""Digests of everything the envs return on seeded random legal walks, to show a speed-up changes nothing.

Each configuration (world, protocol, options) walks ``--steps`` random legal index actions through
``gymnasium.make`` (a reset every 50 steps) and hashes every observation, reward, flag and info (the mask
included) in order. Run it on two trees and compare the printed JSON::

    python benchmarks/walk_digest.py --steps 3000 > before.json     # on the old tree
    python benchmarks/walk_digest.py --steps 3000 > after.json      # on the new one; then diff
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

CONFIGS: dict[str, tuple[str, dict]] = {
    "virtualhome.fixed": ("eai_gym/VirtualHome-v0", {}),
    "virtualhome.eai": ("eai_gym/VirtualHome-v0", {"protocol": "eai-1.0.5"}),
    "virtualhome.fixed.admissible": ("eai_gym/VirtualHome-v0", {"admissible": True}),
    "behavior.fixed": ("eai_gym/Behavior-v0", {}),
    "behavior.eai.refdefaults": ("eai_gym/Behavior-v0", {"protocol": "eai-1.0.5",
                                                         "initial_state": "reference-defaults"}),
    "rearrange.fixed": ("eai_gym/Rearrange-v0", {}),
    "rearrange.partnr.legal": ("eai_gym/Rearrange-v0", {"protocol": "partnr", "legal_actions_info": True}),
    "alfworld.0.4": ("eai_gym/AlfWorld-v0", {}),
    "alfworld.0.3": ("eai_gym/AlfWorld-v0", {"dialect": "0.3"}),
    "behavior1k": ("eai_gym/Behavior1K-v0", {}),
    "behavior1k.no_success_end": ("eai_gym/Behavior1K-v0", {"terminate_on_success": False}),
}


def _default(x):
    if isinstance(x, np.ndarray):
        return {"dtype": str(x.dtype), "v": x.tolist()}
    if isinstance(x, np.generic):
        return x.item()
    return repr(x)


def digest(env_id: str, kwargs: dict, steps: int, seed: int = 0) -> str:
    import gymnasium as gym

    import eai_gym  # noqa: F401

    env = gym.make(env_id, action_mode="index", **kwargs)
    h = hashlib.sha256()
    rng = np.random.default_rng(seed)
    ep = 0
    obs, info = env.reset(seed=ep)
    h.update(json.dumps([obs, info], default=_default, sort_keys=True).encode())
    for n in range(1, steps + 1):
        legal = np.flatnonzero(info["action_mask"])
        a = int(legal[rng.integers(len(legal))])
        res = env.step(a)
        info = res[4]
        h.update(json.dumps([a, *res], default=_default, sort_keys=True).encode())
        if res[2] or res[3] or n % 50 == 0:
            ep += 1
            obs, info = env.reset(seed=ep)
            h.update(json.dumps([obs, info], default=_default, sort_keys=True).encode())
    return h.hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--only", default="", help="configurations whose name starts with this")
    args = ap.parse_args(argv)
    out = {name: digest(env_id, kw, args.steps) for name, (env_id, kw) in CONFIGS.items()
           if name.startswith(args.only)}
    print(json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""alfworld's Python API over eai-gym's ALFWorld engine, so ALFWorld agents and trainers run unchanged.

    from eai_gym.compat import alfworld
    config = alfworld.default_config()            # or yaml.safe_load(open("base_config.yaml"))
    env = alfworld.get_environment("AlfredTWEnv")(config, train_eval="eval_out_of_distribution")
    env = env.init_env(batch_size=1)
    obs, infos = env.reset()                       # obs: one text per game; infos: dict of per-game lists
    obs, scores, dones, infos = env.step(["go to countertop 1"])

Code written against ``import alfworld.agents.environment`` runs as it is after :func:`install` (in-process:
a meta-path finder serves alfworld's module names, and with ``aliases=`` a client's bundled copy's, from
this API; :mod:`.importer`) or after ``eai-gym compat install alfworld`` (the same in every interpreter of
the environment). See ``docs/compat_alfworld.md`` for what matches alfworld 0.4.2 and what differs.

Importing this package loads nothing else: each name below is imported when first used (so the finder can
be activated at interpreter start without loading numpy or the engine).
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the submodule defining it
_WHERE = {"AlfredBatchEnv": "batch_env", "Proposition": "facts", "Variable": "facts", "SHIPPED_ROOT": "game_files",
          "load_game": "game_files", "shipped_paths": "game_files", "AlfredTWEnv": "tw_env",
          "SingleAlfredTWEnv": "tw_env", "default_config": "tw_env", "get_environment": "tw_env",
          "install": "importer", "uninstall": "importer"}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))

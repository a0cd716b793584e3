"""BEHAVIOR-1K's 1,016 activities (bddl 3.6.0) without a simulator: exact goal checking and a symbolic world.

``from eai_gym.envs.behavior1k import check_goal``: bddl 3.6.0's goal semantics on a symbolic state
(:mod:`.goals`). The env ``eai_gym/Behavior1K-v0`` (:class:`.env.Behavior1KEnv`, whose docstring documents it):
text or index actions over OmniGibson's symbolic primitives and the added actions (docs/behavior1k.md),
``reset(options={"activity": NAME})``, reward 1 on reaching the goal, terminated at the goal, truncated after 300
steps. Modes (``eai-gym score behavior1k``; :mod:`.spec`): ``action_sequencing`` (default; protocol
``bddl-3.6.0``), ``goal_interpretation`` (scored as EAI scores BEHAVIOR's: protocols ``fixed`` and ``eai-1.0.5``)
and ``similarity``. Data: converted from the bddl 3.6.0 sdist by ``tools/convert/behavior1k.py`` (MIT; provenance
in ``eai_gym/data/behavior1k/``). The package loads nothing until a name is used, so reading the registry's
:mod:`.spec` stays light.

>>> from eai_gym import registry
>>> [m.name for m in registry.world("behavior1k").modes]
['action_sequencing', 'goal_interpretation', 'similarity']
"""

from typing import Any

__all__ = ["check_goal"]


def __getattr__(name: str) -> Any:
    if name == "check_goal":
        from .goals import check_goal

        return check_goal
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

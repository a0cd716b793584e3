"""VirtualHome: EAI's 342 household tasks (scene_1) on an evolving scene graph, without the Unity simulator.

World
    The evolving-graph transition model of ``eai-eval`` 1.0.5's ``virtualhome_eval``: objects with states and
    relations (``INSIDE``, ``ON``, ``CLOSE``, ``FACING``, ``HOLDS_RH``...), script actions with the reference's
    preconditions and effects, failures mapped onto the EAI error taxonomy (:mod:`.world`, :mod:`.dynamics`).
Modes (``eai-gym score virtualhome``; :mod:`.spec`), EAI's four modules and plan similarity
    ``action_sequencing`` (default): replay each output's script, EAI's goal and trajectory summary;
    ``subgoal_decomposition``: expand temporal-logic subgoals into actions and replay them;
    ``goal_interpretation``: compare each output's goal conditions with the task's gold goals (precision, recall,
    F1); ``transition_modeling``: score each output's PDDL operators against the gold ones and plan with them;
    ``similarity``: LCS, Jaccard and edit distance against the gold script. Protocols ``fixed`` (documented
    intent, default) and ``eai-1.0.5`` (the reference, bugs included).
Environment ``eai_gym/VirtualHome-v0`` (:class:`.env.VirtualHomeEnv`, whose docstring documents it)
    Action space: ``Text`` (script syntax ``[WALK] <kitchen> (11)`` or one EAI JSON item), or ``Discrete``
    with ``action_mode="index"`` and ``info["action_mask"]``. Observation space: ``Text`` (task, goal, objects
    with states and relations, last feedback).
Reward and termination
    Reward 1.0 on a step where the goal holds, else 0.0. Terminates when the goal holds (``terminate_on_success``)
    or at the first fatal error with ``terminate_on_error=True``; truncated after 100 steps.
Data
    ``eai_gym/data/virtualhome``: converted from the ``eai-eval==1.0.5`` wheel (MIT) by
    ``tools/convert/virtualhome.py``; provenance, sha256 and licence in its ``PROVENANCE.md``.

>>> from eai_gym import registry
>>> [m.name for m in registry.world("virtualhome").modes]
['action_sequencing', 'subgoal_decomposition', 'goal_interpretation', 'transition_modeling', 'similarity']
"""

from __future__ import annotations

from typing import Any

#: the names this package offers, and the module each comes from (imported when first used, so that the
#: registry can read :mod:`.spec` without loading the world)
_EXPORTS = {"VirtualHomeEnv": "env", "VirtualHomeGoal": "tasks", "gold_plan_json": "tasks", "load_task": "tasks",
            "task_ids": "tasks", "PROTOCOLS": "world", "VirtualHomeWorld": "world"}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


__all__ = ["PROTOCOLS", "VirtualHomeEnv", "VirtualHomeGoal", "VirtualHomeWorld", "gold_plan_json",
           "load_task", "task_ids"]

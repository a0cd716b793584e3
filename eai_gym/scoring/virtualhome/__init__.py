"""VirtualHome's offline scorers, one per mode: action sequencing (:mod:`.action_sequencing`, whose API this
package re-exports), subgoal decomposition (:mod:`.subgoal_decomposition`), goal interpretation
(:mod:`.goal_interpretation`), transition modeling (:mod:`.transition_modeling`; plan similarity is the shared
:mod:`eai_gym.scoring.similarity`), and the registry's mode hooks (:mod:`.modes`).

A world's scorers live in ``eai_gym/scoring/<world>/``: above the world (``envs/``) and the metrics, which
they use, and beside the shared machinery (``runner``, ``jobs``, ``io``, ``results``, ``similarity``).

The re-exported names are imported when first used, so that importing one mode's module (``eai-gym score``
does) does not import the action-sequencing scorer too.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ERROR_STRINGS", "score_item", "score_items"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import action_sequencing

    return getattr(action_sequencing, name)

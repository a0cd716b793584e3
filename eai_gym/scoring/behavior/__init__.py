"""BEHAVIOR's offline scorers, one per mode: action sequencing (:mod:`.action_sequencing`, whose API this
package re-exports), subgoal decomposition (:mod:`.subgoal_decomposition`), goal interpretation
(:mod:`.goal_interpretation`); transition modeling is EAI's (:mod:`eai_gym.eai.transition_modeling`, with
BEHAVIOR's planner timeout from its mode), plan similarity the shared :mod:`eai_gym.scoring.similarity`; the
registry's mode hooks are in :mod:`.modes`.
"""

from .action_sequencing import score_item, score_items

__all__ = ["score_item", "score_items"]

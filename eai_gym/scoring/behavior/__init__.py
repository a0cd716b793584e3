"""BEHAVIOR's offline scorers, one per mode: action sequencing (:mod:`.action_sequencing`, whose API this
package re-exports), subgoal decomposition (:mod:`.subgoal_decomposition`), goal interpretation
(:mod:`.goal_interpretation`), transition modeling (:mod:`.transition_modeling`; plan similarity is the shared
:mod:`eai_gym.scoring.similarity`), and the registry's mode hooks (:mod:`.modes`).
"""

from .action_sequencing import score_item, score_items

__all__ = ["score_item", "score_items"]

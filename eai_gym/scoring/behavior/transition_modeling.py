"""EAI transition modeling in BEHAVIOR: score an LLM's PDDL operators for the BEHAVIOR items of eai-eval
1.0.5 (logic scores, and the planner verdict on the item's problem, timeout 200 s as the reference).
The scoring is world-agnostic (:class:`..transition_modeling.TransitionModelingWorld`); this module names
the world and its planner timeout, and exposes the scorer's methods as the module's functions.
"""

from __future__ import annotations

from .. import transition_modeling as tm

PLANNER_TIMEOUT = 200.0
SCORER = tm.TransitionModelingWorld("behavior", PLANNER_TIMEOUT)

world_data = SCORER.data
score_item = SCORER.score_item
summarize = SCORER.summarize
gold_items = SCORER.gold_items
transition_modeling_jobs = SCORER.jobs

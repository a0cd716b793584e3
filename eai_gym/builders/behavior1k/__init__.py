"""BEHAVIOR-1K's gold-plan builders: the planner (:mod:`.planner`), its distance estimate (:mod:`.heuristic`)
and the static checks of why an activity has no plan (:mod:`.diagnose`), run by
``python -m tools.convert.behavior1k_gold_plans``."""

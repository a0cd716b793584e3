"""VirtualHome's offline scorers, one module per mode: action sequencing (:mod:`.action_sequencing`), subgoal
decomposition (:mod:`.subgoal_decomposition`), goal interpretation (:mod:`.goal_interpretation`); transition modeling
is EAI's (:mod:`eai_gym.eai.transition_modeling`, with VirtualHome's planner timeout from its mode), plan similarity
the shared :mod:`eai_gym.scoring.similarity`; :mod:`.modes` holds the registry's other entry points (gold items, the
actions similarity compares).

A world's scorers live in ``eai_gym/scoring/<world>/``: above the world (``envs/``) and the metrics, which
they use, and beside the shared machinery (``runner``, ``jobs``, ``io``, ``results``, ``similarity``).
"""

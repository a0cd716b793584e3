"""Every world as a class for TRL's ``GRPOTrainer(environment_factory=...)`` (TRL is not imported here).

TRL calls the factory with no argument, pools the instances (one per rollout), calls ``reset(**row)`` with every
column of the dataset row and appends the string it returns to the prompt's last user message. Every other public
function of the class is a tool, its schema read by transformers' ``get_json_schema`` from the type hints and the
``Args:`` docstring; a tool that raises is answered ``{"error": message}``; ``get_reward()`` is called once per
finished rollout and logged under the class's name.

One tool, ``act(command)``: the command is text in the world's own syntax, as the agent prompt teaches it (ALFWorld's
commands, VirtualHome's script lines, BEHAVIOR's calls, PARTNR's skills) and as ``eai-gym evaluate`` and the scorers
read it, so the world's parser judges it and a malformed command is the EAI ``parsing`` error the metrics count. Tools
per verb would need a schema per world (BEHAVIOR-1K has over 30 verbs), would turn parsing errors into TRL's tool
errors, which no metric sees, and would make an adapter's actions differ from the evaluation's.

    from eai_gym.rl.datasets import task_dataset
    from eai_gym.rl.trl import environment_class

    trainer = GRPOTrainer(model=..., train_dataset=task_dataset("alfworld", "train"),
                          environment_factory=environment_class("alfworld", "train"))
"""

from __future__ import annotations

import re
from typing import Any

from .episode import DEFAULT_MAX_STEPS, WorldEpisode


class WorldEnvironment:
    """An eai-gym world for TRL: ``reset(**row)``, the tool ``act(command)`` and ``get_reward()``.

    Made for one world and split by :func:`environment_class` (which sets :attr:`config`); instances take no
    argument, as TRL makes them.
    """

    #: the :class:`~eai_gym.rl.episode.WorldEpisode` arguments of this class (set by :func:`environment_class`)
    config: dict[str, Any] = {}

    def __init__(self) -> None:
        if not self.config:
            raise TypeError("WorldEnvironment is made for a world by eai_gym.rl.trl.environment_class(world, ...)")
        self._episode = WorldEpisode(**self.config)

    def reset(self, **row: Any) -> str:
        """Start the task the dataset row names (its ``task`` column; ``split``, if present, must be this class's;
        other columns such as ``prompt`` are ignored). Returns the task's first observation."""
        task = row.get("task")
        split = row.get("split")
        if split is not None and split != self._episode.split.name:
            raise ValueError(f"this environment plays {self._episode.spec.name} split {self._episode.split.name!r}; "
                             f"the row is of split {split!r} (make a class for it: environment_class(world, split))")
        if task is None:
            raise KeyError("the dataset row has no 'task' column (eai_gym.rl.datasets.task_rows makes such rows)")
        return "\n\nYour task:\n" + self._episode.reset(task)

    def act(self, command: str) -> str:
        """Do one action in the world and see what happens.

        Args:
            command: One action, written exactly as the instructions show.

        Returns:
            What the agent observes after the action; the text says when the episode is over.
        """
        return self._episode.step(command).observation

    def get_reward(self) -> float:
        """The episode's reward: success (1.0 if the goal was reached, else 0.0) or, for classes made with
        ``reward="progress"``, the best progress reached minus the progress at the start."""
        return self._episode.reward.total

    def _metrics(self) -> dict[str, Any]:
        return self._episode.metrics()


def _class_name(world: str, split: str) -> str:
    words = re.split(r"[^0-9A-Za-z]+", f"{world} {split}")
    return "EaiGym" + "".join(w[:1].upper() + w[1:] for w in words if w) + "Environment"


def environment_class(world: str, split: str | None = None, *, reward: str = "success",
                      max_steps: int = DEFAULT_MAX_STEPS, admissible: bool = False, protocol: str | None = None,
                      options: dict[str, Any] | None = None, seed: int = 0) -> type[WorldEnvironment]:
    """A :class:`WorldEnvironment` subclass playing ``world``'s ``split`` (arguments: :class:`~.episode.WorldEpisode`),
    named ``EaiGym<World><Split>Environment`` (TRL logs ``get_reward`` under that name). The arguments are checked
    now, by making one episode runner."""
    config = {"world": world, "split": split, "reward": reward, "max_steps": max_steps, "admissible": admissible,
              "protocol": protocol, "options": dict(options or {}), "seed": seed}
    probe = WorldEpisode(**config)
    name = _class_name(probe.spec.name, probe.split.name)
    return type(name, (WorldEnvironment,), {"config": config, "__module__": __name__,
                                             "__doc__": f"{probe.spec.title}, split {probe.split.name}, for TRL."})


def environment_classes(split_role: str = "eval", **kwargs: Any) -> dict[str, type[WorldEnvironment]]:
    """One class per registered world, on its first split of ``split_role`` (``"train"`` or ``"eval"``), for TRL's
    ``environment_factory={name: Cls}`` (each row then names its ``environment``). Worlds without such a split are
    left out."""
    from .. import registry

    out: dict[str, type[WorldEnvironment]] = {}
    for spec in registry.worlds():
        chosen = next((s for s in spec.split_specs if s.role == split_role), None)
        if chosen is not None and spec.agent_prompt:
            out[spec.name] = environment_class(spec.name, chosen.name, **kwargs)
    return out

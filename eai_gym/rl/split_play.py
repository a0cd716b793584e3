"""Playing the tasks of a world's split one episode at a time: what every adapter that does so shares (the RL
classes' episode runner, :mod:`eai_gym.rl.episode`, and the OpenEnv server's, :mod:`eai_gym.openenv.episode`), so
that a split, a task id and the end of an episode mean the same thing through every interface.

* :func:`find_split`: a world's split by name (:class:`eai_gym.registry.SplitSpec`); the error names every split
  and its role.
* :func:`split_tasks` (:class:`SplitTasks`): a split's task ids in order, read from its ``task_ids`` entry point
  (None: the world's task set), and :meth:`SplitTasks.play`, the env id, make arguments and reset options of a task,
  from its ``play`` entry point (None: the task set's).
* :func:`episode_end`: when an episode is over and whether it was cut off.

Imports the registry and the task sets only: no world, no trainer or server library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

from .. import registry


class UnknownTaskError(KeyError):
    """A task id that is not in the split (the message names the split, its size and some of its ids)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def find_split(spec: registry.WorldSpec, name: object = None) -> registry.SplitSpec:
    """``spec``'s split named ``name`` (None: the first, the task set); an unknown name is a
    :class:`eai_gym.registry.RegistryError` naming the world's splits and their roles."""
    if name is None:
        return spec.split()
    if isinstance(name, str):
        for s in spec.split_specs:
            if s.name == name:
                return s
    listed = ", ".join(f"{s.name} ({s.role})" for s in spec.split_specs)
    note = "" if any(s.role == "train" for s in spec.split_specs) else \
        "; it has no training split: its tasks are for evaluation only"
    raise registry.RegistryError(f"{spec.name} has split(s) {listed}, not {name!r:.80}{note}")


@dataclass(frozen=True, eq=False)
class SplitTasks:
    """The tasks of one split of a world: ``ids`` in the split's order, ``positions`` (id -> index) and
    ``play_hook``, the split's ``play`` entry point loaded (call :meth:`play`, which checks the task first)."""

    world: str
    split: registry.SplitSpec
    ids: tuple[str, ...]
    positions: Mapping[str, int] = field(repr=False)
    play_hook: Callable[[str, str], tuple[str, dict[str, Any], dict[str, Any] | None]] = field(repr=False)

    def __len__(self) -> int:
        return len(self.ids)

    def check(self, task: object) -> str:
        """``task`` if it is an id of the split, else :class:`UnknownTaskError` naming the split."""
        if isinstance(task, str) and task in self.positions:
            return task
        listing = f"; eai-gym list {self.world}" if self.split.task_ids is None else ""
        raise UnknownTaskError(f"{self.world} split {self.split.name!r} has no task {task!r:.80} ({len(self.ids)} "
                               f"tasks, e.g. {', '.join(self.ids[:3])}{listing})")

    def play(self, task: str, protocol: str) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
        """The env id, make arguments and reset options of ``task`` (checked) under the world's ``protocol``."""
        env_id, kwargs, options = self.play_hook(self.check(task), protocol)
        return env_id, dict(kwargs), options


def split_tasks(world: str, split: object = None) -> SplitTasks:
    """The tasks of ``world``'s ``split`` (None: its first, the task set), read once per process. Raises
    :class:`eai_gym.registry.RegistryError` for an unknown world or split."""
    spec = registry.world(world)
    return _split_tasks(spec.name, find_split(spec, split).name)


@lru_cache(maxsize=None)
def _split_tasks(world: str, split: str) -> SplitTasks:
    from ..tasksets import task_sets

    spec = registry.world(world)
    chosen = spec.split(split)
    hooks = registry.load(spec.task_set)
    ids = tuple(registry.load(chosen.task_ids)() if chosen.task_ids else task_sets()[spec.name].ids())
    if not ids:
        raise ValueError(f"{world} split {split!r} has no tasks")
    play = registry.load(chosen.play) if chosen.play else hooks.play
    return SplitTasks(spec.name, chosen, ids, {t: i for i, t in enumerate(ids)}, play)


def episode_end(terminated: bool, truncated: bool, won: bool, steps: int, max_steps: int | None) -> tuple[bool, bool]:
    """``(done, cut_off)`` after ``steps`` actions: the episode is over when the env ended it (``terminated`` or
    ``truncated``), when the goal holds (``won``) or after ``max_steps`` actions (None: no such limit); it was cut
    off when it ended at a step limit (the env's ``truncated`` or ``max_steps``) with the goal not reached and no
    terminal state."""
    ended = bool(terminated) or bool(won)
    cut_off = not ended and (bool(truncated) or (max_steps is not None and steps >= max_steps))
    return ended or cut_off, cut_off

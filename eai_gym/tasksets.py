"""Every world's packaged task set, seen the same way: ids, a task card (instruction, goal, objects, gold
plan), and a wrapped env to play a task by hand. Used by ``eai-gym list``, ``show`` and ``play``; each world's
task set is the module its :class:`eai_gym.registry.WorldSpec` names (``task_set``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import registry
from .task_index import indexed_ids


@dataclass(frozen=True)
class TaskSet:
    spec: registry.WorldSpec

    @property
    def world(self) -> str:
        return self.spec.name

    @property
    def name(self) -> str:
        return self.spec.title

    @property
    def env_ids(self) -> tuple[str, ...]:
        return self.spec.env_ids

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.spec.modes)

    @property
    def protocols(self) -> tuple[str, ...]:
        return self.spec.protocols

    @property
    def hooks(self) -> Any:
        return registry.load(self.spec.task_set)

    def ids(self) -> list[str]:
        indexed = indexed_ids(self.spec.name, self.spec.task_set)
        return list(indexed) if indexed is not None else self.hooks.ids()

    def names(self) -> list[str]:
        return self.hooks.names()

    def count(self) -> int:
        return len(self.ids())

    def entries(self) -> list[tuple[str, str]]:
        return list(zip(self.ids(), self.names()))

    def show(self, task: str) -> dict[str, Any]:
        if task not in self.ids():
            raise KeyError(task)
        return self.hooks.card(task)

    def category(self, task: str) -> str | None:
        """The group a report puts the task in (None: the world's records carry their own)."""
        return self.hooks.category(task)

    def play_env(self, task: str | None, protocol: str) -> tuple[Any, dict | None]:
        import gymnasium as gym

        from .registration import register_envs
        from .wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

        register_envs()  # (the eai-gym command imports the package without registering)

        if task is not None and task not in self.ids():
            raise KeyError(task)
        if protocol not in self.protocols:
            raise ValueError(f"{self.world} has protocol(s) {', '.join(self.protocols)}, not {protocol}")
        env_id, kwargs, options = self.hooks.play(task, protocol)
        env = gym.make(env_id, render_mode="ansi", **kwargs)
        return GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(env)))), options

    def legal_actions(self, env: Any) -> list[str]:
        """The actions that would execute now, as the world writes them ([] if it does not list them)."""
        return self.hooks.legal_actions(env)

    @staticmethod
    def feedback(env: Any, obs: str, info: dict) -> str:
        base = env.unwrapped
        if hasattr(base, "last_feedback"):
            return base.last_feedback
        if isinstance(info.get("feedback"), dict):
            return info["feedback"]["message"]
        return obs


def unknown_task_message(s: TaskSet, task: str) -> str:
    ids = s.ids()
    return f"{s.world} has no task {task!r} ({len(ids)} tasks, e.g. {', '.join(ids[:3])}; eai-gym list {s.world})"


def task_sets() -> dict[str, TaskSet]:
    """Every registered world's task set, by world name."""
    return {w.name: _task_set(w) for w in registry.worlds()}


@lru_cache(maxsize=None)
def _task_set(spec: registry.WorldSpec) -> TaskSet:
    return TaskSet(spec)

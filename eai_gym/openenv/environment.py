"""The OpenEnv ``Environment`` of every eai-gym world: a thin layer over :class:`~.episode.WorldEpisode`.

One instance per session (``SUPPORTS_CONCURRENT_SESSIONS``): OpenEnv's WebSocket ``/ws`` builds one per
connection, its HTTP ``/reset`` and ``/step`` one per request, so the constructor does nothing but remember the
configuration (the world's env is built at the first reset). ``reset`` takes the task as named parameters, which
OpenEnv passes through from the request: ``split`` (one of the world's splits; default the server's, else the task
set), ``task`` (an id of the split), or ``index`` (its position, OpenEnv's task API), else a ``seed`` alone picks
one; ``reward`` (``success`` or ``progress``), ``admissible`` and ``max_steps`` override the server's for this
episode. A reset field it does not know is an error (a misspelt ``task`` would silently play another task).

OpenEnv's task API lists every split the world declares (:class:`eai_gym.registry.SplitSpec`: its name, its role,
``train`` or ``eval``, its description and size) and serves each split's tasks.
"""

from __future__ import annotations

import uuid
from typing import Any, Optional

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, EnvironmentMetadata

from .. import __version__
from .episode import EpisodeConfig, EpisodeError, WorldEpisode
from .models import EaiObservation, EaiState


class EaiGymEnvironment(Environment[Action, EaiObservation, EaiState]):
    """An eai-gym world for one OpenEnv session (see the module docstring)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, config: EpisodeConfig) -> None:
        super().__init__()
        self.episode = WorldEpisode(config)
        self._episode_id: Optional[str] = None

    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None, task: Optional[str] = None,
              index: Optional[int] = None, split: Optional[str] = None, admissible: Optional[bool] = None,
              max_steps: Optional[int] = None, reward: Optional[str] = None, **kwargs: Any) -> EaiObservation:
        if kwargs:
            raise EpisodeError(f"unknown reset field(s) {', '.join(sorted(map(str, kwargs)))}: a reset takes seed, "
                               "episode_id, task, index, split, reward, admissible and max_steps")
        if episode_id is not None and not isinstance(episode_id, str):
            raise EpisodeError(f"episode_id must be a string, got {type(episode_id).__name__}")
        view = self.episode.reset(task=task, seed=seed, index=index, split=split, admissible=admissible,
                                  max_steps=max_steps, reward=reward)
        self._episode_id = episode_id or uuid.uuid4().hex
        return EaiObservation.of(view)

    def step(self, action: Action, timeout_s: Optional[float] = None, **kwargs: Any) -> EaiObservation:
        fields = action.model_dump(exclude={"metadata"})
        command = fields if self.episode.facts.team_env else fields["command"]
        return EaiObservation.of(self.episode.step(command))

    @property
    def state(self) -> EaiState:
        view = self.episode.view
        agents = list(self.episode.facts.agents) if self.episode.facts.team_env else []
        if view is None:
            return EaiState(episode_id=self._episode_id, world=self.episode.config.world, agents=agents)
        return EaiState(episode_id=self._episode_id, step_count=view.step, world=view.world, split=view.split,
                        task=view.task, reward_kind=self.episode.reward.kind, done=view.done,
                        truncated=view.truncated, won=view.won, progress=view.progress, agents=agents)

    def get_metadata(self) -> EnvironmentMetadata:
        facts = self.episode.facts
        splits = "; ".join(f"{s.name}: {s.role}, {len(self.episode.tasks(s.name))} tasks" for s in facts.splits)
        return EnvironmentMetadata(name=f"eai-gym {facts.name}",
                                   description=f"{facts.description} (splits {splits}; protocol {facts.protocol})",
                                   version=__version__)

    def close(self) -> None:
        self.episode.close()

    # -- OpenEnv's task API: every split the world declares --------------------------------------------------
    def list_splits(self) -> list[dict[str, Any]]:
        """Each split: ``name``, OpenEnv's ``type`` (``train``, or ``test`` for an evaluation split), eai-gym's
        ``role`` (``train`` or ``eval``), ``description`` and ``num_tasks``."""
        return [{"name": s.name, "type": "train" if s.role == "train" else "test", "role": s.role,
                 "description": s.description, "num_tasks": len(self.episode.tasks(s.name))}
                for s in self.episode.facts.splits]

    def num_tasks(self, split: str) -> int:
        return len(self.episode.tasks(split))

    def get_task(self, split: str, index: int) -> dict[str, Any]:
        tasks = self.episode.tasks(split)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(tasks):
            raise IndexError(index)
        return {"id": tasks.ids[index], "index": index, "split": tasks.split.name}

    def get_task_range(self, split: str, start: Optional[int] = None, stop: Optional[int] = None) -> list[dict]:
        tasks = self.episode.tasks(split)
        positions = range(len(tasks))[slice(start, stop)]
        return [{"id": tasks.ids[i], "index": i, "split": tasks.split.name} for i in positions]

    def list_tasks(self, split: str) -> list[dict[str, Any]]:
        return self.get_task_range(split)

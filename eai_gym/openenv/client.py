"""The typed OpenEnv client of ``eai-gym serve WORLD --protocol openenv`` (OpenEnv's ``EnvClient``: async, with
``.sync()`` for plain calls)::

    from eai_gym.openenv.client import EaiGymEnv

    with EaiGymEnv(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(task="0")                    # or seed=7, or index=3
        result = env.step("go to cabinet 13")           # an EaiAction, or its command
        result.observation.won, result.observation.admissible_actions

A world several agents play takes ``env.step({"agent_0": "...", "agent_1": "..."})`` (a missing or null agent: no
new action). A server error raises ``RuntimeError`` naming OpenEnv's error code (e.g. ``CAPACITY_REACHED``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from openenv.core.env_server.types import Action
from pydantic import BaseModel

from .models import AgentObservation, EaiAction, EaiObservation, EaiState

__all__ = ["EaiGymEnv", "EaiAction", "EaiObservation", "EaiState", "AgentObservation"]

#: what :meth:`EaiGymEnv.step` takes: an action model, a command, or a joint action (agent -> command or None)
ActionLike = Union[Action, str, Mapping[str, Any]]


class EaiGymEnv(EnvClient[ActionLike, EaiObservation, EaiState]):
    """A session with an eai-gym OpenEnv server (see the module docstring)."""

    def _step_payload(self, action: ActionLike) -> dict[str, Any]:
        if isinstance(action, str):
            return {"command": action}
        if isinstance(action, BaseModel):
            return action.model_dump(exclude={"metadata"} if not getattr(action, "metadata", None) else set())
        if isinstance(action, Mapping):
            return dict(action)
        raise TypeError(f"an action is an EaiAction, a command string or a dict of agent -> command, "
                        f"got {type(action).__name__}")

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[EaiObservation]:
        observation = EaiObservation(**payload.get("observation", {}), reward=payload.get("reward"),
                                     done=payload.get("done", False))
        return StepResult(observation=observation, reward=payload.get("reward"), done=payload.get("done", False))

    def _parse_state(self, payload: dict[str, Any]) -> EaiState:
        return EaiState(**payload)

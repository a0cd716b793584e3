"""The typed messages of eai-gym's OpenEnv environments (pydantic, on OpenEnv's ``Action``, ``Observation`` and
``State``).

- :class:`EaiAction`: ``{"command": "go to desk 1"}``, the action of a world one agent plays;
- :func:`action_model`: the action of a world several agents play together, one optional field per agent:
  ``{"agent_0": "Navigate[table_1]", "agent_1": "Pick[cup_1]"}`` (a missing or null field: no new action for
  that agent, whose running skill goes on);
- :class:`EaiObservation`: the world's text, the feedback and EAI error type of the last action, the admissible
  actions, ``reward`` (:mod:`eai_gym.rl.rewards`' kind the reset chose), ``done`` and ``truncated``, ``won``, the
  progress rate, and each agent's view
  (:class:`AgentObservation`) in a world several agents play;
- :class:`EaiState`: the session's episode.
"""

from __future__ import annotations

from typing import Any, Optional

from openenv.core.env_server.types import Action, Observation, State
from pydantic import BaseModel, ConfigDict, Field, create_model

from ..envs.base import MAX_ACTION
from .episode import AgentView, View, WorldFacts


class EaiAction(Action):
    """One command, in the world's action syntax (``eai-gym show WORLD TASK`` shows a gold plan)."""

    command: str = Field(..., max_length=MAX_ACTION, description="the command, in the world's action syntax")


def action_model(facts: WorldFacts) -> type[Action]:
    """The action of ``facts``' world: :class:`EaiAction`, or for several agents one optional command per agent."""
    if not facts.team_env:
        return EaiAction
    fields: dict[str, Any] = {
        a: (Optional[str], Field(None, max_length=MAX_ACTION, description=f"{a}'s command (null: no new action)"))
        for a in facts.agents}
    return create_model("EaiJointAction", __base__=Action, __doc__="One command per agent (a joint action).",
                        **fields)


class AgentObservation(BaseModel):
    """One agent's view of the step (``busy``: its last skill is still running)."""

    model_config = ConfigDict(extra="forbid")

    text: str
    feedback: str = ""
    ok: Optional[bool] = None
    error: Optional[str] = None
    message: str = ""
    busy: bool = False
    admissible_actions: Optional[list[str]] = None


class EaiObservation(Observation):
    """What the world shows after a reset or a step (``reward``: the step's reward of the episode's kind,
    :mod:`eai_gym.rl.rewards`; null after a reset)."""

    world: str = Field("", description="the world's name")
    task: str = Field("", description="the task being played (an id of its split)")
    split: str = Field("", description="the split the task is of (one of the world's splits)")
    text: str = Field("", description="the world's observation text (several agents: each agent's, with a header)")
    feedback: str = Field("", description="what the last action did, as the world says it")
    admissible_actions: Optional[list[str]] = Field(None, description="the actions that would execute now "
                                                    "(null: not listed; several agents: in agents)")
    truncated: bool = Field(False, description="the episode was cut off at its step limit (done is true too)")
    won: bool = Field(False, description="the task's goal holds")
    progress: Optional[float] = Field(None, description="the world's progress rate, 0..1")
    error: Optional[str] = Field(None, description="the EAI error type of the last action (null: it executed)")
    message: str = Field("", description="why the last action failed")
    step: int = Field(0, description="steps taken in this episode")
    agents: Optional[dict[str, AgentObservation]] = Field(None, description="each agent's view (several agents)")

    @classmethod
    def of(cls, view: View) -> "EaiObservation":
        return cls(world=view.world, task=view.task, split=view.split, text=view.text, feedback=view.feedback,
                   admissible_actions=view.admissible_actions, reward=view.reward, done=view.done,
                   truncated=view.truncated, won=view.won, progress=view.progress, error=view.error,
                   message=view.message, step=view.step,
                   agents=None if view.agents is None else {a: _agent(v) for a, v in view.agents.items()})


def _agent(view: AgentView) -> AgentObservation:
    return AgentObservation(text=view.text, feedback=view.feedback, ok=view.ok, error=view.error,
                            message=view.message, busy=view.busy, admissible_actions=view.admissible_actions)


class EaiState(State):
    """The session's episode: its world and task, and how it stands."""

    world: str = ""
    split: Optional[str] = None
    task: Optional[str] = None
    reward_kind: Optional[str] = None
    done: bool = False
    truncated: bool = False
    won: bool = False
    progress: Optional[float] = None
    agents: list[str] = Field(default_factory=list)

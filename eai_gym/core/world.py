"""The protocol every world implements. Envs, scorers and metrics only talk to worlds through it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Sequence, TypeVar, runtime_checkable

from .action import Action
from .errors import ErrorType
from .trajectory import Trajectory

S = TypeVar("S")


@dataclass(slots=True)
class Outcome(Generic[S]):
    """What happened when an action was tried in a state.

    ``state`` is the new state when ``ok`` and the unchanged input state otherwise.
    """

    ok: bool
    state: S
    error: ErrorType | None = None
    message: str = ""
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class GoalStatus:
    """How much of a task's goal a trajectory satisfies.

    ``parts`` maps a goal kind (e.g. ``"node"``, ``"edge"``, ``"action"``) to ``(matched, total)``.
    """

    success: bool
    parts: dict[str, tuple[int, int]] = field(default_factory=dict)
    unsatisfied: list[Any] = field(default_factory=list)

    @property
    def matched(self) -> int:
        return sum(m for m, _ in self.parts.values())

    @property
    def total(self) -> int:
        return sum(t for _, t in self.parts.values())

    @property
    def fraction(self) -> float:
        return self.matched / self.total if self.total else float(self.success)


@runtime_checkable
class World(Protocol[S]):
    """A symbolic transition model.

    ``parse`` turns agent text into an :class:`Action` (raising
    :class:`~eai_gym.core.errors.ActionError` with a grammar error), ``legal_actions`` lists actions
    that would succeed, ``execute`` tries one action given the trajectory so far (the history is
    needed to tell a missing step from a wrong order), ``describe`` renders a state for an agent, and
    ``goal_status`` scores a trajectory against a task goal.
    """

    name: str

    def parse(self, text: str, state: S) -> Action: ...

    def legal_actions(self, state: S) -> Sequence[Action]: ...

    def execute(self, trajectory: Trajectory[S], action: Action) -> Outcome[S]: ...

    def describe(self, state: S) -> str: ...

    def goal_status(self, trajectory: Trajectory[S], goal: Any) -> GoalStatus: ...

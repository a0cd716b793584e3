"""A trajectory: the states visited and the step records that produced them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import ErrorType
from .step import Step

S = TypeVar("S")


@dataclass(slots=True)
class Trajectory(Generic[S]):
    """States and steps of one episode.

    ``states[0]`` is the initial state and ``states[i + 1]`` the state after ``steps[i]`` (the same
    object as ``states[i]`` when the step failed, since a failed action changes nothing). States
    are immutable values, so keeping all of them is cheap.
    """

    task_id: str
    states: list[S]
    steps: list[Step] = field(default_factory=list)

    @property
    def state(self) -> S:
        return self.states[-1]

    def append(self, step: Step, state: S) -> None:
        self.steps.append(step)
        self.states.append(state)

    def distinct_states(self) -> list[S]:
        """The initial state and the state after every successful step, in order."""
        out = [self.states[0]]
        for step, state in zip(self.steps, self.states[1:]):
            if step.ok:
                out.append(state)
        return out

    def first_fatal(self) -> Step | None:
        return next((s for s in self.steps if s.fatal), None)

    def error_counts(self) -> dict[str, int]:
        counts = {e.value: 0 for e in ErrorType}
        for s in self.steps:
            if s.error is not None:
                counts[s.error.value] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "steps": [s.to_dict() for s in self.steps]}

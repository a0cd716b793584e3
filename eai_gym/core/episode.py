"""Run actions through a world and record them: the one code path the envs and the scorers share."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

from .action import Action
from .errors import ActionError
from .step import Step, raw_text
from .trajectory import Trajectory
from .world import World

S = TypeVar("S")


class Episode(Generic[S]):
    """A trajectory being built by a world, one action at a time.

    Args:
        world: the transition model.
        task_id: id of the task (recorded in the trajectory).
        initial_state: where the episode starts.
        parse: how to turn agent text into an action (default: ``world.parse(text, state)``).
    """

    def __init__(self, world: World[S], task_id: str, initial_state: S,
                 parse: Callable[[str, S], Action] | None = None) -> None:
        self.world = world
        self.trajectory: Trajectory[S] = Trajectory(task_id, [initial_state])
        self._parse = parse if parse is not None else world.parse

    @property
    def state(self) -> S:
        return self.trajectory.state

    def step_text(self, text: Any) -> Step:
        """Parse and execute one action written by an agent."""
        try:
            action = self._parse(text, self.state)
        except ActionError as e:
            return self._record(Step(len(self.trajectory.steps), raw_text(text), None, False, e.error,
                                     e.message, feedback=e.message), self.state)
        return self.step_action(action, raw=raw_text(text))

    def step_action(self, action: Action, raw: str | None = None) -> Step:
        """Execute an already parsed action."""
        out = self.world.execute(self.trajectory, action)
        feedback = "OK." if out.ok else out.message
        step = Step(len(self.trajectory.steps), action.raw if raw is None else raw, action, out.ok,
                    out.error, out.message, feedback=feedback, details=out.details)
        return self._record(step, out.state)

    def _record(self, step: Step, state: S) -> Step:
        self.trajectory.append(step, state)
        return step


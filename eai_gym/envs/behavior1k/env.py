"""``eai_gym/Behavior1K-v0``: BEHAVIOR-1K's 1,016 activities (bddl 3.6.0) as a Gymnasium environment.

Actions: ``GRASP(apple.n.01_1)`` or an EAI BEHAVIOR item ``{"action": "GRASP", "object": "apple.n.01_1"}``; with
``action_mode="index"``, an integer into the activity's catalogue (every action over its objects, in
:data:`~.world.ACTIONS` order; indices past the catalogue are never legal) with ``info["action_mask"]`` (int8).
``reset(options={"activity": NAME})`` picks an activity (``"task_id"`` works too); otherwise the reset seed draws
one. Observations are text: the activity, its goal in BDDL, every entity's facts, the held object and the feedback
of the last action. The goal is bddl 3.6.0's (:func:`~.goals.check_goal`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ...core import Action, GoalStatus, Task
from ...core.kept_mask import KeptMask, KeptMasks
from ..arguments import str_option
from ..base import TaskTextEnv
from .data import activity_names, activity_record
from .intermediates import activity_intermediates
from .mask import Behavior1KMask
from .observe import KeptDescription
from .state import B1KState
from .world import ACTIONS, NO_TARGET, Behavior1KWorld, Catalogue, catalogue_calls, load_task, to_text


class Behavior1KEnv(TaskTextEnv):
    """One BEHAVIOR-1K activity per episode.

    Args:
        activity: a fixed activity (default: ``options["activity"]`` or drawn with the reset seed).
        action_mode: ``"text"`` (default) or ``"index"``.
        terminate_on_error: end the episode at the first fatal error (offline scoring does).
        terminate_on_success: end the episode when the goal holds (default).
        render_mode: None or ``"ansi"``.
        protocol: the goal semantics; only ``"bddl-3.6.0"`` (bddl's own evaluator, exactly), the default.
    """

    def __init__(self, activity: str | None = None, action_mode: str = "text", terminate_on_error: bool = False,
                 terminate_on_success: bool = True, render_mode: str | None = None,
                 protocol: str = "bddl-3.6.0") -> None:
        if protocol != "bddl-3.6.0":
            raise ValueError(f"unknown protocol {protocol!r}; BEHAVIOR-1K has one: 'bddl-3.6.0'")
        self.protocol = protocol
        self.world = Behavior1KWorld()
        self._description = KeptDescription()
        self._kept_masks = KeptMasks(KEPT_ACTIVITIES)  # by activity
        self._header: tuple[Task | None, str] = (None, "")
        self.task_ids = activity_names()
        if activity is not None:
            activity_record(activity)
        super().__init__(activity, action_mode, terminate_on_error, render_mode, terminate_on_success)

    RESET_OPTIONS = ("activity", "task_id")

    def task_option(self, options: dict[str, Any], where: str) -> str | None:
        """``options["activity"]`` (``"task_id"`` is its other name; ``"activity"`` wins when both are given)."""
        activity = str_option(options, "activity", where)
        return activity if activity is not None else str_option(options, "task_id", where)

    def load_task(self, task_id: str) -> Task[B1KState]:
        return load_task(task_id)

    def catalogue(self, task: Task) -> Sequence[Action]:  # type: ignore[override]
        """The activity's catalogue (:meth:`~.world.Behavior1KWorld.catalogue`; its actions made when first read)
        and its kept mask."""
        # the activity's kept answers carry over from its last episode in this env (and its catalogue's calls)
        self._kept = self._kept_mask(task.id, self.action_space.n)
        self._calls = self._kept.rules.calls
        self.actions = Catalogue(self._calls)  # type: ignore[assignment]
        return self.actions

    def _kept_mask(self, activity: str, size: int | None) -> KeptMask:
        """The activity's kept mask (of ``size`` entries; None: as many as its catalogue has)."""
        def make() -> KeptMask:
            calls = catalogue_calls(activity)
            return KeptMask(len(calls) if size is None else size, Behavior1KMask(self.world.legal, calls, activity))

        return self._kept_masks.take(activity, make)

    def catalogue_size(self) -> int:
        return max_catalogue_size()

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would succeed: the candidates of :class:`.mask.Behavior1KMask`, each answer kept
        until a fact it read changes (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask` decides
        every candidate afresh."""
        assert self.episode is not None
        return self._kept.update(self.episode.state)

    def legal_actions(self) -> list[str]:
        """The actions that would succeed now, as text, in catalogue order: the kept mask's answers (as
        :meth:`legal_mask`, in text mode too), equal to ``world.legal_actions(state)`` decided afresh."""
        assert self.task is not None and self.episode is not None
        kept = self._kept if self.action_mode == "index" else self._kept_mask(self.task.id, None)
        calls = kept.rules.calls
        return [to_text(*calls[i]) for i in np.flatnonzero(kept.update(self.episode.state)).tolist()]

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without kept answers: every candidate entry's preconditions on a probe."""
        assert self.episode is not None
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        mask[self._kept.rules.fresh(self.episode.state)] = 1
        return mask

    def goal_info(self, status: GoalStatus) -> dict[str, Any]:
        return {"success": status.success, "conditions": list(status.parts["conditions"])}

    def goal_propositions(self) -> list[dict[str, Any]]:
        """The goal's top-level conjuncts (bddl's goal conditions) and whether each holds now."""
        assert self.task is not None and self.episode is not None
        sat = self.world.satisfied(self.episode.state, self.task.goal)
        texts = self.task.metadata["behavior1k"]["goal_bddl"]
        return [{"id": f"condition_{i}", "kind": "condition", "text": t, "holds": ok}
                for i, (t, ok) in enumerate(zip(texts, sat))]

    def observation(self) -> str:
        """The activity, its goal, every entity's facts (:meth:`~.world.Behavior1KWorld.describe`, kept between
        steps: :class:`~.observe.KeptDescription`), the held object and the last feedback."""
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        if self._header[0] is not self.task:
            lines = [f"Activity: {self.task.id}", "Goal (BDDL, every condition must hold):"]
            lines += ["  " + g for g in self.task.metadata["behavior1k"]["goal_bddl"]]
            self._header = (self.task, "\n".join(lines + ["Entities:"]))
        return (f"{self._header[1]}\n{self._description.describe(state)}\nHolding: {state.held or 'nothing'}\n"
                f"Feedback: {self.last_feedback}")


#: how many activities' kept masks an env keeps (their memory: docs/benchmarks.md)
KEPT_ACTIVITIES = 128


@lru_cache(maxsize=1)
def max_catalogue_size() -> int:
    """The largest activity catalogue (the index-mode ``Discrete`` size; undeclared intermediates included)."""
    best = 0
    for name in activity_names():
        rec = activity_record(name)
        n = sum(len(v) for v in rec["objects"].values()) + sum(len(v) for v in activity_intermediates(rec).values())
        best = max(best, n)
    targeted = len([a for a in ACTIONS if a not in NO_TARGET])
    return targeted * best + len(NO_TARGET)

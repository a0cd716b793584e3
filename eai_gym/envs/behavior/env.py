"""``eai_gym/Behavior-v0``: the 100 EAI BEHAVIOR tasks as a Gymnasium environment.

Actions: one EAI item (``{"action": "LEFT_GRASP", "object": "candle_0"}``) or call syntax
(``LEFT_GRASP(candle_0)``); with ``action_mode="index"``, an integer into a fixed catalogue of every
action over the task's objects, with ``info["action_mask"]`` (int8). Observations are text: the task,
its goal, every object's state and placement, what is held, and the feedback of the last action.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import GoalStatus, Task
from ...core.kept_mask import KeptMask, KeptMasks
from ..base import TaskTextEnv
from .actions import ACTIONS, TWO_OBJECTS
from .catalogue import BehaviorCatalogue, hand_groups
from .dynamics import interactivity, place, run_checks
from .goals import GoalCrash, partial_counts
from .mask import BehaviorMask
from .plan_progress import shortest_plan_length
from .state import BehaviorState
from .tasks import check_initial_state, load_task, task_ids, task_record
from .world import BehaviorWorld


class BehaviorEnv(TaskTextEnv):
    """One EAI BEHAVIOR task per episode.

    Args:
        task_id: a fixed task (a demo name; default: drawn with the reset seed or ``options["task_id"]``).
        protocol: ``"fixed"`` (default) or ``"eai-1.0.5"``.
        initial_state: ``"calibrated"`` (default) or ``"reference-defaults"``.
        action_mode: ``"text"`` (default) or ``"index"``.
        terminate_on_error: end the episode at the first fatal error, as offline scoring does.
        terminate_on_success: end the episode when the goal holds (default). Offline scoring runs the whole
            plan and judges the final state: ``terminate_on_error=True, terminate_on_success=False``.
        render_mode: None or ``"ansi"``.
    """

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", initial_state: str = "calibrated",
                 action_mode: str = "text", terminate_on_error: bool = False, terminate_on_success: bool = True,
                 render_mode: str | None = None) -> None:
        self.world = BehaviorWorld(protocol)
        self.initial_state = check_initial_state(initial_state)
        self.task_ids = task_ids()
        if task_id is not None:
            task_record(task_id)
        self._kept_masks = KeptMasks(KEPT_TASKS)  # by (task id, mode)
        self._lines: dict = {}  # the observation's object lines (see BehaviorWorld.describe), for one scene
        self._lines_scene: object = None
        self._header = ""  # the observation's lines before the objects', joined
        self._header_task: Task | None = None
        super().__init__(task_id, action_mode, terminate_on_error, render_mode, terminate_on_success)

    def load_task(self, task_id: str) -> Task[BehaviorState]:
        """The task, loaded once per (task, initial-state mode) and reused (tasks and states are values): its
        catalogue is built once, and when one episode on it follows another the kept answers carry over."""
        key = (task_id, self.initial_state)
        hit = _LOADED.get(key)
        if hit is None:
            if len(_LOADED) >= 256:
                _LOADED.clear()
            task = load_task(task_id, self.initial_state)
            hit = _LOADED[key] = (task, [])
        return hit[0]

    def catalogue(self, task: Task) -> BehaviorCatalogue:  # type: ignore[override]
        key = (task.id, self.initial_state)
        cached = _LOADED.get(key)
        if cached is None or cached[0] is not task:  # a task not loaded through load_task
            cached = (task, [])
        if not cached[1]:
            acts = BehaviorCatalogue(task.initial_state.scene.order)
            cached[1].extend((acts, hand_groups(acts)))
        acts, self._groups = cached[1]
        # the task's kept answers and mask carry over from its last episode in this env
        self._kept = self._kept_masks.take(
            key, lambda: KeptMask(self.action_space.n, BehaviorMask(self.world, acts, self._groups)))
        return acts

    def catalogue_size(self) -> int:
        return max_catalogue_size()

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would execute: the candidates of :class:`.mask.BehaviorMask`, each answer kept
        until a fact it read changes, also from one episode of a task to the next; a LEFT_/RIGHT_ entry's answer is
        kept under what that hand holds (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask`
        decides every candidate afresh."""
        assert self.episode is not None
        # (the history only tells a wrong order from a missing step, not legality)
        return self._kept.update(self.episode.state)

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without the kept answers: every candidate entry's executor runs in full."""
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        plain, per_hand = self._groups
        candidates = list(plain)
        for hand, (grasp, needs_hand, release, (nto, first, second), _) in per_hand.items():
            candidates.extend(grasp.tolist())
            held = state.held(hand)
            if held is None:
                continue
            candidates += needs_hand
            candidates += release.get(held, ())
            order = state.scene.order
            ok = {t: run_checks(state, [place(t, hand), interactivity(t)]) is None for t in order}
            for i, p1, p2 in zip(nto, first, second):
                mask[i] = ok[order[p1]] and ok[order[p2]]
        for i in candidates:
            new, _, crash = self.world.try_action(state, self.actions[i])
            mask[i] = new is not None and crash is None
        return mask

    def goal_info(self, status: GoalStatus) -> dict[str, Any]:
        return {"success": status.success, "conditions": list(status.parts["conditions"])}

    def _satisfied(self) -> list[bool] | None:
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        try:
            return self.world.satisfied(state, self.task.goal, state.scene.bddl_to_name)
        except GoalCrash:
            return None

    def goal_propositions(self) -> list[dict[str, Any]]:
        """The goal's top-level BDDL conditions (a condition with options holds if one option holds)."""
        assert self.task is not None
        sat = self._satisfied() or [False] * len(self.task.goal)
        return [{"id": f"condition_{i}", "kind": "condition", "text": " ".join(str(t) for t in c.terms), "holds": ok}
                for i, (c, ok) in enumerate(zip(self.task.goal, sat))]

    def shortest_plan_length(self, state: BehaviorState) -> int | None:
        assert self.task is not None
        return shortest_plan_length(self.world, self.task, state)

    def partial_success(self, status: GoalStatus) -> tuple[float, str]:
        assert self.task is not None
        sat = self._satisfied() or [False] * len(self.task.goal)
        c = partial_counts(self.task.goal, sat)
        value = c["satisfied_predicates"] / c["tot_predicates"] if c["tot_predicates"] else float(status.success)
        return value, "eai_satisfied_predicates"

    def observation(self) -> str:
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        if self._lines_scene is not state.scene or self._header_task is not self.task:
            goal = self.task.metadata["behavior"]["goal_prompt_lines"]
            head = [f"Task {self.task.id}: {self.task.name}", "Goal (BDDL, in scene names):"]
            head += ["  " + " ".join(str(t) for t in g) for g in goal]
            self._lines, self._lines_scene, self._header_task = {}, state.scene, self.task
            self._header = "\n".join(head + ["Objects:"])
        return (f"{self._header}\n{self.world.describe(state, None, self._lines)}\n"
                f"Left hand: {state.hands[0] or 'empty'}; right hand: {state.hands[1] or 'empty'}\n"
                f"Feedback: {self.last_feedback}")


#: (task id, initial-state mode) -> (task, [catalogue, hand groups] once built)
_LOADED: dict[tuple[str, str], tuple[Task, list]] = {}
#: how many tasks' kept masks an env keeps (as many as the loaded-task cache)
KEPT_TASKS = 256


_MAX: list[int] = []


def max_catalogue_size() -> int:
    if not _MAX:
        k = max(len(r["objects"]) + sum(2 for o in r["objects"] if "Sliced" in o["states"])
                for r in (task_record(t) for t in task_ids()))
        n2 = len(TWO_OBJECTS)
        _MAX.append((len(ACTIONS) - n2) * k + n2 * k * (k - 1))
    return _MAX[0]

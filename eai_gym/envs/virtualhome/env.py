"""``eai_gym/VirtualHome-v0``: the EAI VirtualHome tasks as a Gymnasium environment.

Actions are text in script syntax (``[WALK] <kitchen> (11)``) or one EAI JSON item
(``{"WALK": ["kitchen", "11"]}``); with ``action_mode="index"`` they are integers into a fixed
catalogue of grounded actions over the task's objects, with ``info["action_mask"]`` (int8) marking
those that would execute. Observations are text: the task, its goal, the task's objects with their
states and relations, and the feedback of the last action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core import Action, GoalStatus, Step, Task, WorldState
from ...core.kept_mask import KeptMask, KeptMasks
from ..base import TaskTextEnv
from .actions import ARITY, to_script
from .catalogue import catalogue
from .dynamics import label
from .goals import action_goal_results
from .mask import VirtualHomeMask
from .plan_progress import shortest_plan_length
from .tasks import CHARACTER_ID, load_task, task_ids, task_object_ids
from .world import VirtualHomeWorld


class VirtualHomeEnv(TaskTextEnv):
    """One EAI VirtualHome task per episode.

    Args:
        task_id: a fixed task (default: drawn with the reset seed, or ``options["task_id"]``).
        protocol: ``"fixed"`` (default) or ``"eai-1.0.5"`` (reference vocabulary and object set: only
            the task's relevant objects may be named, PLUGIN/PLUGOUT/RELEASE are unknown).
        action_mode: ``"text"`` (default) or ``"index"``.
        admissible: add ``info["admissible_actions"]`` (script strings that would execute).
        terminate_on_error: end the episode at the first fatal error, as offline plan scoring does.
        terminate_on_success: end the episode when the goal holds (default). Offline plan scoring runs the
            whole plan and judges the final state: ``terminate_on_error=True, terminate_on_success=False``.
        render_mode: None or ``"ansi"``.
    """

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", action_mode: str = "text",
                 admissible: bool = False, terminate_on_error: bool = False, terminate_on_success: bool = True,
                 render_mode: str | None = None) -> None:
        self.world = VirtualHomeWorld(protocol)
        self.protocol = protocol
        self.task_ids = task_ids()
        if task_id is not None:
            load_task(task_id)  # validates the id
        self.admissible = admissible
        self._lines: dict = {}
        self._header: str | None = None
        self._objects: tuple[int, ...] = ()
        self._kept_masks = KeptMasks(KEPT_TASKS)  # by task id
        super().__init__(task_id, action_mode, terminate_on_error, render_mode, terminate_on_success)

    def load_task(self, task_id: str) -> Task[WorldState]:
        task = load_task(task_id)
        self._lines, self._header, self._objects = {}, None, task_object_ids(task_id)
        return task

    def parse(self, text: Any, state: WorldState) -> Action:
        allowed = self.task.metadata["virtualhome"].relevant if self.protocol == "eai-1.0.5" else None
        return self.world.parse(text, state, allowed)

    def catalogue(self, task: Task) -> Sequence[Action]:  # type: ignore[override]
        key = (self.world.protocol, task.id, id(task.initial_state.scene))
        cached = _CATALOGUES.get(key)
        if cached is None or cached[0] is not task.initial_state.scene:
            if len(_CATALOGUES) > 512:
                _CATALOGUES.clear()
            acts = catalogue(self.world, task)
            cached = _CATALOGUES[key] = (task.initial_state.scene, acts, acts.requirement_groups())
        acts, requirements = cached[1], cached[2]
        # the task's kept answers and mask carry over from its last episode in this env
        self._kept = self._kept_masks.take(task.id, lambda: KeptMask(self.action_space.n, VirtualHomeMask(
            self.world.try_action_ok, acts, requirements, self.world.character, task_object_ids(task.id))))
        return acts

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would execute: the candidates of :class:`.mask.VirtualHomeMask`, each answer
        kept until a fact it read changes, also from one episode of a task to the next
        (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask` decides every candidate afresh."""
        assert self.episode is not None
        return self._kept.update(self.episode.state)

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without the kept answers: every candidate entry's executor runs in full."""
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        for i in self._kept.rules.candidates(state):
            mask[i] = self.world.executes(state, self.actions[i])
        return mask

    def catalogue_size(self) -> int:
        return max_catalogue_size(self.world)

    def shown(self, step: Step) -> str:
        return to_script(step.action) if step.action is not None else step.raw

    def objects(self) -> tuple[int, ...]:
        """The task's objects: the relevant objects and the rooms (what the observation lists)."""
        return self._objects

    def extra_info(self) -> dict[str, Any]:
        if not self.admissible:
            return {}
        return {"admissible_actions": [to_script(a) for a in
                                       self.world.legal_actions(self.episode.state, self._objects)]}

    def goal_propositions(self) -> list[dict[str, Any]]:
        """Node goals (on objects in the scene), edge goals and action goals (in the order the protocol
        matches them; an action goal holds once it and every earlier one has been matched)."""
        assert self.task is not None and self.episode is not None
        state, goal = self.episode.state, self.task.goal
        out: list[dict[str, Any]] = [
            {"id": f"node_{i}", "kind": "node", "text": f"{label(state, g['id'])} is {g['state']}",
             "holds": g["state"] in state.states(g["id"])}
            for i, g in enumerate(goal.node_goals) if g["id"] in state.scene.objects]
        out += [{"id": f"edge_{i}", "kind": "edge",
                 "text": f"{label(state, g['from_id'])} {g['relation_type']} {label(state, g['to_id'])}",
                 "holds": state.has_edge(g["from_id"], g["relation_type"], g["to_id"])}
                for i, g in enumerate(goal.edge_goals)]
        if goal.action_goals:
            executed = [s.action for s in self.episode.trajectory.steps if s.ok and s.action is not None]
            matched, _ = action_goal_results(executed, goal, self.protocol)
            order = goal.action_goals_reference_order if self.protocol == "eai-1.0.5" else goal.action_goals
            out += [{"id": f"action_{i}", "kind": "action", "text": "do " + " or ".join(a.split("|")),
                     "holds": i < matched} for i, a in enumerate(order)]
        return out

    def shortest_plan_length(self, state: WorldState) -> int | None:
        assert self.task is not None
        return shortest_plan_length(self.world, self.task.goal.tl_goal, state)

    def partial_success(self, status: GoalStatus) -> tuple[float, str]:
        return status.fraction, "eai_total_goal"

    def observation(self) -> str:
        assert self.task is not None and self.episode is not None
        if self._header is None:
            state = self.task.initial_state
            g = self.task.goal
            lines = [f"Task {self.task.id}: {self.task.name}", f"Instruction: {self.task.instruction}", "Goal:"]
            lines += [f"  {label(state, x['id'])} is {x['state']}" for x in g.node_goals]
            lines += [f"  {label(state, x['from_id'])} {x['relation_type']} {label(state, x['to_id'])}"
                      for x in g.edge_goals]
            lines += [f"  do {' or '.join(a.split('|'))}" for a in g.action_goals]
            lines.append("Objects (states; properties; relations):")
            self._header = "\n".join(lines) + "\n"
        body = self.world.describe(self.episode.state, self._objects, self._lines)
        return f"{self._header}{body}\nYou are <character> ({CHARACTER_ID}).\nFeedback: {self.last_feedback}"


#: how many tasks' kept masks an env keeps (as many as the task and catalogue caches; see docs/benchmarks.md
#: for their memory; an access pattern cycling through more tasks than this would miss every time)
KEPT_TASKS = 512


def task_objects(task: Task) -> tuple[int, ...]:
    return task_object_ids(task.id)


_MAX_CAT: dict[str, int] = {}
#: (protocol, task id, id of the task's scene) -> (that scene, catalogue, its requirement groups); Actions are frozen
_CATALOGUES: dict[tuple, tuple] = {}


def max_catalogue_size(world: VirtualHomeWorld) -> int:
    """Size of the largest action catalogue over all tasks (the Discrete space of index mode)."""
    if world.protocol not in _MAX_CAT:
        n1 = sum(1 for a in world.vocabulary if ARITY[a] == 1)
        n2 = sum(1 for a in world.vocabulary if ARITY[a] == 2)
        n0 = sum(1 for a in world.vocabulary if ARITY[a] == 0)
        k = max(len(task_object_ids(t)) for t in task_ids())
        _MAX_CAT[world.protocol] = n0 + n1 * k + n2 * k * (k - 1)
    return _MAX_CAT[world.protocol]

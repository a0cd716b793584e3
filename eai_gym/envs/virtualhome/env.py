"""``eai_gym/VirtualHome-v0``: the EAI VirtualHome tasks as a Gymnasium environment.

Actions are text in script syntax (``[WALK] <kitchen> (11)``) or one EAI JSON item
(``{"WALK": ["kitchen", "11"]}``); with ``action_mode="index"`` they are integers into a fixed
catalogue of grounded actions over the task's objects, with ``info["action_mask"]`` (int8) marking
those that would execute. Observations are text: the task, its goal, the task's objects with their
states and relations, and the feedback of the last action.
"""

from __future__ import annotations

import re
import string
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ...core import Action, Episode, ErrorType, Task, WorldState
from .actions import ARITY, to_script
from .dynamics import label
from .tasks import CHARACTER_ID, load_task, task_ids, task_object_ids
from .world import VirtualHomeWorld, action_item_json

CHARSET = frozenset(string.printable)
MAX_OBS = 60_000
MAX_ACTION = 2_000


class VirtualHomeEnv(gym.Env[str, Any]):
    """One EAI VirtualHome task per episode.

    Args:
        task_id: a fixed task (default: drawn with the reset seed, or ``options["task_id"]``).
        protocol: ``"fixed"`` (default) or ``"eai-1.0.5"`` (reference vocabulary and object set: only
            the task's relevant objects may be named, PLUGIN/PLUGOUT/RELEASE are unknown).
        action_mode: ``"text"`` (default) or ``"index"``.
        admissible: add ``info["admissible_actions"]`` (script strings that would execute).
        terminate_on_error: end the episode at the first fatal error, as offline plan scoring does.
        render_mode: None or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", action_mode: str = "text",
                 admissible: bool = False, terminate_on_error: bool = False,
                 render_mode: str | None = None) -> None:
        if action_mode not in ("text", "index"):
            raise ValueError(f"action_mode must be 'text' or 'index', got {action_mode!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.world = VirtualHomeWorld(protocol)
        self.protocol = protocol
        self.task_ids = task_ids()
        if task_id is not None:
            load_task(task_id)  # validates the id
        self.fixed_task_id = task_id
        self.action_mode = action_mode
        self.admissible = admissible
        self.terminate_on_error = terminate_on_error
        self.render_mode = render_mode
        self.observation_space = spaces.Text(MAX_OBS, min_length=0, charset=CHARSET)
        if action_mode == "text":
            self.action_space = spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET)
        else:
            self.action_space = spaces.Discrete(max_catalogue_size(self.world))
        self.task: Task[WorldState] | None = None
        self.episode: Episode[WorldState] | None = None
        self.catalogue: list[Action] = []
        self._feedback = ""
        self._lines: dict = {}
        self._header: str | None = None
        self._objects: tuple[int, ...] = ()

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        options = options or {}
        tid = options.get("task_id", self.fixed_task_id)
        if tid is None:
            tid = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        self.task = load_task(tid)
        allowed = self._allowed()
        self.episode = Episode(self.world, tid, self.task.initial_state,
                               parse=partial(self.world.parse, allowed=allowed))
        self.catalogue = catalogue(self.world, self.task) if self.action_mode == "index" else []
        self._feedback = "The episode starts."
        self._lines: dict = {}
        self._header: str | None = None
        self._objects = task_objects(self.task)
        return self._observation(), self._info(None)

    def step(self, action: Any):
        if self.episode is None or self.task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.action_mode == "index":
            idx = int(action)
            if not 0 <= idx < self.action_space.n:
                raise ValueError(f"action index {action!r} outside Discrete({self.action_space.n})")
            if idx < len(self.catalogue):
                step = self.episode.step_action(self.catalogue[idx])
            else:
                step = self.episode.step_text(f"<unused action index {idx}>")
        else:
            step = self.episode.step_text(action)
        self._feedback = _feedback(step)
        status = self.world.goal_status(self.episode.trajectory, self.task.goal)
        terminated = status.success or (self.terminate_on_error and step.fatal)
        reward = 1.0 if status.success else 0.0
        return self._observation(), reward, terminated, False, self._info(step, status)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._observation()
        return None

    # ------------------------------------------------------------------ helpers
    def _allowed(self):
        if self.task is None or self.protocol != "eai-1.0.5":
            return None
        return self.task.metadata["virtualhome"].relevant

    def objects(self) -> tuple[int, ...]:
        """The task's objects: the relevant objects and the rooms (what the observation lists)."""
        assert self.task is not None
        return task_objects(self.task)

    def _observation(self) -> str:
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
        text = f"{self._header}{body}\nYou are <character> ({CHARACTER_ID}).\nFeedback: {self._feedback}"
        return text[:MAX_OBS]

    def _info(self, step, status=None) -> dict[str, Any]:
        assert self.task is not None and self.episode is not None
        if status is None:
            status = self.world.goal_status(self.episode.trajectory, self.task.goal)
        info: dict[str, Any] = {
            "task_id": self.task.id,
            "step": None if step is None else step.to_dict(),
            "goal": {"success": status.success, **{k: list(v) for k, v in status.parts.items()}},
        }
        state = self.episode.state
        if self.action_mode == "index":
            info["action_mask"] = np.array(
                [1 if self.world.try_action_ok(state, a) else 0 for a in self.catalogue]
                + [0] * (self.action_space.n - len(self.catalogue)), dtype=np.int8)
        if self.admissible:
            info["admissible_actions"] = [to_script(a) for a in
                                          self.world.legal_actions(state, self.objects())]
        return info


def _feedback(step) -> str:
    shown = to_script(step.action) if step.action is not None else step.raw
    if len(shown) > 200:
        shown = shown[:200] + "..."
    if step.ok:
        text = f"{shown}: done."
    else:
        kind = "skipped (already so)" if step.error is ErrorType.ADDITIONAL_STEP else step.error.value
        text = f"{shown}: failed, {kind}: {step.message}"
    return printable(text)


def printable(text: str) -> str:
    """``text`` with every character outside the observation charset written as an escape."""
    if _OUTSIDE_CHARSET.search(text) is None:
        return text
    return "".join(ch if ch in CHARSET else ascii(ch)[1:-1] for ch in text)


_OUTSIDE_CHARSET = re.compile("[^" + re.escape("".join(sorted(CHARSET))) + "]")


def task_objects(task: Task) -> tuple[int, ...]:
    return task_object_ids(task.id)


def catalogue(world: VirtualHomeWorld, task: Task) -> list[Action]:
    """Every grounded action over the task's objects, in a fixed order (names, then object ids)."""
    ids = task_objects(task)
    scene = task.initial_state.scene
    out = []
    for name in sorted(world.vocabulary):
        n = ARITY[name]
        combos = [()] if n == 0 else [(i,) for i in ids] if n == 1 else \
            [(i, j) for i in ids for j in ids if i != j]
        for args in combos:
            a = Action(name, args, tuple(scene.objects[i].name for i in args))
            out.append(Action(a.name, a.args, a.arg_names, raw=action_item_json(a)))
    return out


_MAX_CAT: dict[str, int] = {}


def max_catalogue_size(world: VirtualHomeWorld) -> int:
    """Size of the largest action catalogue over all tasks (the Discrete space of index mode)."""
    if world.protocol not in _MAX_CAT:
        n1 = sum(1 for a in world.vocabulary if ARITY[a] == 1)
        n2 = sum(1 for a in world.vocabulary if ARITY[a] == 2)
        n0 = sum(1 for a in world.vocabulary if ARITY[a] == 0)
        k = max(len(task_object_ids(t)) for t in task_ids())
        _MAX_CAT[world.protocol] = n0 + n1 * k + n2 * k * (k - 1)
    return _MAX_CAT[world.protocol]

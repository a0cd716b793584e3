"""The Gymnasium machinery every single-agent text world shares: spaces, reset/step, index mode.

A world env subclasses :class:`TaskTextEnv` and provides the task set, how a task is loaded, how an
agent's text is parsed, the action catalogue of index mode and the observation text.
"""

from __future__ import annotations

import string
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..core import Action, Episode, ErrorType, GoalStatus, Step, Task
from .arguments import action_index, check_seed, check_text_action, reset_options, str_option
from .text_space import TextObservation

CHARSET = frozenset(string.printable)
MAX_OBS = 60_000
MAX_ACTION = 2_000
_CHARSET_BYTES = "".join(sorted(CHARSET)).encode("ascii")


def printable(text: str) -> str:
    """``text`` with every character outside the observation charset written as an escape."""
    if text.isascii() and not text.encode("ascii").translate(None, _CHARSET_BYTES):
        return text  # (every character is in the charset: deleting them leaves nothing)
    return "".join(ch if ch in CHARSET else ascii(ch)[1:-1] for ch in text)


def feedback(step: Step, shown: str) -> str:
    """What the agent is told about its last action."""
    if len(shown) > 200:
        shown = shown[:200] + "..."
    if step.ok:
        return printable(f"{shown}: done.")
    kind = "skipped (already so)" if step.error is ErrorType.ADDITIONAL_STEP else step.error.value
    return printable(f"{shown}: failed, {kind}: {step.message}")


class TaskTextEnv(gym.Env[str, Any]):
    """One task per episode; text observations; text (default) or index actions.

    Subclasses set ``self.world`` and ``self.task_ids`` before calling ``super().__init__`` and
    implement :meth:`load_task`, :meth:`catalogue`, :meth:`catalogue_size` and :meth:`observation`
    (whose text must stay within the printable charset: feed agent text through :func:`printable`);
    they may override :meth:`parse`, :meth:`legal_mask`, :meth:`shown` and :meth:`goal_info`.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, task_id: str | None, action_mode: str, terminate_on_error: bool,
                 render_mode: str | None, terminate_on_success: bool = True) -> None:
        if action_mode not in ("text", "index"):
            raise ValueError(f"action_mode must be 'text' or 'index', got {action_mode!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.fixed_task_id = task_id
        self.action_mode = action_mode
        self.terminate_on_error = terminate_on_error
        self.terminate_on_success = terminate_on_success
        self.render_mode = render_mode
        self.observation_space = TextObservation(MAX_OBS, min_length=0, charset=CHARSET)
        if action_mode == "text":
            self.action_space = spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET)
        else:
            self.action_space = spaces.Discrete(self.catalogue_size())
        self.task: Task | None = None
        self.episode: Episode | None = None
        self.actions: list[Action] = []
        self.last_feedback = ""
        self._plan_lengths = {}
        self._plan_by_object = {}

    #: attributes a pickled copy leaves out (caches whose contents do not pickle); the world's env rebuilds
    #: them in ``__setstate__``
    UNPICKLED: tuple[str, ...] = ()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in self.UNPICKLED:
            state.pop(name, None)
        return state

    # ------------------------------------------------------------------ hooks
    world: Any
    task_ids: Sequence[str]

    def load_task(self, task_id: str) -> Task:
        raise NotImplementedError

    def catalogue(self, task: Task) -> list[Action]:
        raise NotImplementedError

    def catalogue_size(self) -> int:
        raise NotImplementedError

    def observation(self) -> str:
        raise NotImplementedError

    def parse(self, text: Any, state: Any) -> Action:
        return self.world.parse(text, state)

    def legal_mask(self) -> np.ndarray:
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        for i, a in enumerate(self.actions):
            mask[i] = self.world.try_action_ok(state, a)
        return mask

    def shown(self, step: Step) -> str:
        return step.raw

    def goal_info(self, status: GoalStatus) -> dict[str, Any]:
        return {"success": status.success, **{k: list(v) for k, v in status.parts.items()}}

    def extra_info(self) -> dict[str, Any]:
        return {}

    # ------------------------------------------------------------------ metric hooks (eai_gym.wrappers)
    def goal_propositions(self) -> list[dict[str, Any]]:
        """Every goal proposition now: ``[{"id", "kind", "text", "holds"}]``."""
        raise NotImplementedError

    def partial_success(self, status: GoalStatus) -> tuple[float, str]:
        """(partial credit, name of its definition) for a goal status."""
        return status.fraction, "goal_fraction"

    def goal_report(self) -> dict[str, Any]:
        """``{"success", "partial", "partial_definition"}`` for the trajectory so far."""
        assert self.task is not None and self.episode is not None
        status = self.world.goal_status(self.episode.trajectory, self.task.goal)
        partial, definition = self.partial_success(status)
        return {"success": bool(status.success), "partial": partial, "partial_definition": definition}

    def shortest_plan_length(self, state: Any) -> int | None:
        """Length of the subgoal translator's shortest plan from ``state`` to the goal (None: no plan)."""
        return None

    def _plan_length(self, state: Any) -> int | None:
        """:meth:`shortest_plan_length`, remembered for the episode by the state's content (``state.key()``, where
        the state has one; else the state object): a step that comes back to a state of the episode (a failed
        action, an undone one, a walk back) needs no plan search."""
        seen = self._plan_by_object.get(id(state))
        if seen is not None and seen[0] is state:
            return seen[1]
        key = ((id(getattr(state, "scene", None)), state.key()) if callable(getattr(state, "key", None))
               else ("object", id(state)))
        hit = self._plan_lengths.get(key)
        if hit is None or (key[0] == "object" and hit[0] is not state):
            hit = self._plan_lengths[key] = (state, self.shortest_plan_length(state))
        self._plan_by_object[id(state)] = (state, hit[1])
        return hit[1]

    def progress_report(self) -> dict[str, Any]:
        """``{"definition", "value", ...}``. ``subgoal_plan``: ``(L0 - L) / L0`` (at least 0; 1 on success),
        where ``L0`` and ``L`` are the translator's shortest plan lengths from the initial and the current
        state; where either has no plan, ``goal_propositions_fraction``: the share of goal propositions
        that hold now."""
        assert self.task is not None and self.episode is not None
        success = self.goal_report()["success"]
        l0 = self._plan_length(self.task.initial_state)
        cur = self._plan_length(self.episode.state) if l0 else None
        if l0 and cur is not None:
            value = 1.0 if success else max(0.0, (l0 - cur) / l0)
            return {"definition": "subgoal_plan", "value": value, "plan_length": cur, "initial_plan_length": l0}
        props = self.goal_propositions()
        value = sum(p["holds"] for p in props) / len(props) if props else float(success)
        return {"definition": "goal_propositions_fraction", "value": value, "plan_length": cur,
                "initial_plan_length": l0}

    #: the keys ``reset(options=...)`` accepts (an unknown key is a ``ValueError``: see :mod:`.arguments`)
    RESET_OPTIONS: tuple[str, ...] = ("task_id",)

    def task_option(self, options: dict[str, Any], where: str) -> str | None:
        """The task id the reset options ask for (None: the env's fixed task, else one drawn with the seed)."""
        return str_option(options, "task_id", where)

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        where = f"{type(self).__name__}.reset()"
        seed = check_seed(seed, where)
        tid = self.task_option(reset_options(options, self.RESET_OPTIONS, where), where)
        super().reset(seed=seed)
        if tid is None:
            tid = self.fixed_task_id
        if tid is None:
            tid = self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        self.task = self.load_task(tid)
        self.episode = Episode(self.world, tid, self.task.initial_state, parse=self.parse)
        self.actions = self.catalogue(self.task) if self.action_mode == "index" else []
        self.last_feedback = "The episode starts."
        self._plan_lengths: dict[Any, tuple[Any, int | None]] = {}  # by state content (:meth:`_plan_length`)
        self._plan_by_object: dict[int, tuple[Any, int | None]] = {}  # the same, by state object (no key to make)
        return self.observation()[:MAX_OBS], self._info(None)

    def step(self, action: Any):
        if self.episode is None or self.task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.action_mode == "index":
            idx = action_index(action, self.action_space.n, f"{type(self).__name__}.step()")
            step = (self.episode.step_action(self.actions[idx]) if idx < len(self.actions)
                    else self.episode.step_text(f"<unused action index {idx}>"))
        else:
            check_text_action(action, f"{type(self).__name__}.step()")
            step = self.episode.step_text(action)
        self.last_feedback = feedback(step, self.shown(step))
        status = self.world.goal_status(self.episode.trajectory, self.task.goal)
        terminated = (self.terminate_on_success and status.success) or (self.terminate_on_error and step.fatal)
        obs = self.observation()[:MAX_OBS]
        return obs, 1.0 if status.success else 0.0, terminated, False, self._info(step, status)

    def render(self) -> str | None:
        return self.observation()[:MAX_OBS] if self.render_mode == "ansi" else None

    def _info(self, step: Step | None, status: GoalStatus | None = None) -> dict[str, Any]:
        assert self.task is not None and self.episode is not None
        if status is None:
            status = self.world.goal_status(self.episode.trajectory, self.task.goal)
        info: dict[str, Any] = {"task_id": self.task.id, "step": {} if step is None else step.to_dict(),
                                "goal": self.goal_info(status)}
        if self.action_mode == "index":
            info["action_mask"] = self.legal_mask()
        info.update(self.extra_info())
        return info

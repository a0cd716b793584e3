"""One world played one text action at a time, for RL adapters: the part TRL's and SkyRL's classes share.

A :class:`WorldEpisode` plays the tasks of one world's split (:class:`eai_gym.registry.SplitSpec`) in the env the
split names (the world's single-agent Gymnasium env; the rearrange world's is its robot alone), with no metric
wrapper: each step costs the env's step, the goal check behind the reward and, only for the opt-in ``progress``
reward, the world's progress measure; the legal actions are listed only with ``admissible=True``. The split's tasks
and the end of an episode are :mod:`.split_play`'s (as for the OpenEnv server): the episode ends itself on
``terminated``/``truncated`` from the env, when the goal holds, or after ``max_steps`` actions (RL loops that stop
only on ``done`` rely on it). A multi-tick skill (``info["busy"]``) runs to its end within the one step. An action
after the end raises :class:`EpisodeOver`. As in ``eai-gym evaluate``, an action starting ``think:`` is a thought:
answered ``OK.`` without stepping the world, and counted towards ``max_steps``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import registry
from ..metrics.episode_metrics import ErrorCounter
from .rewards import EpisodeReward, check_reward
from .split_play import episode_end, split_tasks

#: actions per episode unless told (what ``eai-gym evaluate --max-steps`` defaults to)
DEFAULT_MAX_STEPS = 50
#: ticks a multi-tick skill may run within one step before the step ends anyway
MAX_BUSY_TICKS = 1000


class EpisodeOver(RuntimeError):
    """An action sent after the episode ended (or before it started)."""


@dataclass(frozen=True)
class StepResult:
    """What one action gave: the text the agent is shown next, the step's reward and how the episode stands."""

    observation: str
    reward: float
    done: bool
    won: bool
    truncated: bool
    error: str | None


def _int_at_least_1(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an int of at least 1, not {value!r}")
    return value


class WorldEpisode:
    """Episodes of one world's split, one text action per :meth:`step`.

    Args:
        world: a registered world (``eai_gym.registry.world_names()``).
        split: one of the world's splits (default: its task set); tasks of other splits are refused.
        reward: ``"success"`` or ``"progress"`` (:mod:`eai_gym.rl.rewards`).
        max_steps: actions per episode before it is cut off (truncated).
        admissible: append the legal actions to every observation.
        protocol: the world's protocol (default: its first).
        options: the agent prompt's options (e.g. ALFWorld's ``{"dialect": "0.3"}``).
        seed: the reset seed (fixes what a world draws at reset, such as ALFWorld's task-text template).
    """

    def __init__(self, world: str, split: str | None = None, *, reward: str = "success",
                 max_steps: int = DEFAULT_MAX_STEPS, admissible: bool = False, protocol: str | None = None,
                 options: dict[str, Any] | None = None, seed: int = 0) -> None:
        self.spec = registry.world(world)
        self.tasks = split_tasks(self.spec.name, split)
        self.split = self.tasks.split
        self.reward_kind = check_reward(reward)
        self.max_steps = _int_at_least_1(max_steps, "max_steps")
        if protocol is not None and protocol not in self.spec.protocols:
            raise ValueError(f"{world} has protocol(s) {', '.join(self.spec.protocols)}, not {protocol!r}")
        self.protocol = protocol or self.spec.protocols[0]
        self.admissible, self.options, self.seed = bool(admissible), dict(options or {}), seed
        self.hooks = registry.load(self.spec.task_set)
        self._prompt = registry.load(self.spec.agent_prompt) if self.spec.agent_prompt else None
        self.env: Any = None
        self._made: tuple | None = None  # (env id, make kwargs) of self.env
        self.task: str | None = None
        self.steps = 0
        self.done = True
        self.truncated = False
        self.errors = ErrorCounter()
        self.reward = EpisodeReward(self.reward_kind)
        self.progress: float | None = None

    # -- tasks ------------------------------------------------------------------------------------------------
    def task_ids(self) -> tuple[str, ...]:
        """The split's task ids, in its order."""
        return self.tasks.ids

    def _env_for(self, task: str) -> tuple[Any, dict | None]:
        import gymnasium as gym

        from .. import register_envs

        env_id, kwargs, reset = self.tasks.play(task, self.protocol)
        kwargs = {**kwargs, **(self._prompt.env_kwargs(self.options) if self._prompt else {})}
        made = (env_id, sorted(kwargs.items(), key=repr))
        if self.env is None or self._made != made:
            self.close()
            register_envs()
            # no TimeLimit: the episode counts its own actions (a registered limit could cut it short of max_steps)
            self.env = gym.make(env_id, max_episode_steps=-1, disable_env_checker=True, **kwargs)
            self._made = made
        return self.env, reset

    # -- the episode ------------------------------------------------------------------------------------------
    def reset(self, task: Any) -> str:
        """Start ``task`` (an id of the split: else :class:`~.split_play.UnknownTaskError`, a ``KeyError``); the
        first observation."""
        env, options = self._env_for(self.tasks.check(task))
        obs, _info = env.reset(seed=self.seed, options=options)
        self.task, self.steps, self.done, self.truncated = task, 0, False, False
        self.errors = ErrorCounter()
        self.reward = EpisodeReward(self.reward_kind)
        success, progress = self._metrics()
        self.reward.start(success, progress)
        return self._shown(obs)

    def _metrics(self) -> tuple[bool, float | None]:
        base = self.env.unwrapped
        success = bool(base.goal_report()["success"])
        self.progress = float(base.progress_report()["value"]) if self.reward.needs_progress else None
        return success, self.progress

    def _shown(self, obs: str) -> str:
        if not self.admissible:
            return obs
        legal = self.hooks.legal_actions(self.env)
        return obs + "\n\nAdmissible actions:\n" + "\n".join(f"- {a}" for a in legal)

    def step(self, action: Any) -> StepResult:
        """Play one action (text in the world's syntax)."""
        if self.task is None:
            raise EpisodeOver("no episode: call reset(task) first")
        if self.done:
            raise EpisodeOver(f"the episode of {self.spec.name} task {self.task} is over "
                              f"({self._ending()}); start another one with reset()")
        text = action if isinstance(action, str) else str(action)
        if text.strip().lower().startswith("think:"):  # a thought: answered, the world does not step
            return self._thought()
        env = self.env
        obs, _r, terminated, truncated, info = env.step(text)
        ticks = 0
        while info.get("busy") and not (terminated or truncated) and ticks < MAX_BUSY_TICKS:
            obs, _r, terminated, truncated, info = env.step(None)  # the skill runs on: no new action
            ticks += 1
        self.steps += 1
        self.errors.update(info.get("step"))
        success, progress = self._metrics()
        reward = self.reward.step(success, progress)
        self.done, self.truncated = episode_end(terminated, truncated, success, self.steps, self.max_steps)
        return StepResult(self._shown(obs) if not self.done else obs + f"\n\n[The episode is over: {self._ending()}.]",
                          reward, self.done, self.reward.won, self.truncated, self.errors.last_error)

    def _thought(self) -> StepResult:
        """A ``think: ...`` action, as ``eai-gym evaluate`` treats it: ``OK.``, no step of the world, no reward; it
        counts towards ``max_steps``."""
        self.steps += 1
        self.done, self.truncated = episode_end(False, False, False, self.steps, self.max_steps)
        if self.done:
            return StepResult(f"OK.\n\n[The episode is over: {self._ending()}.]", 0.0, True, False, True, None)
        return StepResult("OK.", 0.0, False, False, False, None)

    def _ending(self) -> str:
        if self.reward.won:
            return f"the goal was reached in {self.steps} steps"
        if self.truncated:
            return f"cut off after {self.steps} steps"
        return f"ended after {self.steps} steps without reaching the goal"

    def metrics(self) -> dict[str, Any]:
        """The episode so far: task, steps, success, total reward, progress (``progress`` reward) and error counts."""
        out: dict[str, Any] = {"world": self.spec.name, "split": self.split.name, "task": self.task,
                               "steps": self.steps, "success": float(self.reward.won), "reward": self.reward.total,
                               "done": self.done, "truncated": self.truncated}
        if self.reward.needs_progress:
            out["progress"] = self.progress
            out["best_progress"] = self.reward.best
        s = self.errors.summary()
        out["errors"] = sum(s["counts"].values())
        out.update({f"error_{k}": v for k, v in s["counts"].items()})
        return out

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
        self.env, self._made = None, None

"""Episode rewards for RL trainers, shared by every adapter (:mod:`eai_gym.rl.trl`, :mod:`eai_gym.rl.skyrl`, and any
other, such as an OpenEnv server): one definition, so a reward means the same thing through every interface.

Two kinds (:data:`REWARDS`), fed the world's own metrics after the reset and after every step: goal success (the
env's ``goal_report()["success"]``) and graded progress (``progress_report()["value"]``, only read for ``progress``):

* ``success`` (the default): 1.0 at the first step after which the goal holds, 0.0 at every other step. An episode's
  rewards sum to 1.0 if the goal was reached, else 0.0.
* ``progress`` (opt-in, dense): the step's reward is the best progress so far minus the best progress before it,
  counting the progress at the reset (``p0``): ``max(p0..pt) - max(p0..p(t-1))``. Rewards are never negative and
  an episode's rewards sum to its best progress minus ``p0``: at least 0 even when the episode starts with progress
  or loses it again (a plain difference of progress would sum to ``p_last - p0``, which can be negative). Progress
  is 1.0 when the goal holds in every world, so a won episode that started at 0 sums to 1.0.

Contract for an adapter: build one :class:`EpisodeReward` per episode, call :meth:`~EpisodeReward.start` after the
reset and :meth:`~EpisodeReward.step` after every step (a step after the episode ended is not the adapter's to
reward); read :attr:`~EpisodeReward.total` for an episode-level reward. :meth:`EpisodeReward.needs_progress` says
whether the progress must be computed at all (it costs a plan search in some worlds: ``success`` never reads it).
Pure Python, no import of Gymnasium or of any world.
"""

from __future__ import annotations

import math

#: the reward kinds (the first is the default)
REWARDS = ("success", "progress")


def check_reward(kind: object) -> str:
    """``kind`` if it names a reward, else a ``ValueError`` naming the choices."""
    if not isinstance(kind, str) or kind not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {kind!r}")
    return kind


def _progress(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"progress must be a finite number, got {value!r}")
    return float(value)


class EpisodeReward:
    """The rewards of one episode, step by step (see the module docstring for the definitions)."""

    def __init__(self, kind: str = "success") -> None:
        self.kind = check_reward(kind)
        self.total = 0.0
        self.won = False
        self.best: float | None = None  # the best progress so far (``progress`` only)
        self.start_progress: float | None = None
        self._started = False

    @property
    def needs_progress(self) -> bool:
        """Whether :meth:`start` and :meth:`step` need the progress value."""
        return self.kind == "progress"

    def start(self, success: bool, progress: float | None = None) -> None:
        """The metrics right after the reset (``progress`` required for the ``progress`` kind)."""
        self.total, self.won, self._started = 0.0, False, True
        self.best = self.start_progress = _progress(progress) if self.needs_progress else None

    def step(self, success: bool, progress: float | None = None) -> float:
        """The metrics after a step; returns the step's reward."""
        if not self._started:
            raise RuntimeError("EpisodeReward.step() before start(): start each episode after its reset")
        if self.kind == "success":
            reward = 1.0 if success and not self.won else 0.0
        else:
            value = _progress(progress)
            assert self.best is not None
            reward = max(0.0, value - self.best)
            self.best = max(self.best, value)
        self.won = self.won or bool(success)
        self.total += reward
        return reward


def rewards_of(kind: str, successes: list[bool], progress: list[float] | None = None) -> list[float]:
    """The per-step rewards of a whole episode: ``successes`` and ``progress`` hold the value after the reset
    first, then one per step (so each is one longer than the result)."""
    r = EpisodeReward(kind)
    values = progress if progress is not None else [None] * len(successes)
    if len(values) != len(successes) or not successes:
        raise ValueError("successes and progress must have the same length, at least 1 (the reset's)")
    r.start(successes[0], values[0])
    return [r.step(s, p) for s, p in zip(successes[1:], values[1:])]

"""The rearrange envs: PettingZoo ``eai_gym/rearrange-v0`` (parallel and AEC) and Gymnasium ``eai_gym/Rearrange-v0``.

Both run :class:`~.world.RearrangeWorld` on an episode set (the shipped validation set by default).
Observations are text: PARTNR's world description (furniture per room, objects and where they are)
plus where the agent is, what it holds, the result of its last action and the other agent's last
action. Actions are text in PARTNR's syntax (default) or, with ``action_mode="index"``, integers
into the episode's catalogue (:mod:`.catalogue`) with ``info["action_mask"]``. The reward is the
change in PARTNR's task percent complete (shared by both agents); an episode terminates on success
or when every agent has said ``Done[]``, and is truncated after ``max_steps`` ticks. The infos carry
the engine's metrics every tick and, at the end, the evaluation log and a failure explanation.
``observation_mode="array"`` (parallel env) gives each observation as its ASCII codes in a
``Box(0, 255, (16384,), uint8)``, for learners and tools that expect arrays (decode with
:func:`as_text`).

``reset(options=...)``: ``{"episode_id": id}`` (an episode of the set) or ``{"episode": dict}`` (one in the episode
format); otherwise an episode drawn with the seed. Values of the wrong type are a ``TypeError``, an unknown id an
:class:`~eai_gym.core.UnknownTaskError` (a ``KeyError``). Other keys are a ``ValueError`` in the Gymnasium env and
left out by the PettingZoo envs (PettingZoo's test kit resets with an option of its own). Actions of the wrong kind
(a batch in text mode; anything but an int in the space in index mode) are a ``TypeError``/``ValueError``
(:mod:`eai_gym.envs.arguments`), in the AEC env when they are given; in text mode another value that is not a str
is a failed step (``parsing``), and ``None`` an agent's "no new action" this tick.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec
from pettingzoo.utils.wrappers import BaseWrapper

from ..arguments import check_seed, kind, shown
from ..text_space import TextObservation
from . import catalogue as cat
from .episode import AGENTS
from .session import CHARSET, MAX_ACTION, MAX_OBS, RESET_OPTIONS, RearrangeSession, SessionMetricHooks


MAX_OBS_BYTES = 16_384


def check_max_steps(max_steps: Any) -> None:
    """Raise ``TypeError``/``ValueError`` unless ``max_steps`` is a positive int."""
    if not isinstance(max_steps, (int, np.integer)) or isinstance(max_steps, bool):
        raise TypeError(f"max_steps must be an int, got {kind(max_steps)}: {shown(max_steps)}")
    if max_steps < 1:
        raise ValueError(f"max_steps must be positive, got {shown(max_steps)}")


def as_array(text: str) -> np.ndarray:
    """An observation as its ASCII codes, zero-padded (and cut) to ``MAX_OBS_BYTES``."""
    out = np.zeros(MAX_OBS_BYTES, dtype=np.uint8)
    data = np.frombuffer(text.encode("ascii", "replace")[:MAX_OBS_BYTES], dtype=np.uint8)
    out[:len(data)] = data
    return out


def as_text(obs: np.ndarray) -> str:
    """The text of an ``observation_mode="array"`` observation."""
    return bytes(obs[obs != 0]).decode("ascii")


class RearrangeParallelEnv(SessionMetricHooks, ParallelEnv):
    """Robot (``agent_0``) and human (``agent_1``) in one house, acting concurrently."""

    metadata = {"name": "eai_gym/rearrange-v0", "render_modes": ["ansi"], "is_parallelizable": True}
    #: the keys ``reset(options=...)`` reads (others are left out)
    RESET_OPTIONS = RESET_OPTIONS

    def __init__(self, episodes: Any = None, episode_id: str | None = None, protocol: str = "fixed",
                 observability: str = "full", action_mode: str = "text", max_steps: int = 300,
                 legal_actions_info: bool = False, observation_mode: str = "text",
                 render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        check_max_steps(max_steps)
        if observation_mode not in ("text", "array"):
            raise ValueError(f"observation_mode must be 'text' or 'array', got {observation_mode!r}")
        self.observation_mode = observation_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.session = RearrangeSession(AGENTS, episodes, episode_id, protocol, observability, action_mode,
                                        legal_actions_info)
        self._rng = np.random.default_rng()

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Space:
        if self.observation_mode == "array":
            return spaces.Box(0, 255, (MAX_OBS_BYTES,), np.uint8)
        return TextObservation(MAX_OBS, min_length=0, charset=CHARSET)

    def _obs(self, agent: str) -> Any:
        text = self.session.observation(agent)
        return text if self.observation_mode == "text" else as_array(text)

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str) -> spaces.Space:
        if self.session.action_mode == "index":
            return spaces.Discrete(cat.MAX_ACTIONS)
        return spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET)

    def reset(self, seed: int | None = None, options: dict | None = None):
        """A new episode. ``options``: ``{"episode_id": ...}`` or ``{"episode": ...}`` (see the module docstring);
        other keys are left out, as PettingZoo's test kit resets with an option of its own."""
        where = f"{type(self).__name__}.reset()"
        seed = check_seed(seed, where)
        options = self.session.check_options(options, where, strict=False)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for a in self.possible_agents:
                self.action_space(a).seed(seed)
        self.session.start(self._rng, options)
        self.agents = list(self.possible_agents)
        obs = {a: self._obs(a) for a in self.agents}
        return obs, {a: self.session.info(a, None, False) for a in self.agents}

    def step(self, actions: dict):
        world = self.session.world
        if world is None or not self.agents:
            raise RuntimeError("call reset() before step() (the episode has ended)")
        if not isinstance(actions, Mapping):
            raise TypeError(f"step() takes a dict of agent -> action, got a {type(actions).__name__}")
        for a in actions:
            if a not in self.possible_agents:
                raise ValueError(f"{type(self).__name__}.step(): unknown agent {shown(a)}; the agents are "
                                 f"{', '.join(self.possible_agents)}")
        for a in self.agents:
            if a in actions:
                self.check_action(a, actions[a])
        feedback, reward, terminated, truncated = self.session.tick(
            {a: actions[a] for a in self.agents if a in actions}, self.max_steps)
        ended = terminated or truncated
        agents = list(self.agents)
        obs = {a: self._obs(a) for a in agents}
        infos = {a: self.session.info(a, feedback.get(a), ended) for a in agents}
        rewards = {a: reward for a in agents}
        terms = {a: terminated for a in agents}
        truncs = {a: truncated for a in agents}
        if ended:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def check_action(self, agent: str, action: Any) -> None:
        """Raise ``TypeError``/``ValueError`` unless ``action`` is one of ``agent``'s action space's kind."""
        self.session.check_action(action, f"{type(self).__name__}.step() (agent {agent})")

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.session.world is None:
            return None
        return "\n\n".join(f"== {a} ==\n{self.session.observation(a)}" for a in self.possible_agents)

    def close(self) -> None:
        pass

    def state(self) -> str:
        world = self.session.world
        return "" if world is None else world.describe(self.possible_agents[0])


def parallel_env(**kwargs: Any) -> RearrangeParallelEnv:
    return RearrangeParallelEnv(**kwargs)


class CheckedActions(BaseWrapper):
    """An AEC env from :func:`~pettingzoo.utils.conversions.parallel_to_aec` whose ``step`` checks each action when
    it is given (the conversion keeps the actions until the last agent's, then steps the parallel env): a bad action
    is a ``TypeError``/``ValueError`` at once and leaves the env as it was."""

    def __init__(self, env: Any, parallel: RearrangeParallelEnv) -> None:
        super().__init__(env)
        self.parallel = parallel

    def step(self, action: Any) -> None:
        agent = self.env.agent_selection
        if self.env.terminations[agent] or self.env.truncations[agent]:
            if action is not None:
                raise ValueError(f"{type(self.parallel).__name__}.step() (agent {agent}): the agent's episode has "
                                 f"ended; its only action is None, got {shown(action)}")
        else:
            self.parallel.check_action(agent, action)
        self.env.step(action)


def aec_env(**kwargs: Any):
    """The AEC form, by PettingZoo's standard conversion (its actions checked when given: :class:`CheckedActions`)."""
    parallel = RearrangeParallelEnv(**kwargs)
    return CheckedActions(parallel_to_aec(parallel), parallel)


class RearrangeEnv(SessionMetricHooks, gym.Env[str, Any]):
    """The robot alone (``agent_0``, with every skill) in the same world: a Gymnasium text env."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    #: the keys ``reset(options=...)`` accepts
    RESET_OPTIONS = RESET_OPTIONS

    def __init__(self, episodes: Any = None, episode_id: str | None = None, protocol: str = "fixed",
                 observability: str = "full", action_mode: str = "text", max_steps: int = 300,
                 legal_actions_info: bool = False, render_mode: str | None = None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        check_max_steps(max_steps)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.session = RearrangeSession(("agent_0",), episodes, episode_id, protocol, observability, action_mode,
                                        legal_actions_info)
        self.observation_space = TextObservation(MAX_OBS, min_length=0, charset=CHARSET)
        self.action_space = (spaces.Discrete(cat.MAX_ACTIONS) if action_mode == "index"
                             else spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new episode. ``options``: ``{"episode_id": ...}`` or ``{"episode": ...}`` (see the module docstring)."""
        where = f"{type(self).__name__}.reset()"
        seed = check_seed(seed, where)
        options = self.session.check_options(options, where)
        super().reset(seed=seed)
        self.session.start(self.np_random, options)
        return self.session.observation("agent_0"), self.session.info("agent_0", None, False)

    def step(self, action: Any):
        world = self.session.world
        if world is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        self.session.check_action(action, f"{type(self).__name__}.step()")
        feedback, reward, terminated, truncated = self.session.tick({"agent_0": action}, self.max_steps)
        info = self.session.info("agent_0", feedback.get("agent_0"), terminated or truncated)
        return self.session.observation("agent_0"), reward, terminated, truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.session.world is None:
            return None
        return self.session.observation("agent_0")

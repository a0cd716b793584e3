"""The rearrange envs, documented by their classes' docstrings: PettingZoo ``eai_gym/rearrange-v0`` (parallel and
AEC; :class:`RearrangeParallelEnv`) and Gymnasium ``eai_gym/Rearrange-v0`` (:class:`RearrangeEnv`)."""

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
    """A robot (``agent_0``) and a human (``agent_1``) acting concurrently in one house: PettingZoo's
    ``eai_gym/rearrange-v0``, parallel and AEC.

    ## Description

    PARTNR's collaborative rearrangement without habitat-sim or gated data: two agents share a house and act
    concurrently with PARTNR's high-level skills, each taking ticks; an episode carries an instruction and PARTNR's
    evaluation spec (propositions, dependencies, constraints), scored every tick. The episode set is the shipped
    validation set (336 episodes in 12 houses; task kinds ``constraint_free``, ``spatial``, ``temporal``,
    ``heterogeneous``: in a heterogeneous episode the robot cannot ``Clean``, ``Fill``, ``Pour``, ``PowerOn`` or
    ``PowerOff``) unless ``episodes`` names another. ``protocol="fixed"`` applies the documented intent of the
    evaluation, ``protocol="partnr"`` reproduces PARTNR's (docs/rearrange.md).

    ``pettingzoo.make("parallel", "eai_gym/rearrange-v0")`` makes this class; ``pettingzoo.make("aec",
    "eai_gym/rearrange-v0")`` wraps it in PettingZoo's ``parallel_to_aec`` (the agents act in turn, ``agent_0``
    first, and the tick runs after the last one), checking each action when it is given.

    ## Action Space

    Per agent. ``action_mode="text"`` (default): ``Text(max_length=2000)`` over the printable ASCII characters, one
    skill in PARTNR's syntax ``Tool[args]`` (``Navigate[counter_1]``, ``Place[cup_1, on, table_2, None, None]``;
    docs/rearrange_world.md describes every skill). An idle agent's action starts a skill; a busy agent's action is
    ignored; ``None`` (in text mode), or leaving the agent out of the parallel step's actions, is "no new action"
    this tick. A text not of the form ``Tool[args]`` is a failed step (``parsing``), an unknown tool a
    ``hallucination``; a batch (a list, a tuple...) is a ``TypeError``.

    ``action_mode="index"``: ``Discrete(4096)``, an index into the episode's catalogue (``Navigate`` to every
    furniture, floor, room and object; ``Pick``, ``Place`` (no ``next_to``), ``Open``/``Close`` and the state
    skills on what they apply to; ``Explore``; ``FindAgentActionTool[]``, ``Wait[]``, ``Done[]``), with
    ``info["action_mask"]`` marking the entries whose immediate checks pass (only ``Wait[]`` for a busy agent).
    An index past the catalogue is a failed step (``parsing``), one outside the space an error.

    ## Observation Space

    Per agent. ``observation_mode="text"`` (default): ``Text(max_length=60000)`` over the printable ASCII
    characters: the instruction, PARTNR's world description (``Furniture:`` per room, ``Objects:`` and where each
    is), the agent's room and held object, the open furniture, its last action and its result (or the skill still
    in progress), and the other agent's last action. With ``observability="partial"`` only the objects the agent
    has seen, or either agent moved or changed, are listed, at their last known place. ``observation_mode="array"``:
    the same text as ASCII codes, zero-padded, in a ``Box(0, 255, (16384,), uint8)`` (decoded by ``as_text``).

    ## Rewards

    The change in PARTNR's task percent complete during the tick, the same for both agents. (The extra evaluation
    update when an unsuccessful episode ends shows in the infos' figures, not in the reward.)

    ## Starting State

    The episode's house, objects and agents' places. The episode is ``options["episode"]`` (a dict in the episode
    format) or ``options["episode_id"]`` (one of the set) if given, else the constructor's ``episode_id``, else
    one drawn with the env's generator (seeded by ``reset(seed=...)``).

    ## Episode End

    - Termination: the task succeeds, or every agent has said ``Done[]`` (then, as PARTNR's runner does, one
      extra evaluation update).
    - Truncation: after ``max_steps`` ticks (300 by default), by the env itself.

    Both agents end together (``env.agents`` is then empty).

    ## Information

    Per agent, a fresh dict with ``episode_id``, ``task_kind``, ``tick``, ``feedback`` (``action``, ``ok``,
    ``finished``, ``message``, ``error``, ``started``; ``{}`` after reset), ``busy``, ``step`` (the step record of
    a skill that started or finished this tick, else ``{}``), ``task_percent_complete``, ``task_state_success``;
    ``action_mask`` (index mode); ``legal_actions`` (with ``legal_actions_info=True``: the catalogue actions whose
    immediate checks pass, as text); and at the end ``evaluation_log`` (PARTNR's task evaluation log) and
    ``explanation`` (which proposition or constraint failed, in words).

    ``state()`` is the world description as ``agent_0`` sees it. The metric hooks of ``eai_gym.wrappers``:
    ``goal_propositions()`` (the propositions now, with their dependencies and the constraints' validity),
    ``goal_report()`` and ``progress_report()`` (PARTNR's task percent complete).

    ## Arguments

    ```python
    >>> import pettingzoo, eai_gym
    >>> env = pettingzoo.make("parallel", "eai_gym/rearrange-v0")
    >>> obs, infos = env.reset(seed=0, options={"episode_id": "house_03_temporal_02"})
    >>> obs["agent_0"].splitlines()[-2:]
    ['You are agent_0 (the robot), in kitchen_1, holding nothing.', 'agent_1 (the human) last action: none.']
    >>> actions = {"agent_0": "Navigate[counter_1]", "agent_1": "Explore[kitchen_1]"}
    >>> obs, rewards, terms, truncs, infos = env.step(actions)
    >>> rewards, infos["agent_0"]["feedback"]["message"], infos["agent_1"]["busy"]
    ({'agent_0': 0.0, 'agent_1': 0.0}, 'Successful execution!', True)

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``episodes`` | path, list or None | None | the episode set: None (or ``"val"``) the shipped validation set; a path to an episode file; or a list of episodes (dicts) |
    | ``episode_id`` | ``str`` or None | None | a fixed episode of the set (None: drawn at each reset); an unknown one is an ``UnknownTaskError`` |
    | ``protocol`` | ``str`` | ``"fixed"`` | ``"fixed"`` or ``"partnr"`` (see Description) |
    | ``observability`` | ``str`` | ``"full"`` | ``"full"`` or ``"partial"`` (see Observation Space) |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` (see Action Space) |
    | ``max_steps`` | ``int`` | 300 | ticks before truncation (a positive int) |
    | ``legal_actions_info`` | ``bool`` | False | add ``info["legal_actions"]`` |
    | ``observation_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"array"`` (see Observation Space) |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns both agents' observations) |

    Reset options (``RESET_OPTIONS``): ``episode`` (a dict in the episode format) and ``episode_id`` (a ``str``):
    a value of the wrong type is a ``TypeError``, a malformed episode a ``ValueError``, an unknown id an
    ``UnknownTaskError`` (a ``KeyError``); other keys are left out (PettingZoo's API test resets with its own).
    Actions of the wrong kind are a ``TypeError`` or ``ValueError`` (``eai_gym.envs.arguments``), in the AEC env
    when given, so a bad action leaves the cycle as it was.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """

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
        """A new episode. ``options``: ``{"episode_id": ...}`` or ``{"episode": ...}`` (see the class docstring);
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
    """The entry point of ``eai_gym/rearrange-v0`` (parallel): a :class:`RearrangeParallelEnv`, whose docstring
    documents the env (``kwargs``: its arguments)."""
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
    """The entry point of ``eai_gym/rearrange-v0`` (AEC): a :class:`RearrangeParallelEnv` (whose docstring documents
    the env; ``kwargs``: its arguments) in PettingZoo's standard conversion ``parallel_to_aec``, its actions checked
    when given (:class:`CheckedActions`)."""
    parallel = RearrangeParallelEnv(**kwargs)
    return CheckedActions(parallel_to_aec(parallel), parallel)


class RearrangeEnv(SessionMetricHooks, gym.Env[str, Any]):
    """The robot (``agent_0``) alone, with every skill, in the rearrange world: Gymnasium's ``eai_gym/Rearrange-v0``.

    ## Description

    The world of ``eai_gym/rearrange-v0`` (``RearrangeParallelEnv``, which documents the world, the skills and
    the catalogue) with one agent, ``agent_0``, which may use every skill (also in heterogeneous episodes). Each
    step is one tick. The episodes, the protocols (``fixed``, ``partnr``) and the observability are the same.

    ## Action Space

    ``action_mode="text"`` (default): ``Text(max_length=2000)``, one skill in PARTNR's syntax ``Tool[args]``
    (``Navigate[counter_1]``, ``Pick[cup_1]``, ..., ``Done[]``); the action sent while a skill runs is ignored and
    ``None`` (text mode) is "no new action". ``action_mode="index"``: ``Discrete(4096)``, an index into the episode's
    catalogue, with ``info["action_mask"]`` (only ``Wait[]`` while a skill runs). Failed steps and errors as in
    the two-agent env.

    ## Observation Space

    ``Text(max_length=60000)`` over the printable ASCII characters: the two-agent env's observation for
    ``agent_0``, without the other agent's last action.

    ## Rewards

    The change in PARTNR's task percent complete during the tick (the extra evaluation update when an
    unsuccessful episode ends shows in the info's figures, not in the reward).

    ## Starting State

    The episode's house, objects and the robot's place; the episode as in the two-agent env
    (``options["episode"]``, ``options["episode_id"]``, the constructor's ``episode_id``, else drawn with the
    env's generator, seeded by ``reset(seed=...)``).

    ## Episode End

    - Termination: the task succeeds, or the agent has said ``Done[]`` (then one extra evaluation update).
    - Truncation: after ``max_steps`` ticks (300 by default), by the env itself (the id has no ``TimeLimit``).

    ## Information

    The two-agent env's infos for ``agent_0``: ``episode_id``, ``task_kind``, ``tick``, ``feedback``, ``busy``,
    ``step``, ``task_percent_complete``, ``task_state_success``; ``action_mask`` (index mode); ``legal_actions``
    (with ``legal_actions_info=True``); at the end ``evaluation_log`` and ``explanation``. The metric hooks are
    the same.

    ## Arguments

    ```python
    >>> import gymnasium as gym, eai_gym
    >>> env = gym.make("eai_gym/Rearrange-v0", max_steps=50)
    >>> obs, info = env.reset(seed=0, options={"episode_id": "house_03_temporal_02"})
    >>> obs.splitlines()[-1]
    'You are agent_0 (the robot), in kitchen_1, holding nothing.'
    >>> obs, reward, terminated, truncated, info = env.step("Navigate[counter_1]")
    >>> reward, info["feedback"]["message"], info["tick"]
    (0.0, 'Successful execution!', 1)

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``episodes`` | path, list or None | None | the episode set, as in the two-agent env |
    | ``episode_id`` | ``str`` or None | None | a fixed episode of the set (None: drawn at each reset) |
    | ``protocol`` | ``str`` | ``"fixed"`` | ``"fixed"`` or ``"partnr"`` |
    | ``observability`` | ``str`` | ``"full"`` | ``"full"`` or ``"partial"`` |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` |
    | ``max_steps`` | ``int`` | 300 | ticks before truncation (a positive int) |
    | ``legal_actions_info`` | ``bool`` | False | add ``info["legal_actions"]`` |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns the observation) |

    Reset options (``RESET_OPTIONS``): ``episode`` and ``episode_id``, as in the two-agent env, except that
    another key is a ``ValueError`` naming it.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """

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
        """A new episode. ``options``: ``{"episode_id": ...}`` or ``{"episode": ...}`` (see the class docstring)."""
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

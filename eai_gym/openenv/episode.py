"""One world's env for one session, as the OpenEnv server steps it (no OpenEnv import: plain data in and out).

Everything world-specific comes from the registry (:mod:`eai_gym.registry`): the task set (its ids, and
``play(task, protocol)`` for the env id, make arguments and reset options of a task, ``legal_actions(env)``), and
the agent prompt's ``TEAM_ENV`` (a PettingZoo parallel env id) for a world that several agents play together.
The env runs inside the four metric wrappers (:mod:`eai_gym.wrappers`); a :class:`View` is what one
observation carries: the world's text, the feedback of the last action, its EAI error type, the admissible
actions, reward, ``done`` and ``truncated``, ``won`` and the progress rate (and, with several agents, each
agent's own view).

Tasks: ``task`` (an id of ``eai-gym list WORLD``) or ``index`` (its position), else a ``seed`` alone picks task
number ``seed mod N``; with neither, a session plays the tasks in order, one per reset. The env is reset with the
seed (0 when none is given: an episode is the same every time it is played with the same reset fields).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .. import registry

#: the one split of every world's task set, as OpenEnv's task API names it (the packaged tasks: an evaluation set)
SPLIT = "eval"


class EpisodeError(ValueError):
    """A request the episode cannot serve (unknown task, a step before reset or after the end, a bad action);
    the message names the input."""


@dataclass(frozen=True)
class EpisodeConfig:
    """What every episode of a server shares.

    ``protocol``: the world's protocol (None: its first); ``max_steps``: steps before an episode is truncated
    (None: the env's own limit); ``admissible``: list the admissible actions in each observation (a reset
    can turn it off: some worlds take milliseconds to list them)."""

    world: str
    protocol: str | None = None
    max_steps: int | None = None
    admissible: bool = True


@dataclass
class AgentView:
    """One agent's view of a step in a world several agents play (``busy``: its last skill still runs)."""

    text: str
    feedback: str = ""
    ok: bool | None = None
    error: str | None = None
    message: str = ""
    busy: bool = False
    admissible_actions: list[str] | None = None


@dataclass
class View:
    """What one observation carries (see the module docstring); ``reward`` is None after a reset."""

    world: str
    task: str
    text: str
    feedback: str = ""
    admissible_actions: list[str] | None = None
    reward: float | None = None
    done: bool = False
    truncated: bool = False
    won: bool = False
    progress: float | None = None
    error: str | None = None
    message: str = ""
    step: int = 0
    agents: dict[str, AgentView] | None = None


@dataclass(frozen=True)
class WorldFacts:
    """A world as the server sees it: its task ids, its task-set hooks, and its team env (None: one agent)."""

    name: str
    protocol: str
    ids: tuple[str, ...]
    positions: Mapping[str, int]
    hooks: Any
    team_env: str | None
    agents: tuple[str, ...]
    description: str = ""


@lru_cache(maxsize=None)
def world_facts(world: str, protocol: str | None = None) -> WorldFacts:
    """The world's facts (loaded once per process; raises ``registry.RegistryError`` or ``ValueError``)."""
    from ..tasksets import task_sets

    spec = registry.world(world)
    protocol = protocol or spec.protocols[0]
    if protocol not in spec.protocols:
        raise ValueError(f"{world} has protocol(s) {', '.join(spec.protocols)}, not {protocol}")
    ids = tuple(task_sets()[spec.name].ids())
    if not ids:
        raise ValueError(f"{world} has no tasks")
    prompt = registry.load(spec.agent_prompt) if spec.agent_prompt else None
    team_env = getattr(prompt, "TEAM_ENV", None)
    agents: tuple[str, ...] = ("agent",)
    if team_env:
        import pettingzoo

        _register()
        probe = pettingzoo.make("parallel", team_env)
        agents = tuple(probe.possible_agents)
        probe.close()
    return WorldFacts(spec.name, protocol, ids, {t: i for i, t in enumerate(ids)}, registry.load(spec.task_set),
                      team_env, agents, spec.description)


def _register() -> None:
    import gymnasium  # noqa: F401  (first: importing it registers eai-gym's ids)

    import eai_gym

    eai_gym.register_envs()


def _check_int(name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EpisodeError(f"{name} must be a non-negative integer, got {value!r:.80}")
    return value


class WorldEpisode:
    """One session's env: built at the first reset (so that constructing one costs nothing) and kept while the
    tasks it plays need the same env."""

    def __init__(self, config: EpisodeConfig) -> None:
        self.config = config
        self.env: Any = None
        self._made: tuple[str, dict[str, Any]] | None = None
        self.view: View | None = None
        self.resets = 0
        self.closed = False

    @property
    def facts(self) -> WorldFacts:
        return world_facts(self.config.world, self.config.protocol)

    # -- choosing a task ----------------------------------------------------------------------------------
    def choose(self, task: Any = None, seed: Any = None, index: Any = None, split: Any = None) -> str:
        """The task a reset plays (see the module docstring)."""
        ids = self.facts.ids
        if split is not None:
            self.check_split(split)
        if task is not None:
            if not isinstance(task, str) or task not in self.facts.positions:
                raise EpisodeError(f"{self.config.world} has no task {task!r:.80} ({len(ids)} tasks, e.g. "
                                   f"{', '.join(ids[:3])}; eai-gym list {self.config.world})")
            if index is not None and self.facts.positions[task] != _check_int("index", index):
                raise EpisodeError(f"task {task!r} is number {self.facts.positions[task]}, not index {index!r}")
            return task
        if index is not None:
            if _check_int("index", index) >= len(ids):
                raise EpisodeError(f"index {index} is out of range: {self.config.world} has tasks 0..{len(ids) - 1}")
            return ids[index]
        if seed is not None:
            return ids[_check_int("seed", seed) % len(ids)]
        return ids[self.resets % len(ids)]

    def check_split(self, split: Any) -> None:
        """Raise :class:`EpisodeError` unless ``split`` is :data:`SPLIT`."""
        if split != SPLIT:
            raise EpisodeError(f"{self.config.world} has one split, {SPLIT!r}, not {split!r:.80}")

    # -- the episode ----------------------------------------------------------------------------------------
    def reset(self, task: Any = None, seed: Any = None, index: Any = None, split: Any = None,
              admissible: Any = None, max_steps: Any = None) -> View:
        """Start an episode of the chosen task (``admissible``, ``max_steps``: this episode's, else the config's)."""
        self._check_open()
        if seed is not None:
            _check_int("seed", seed)
        if admissible is not None and not isinstance(admissible, bool):
            raise EpisodeError(f"admissible must be true or false, got {admissible!r:.80}")
        if max_steps is not None and _check_int("max_steps", max_steps) < 1:
            raise EpisodeError("max_steps must be at least 1")
        chosen = self.choose(task, seed, index, split)
        self.admissible = self.config.admissible if admissible is None else admissible
        self.max_steps = self.config.max_steps if max_steps is None else max_steps
        facts = self.facts
        env_id, kwargs, options = facts.hooks.play(chosen, facts.protocol)
        seed = 0 if seed is None else seed  # deterministic: an unseeded reset is seeded 0
        self.view = None
        if facts.team_env:
            obs, infos = self._env_for(facts.team_env, {**kwargs, "legal_actions_info": self.admissible},
                                       team=True).reset(seed=seed, options=options)
            view = self._team_view(chosen, obs, infos)
        else:
            obs, info = self._env_for(env_id, kwargs, team=False).reset(seed=seed, options=options)
            view = self._single_view(chosen, obs, info)
        self.resets += 1
        self.view = view
        return view

    def step(self, action: Any) -> View:
        """One step: a command (one agent) or ``{agent: command or None}`` (several; None or left out: no new
        action for that agent, whose running skill goes on)."""
        self._check_open()
        if self.view is None:
            raise EpisodeError("no episode yet: reset first")
        if self.view.done:
            raise EpisodeError(f"the episode of task {self.view.task!r} is over"
                               f"{' (truncated)' if self.view.truncated else ''}: reset to start another")
        facts = self.facts
        if facts.team_env:
            joint = self._joint(action)
            obs, rewards, terms, truncs, infos = self.env.step(joint)
            view = self._team_view(self.view.task, obs, infos, rewards, any(terms.values()), any(truncs.values()))
        else:
            if not isinstance(action, str):
                raise EpisodeError(f"{facts.name} takes one command (a string), got {type(action).__name__}")
            obs, reward, terminated, truncated, info = self.env.step(action)
            view = self._single_view(self.view.task, obs, info, float(reward), terminated, truncated)
        self.view = view
        return view

    def close(self) -> None:
        """Close the env; the session answers no further reset or step."""
        self.closed = True
        if self.env is not None:
            self.env.close()
            self.env = None

    # -- helpers -------------------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self.closed:
            raise EpisodeError("this session is closed (idle too long, or closed by the client): open a new one")

    def _env_for(self, env_id: str, kwargs: dict[str, Any], team: bool) -> Any:
        if self.env is not None and self._made == (env_id, kwargs):
            return self.env
        if self.env is not None:
            self.env.close()
            self.env = None
        _register()
        if team:
            import pettingzoo

            from ..wrappers import (ParallelGoalSuccess, ParallelProgressRate, ParallelPropositionLog,
                                    ParallelTrajectoryErrors)

            env = ParallelGoalSuccess(ParallelProgressRate(ParallelPropositionLog(ParallelTrajectoryErrors(
                pettingzoo.make("parallel", env_id, **kwargs)))))
        else:
            import gymnasium as gym

            from ..wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

            env = GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(gym.make(env_id, **kwargs)))))
        self.env, self._made = env, (env_id, dict(kwargs))
        return env

    def _joint(self, action: Any) -> dict[str, str]:
        agents = self.facts.agents
        if not isinstance(action, Mapping):
            raise EpisodeError(f"{self.facts.name} takes a joint action {{{', '.join(f'{a!r}: command' for a in agents)}}}, "
                               f"got {type(action).__name__}")
        unknown = sorted(str(a) for a in action if a not in agents)
        if unknown:
            raise EpisodeError(f"unknown agent(s) {', '.join(unknown)}: {self.facts.name} has {', '.join(agents)}")
        for a, command in action.items():
            if command is not None and not isinstance(command, str):
                raise EpisodeError(f"the command of {a} must be a string or null, got {type(command).__name__}")
        return {a: c for a, c in action.items() if c is not None}

    def _limit(self, terminated: bool, truncated: bool, steps: int) -> tuple[bool, bool]:
        if not terminated and not truncated and self.max_steps is not None and steps >= self.max_steps:
            truncated = True
        return terminated or truncated, truncated and not terminated

    def _single_view(self, task: str, obs: str, info: dict[str, Any], reward: float | None = None,
                     terminated: bool = False, truncated: bool = False) -> View:
        from ..tasksets import TaskSet

        steps = 0 if reward is None else self.view.step + 1  # type: ignore[union-attr]
        done, truncated = self._limit(terminated, truncated, steps) if reward is not None else (False, False)
        record = info.get("step") or {}
        legal = self.facts.hooks.legal_actions(self.env) if self.admissible else None
        return View(self.facts.name, task, obs, "" if reward is None else TaskSet.feedback(self.env, obs, info),
                    legal, reward, done, truncated, bool(info["goal_success"]["success"]),
                    info["progress_rate"].get("value"), record.get("error"), record.get("message") or "", steps)

    def _team_view(self, task: str, obs: Mapping[str, str], infos: Mapping[str, dict[str, Any]],
                   rewards: Mapping[str, float] | None = None, terminated: bool = False,
                   truncated: bool = False) -> View:
        agents = [a for a in self.facts.agents if a in obs]
        steps = 0 if rewards is None else self.view.step + 1  # type: ignore[union-attr]
        done, truncated = self._limit(terminated, truncated, steps) if rewards is not None else (False, False)
        views = {}
        for a in agents:
            info = infos[a]
            record = info.get("step") or {}
            views[a] = AgentView(obs[a], str((info.get("feedback") or {}).get("message", "")), record.get("ok"),
                                 record.get("error"), record.get("message") or "", bool(info.get("busy")),
                                 list(info["legal_actions"]) if self.admissible and "legal_actions" in info else None)
        first = infos[agents[0]]
        failed = [v for v in views.values() if v.error is not None]
        return View(self.facts.name, task, "\n\n".join(f"== {a} ==\n{v.text}" for a, v in views.items()),
                    "\n".join(f"{a}: {v.feedback}" for a, v in views.items() if v.feedback), None,
                    None if rewards is None else float(rewards[agents[0]]), done, truncated,
                    bool(first["goal_success"]["success"]), first["progress_rate"].get("value"),
                    failed[0].error if failed else None, failed[0].message if failed else "", steps, views)

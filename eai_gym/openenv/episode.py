"""One world's env for one session, as the OpenEnv server steps it (no OpenEnv import: plain data in and out).

Everything world-specific comes from the registry (:mod:`eai_gym.registry`): the world's splits and, through
:mod:`eai_gym.rl.split_play` (shared with the in-process RL adapters), each split's task ids and ``play(task,
protocol)`` for the env id, make arguments and reset options of a task; the task set's ``legal_actions(env)``; and
the agent prompt's ``TEAM_ENV`` (a PettingZoo parallel env id) for a world that several agents play together. The
env runs inside the four metric wrappers (:mod:`eai_gym.wrappers`); a :class:`View` is what one observation
carries: the world's text, the feedback of the last action, its EAI error type, the admissible actions, the
reward, ``done`` and ``truncated``, ``won`` and the progress rate (and, with several agents, each agent's own view).

Tasks: ``split`` names one of the world's declared splits (default: the server's, else the first, the task set;
:data:`SPLIT`, ``eval``, also names the task set); ``task`` (an id of the split) or ``index`` (its position), else
a ``seed`` alone picks task number ``seed mod N``; with neither, a session plays the split's tasks in order, one per
reset. The env is reset with the seed (0 when none is given: an episode is the same every time it is played with the
same reset fields).

Rewards are :mod:`eai_gym.rl.rewards`' (``success`` or ``progress``), fed with the metric wrappers' goal success and
progress rate after the reset and after every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .. import registry
from ..rl.rewards import REWARDS, EpisodeReward, check_reward
from ..rl.split_play import SplitTasks, UnknownTaskError, episode_end, split_tasks

#: a name every world's task set (its first split) answers to, besides its own: the one split this server offered
#: before the worlds declared theirs (a declared split of that name comes first)
SPLIT = "eval"


class EpisodeError(ValueError):
    """A request the episode cannot serve (unknown task, a step before reset or after the end, a bad action);
    the message names the input."""


@dataclass(frozen=True)
class EpisodeConfig:
    """What every episode of a server shares.

    ``protocol``: the world's protocol (None: its first); ``max_steps``: steps before an episode is truncated
    (None: the env's own limit); ``admissible``: list the admissible actions in each observation (a reset
    can turn it off: some worlds take milliseconds to list them); ``split`` and ``reward``: a reset's split (None:
    the world's first) and reward kind when it names none."""

    world: str
    protocol: str | None = None
    max_steps: int | None = None
    admissible: bool = True
    split: str | None = None
    reward: str = "success"

    def __post_init__(self) -> None:
        check_reward(self.reward)


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
    split: str = ""
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
    """A world as the server sees it: its splits, the task ids of its first split (the task set), its task-set
    hooks, and its team env (None: one agent)."""

    name: str
    protocol: str
    ids: tuple[str, ...]
    positions: Mapping[str, int]
    hooks: Any
    team_env: str | None
    agents: tuple[str, ...]
    description: str = ""
    splits: tuple[registry.SplitSpec, ...] = ()


@lru_cache(maxsize=None)
def world_facts(world: str, protocol: str | None = None) -> WorldFacts:
    """The world's facts (loaded once per process; raises ``registry.RegistryError`` or ``ValueError``)."""
    spec = registry.world(world)
    protocol = protocol or spec.protocols[0]
    if protocol not in spec.protocols:
        raise ValueError(f"{world} has protocol(s) {', '.join(spec.protocols)}, not {protocol}")
    tasks = split_tasks(spec.name)
    prompt = registry.load(spec.agent_prompt) if spec.agent_prompt else None
    team_env = getattr(prompt, "TEAM_ENV", None)
    agents: tuple[str, ...] = ("agent",)
    if team_env:
        import pettingzoo

        _register()
        probe = pettingzoo.make("parallel", team_env)
        agents = tuple(probe.possible_agents)
        probe.close()
    return WorldFacts(spec.name, protocol, tasks.ids, tasks.positions, registry.load(spec.task_set), team_env, agents,
                      spec.description, spec.split_specs)


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
        self.reward = EpisodeReward()  # each reset makes the episode's own
        self.resets = 0
        self.closed = False

    @property
    def facts(self) -> WorldFacts:
        return world_facts(self.config.world, self.config.protocol)

    # -- choosing a task ----------------------------------------------------------------------------------
    def tasks(self, split: Any = None) -> SplitTasks:
        """The tasks of ``split``: a declared split's name, or :data:`SPLIT` (the task set, unless a split has that
        name); None: the server's default split, else the first."""
        if split is None:
            split = self.config.split
        spec = registry.world(self.config.world)
        alias = all(s.name != SPLIT for s in spec.split_specs)
        try:
            return split_tasks(spec.name, None if alias and split == SPLIT else split)
        except registry.RegistryError as e:
            note = f" ({SPLIT!r} also names the task set, {spec.split().name})" if alias else ""
            raise EpisodeError(f"{e}{note}") from None

    def choose(self, task: Any = None, seed: Any = None, index: Any = None, split: Any = None) -> str:
        """The task a reset plays, an id of ``split`` (see the module docstring)."""
        tasks = self.tasks(split)
        ids = tasks.ids
        if task is not None:
            try:
                tasks.check(task)
            except UnknownTaskError as e:
                raise EpisodeError(str(e)) from None
            if index is not None and tasks.positions[task] != _check_int("index", index):
                raise EpisodeError(f"task {task!r} is number {tasks.positions[task]}, not index {index!r}")
            return task
        if index is not None:
            if _check_int("index", index) >= len(ids):
                raise EpisodeError(f"index {index} is out of range: {self.config.world} split {tasks.split.name!r} "
                                   f"has tasks 0..{len(ids) - 1}")
            return ids[index]
        if seed is not None:
            return ids[_check_int("seed", seed) % len(ids)]
        return ids[self.resets % len(ids)]

    # -- the episode ----------------------------------------------------------------------------------------
    def reset(self, task: Any = None, seed: Any = None, index: Any = None, split: Any = None,
              admissible: Any = None, max_steps: Any = None, reward: Any = None) -> View:
        """Start an episode of the chosen task (``admissible``, ``max_steps``, ``reward``: this episode's, else the
        config's)."""
        self._check_open()
        if seed is not None:
            _check_int("seed", seed)
        if admissible is not None and not isinstance(admissible, bool):
            raise EpisodeError(f"admissible must be true or false, got {admissible!r:.80}")
        if max_steps is not None and _check_int("max_steps", max_steps) < 1:
            raise EpisodeError("max_steps must be at least 1")
        try:
            kind = check_reward(self.config.reward if reward is None else reward)
        except ValueError:
            raise EpisodeError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r:.80}") from None
        tasks = self.tasks(split)
        chosen = self.choose(task, seed, index, tasks.split.name)
        self.admissible = self.config.admissible if admissible is None else admissible
        self.max_steps = self.config.max_steps if max_steps is None else max_steps
        facts = self.facts
        env_id, kwargs, options = tasks.play(chosen, facts.protocol)
        seed = 0 if seed is None else seed  # deterministic: an unseeded reset is seeded 0
        self.view = None
        self.reward = EpisodeReward(kind)
        if facts.team_env:
            obs, infos = self._env_for(facts.team_env, {**kwargs, "legal_actions_info": self.admissible},
                                       team=True).reset(seed=seed, options=options)
            view = self._team_view(tasks.split.name, chosen, obs, infos)
        else:
            obs, info = self._env_for(env_id, kwargs, team=False).reset(seed=seed, options=options)
            view = self._single_view(tasks.split.name, chosen, obs, info)
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
        facts, last = self.facts, self.view
        if facts.team_env:
            joint = self._joint(action)
            obs, _rewards, terms, truncs, infos = self.env.step(joint)
            view = self._team_view(last.split, last.task, obs, infos, True, any(terms.values()), any(truncs.values()))
        else:
            if not isinstance(action, str):
                raise EpisodeError(f"{facts.name} takes one command (a string), got {type(action).__name__}")
            obs, _reward, terminated, truncated, info = self.env.step(action)
            view = self._single_view(last.split, last.task, obs, info, True, terminated, truncated)
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

            from ..wrappers import (
                ParallelGoalSuccess,
                ParallelProgressRate,
                ParallelPropositionLog,
                ParallelTrajectoryErrors,
            )

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
            shape = ", ".join(f"{a!r}: command" for a in agents)
            raise EpisodeError(f"{self.facts.name} takes a joint action {{{shape}}}, got {type(action).__name__}")
        unknown = sorted(str(a) for a in action if a not in agents)
        if unknown:
            raise EpisodeError(f"unknown agent(s) {', '.join(unknown)}: {self.facts.name} has {', '.join(agents)}")
        for a, command in action.items():
            if command is not None and not isinstance(command, str):
                raise EpisodeError(f"the command of {a} must be a string or null, got {type(command).__name__}")
        return {a: c for a, c in action.items() if c is not None}

    def _scored(self, view: View, info: Mapping[str, Any], stepped: bool, terminated: bool, truncated: bool) -> View:
        """``view`` with its step count, reward (:mod:`eai_gym.rl.rewards`, fed with the metric wrappers' goal success
        and progress rate in ``info``) and end (:func:`eai_gym.rl.split_play.episode_end`)."""
        success = bool(info["goal_success"]["success"])
        progress = info["progress_rate"].get("value")
        view.won, view.progress = success, progress
        if not stepped:
            self.reward.start(success, progress)
            return view
        view.step = self.view.step + 1  # type: ignore[union-attr]
        view.reward = self.reward.step(success, progress)
        view.done, view.truncated = episode_end(terminated, truncated, success, view.step, self.max_steps)
        return view

    def _single_view(self, split: str, task: str, obs: str, info: dict[str, Any], stepped: bool = False,
                     terminated: bool = False, truncated: bool = False) -> View:
        from ..tasksets import TaskSet

        record = info.get("step") or {}
        legal = self.facts.hooks.legal_actions(self.env) if self.admissible else None
        feedback = TaskSet.feedback(self.env, obs, info) if stepped else ""
        view = View(self.facts.name, task, obs, split, feedback=feedback, admissible_actions=legal,
                    error=record.get("error"), message=record.get("message") or "")
        return self._scored(view, info, stepped, terminated, truncated)

    def _team_view(self, split: str, task: str, obs: Mapping[str, str], infos: Mapping[str, dict[str, Any]],
                   stepped: bool = False, terminated: bool = False, truncated: bool = False) -> View:
        agents = [a for a in self.facts.agents if a in obs]
        views = {}
        for a in agents:
            info = infos[a]
            record = info.get("step") or {}
            views[a] = AgentView(obs[a], str((info.get("feedback") or {}).get("message", "")), record.get("ok"),
                                 record.get("error"), record.get("message") or "", bool(info.get("busy")),
                                 list(info["legal_actions"]) if self.admissible and "legal_actions" in info else None)
        failed = [v for v in views.values() if v.error is not None]
        view = View(self.facts.name, task, "\n\n".join(f"== {a} ==\n{v.text}" for a, v in views.items()), split,
                    feedback="\n".join(f"{a}: {v.feedback}" for a, v in views.items() if v.feedback),
                    error=failed[0].error if failed else None, message=failed[0].message if failed else "",
                    agents=views)
        return self._scored(view, infos[agents[0]], stepped, terminated, truncated)

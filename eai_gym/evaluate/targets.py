"""What ``eai-gym evaluate WORLD --mode MODE`` runs, read from the registry (:mod:`eai_gym.registry`).

* a mode with a ``prompts`` entry point (the EAI modules): its prompts, the model's replies turned into
  the mode's input items (``reply_to_item``, default ``{"identifier", "llm_output": reply}``), scored by
  the mode's ``jobs`` and ``result`` exactly as ``eai-gym score`` scores a file of them;
* ``episodes``, for a world with an ``agent_prompt`` module: the model plays the world's task set online.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .. import registry

if TYPE_CHECKING:
    from .client import ModelClient
    from .rundir import RunDir

EPISODES = "episodes"


@dataclass
class Target:
    world: str
    mode: str
    protocol: str
    task_ids: Callable[[], list[str]]
    run: Callable[..., dict[str, Any]]  # (run, client, tasks, *, sampling, system_prompt, args) -> result
    agents: tuple[str, ...] = ("agent",)

    def models(self, names: list[str]) -> dict[str, str]:
        """The model of each agent (raises ValueError naming what is wrong with the --model flags)."""
        return models_by_agent(names, self.agents)


def modes_of(world: registry.WorldSpec) -> list[str]:
    """The modes ``evaluate`` can run in ``world``."""
    return [m.name for m in world.modes if m.prompts] + ([EPISODES] if world.agent_prompt else [])


def _offline(world: registry.WorldSpec, mode: registry.ModeSpec, protocol: str, options: dict[str, Any]) -> Target:
    from ..scoring.score import score  # the one scoring path, eai-gym score's too
    from .offline import run_offline

    cache: dict[str, list[dict[str, str]]] = {}

    def prompts() -> list[dict[str, str]]:
        if "all" not in cache:
            cache["all"] = mode.prompt_items(protocol, options)
        return cache["all"]

    def to_item(identifier: str, reply: str) -> dict[str, Any]:
        if mode.reply_to_item:
            return registry.load(mode.reply_to_item)(identifier, reply)
        return {"identifier": identifier, "llm_output": reply}

    def run(rundir: RunDir, client: ModelClient | None, tasks: list[str], *, sampling: dict[str, Any],
            system_prompt: str | None, args: argparse.Namespace) -> dict[str, Any]:
        wanted = set(tasks)
        chosen = [p for p in prompts() if p["identifier"] in wanted]

        def score_replies(items: list[dict[str, Any]]) -> dict[str, Any]:
            converted = [to_item(it["identifier"], it["llm_output"]) for it in items]
            return score(mode, protocol, options, items=converted, paths=["replies.json"])[0]

        return run_offline(rundir, client, chosen, model=models_by_agent(args.model, ("agent",))["agent"],
                           sampling=sampling,
                           system_prompt=system_prompt, concurrency=args.concurrency, score=score_replies)

    return Target(world.name, mode.name, protocol, lambda: list(dict.fromkeys(p["identifier"] for p in prompts())),
                  run)


def models_by_agent(names: list[str], agents: tuple[str, ...]) -> dict[str, str]:
    """``--model NAME`` (every agent) or ``--model agent_0=NAME --model agent_1=NAME``."""
    plain = [n for n in names if "=" not in n]
    named = dict(n.split("=", 1) for n in names if "=" in n)
    if agents == ("agent",) and (named or len(plain) != 1):
        raise ValueError("this mode has one agent: give one --model NAME")
    unknown = sorted(set(named) - set(agents))
    if unknown:
        raise ValueError(f"--model for unknown agent(s) {', '.join(unknown)} (agents: {', '.join(agents)})")
    if len(plain) > 1 or (plain and named):
        raise ValueError("give one --model NAME for every agent, or --model AGENT=NAME for each agent")
    out = {a: named.get(a, plain[0] if plain else "") for a in agents}
    missing = [a for a, m in out.items() if not m]
    if missing:
        raise ValueError(f"no --model for {', '.join(missing)}")
    return out


def _episodes(world: registry.WorldSpec, protocol: str, options: dict[str, Any]) -> Target:
    from ..wrappers import (
        GoalSuccess,
        ParallelGoalSuccess,
        ParallelProgressRate,
        ParallelPropositionLog,
        ParallelTrajectoryErrors,
        ProgressRate,
        PropositionLog,
        TrajectoryErrors,
    )
    from .episodes import EpisodePlayer, run_episodes
    from .multi_agent import TeamPlayer, run_team_episodes

    hooks = registry.load(world.task_set)
    prompt = registry.load(world.agent_prompt or "")
    team_env = getattr(prompt, "TEAM_ENV", None)

    def run(rundir: RunDir, client: ModelClient | None, tasks: list[str], *, sampling: dict[str, Any],
            system_prompt: str | None, args: argparse.Namespace) -> dict[str, Any]:
        import gymnasium as gym

        from ..registration import register_envs

        register_envs()  # (the eai-gym command imports the package without registering)
        common = dict(sampling=sampling, system_prompt=system_prompt, concurrency=args.concurrency,
                      max_steps=args.max_steps, admissible=args.admissible, history_limit=args.history,
                      max_reply_chars=args.max_reply_chars)
        if team_env:
            import pettingzoo

            def make_team(task: str) -> tuple[Any, dict | None]:
                _, kwargs, reset = hooks.play(task, protocol)
                env = pettingzoo.make("parallel", team_env, legal_actions_info=args.admissible,
                                      **{**kwargs, **prompt.env_kwargs(options)})
                return ParallelGoalSuccess(ParallelProgressRate(ParallelPropositionLog(ParallelTrajectoryErrors(env)))), reset

            team = TeamPlayer(make_team, lambda a: prompt.instructions({**options, "agent": a}), prompt.examples(options))
            return run_team_episodes(rundir, client, team, tasks, models=models_by_agent(args.model, agents), **common)

        def make_env(task: str) -> tuple[Any, dict | None]:
            env_id, kwargs, reset = hooks.play(task, protocol)
            env = gym.make(env_id, max_episode_steps=args.max_steps, **{**kwargs, **prompt.env_kwargs(options)})
            return GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(env)))), reset

        player = EpisodePlayer(make_env, hooks.legal_actions, lambda env, obs, info: obs, prompt.instructions(options),
                               prompt.examples(options))
        return run_episodes(rundir, client, player, tasks, model=models_by_agent(args.model, ("agent",))["agent"],
                            **common)

    agents: tuple[str, ...] = ("agent",)
    if team_env:
        import pettingzoo

        from ..registration import register_envs

        register_envs()
        agents = tuple(pettingzoo.make("parallel", team_env).possible_agents)
    return Target(world.name, EPISODES, protocol, lambda: list(hooks.ids()), run, agents)


def target(world_name: str, mode_name: str, protocol: str | None, options: dict[str, Any]) -> Target:
    """The runnable target; raises :class:`eai_gym.registry.RegistryError` naming what is missing."""
    world = registry.world(world_name)
    if mode_name == EPISODES:
        if not world.agent_prompt:
            raise registry.RegistryError(f"{world.name} cannot be played online (no agent prompt)")
        return _episodes(world, protocol or world.protocols[0], options)
    mode = world.mode(mode_name)
    if not mode.prompts:
        raise registry.RegistryError(f"{world.name} --mode {mode.name} has no prompts to send a model "
                                     f"(evaluate modes: {', '.join(modes_of(world)) or 'none'})")
    protocol = protocol or mode.default_protocol
    if protocol not in mode.protocols:
        raise registry.RegistryError(f"{world.name} --mode {mode.name} has protocol(s) {', '.join(mode.protocols)}, "
                                     f"not {protocol}")
    return _offline(world, mode, protocol, options)

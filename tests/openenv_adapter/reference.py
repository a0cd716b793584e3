"""What the OpenEnv adapter's observations are checked against: the world's own env (no adapter, no wrapper) for a
task of a split, with the split's entry points read here from the registry (not through the adapter's code)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eai_gym import registry


def split_ids(world: str, split: str) -> list[str]:
    """The split's task ids, from its ``task_ids`` entry point (None: the task set's ``ids()``)."""
    spec = registry.world(world)
    s = spec.split(split)
    return list(registry.load(s.task_ids)() if s.task_ids else registry.load(spec.task_set).ids())


def split_play(world: str, split: str, task: str) -> tuple[str, dict, Any]:
    """The env id, make arguments and reset options of ``task``, from the split's ``play`` entry point."""
    spec = registry.world(world)
    s = spec.split(split)
    play = registry.load(s.play) if s.play else registry.load(spec.task_set).play
    return play(task, spec.protocols[0])


def team_env(world: str) -> str | None:
    spec = registry.world(world)
    prompt = registry.load(spec.agent_prompt) if spec.agent_prompt else None
    return getattr(prompt, "TEAM_ENV", None)


@dataclass
class RawRun:
    """What the world's own env gave: observation texts (each agent's, with several), its own rewards, and after the
    reset and every step its goal success and progress (``goal_report()``, ``progress_report()``)."""

    texts: list = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    successes: list[bool] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)
    info: dict = field(default_factory=dict)


def raw_run(world: str, task: str, actions: list, split: str | None = None, **make_kwargs: Any) -> RawRun:
    """The world's own env (reset with seed 0, as an unseeded adapter reset is) playing ``actions``."""
    import gymnasium as gym
    import pettingzoo

    import eai_gym

    eai_gym.register_envs()
    split = split or registry.world(world).split().name
    env_id, kwargs, options = split_play(world, split, task)
    team = team_env(world)
    env = pettingzoo.make("parallel", team, **kwargs, **make_kwargs) if team else \
        gym.make(env_id, **kwargs, **make_kwargs)
    run = RawRun()

    def record(obs: Any) -> None:
        run.texts.append({k: obs[k] for k in agents} if team else obs)
        run.successes.append(bool(env.unwrapped.goal_report()["success"]))
        run.progress.append(float(env.unwrapped.progress_report()["value"]))

    obs, info = env.reset(seed=0, options=options)
    agents = list(obs) if team else []
    run.info = info[agents[0]] if team else info
    record(obs)
    for a in actions:
        if team:
            obs, r, *_ = env.step({k: v for k, v in a.items() if v is not None})
            run.rewards.append(float(r[agents[0]]))
        else:
            obs, r, *_ = env.step(a)
            run.rewards.append(float(r))
        record(obs)
    return run


def raw_texts(world: str, task: str, actions: list, split: str | None = None) -> list:
    """The observation texts of :func:`raw_run`."""
    return raw_run(world, task, actions, split).texts


def expert_plan(split: str, task: str) -> list[str]:
    """An ALFWorld game's expert plan (the env's optimal-plan oracle, ``request_infos=["expert_plan"]``)."""
    return list(raw_run("alfworld", task, [], split, request_infos=["expert_plan"]).info["expert_plan"])

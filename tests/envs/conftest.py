"""Helpers the env tests share, as fixtures: BEHAVIOR-1K's mask by brute force, benchmarks/walk_digest.py, and
seeded random legal walks."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator

import gymnasium as gym
import numpy as np
import pytest


def _b1k_brute_force(base: Any) -> np.ndarray:
    """Every catalogue entry's whole handler (effects included) on the BEHAVIOR-1K env's state: legal iff it
    raises no Failure."""
    from eai_gym.envs.behavior1k.dynamics import Failure
    from eai_gym.envs.behavior1k.kb import activity_kb
    from eai_gym.envs.behavior1k.world import ALL_HANDLERS

    state = base.episode.state
    kb = activity_kb(state.activity)
    mask = np.zeros(base.action_space.n, dtype=np.int8)
    for i, a in enumerate(base.actions):
        try:
            ALL_HANDLERS[a.name](kb, state, str(a.args[0]) if a.args else None)
        except Failure:
            continue
        mask[i] = 1
    return mask


@pytest.fixture(scope="session")
def b1k_brute_force() -> Callable[[Any], np.ndarray]:
    """``b1k_brute_force(env.unwrapped)``: the BEHAVIOR-1K mask from every entry's full handler."""
    return _b1k_brute_force


@pytest.fixture(scope="session")
def walk_digest() -> ModuleType:
    """``benchmarks/walk_digest.py`` as a module (its ``CONFIGS`` and ``digest(env_id, kwargs, steps)``)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "walk_digest.py"
    spec = importlib.util.spec_from_file_location("walk_digest", path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def _random_legal_steps(env_id: str, steps: int, seed: int, **kwargs: Any) -> Iterator[tuple[Any, int, Any, Any]]:
    """``(unwrapped env, step number, state before, state after)`` after each step of a seeded random legal walk in
    index mode (a reset every 50 steps and when an episode ends)."""
    env = gym.make(env_id, action_mode="index", **kwargs)
    inner = env.unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for n in range(1, steps + 1):
        last = inner.episode.state
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        yield inner, n, last, inner.episode.state
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=seed * 10_000 + n)


@pytest.fixture(scope="session")
def random_steps() -> Callable[..., Iterator[tuple[Any, int, Any, Any]]]:
    """``random_steps(env_id, steps, seed, **env_kwargs)``: the steps of a seeded random legal walk."""
    return _random_legal_steps

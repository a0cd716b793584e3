"""Every registered env (Gymnasium ids, PettingZoo's parallel and AEC ids) takes any value as an action, a seed or
reset options and answers with a step, or with the documented exception naming the argument
(:mod:`eai_gym.envs.arguments`), never another exception; after a refused argument the env plays on."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eai_gym  # noqa: F401 - registers the ids
from eai_gym import registry
from eai_gym.core import UnknownTaskError

#: every registered id, as (kind, id): "gymnasium", or PettingZoo's "parallel" / "aec"
ENVS = sorted({(e.kind, e.id) for w in registry.worlds() for e in w.envs})
MODES = ("text", "index")
BATCHES = (list, tuple, set, frozenset, dict, np.ndarray)
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Driver:
    """One env of any kind behind one interface: reset, step one action (of the first agent), read the step."""

    def __init__(self, kind: str, env_id: str, mode: str) -> None:
        self.kind = kind
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.env = (gym.make(env_id, action_mode=mode, disable_env_checker=True) if kind == "gymnasium"
                        else pettingzoo.make(kind, env_id, action_mode=mode))
        self.reset(seed=0)

    @property
    def n(self) -> int:
        space = self.env.action_space if self.kind == "gymnasium" else self.env.action_space(self.agent)
        return int(space.n)

    @property
    def agent(self) -> str:
        return self.env.agent_selection if self.kind == "aec" else self.env.possible_agents[0]

    def reset(self, seed: Any = None, options: Any = None) -> Any:
        return self.env.reset(seed=seed, options=options)

    def live(self) -> None:
        """Reset if the episode cannot take an action of :attr:`agent` any more."""
        if self.kind == "parallel" and not self.env.agents:
            self.reset()
        if self.kind == "aec" and (not self.env.agents or self.env.terminations[self.agent]
                                   or self.env.truncations[self.agent]):
            self.reset()

    def step(self, action: Any) -> dict | None:
        """The step record of ``action`` (None where the env reports none: an AEC env between agents)."""
        self.live()
        if self.kind == "gymnasium":
            return self.env.step(action)[4]["step"]
        if self.kind == "parallel":
            return self.env.step({self.agent: action})[4][self.agent]["step"]
        self.env.step(action)
        return None


_DRIVERS: dict[tuple[str, str, str], Driver] = {}


def driver(kind: str, env_id: str, mode: str) -> Driver:
    key = (kind, env_id, mode)
    if key not in _DRIVERS:
        _DRIVERS[key] = Driver(kind, env_id, mode)
    return _DRIVERS[key]


def integer(value: Any) -> int | None:
    """``value`` as the int an index action may be: an int, a numpy integer or a 0-d integer array, not a bool."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.ndarray):
        return int(value) if value.shape == () and np.issubdtype(value.dtype, np.integer) else None
    return int(value) if isinstance(value, (int, np.integer)) else None


NUMPY_SCALARS = st.one_of(
    st.integers(-128, 127).map(np.int8), st.integers(0, 2**64 - 1).map(np.uint64),
    st.integers(-2**63, 2**63 - 1).map(np.int64), st.integers(0, 6000).map(np.int32),
    st.floats(width=32).map(np.float32), st.floats().map(np.float64), st.booleans().map(np.bool_),
    st.integers(0, 6000).map(np.array), st.floats().map(np.array), st.lists(st.integers(0, 9), max_size=3).map(np.array),
    st.complex_numbers(allow_nan=True, allow_infinity=True))
#: values that are not text: numbers of every kind (inf, nan, huge, negative, numpy), None, bytes, containers
NOT_TEXT = st.one_of(
    st.integers(0, 6000), st.integers(-2**80, 2**80), st.integers(-2**20000, 2**20000), st.floats(),
    st.booleans(), st.none(), st.binary(max_size=8), NUMPY_SCALARS,
    st.lists(st.integers(0, 9), max_size=3), st.tuples(st.integers(0, 9)), st.dictionaries(st.text(max_size=3),
                                                                                           st.integers(), max_size=2))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind,env_id", ENVS)
@SETTINGS
@given(value=st.one_of(NOT_TEXT, st.text(max_size=6)))
def test_step_takes_any_value(kind, env_id, mode, value):
    """Index mode: an integer in the space is a step, anything else a TypeError/ValueError naming the index action.
    Text mode: a batch is a TypeError; any other value that is not text a step recorded as a ``parsing`` error
    (``None`` may be a world's "no new action"). (What a text says is the parsers' business.)"""
    if mode == "text" and isinstance(value, str):
        return
    env = driver(kind, env_id, mode)
    idx = integer(value)
    if mode == "index":
        in_space = idx is not None and 0 <= idx < env.n
        try:
            env.step(value)
        except (TypeError, ValueError) as e:
            assert not in_space, e
            assert "index action" in str(e) and f"Discrete({env.n})" in str(e), e
        else:
            assert in_space, f"{value!r} was taken as an index action"
    else:
        try:
            record = env.step(value)
        except TypeError as e:
            assert isinstance(value, BATCHES), e
            assert "takes one action text" in str(e)
        else:
            assert not isinstance(value, BATCHES)
            if record and value is not None:
                assert record["ok"] is False and record["error"] == "parsing", record
    env.live()
    if mode == "index":  # the env plays on
        env.step(0)


def _accepted(env: Driver) -> tuple[str, ...]:
    """The reset option keys the env declares (``RESET_OPTIONS`` of its class)."""
    return tuple(type(env.env.unwrapped).RESET_OPTIONS)


OPTION_VALUES = st.one_of(NOT_TEXT, st.text(max_size=8), st.floats(allow_nan=True, allow_infinity=True),
                          st.integers(-5, 200))


@st.composite
def options(draw: Any, accepted: tuple[str, ...]) -> Any:
    keys = st.one_of(st.sampled_from(accepted), st.sampled_from(["task_idd", "Task_id", "options", "seed ", ""]),
                     st.text(max_size=6), st.integers(-2, 2))
    return draw(st.one_of(st.none(), st.lists(st.integers(), max_size=2), st.text(max_size=4), st.integers(),
                          st.binary(max_size=4), st.dictionaries(keys, OPTION_VALUES, max_size=3)))


@pytest.mark.parametrize("kind,env_id", ENVS)
@SETTINGS
@given(data=st.data())
def test_reset_takes_any_options(kind, env_id, data):
    """Options that are not a dict: TypeError naming ``options``; an unknown key: ValueError naming it (the
    PettingZoo envs leave unknown keys out, as PettingZoo's test kit resets with one); a known key's value of the
    wrong type or range: TypeError/ValueError; an unknown task: UnknownTaskError. Otherwise a new episode."""
    env = driver(kind, env_id, "text")
    accepted = _accepted(env)
    value = data.draw(options(accepted))
    strict = kind == "gymnasium"
    unknown = [k for k in value if k not in accepted] if isinstance(value, Mapping) else []
    try:
        env.reset(options=value)
    except UnknownTaskError:
        assert isinstance(value, Mapping) and not (strict and unknown)
    except (TypeError, ValueError) as e:
        if value is not None and not isinstance(value, Mapping):
            assert isinstance(e, TypeError) and "options" in str(e)
        elif strict and unknown:
            assert isinstance(e, ValueError) and "unknown option" in str(e) and all(k in str(e) for k in accepted)
        else:
            assert "options[" in str(e), e
    else:
        assert value is None or isinstance(value, Mapping)
        assert not (strict and unknown), f"unknown option(s) {unknown} were taken"
    env.reset(seed=0)  # the env plays on


@pytest.mark.parametrize("kind,env_id", ENVS)
@SETTINGS
@given(seed=st.one_of(NOT_TEXT, st.text(max_size=4), st.integers(0, 2**70)))
def test_reset_takes_any_seed(kind, env_id, seed):
    env = driver(kind, env_id, "text")
    number = integer(seed)
    try:
        env.reset(seed=seed)
    except (TypeError, ValueError) as e:
        assert seed is not None and (number is None or number < 0), e
        assert "seed" in str(e)
    else:
        assert seed is None or (number is not None and number >= 0)


@pytest.mark.parametrize("kind,env_id", [e for e in ENVS if e[0] == "gymnasium"])
def test_an_unknown_option_key_names_the_accepted_keys(kind, env_id):
    env = driver(kind, env_id, "text")
    accepted = _accepted(env)
    with pytest.raises(ValueError, match="unknown option 'task_idd'") as raised:
        env.reset(options={"task_idd": "x"})
    assert all(k in str(raised.value) for k in accepted)
    for bad in ([], "task_id", ("task_id", "x"), 5):
        with pytest.raises(TypeError, match="options must be a dict"):
            env.reset(options=bad)


@pytest.mark.parametrize("kind,env_id", ENVS)
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1.5, 2.0, True, np.bool_(False), 10**30, -1,
                                   np.float64(1.0), np.int64(-3), "3", None, b"1", np.array([1])])
def test_bad_index_actions_are_named(kind, env_id, value):
    env = driver(kind, env_id, "index")
    with pytest.raises((TypeError, ValueError), match="index action|action index"):
        env.step(value)
    env.live()
    env.step(np.int64(0))

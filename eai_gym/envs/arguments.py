"""What every env checks of the arguments it is given, in one place, so that the worlds reject bad ones alike.

- An **index action** (``action_mode="index"``) is an ``int``, a numpy integer or a 0-d integer array, in
  ``[0, n)`` for the env's ``Discrete(n)``: anything else is a ``TypeError`` (a bool, a float, ``inf`` and
  ``nan`` included, a string, ``None``, an array) and an int outside the space an :class:`ArgumentRangeError`
  (a ``ValueError``). An index inside the space that names no action of the current task is the env's business
  (every world records it as a failed step, with its error type).
- A **text action** is one action: a batch (a list, tuple, set, dict or array) is a ``TypeError``. Any other value
  gives a step record: a ``str`` is the world's parser's business, and a value that is not a ``str`` (bytes, a
  number, ``None``) is recorded as a failed step with a ``parsing`` error, in every world (in the rearrange world,
  ``None`` is an agent's "no new action" this tick).
- **Reset options** are ``None`` or a mapping whose keys are among the env's options: anything else is a
  ``TypeError`` naming ``options``, an unknown key a ``ValueError`` naming it and the accepted keys. A key whose
  value is ``None`` counts as not given. Each env checks its values' types (``TypeError``) and ranges
  (:class:`ArgumentRangeError`); an unknown task id is :class:`eai_gym.core.UnknownTaskError` (a ``KeyError``).
- A **seed** is ``None`` or a non-negative ``int`` (or numpy integer): else ``TypeError`` / ``ValueError``.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from ..core.step import raw_text

__all__ = ["ArgumentRangeError", "action_index", "check_seed", "check_text_action", "int_option", "kind", "path_option",
           "reset_options", "shown", "str_option"]


class ArgumentRangeError(ValueError, IndexError):
    """An index-like argument outside its range. A ``ValueError``; also an ``IndexError``, which some of these
    errors were before."""


def shown(value: Any, limit: int = 80) -> str:
    """A short printable description of ``value`` for an error message (safe for any object: a huge int, a
    long string, an object whose ``repr`` raises)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    text = repr(value) if isinstance(value, str) else raw_text(value)
    return text if len(text) <= limit else text[:limit] + "..."


def kind(value: Any) -> str:
    """``value``'s type with its article: ``"an int"``, ``"a list"``."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def _integer(value: Any) -> int | None:
    """``value`` as an int if it is an integer (int, numpy integer, 0-d integer array) and not a bool."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None


def action_index(action: Any, n: int, where: str) -> int:
    """The index action ``action`` of a ``Discrete(n)`` space as an int (see the module docstring)."""
    idx = _integer(action)
    if idx is None:
        raise TypeError(f"{where}: an index action must be an int in Discrete({n}), got {kind(action)}: "
                        f"{shown(action)}")
    if not 0 <= idx < n:
        raise ArgumentRangeError(f"{where}: index action {shown(idx)} outside Discrete({n})")
    return idx


_BATCHES = (list, tuple, set, frozenset, dict, np.ndarray)


def check_text_action(action: Any, where: str) -> None:
    """Raise ``TypeError`` when a text-mode env is given a batch (a list, tuple, array, ...) instead of one action:
    ``env.step(["look"])`` would otherwise be read as the text ``"['look']"``. (Other values that are not a ``str``
    are the world's to record as a ``parsing`` error.)"""
    if isinstance(action, _BATCHES):
        raise TypeError(f"{where} takes one action text (a str), got {kind(action)}: {shown(action)}. "
                        "To step several games at once use gymnasium's vector envs (gymnasium.make_vec) or, for "
                        "ALFWorld, the batch API of eai_gym.compat.alfworld (env.step([command, ...])).")


def reset_options(options: Any, accepted: Collection[str], where: str, strict: bool = True) -> dict[str, Any]:
    """The given options (values that are not None) of a ``reset(options=...)``; ``strict=False`` leaves keys outside
    ``accepted`` out instead of refusing them."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"{where}: options must be a dict (or None), got {kind(options)}: {shown(options)}")
    unknown = [k for k in options if k not in accepted]
    if unknown and strict:
        raise ValueError(f"{where}: unknown option {shown(unknown[0])}; the options are {', '.join(accepted)}")
    return {k: v for k, v in options.items() if v is not None and k in accepted}


def str_option(options: Mapping[str, Any], key: str, where: str) -> str | None:
    """``options[key]`` if given: a ``str`` (else ``TypeError``)."""
    value = options.get(key)
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{where}: options[{key!r}] must be a str, got {kind(value)}: {shown(value)}")
    return value


def path_option(options: Mapping[str, Any], key: str, where: str, also: tuple[type, ...] = ()) -> Any:
    """``options[key]`` if given: a ``str`` or ``os.PathLike`` (or one of the types ``also``), else ``TypeError``."""
    value = options.get(key)
    if value is not None and not isinstance(value, (str, os.PathLike, *also)):
        raise TypeError(f"{where}: options[{key!r}] must be a path (a str), got {kind(value)}: "
                        f"{shown(value)}")
    return value


def int_option(options: Mapping[str, Any], key: str, where: str, stop: int | None = None) -> int | None:
    """``options[key]`` if given: an int (not a bool or a float; else ``TypeError``), in ``[0, stop)`` when ``stop``
    is given (else :class:`ArgumentRangeError`)."""
    value = options.get(key)
    if value is None:
        return None
    number = _integer(value)
    if number is None:
        raise TypeError(f"{where}: options[{key!r}] must be an int, got {kind(value)}: {shown(value)}")
    if stop is not None and not 0 <= number < stop:
        raise ArgumentRangeError(f"{where}: options[{key!r}] {shown(number)} out of range 0..{stop - 1}")
    return number


def check_seed(seed: Any, where: str) -> int | None:
    """A reset seed: None or a non-negative int (a numpy integer becomes an int)."""
    if seed is None:
        return None
    number = _integer(seed)
    if number is None:
        raise TypeError(f"{where}: seed must be an int (or None), got {kind(seed)}: {shown(seed)}")
    if number < 0:
        raise ValueError(f"{where}: seed must be at least 0, got {shown(number)}")
    return number

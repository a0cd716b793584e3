"""VirtualHome's change log (``WorldState.log``, ``serial``/``parent_serial``): the overlay keys a copied state's
writers logged name every fact that differs from the state it was copied from, so the kept mask's
``changed_keys`` compares only those; after every step of random legal walks it equals comparing every overlay
key, and a writer that forgets to log is caught."""

from __future__ import annotations

import pickle

import gymnasium as gym
import pytest

import eai_gym  # noqa: F401
from eai_gym.core import state as state_module
from eai_gym.core.tracking import changed_keys, compared_keys


def _walk(random_steps, steps: int, seed: int, **kwargs) -> int:
    """Compare after every step; returns how many steps the log spoke for."""
    logged = 0
    for inner, n, last, new in random_steps("eai_gym/VirtualHome-v0", steps, seed, **kwargs):
        if new is not last:
            assert new.parent_serial == last.serial, (inner.task.id, n)
            logged += 1
            assert sorted(map(repr, changed_keys(last, new))) == sorted(map(repr, compared_keys(last, new))), \
                (inner.task.id, n)
    return logged


@pytest.mark.parametrize("kwargs,seed", [({}, 0), ({"protocol": "eai-1.0.5"}, 1)])
def test_logged_changes_equal_comparing_every_key(random_steps, kwargs, seed):
    assert _walk(random_steps, 1500, seed, **kwargs) > 300


def test_the_walks_catch_a_writer_that_does_not_log(monkeypatch, random_steps):
    real = state_module.WorldState.add_edge

    def add_edge(self, a, rel, b):
        real(self, a, rel, b)
        del self.log[-2:]  # (forget the keys it logged)

    monkeypatch.setattr(state_module.WorldState, "add_edge", add_edge)
    with pytest.raises(AssertionError):
        _walk(random_steps, 1500, 0)


def test_serials_name_copies_only_and_an_unpickled_state_is_no_copy():
    env = gym.make("eai_gym/VirtualHome-v0")
    env.reset(seed=0)
    s = env.unwrapped.episode.state
    a = s.copy()
    b = a.copy()
    assert a.parent_serial == s.serial and b.parent_serial == a.serial and len({s.serial, a.serial, b.serial}) == 3
    oid = next(iter(s.scene.objects))
    b.set_states(oid, frozenset({"OPEN"}))
    assert ("s", oid) in b.log and changed_keys(a, b) == compared_keys(a, b)
    twin = pickle.loads(pickle.dumps(b))
    assert twin.parent_serial is None and twin.serial not in {s.serial, a.serial, b.serial} and twin.log == []
    assert twin.key() == b.key()  # (its scene is a copy too)

"""The index-mode mask (precondition probes, entries grouped by the hand) equals brute force: every catalogue
entry's full handler, over thousands of random legal steps in many activities."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np

import eai_gym  # noqa: F401  (registers the ids)
from eai_gym.envs.behavior1k.data import activity_names

# ``b1k_brute_force`` (tests/envs/conftest.py): every catalogue entry's full handler


def test_mask_equals_brute_force_over_random_walks(b1k_brute_force) -> None:
    brute_force = b1k_brute_force
    env = gym.make("eai_gym/Behavior1K-v0", action_mode="index", terminate_on_success=False)
    base = env.unwrapped
    rng = random.Random(23)
    names = rng.sample(list(activity_names()), 40)
    steps = 0
    for name in names:
        _, info = env.reset(seed=0, options={"activity": name})
        for _ in range(50):
            assert np.array_equal(info["action_mask"], brute_force(base)), (name, base.episode.state.held)
            legal = np.flatnonzero(info["action_mask"])
            if len(legal) == 0:
                break
            _, _, _, _, info = env.step(int(rng.choice(list(legal))))
            assert info["step"]["ok"]
            steps += 1
    assert steps >= 1500



def test_mask_follows_place_next_to_group_as_a_group_forms_and_breaks(b1k_brute_force) -> None:
    """PLACE_NEXT_TO_GROUP(t) is legal only while something other than ``t`` is held and ``t`` is next to something:
    the kept mask equals brute force at every step of a walk that makes and drops a ``nextto``."""
    env = gym.make("eai_gym/Behavior1K-v0", action_mode="index", terminate_on_success=False)
    base = env.unwrapped
    _, info = env.reset(seed=0, options={"activity": "organizing_school_stuff"})
    index = {(a.name, str(a.args[0]) if a.args else None): i for i, a in enumerate(base.actions)}
    group = index[("PLACE_NEXT_TO_GROUP", "backpack.n.01_1")]
    walk = [("GRASP", "folder.n.02_1", 0),  # backpack next to nothing
            ("PLACE_NEXT_TO", "book.n.02_1", 0), ("GRASP", "backpack.n.01_1", 0),  # hand empty; the backpack held
            ("PLACE_NEXT_TO", "book.n.02_1", 0),  # hand empty
            ("GRASP", "pen.n.01_1", 1),  # the backpack is next to the book
            ("RELEASE", None, 0), ("GRASP", "book.n.02_1", 0),  # the book picked up: the backpack next to nothing
            ("RELEASE", None, 0), ("GRASP", "pen.n.01_1", 0)]
    for name, target, legal_after in walk:
        _, _, _, _, info = env.step(index[(name, target)])
        assert info["step"]["ok"], (name, target)
        assert np.array_equal(info["action_mask"], b1k_brute_force(base)), (name, target)
        assert info["action_mask"][group] == legal_after, (name, target)

"""BEHAVIOR's lazy index-mode catalogue and its hand groups (``envs/behavior/catalogue.py``) equal building every
action of every task, and grouping those actions by name."""

from __future__ import annotations

import numpy as np
import pytest

from eai_gym.core import Action
from eai_gym.eai.behavior_syntax import to_text
from eai_gym.envs.behavior.actions import ACTIONS, TWO_OBJECTS
from eai_gym.envs.behavior.catalogue import BehaviorCatalogue, hand_groups
from eai_gym.envs.behavior.place_mask import VERBS, verb_of
from eai_gym.envs.behavior.state import HANDS
from eai_gym.envs.behavior.tasks import load_task, task_ids


def _every_action(order):
    out = []
    for a in ACTIONS:
        combos = [(x, y) for x in order for y in order if x != y] if a in TWO_OBJECTS else [(x,) for x in order]
        out += [Action(a, args, args, raw=to_text(a, args)) for args in combos]
    return out


def _groups_by_name(actions, order):
    """The hand groups read off the actions' names and arguments."""
    pos = {n: p for p, n in enumerate(order)}
    plain, per_hand = [], {h: ([], [], {}, ([], [], []), {v: [-1] * len(order) for v in VERBS}) for h in HANDS}
    for i, a in enumerate(actions):
        side = a.name.split("_", 1)[0]
        if side not in ("LEFT", "RIGHT"):
            plain.append(i)
            continue
        grasp, needs_hand, release, nto, verbs = per_hand[f"{side.lower()}_hand"]
        if "GRASP" in a.name:
            grasp.append(i)
        elif a.name.endswith("RELEASE"):
            release.setdefault(a.args[0], []).append(i)
        elif a.name.endswith("PLACE_NEXTTO_ONTOP"):
            for col, v in zip(nto, (i, pos[a.args[0]], pos[a.args[1]])):
                col.append(v)
        else:
            needs_hand.append(i)
            verbs[verb_of(a.name)][pos[a.args[0]]] = i
    return plain, per_hand


@pytest.mark.parametrize("initial_state", ["calibrated", "reference-defaults"])
def test_lazy_catalogue_and_its_groups_equal_building_every_action(initial_state):
    for tid in task_ids()[::7]:
        order = load_task(tid, initial_state).initial_state.scene.order
        eager = _every_action(order)
        lazy = BehaviorCatalogue(order)
        assert len(lazy) == len(eager)
        assert [lazy[i] for i in range(len(lazy) - 1, -1, -1)][::-1] == eager  # built out of order
        assert [a.raw for a in lazy] == [a.raw for a in eager] and lazy[-1] == eager[-1]
        assert lazy[3:9] == eager[3:9] and lazy[np.intp(2)] == eager[2]
        with pytest.raises(IndexError):
            lazy[len(eager)]
        plain, per_hand = hand_groups(lazy)
        want_plain, want = _groups_by_name(eager, order)
        assert plain == want_plain and list(per_hand) == list(want) == list(HANDS)
        for h, (grasp, needs_hand, release, nto, verbs) in per_hand.items():
            w_grasp, w_needs, w_release, w_nto, w_verbs = want[h]
            assert grasp.tolist() == w_grasp and needs_hand == w_needs
            assert list(release.items()) == list(w_release.items())
            assert [c.tolist() for c in nto] == list(w_nto)
            assert list(verbs) == list(w_verbs) and all(verbs[v].tolist() == w_verbs[v] for v in verbs)

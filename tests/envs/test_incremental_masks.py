"""The index-mode masks that keep answers between steps (eai_gym.core.answers) equal deciding every entry
afresh after every step, over thousands of random legal steps; and the read tracking they rest on."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401
from eai_gym.core import ObjectInfo, Scene, WorldState
from eai_gym.core.answers import KeptAnswers, state_query
from eai_gym.core.tracking import ReadTrackingState, changed_keys


def _walk_compare(env_id: str, fresh, steps: int, seed: int, **kwargs) -> int:
    env = gym.make(env_id, action_mode="index", **kwargs)
    inner = env.unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    checked = 0
    for n in range(1, steps + 1):
        assert np.array_equal(info["action_mask"], fresh(inner)), (inner.task.id, n)
        checked += 1
        legal = np.flatnonzero(info["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=seed * 10_000 + n)
    return checked


@pytest.mark.parametrize("protocol,seed", [("fixed", 0), ("fixed", 1), ("eai-1.0.5", 2)])
def test_virtualhome_kept_mask_equals_fresh_mask(protocol, seed):
    assert _walk_compare("eai_gym/VirtualHome-v0", lambda e: e.full_legal_mask(), 1500, seed,
                         protocol=protocol) == 1500


def _scene() -> Scene:
    objs = [ObjectInfo(i, f"o{i}") for i in range(4)]
    return Scene(objs, {0: {"OPEN"}}, [(0, "ON", 1), (2, "INSIDE", 3)])


def test_read_tracking_records_every_accessor_and_copies():
    s = _scene().initial_state()
    s2 = s.copy()
    s2.data[("GRAB", 1)] = (0, "ON")
    view = ReadTrackingState(s2)
    view.states(0)
    view.targets(0, "ON")
    view.sources(3, "INSIDE")
    assert ("GRAB", 1) in view.data and view.data.get(("GRAB", 2)) is None
    n = view.copy()
    n.add_edge(1, "ON", 2)  # reads through the copy land in the same set
    assert {("s", 0), ("o", (0, "ON")), ("i", (3, "INSIDE")), ("d", ("GRAB", 1)), ("d", ("GRAB", 2)),
            ("o", (1, "ON")), ("i", (2, "ON"))} <= view.reads
    assert {k for k in view.reads if k[0] == "d"} == {("d", ("GRAB", 1)), ("d", ("GRAB", 2))}  # copying: no scan
    assert not s2.has_edge(1, "ON", 2)  # the view never writes through


def test_changed_keys_names_exactly_the_differing_facts():
    s = _scene().initial_state()
    t = s.copy()
    t.add_edge(1, "ON", 2)
    t.set_states(0, frozenset({"OPEN"}))  # same value: not a change
    t.data["x"] = 1
    keys = set(changed_keys(s, t))
    assert ("o", (1, "ON")) in keys and ("i", (2, "ON")) in keys and ("d", "x") in keys
    assert ("s", 0) not in keys
    u = t.copy()
    u.remove_edge(1, "ON", 2)
    assert ("o", (1, "ON")) in set(changed_keys(t, u))
    assert not [k for k in changed_keys(s, u) if k[0] in "so"]  # back to the initial facts
    with pytest.raises(ValueError):
        changed_keys(s, _scene().initial_state())


def test_kept_answers_recompute_only_what_a_change_touches():
    calls = []

    @state_query
    def has_on(s: WorldState, x) -> bool:
        return bool(s.targets(x, "ON"))

    def ask(x):
        def fn(view):
            calls.append(x)
            return has_on(view, x)
        return fn

    s = _scene().initial_state()
    kept = KeptAnswers()
    kept.advance(s)
    assert [kept.answer(x, ask(x)) for x in range(4)] == [True, False, False, False]
    t = s.copy()
    t.add_edge(1, "ON", 3)
    calls.clear()
    kept.advance(t)
    assert [kept.answer(x, ask(x)) for x in range(4)] == [True, True, False, False]
    assert calls == [1]  # only the answer whose query changed value ran again
    u = t.copy()
    u.add_edge(1, "ON", 2)  # has_on(1) stays True: its answer is kept
    calls.clear()
    kept.advance(u)
    assert [kept.answer(x, ask(x)) for x in range(4)] == [True, True, False, False] and calls == []


@pytest.mark.parametrize("env_id,seed", [("eai_gym/VirtualHome-v0", 3), ("eai_gym/Behavior-v0", 2)])
def test_env_with_kept_masks_pickles_and_continues_identically(env_id, seed):
    import pickle

    env = gym.make(env_id, action_mode="index")
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        obs, _, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(20):
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        one, two = env.step(a), twin.step(a)
        assert one[0] == two[0] and np.array_equal(one[4]["action_mask"], two[4]["action_mask"])
        info = one[4]
        if one[2] or one[3]:
            break


def test_lazy_catalogue_equals_building_every_action():
    from eai_gym.core import Action
    from eai_gym.envs.virtualhome.actions import ARITY
    from eai_gym.envs.virtualhome.catalogue import catalogue
    from eai_gym.envs.virtualhome.env import task_objects
    from eai_gym.envs.virtualhome.mask import requirement_groups
    from eai_gym.envs.virtualhome.tasks import load_task, task_ids
    from eai_gym.envs.virtualhome.world import VirtualHomeWorld, action_item_json

    for protocol in ("fixed", "eai-1.0.5"):
        world = VirtualHomeWorld(protocol)
        for tid in task_ids()[::40]:
            task = load_task(tid)
            ids, scene = task_objects(task), task.initial_state.scene
            eager = []
            for name in sorted(world.vocabulary):
                n = ARITY[name]
                combos = [()] if n == 0 else [(i,) for i in ids] if n == 1 else \
                    [(i, j) for i in ids for j in ids if i != j]
                for args in combos:
                    a = Action(name, args, tuple(scene.objects[i].name for i in args))
                    eager.append(Action(name, args, a.arg_names, raw=action_item_json(a)))
            lazy = catalogue(world, task)
            assert len(lazy) == len(eager) and list(lazy) == eager
            assert lazy[-1] == eager[-1] and lazy[5:9] == eager[5:9]
            assert lazy.requirement_groups() == requirement_groups(eager)
            with pytest.raises(IndexError):
                lazy[len(eager)]


@pytest.mark.parametrize("kwargs,seed", [({}, 0), ({}, 1), ({"protocol": "eai-1.0.5"}, 2),
                                         ({"protocol": "eai-1.0.5", "initial_state": "reference-defaults"}, 3)])
def test_behavior_kept_mask_equals_fresh_mask(kwargs, seed):
    assert _walk_compare("eai_gym/Behavior-v0", lambda e: e.full_legal_mask(), 1500, seed, **kwargs) == 1500


#: ``python benchmarks/walk_digest.py --steps 400`` on the tree before the kept masks of BEHAVIOR and the
#: observation caches (commit cccd46a): digests of every observation, reward, flag and info (masks included)
#: along seeded random legal walks. A change that alters what the envs return must re-record them.
RECORDED_DIGESTS = {
    "behavior.eai.refdefaults": "9c2496e8e9d896215c0c4d208b307e717ea73acfb05e4395657d4b3608f971c4",
    "behavior.fixed": "8fe6c10d739997994af4279400ba789749c3a5fa2bc3a9898684234110b93006",
    "rearrange.fixed": "d448c56a1fff86645884575feff7fa96ff740d353a69bd0520fa6ea883407dbc",
    "rearrange.partnr.legal": "311c8db590f68c66d3569f214e55951fccd485e3a2902c8e15f1ecf8b760a8c9",
    "virtualhome.eai": "231d8b62604857ad1d29c178ea08a32166d88e2404e72604cea75b77edfc654c",
    "virtualhome.fixed": "0a46eca8bce38c0408e72159ba4f1bf6379c0ca6b10460a4f2731e18beab738c",
    "virtualhome.fixed.admissible": "70e11988cfd52b284d11fc9d8d30f6a8729035920e02c235e3705c3247392b55",
}


@pytest.mark.parametrize("name", sorted(RECORDED_DIGESTS))
def test_observations_and_infos_equal_the_recorded_walks(name, walk_digest):
    env_id, kwargs = walk_digest.CONFIGS[name]
    assert walk_digest.digest(env_id, kwargs, 400) == RECORDED_DIGESTS[name]


def test_virtualhome_close_and_faced_sets_equal_the_queries():
    from eai_gym.envs.virtualhome.dynamics import close_set, faced_set, is_close, is_facing

    env = gym.make("eai_gym/VirtualHome-v0", action_mode="index").unwrapped
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=5)
    c = env.world.character
    for n in range(1, 401):
        state = env.episode.state
        objs = list(state.scene.objects)
        assert close_set(state, c) & set(objs) == {x for x in objs if is_close(state, c, x)}
        assert faced_set(state, c) & set(objs) == {x for x in objs if is_facing(state, c, x)}
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc or n % 50 == 0:
            obs, info = env.reset(seed=n)


# ---------------------------------------------------------------- kept masks (eai_gym.core.kept_mask)
def _revisit_compare(env_id: str, task_ids: list[str], steps: int, seed: int, **kwargs) -> int:
    """Like :func:`_walk_compare`, with episodes cycling through a few tasks, so every task's kept mask and
    answers carry over from its last episode (the reset state differs from the state they were left in)."""
    env = gym.make(env_id, action_mode="index", **kwargs)
    inner = env.unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed, options={"task_id": task_ids[0]})
    checked = 0
    for n in range(1, steps + 1):
        assert np.array_equal(info["action_mask"], inner.full_legal_mask()), (inner.task.id, n)
        checked += 1
        legal = np.flatnonzero(info["action_mask"])
        obs, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc or n % 25 == 0:
            obs, info = env.reset(seed=n, options={"task_id": task_ids[(n // 25) % len(task_ids)]})
    return checked


@pytest.mark.parametrize("protocol", ["fixed", "eai-1.0.5"])
def test_virtualhome_kept_mask_carries_over_between_episodes_of_a_task(protocol):
    from eai_gym.envs.virtualhome.tasks import task_ids

    ids = list(task_ids()[5:8])
    assert _revisit_compare("eai_gym/VirtualHome-v0", ids, 900, 4, protocol=protocol) == 900


@pytest.mark.parametrize("protocol", ["fixed", "eai-1.0.5"])
def test_behavior_kept_mask_carries_over_between_episodes_of_a_task(protocol):
    from eai_gym.envs.behavior.tasks import task_ids

    ids = list(task_ids()[10:13])
    assert _revisit_compare("eai_gym/Behavior-v0", ids, 900, 5, protocol=protocol) == 900


def _finds_a_difference(env_id: str, steps: int = 600, **kwargs) -> bool:
    try:
        _walk_compare(env_id, lambda e: e.full_legal_mask(), steps, 7, **kwargs)
    except AssertionError:
        return True
    return False


def test_the_equality_walks_catch_a_mask_that_ignores_dropped_answers(monkeypatch):
    """Breaking the kept mask (answers dropped by a step are not decided again) makes the walks differ."""
    from eai_gym.core.answers import KeptAnswers as Kept

    real = Kept.advance

    def forgetful(self, state):
        real(self, state)
        self.dropped = []

    monkeypatch.setattr(Kept, "advance", forgetful)
    assert _finds_a_difference("eai_gym/VirtualHome-v0")
    assert _finds_a_difference("eai_gym/Behavior-v0")


def test_the_equality_walks_catch_a_wrong_shared_basis(monkeypatch):
    """Breaking a kept query's shared basis (its pick always says "no") makes the walks differ."""
    from eai_gym.envs.virtualhome import dynamics as vh_dynamics

    compute = vh_dynamics.is_close.compute
    basis, args, _ = compute.bulk
    monkeypatch.setattr(compute, "bulk", (basis, args, lambda *a: False))
    assert _finds_a_difference("eai_gym/VirtualHome-v0")


def test_the_equality_walks_catch_a_kept_query_whose_change_is_not_listed(monkeypatch):
    """BEHAVIOR's GRASP and PLACE entries follow the changed kept queries (``KeptAnswers.changed_queries``):
    not listing a change makes the walks differ."""
    from eai_gym.core.answers import KeptAnswers as Kept

    real = Kept.advance

    def unlisted(self, state):
        real(self, state)
        self.changed_queries = []

    monkeypatch.setattr(Kept, "advance", unlisted)
    assert _finds_a_difference("eai_gym/Behavior-v0")


def test_shared_bases_pick_what_the_queries_compute():
    """For every kept query with a shared basis, ``pick(basis(state, *basis_args(*args)), *args)`` equals the
    query on states along random walks (every object)."""
    from eai_gym.envs.virtualhome import dynamics as vh_dynamics

    queries = [q for q in vars(vh_dynamics).values() if getattr(getattr(q, "compute", None), "bulk", None)]
    assert queries
    env = gym.make("eai_gym/VirtualHome-v0", action_mode="index")
    inner = env.unwrapped
    rng = np.random.default_rng(11)
    obs, info = env.reset(seed=11)
    for step in range(300):
        state = inner.episode.state
        for q in queries:
            fn = q.compute
            basis_fn, basis_args, pick = fn.bulk
            for args in [(inner.world.character, x) for x in state.scene.objects]:
                assert pick(basis_fn(state, *basis_args(*args)), *args) == fn(state, *args), (fn.__name__, args)
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc or step % 50 == 49:
            obs, info = env.reset(seed=step)

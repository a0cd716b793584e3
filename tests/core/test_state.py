from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eai_gym.core import ObjectInfo, Scene, WorldState

OBJS = [ObjectInfo(i, f"o{i}") for i in range(6)]
edge = st.tuples(st.integers(0, 5), st.sampled_from(["ON", "CLOSE"]), st.integers(0, 5))


@given(base=st.sets(edge, max_size=12), ops=st.lists(st.tuples(st.booleans(), edge), max_size=30))
def test_overlay_matches_a_plain_edge_set(base, ops):
    scene = Scene(OBJS, {}, base)
    state = WorldState(scene)
    model = set(base)
    snapshots = []
    for add, (a, r, b) in ops:
        state = state.copy()
        if add:
            state.add_edge(a, r, b)
            model.add((a, r, b))
        else:
            state.remove_edge(a, r, b)
            model.discard((a, r, b))
        snapshots.append((state, set(model)))
    for s, m in snapshots:  # earlier states are unaffected by later changes
        assert set(s.edges()) == m
        for a, r, b in m:
            assert b in s.targets(a, r) and a in s.sources(b, r)


@given(base=st.sets(edge, max_size=12), add=st.sets(edge, max_size=8), rm=st.sets(edge, max_size=8))
def test_derived_scene(base, add, rm):
    grouped = lambda edges: [(a, r, [b]) for a, r, b in edges]  # noqa: E731
    scene = Scene(OBJS, {0: ["OPEN"]}, base).derive(add_edges=grouped(add), del_edges=grouped(rm),
                                                    set_states=[(1, ["ON"])])
    expect = (set(base) - set(rm)) | set(add)
    assert set(WorldState(scene).edges()) == expect
    assert WorldState(scene).states(1) == {"ON"} and WorldState(scene).states(0) == {"OPEN"}


def test_a_derived_scene_equals_its_changes_applied_whatever_feeds_or_copies_it():
    import copy
    import pickle

    base = Scene(OBJS, {0: ["OPEN"], 2: ["CLEAN"]}, [(0, "ON", 1), (2, "CLOSE", 3), (3, "CLOSE", 2)])
    changes = dict(set_objects=[ObjectInfo(9, "new")], del_objects=[5], set_states=[(2, []), (9, ["ON"])],
                   add_edges=[(9, "ON", [0, 1]), (0, "FACING", [9])], del_edges=[(2, "CLOSE", [3])])
    scene = base.derive(**changes)
    assert type(scene) is Scene and scene.memo == {} and scene.objects[9].name == "new" and 5 not in scene.objects
    assert scene.states == {0: frozenset({"OPEN"}), 9: frozenset({"ON"})}
    assert scene.out[(9, "ON")] == {0, 1} and scene.inn[(9, "FACING")] == {0} and scene.out[(2, "CLOSE")] == set()
    assert scene.relations == {"ON", "CLOSE", "FACING"}
    assert base.objects.keys() == set(range(6)) and (9, "ON") not in base.out  # the base is unchanged
    for other in (pickle.loads(pickle.dumps(scene)), copy.deepcopy(scene),
                  base.derive(**{k: iter(v) for k, v in changes.items()}),  # fed by iterators
                  scene.derive()):  # derived again without changes
        assert other.relations == scene.relations and type(other) is Scene
        for slot in ("objects", "states", "out", "inn"):
            assert getattr(other, slot) == getattr(scene, slot), slot
            assert list(getattr(other, slot)) == list(getattr(scene, slot)), slot  # (the same key order)
    assert WorldState(scene).has_edge(9, "ON", 1) and not hasattr(scene, "nothing")
    assert "__getattr__" not in vars(Scene)  # (a lookup of a scene's tables is a plain slot read)


def test_to_dict_and_networkx():
    scene = Scene(OBJS, {0: ["OPEN"]}, [(0, "ON", 1)])
    s = WorldState(scene)
    d = s.to_dict()
    assert d["edges"] == [{"from_id": 0, "relation_type": "ON", "to_id": 1}]
    g = s.to_networkx()
    assert g.has_edge(0, 1) and g.nodes[0]["states"] == ["OPEN"]

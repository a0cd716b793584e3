"""The packed VirtualHome task file (scene_1.bin, format 6): what it precomputes equals what loading derived
before (the base scene's edge indexes, the goal lists without duplicates), it packs back to the same bytes, read
from the file a task at a time it gives what its bytes give, and a damaged or foreign file gives a clear error."""

from __future__ import annotations

import json

import pytest

from eai_gym.core import Scene
from eai_gym.envs.virtualhome import task_data, tasks
from tools.convert import virtualhome_pack as pack_virtualhome


def _dedup(items: list) -> tuple:
    seen, out = set(), []
    for x in items:
        k = json.dumps(x, sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return tuple(out)


def test_base_scene_equals_the_scene_built_from_its_edges() -> None:
    h = task_data.packed().header
    built = Scene((tasks._obj(n) for n in h["base_nodes"]), {n[0]: n[4] for n in h["base_nodes"]},
                  [(f, r, t) for f, r, ts in task_data.packed().base_edges() for t in ts])
    loaded = tasks._base_scene()
    for slot in Scene.__slots__:  # every slot, so that a new one the constructor derives is not left out
        assert getattr(loaded, slot) == getattr(built, slot), slot
    for slot in ("objects", "states", "out", "inn"):
        assert list(getattr(loaded, slot)) == list(getattr(built, slot)), f"{slot}: key order"


def test_every_task_loads_with_its_goals_deduplicated() -> None:
    assert len(tasks.task_ids()) == 342
    for t in tasks.task_ids():
        rec = tasks.task_record(t)
        task = tasks.load_task(t)
        goals = rec["vh_goal"]["goal"]
        assert task.goal.node_goals == _dedup([g for g in goals if {"id", "class_name", "state"} <= g.keys()])
        assert task.goal.edge_goals == _dedup([g for g in goals if {"from_id", "relation_type", "to_id"} <= g.keys()])
        assert task.goal.action_goals == tuple(dict.fromkeys(rec["vh_goal"]["actions"]))
        assert task.gold_plan == tuple(rec["gold_script"]) and task.name == rec["task"]
        init = rec["init"]["nodes"]
        scene = task.initial_state.scene
        assert all(scene.objects[n[0]].name == n[1] for n in init["objects"])
        assert not any(i in scene.objects for i in init["del"])


def test_object_names_are_the_names_of_the_task_scene_objects_without_building_it() -> None:
    for t in tasks.task_ids():
        names = tasks.object_names(t)
        scene = tasks.load_task(t).initial_state.scene
        assert list(names.items()) == [(i, o.name) for i, o in scene.objects.items()], t


def test_the_final_graph_read_from_the_record_is_the_final_state() -> None:
    """Every fact the goal check can read (every object's states, every edge of the base scene, the task's
    changes and the final state, and some that exist nowhere), and the gold check itself, on every task."""
    import random

    from eai_gym.envs.virtualhome.goals import evaluate_goals

    rng = random.Random(0)
    base = tasks._base_scene()
    for t in tasks.task_ids():
        task = tasks.load_task(t)
        final, view = task.metadata["virtualhome"].final_state, tasks.final_graph(t)
        assert view.scene.objects.keys() == final.scene.objects.keys()
        for oid in list(final.scene.objects) + list(base.objects) + [-1, 10 ** 6]:
            assert view.states(oid) == final.states(oid), (t, oid)
        rec = tasks.task_record(t)
        changed = [(a, rel, b) for part in ("init", "final") for kind in ("add", "del")
                   for a, rel, bs in rec[part]["edges"][kind] for b in bs]
        base_edges = [(a, rel, b) for (a, rel), bs in base.out.items() for b in bs]
        ids = list(final.scene.objects)
        made_up = [(rng.choice(ids), rel, rng.choice(ids)) for rel in ("ON", "INSIDE", "CLOSE", "FACING") for _ in range(5)]
        for a, rel, b in list(final.edges()) + changed + base_edges + made_up:
            assert view.has_edge(a, rel, b) == final.has_edge(a, rel, b), (t, a, rel, b)
        for protocol in ("fixed", "eai-1.0.5"):
            for actions in (False, True):
                assert evaluate_goals(view, task.goal, [], protocol, with_actions=actions) == \
                    evaluate_goals(final, task.goal, [], protocol, with_actions=actions), (t, protocol)


def test_the_file_packs_back_to_the_same_bytes() -> None:
    data = task_data._read()
    assert pack_virtualhome.pack(pack_virtualhome.unpack_scene(data)) == data


def test_reading_a_task_at_a_time_from_the_file_gives_what_the_bytes_give() -> None:
    data = task_data._read()
    whole, from_file = task_data.Packed(data), task_data.packed()
    assert from_file.header == whole.header and from_file.base_edges() == whole.base_edges()
    assert all(from_file.task(t) == whole.task(t) for t in tasks.task_ids())
    reads = []

    def read(offset: int, n: int) -> bytes:
        reads.append(n)
        return data[offset:offset + n]
    lazy = task_data.Packed(read)
    assert sum(reads) < len(data) / 10  # the header only
    assert lazy.task("27_2") == whole.task("27_2") and reads[-1] == whole.index["27_2"][1]


def test_unknown_ids_and_damaged_files_give_clear_errors() -> None:
    from eai_gym.core import UnknownTaskError

    with pytest.raises(UnknownTaskError, match="unknown VirtualHome task id 'nope'"):
        tasks.load_task("nope")
    with pytest.raises(UnknownTaskError, match="must be a string"):
        tasks.task_record(["27_2"])
    with pytest.raises(task_data.TaskDataError, match="not a packed task file"):
        task_data.Packed(b"{}")
    data = bytearray(task_data._read())
    start = len(task_data.MAGIC) + 4
    data[start:start + 8] = b"\0" * 8
    with pytest.raises(task_data.TaskDataError, match="cannot decode the header"):
        task_data.Packed(bytes(data))
    p = task_data.packed()
    offset, n = p.index["27_2"]
    damaged = bytearray(task_data._read())
    at = p._blobs + offset
    damaged[at:at + n] = b"\xff" * n
    with pytest.raises(task_data.TaskDataError, match="cannot decode task '27_2'"):
        task_data.Packed(bytes(damaged)).task("27_2")
    with pytest.raises(task_data.TaskDataError, match="cannot decode task '27_2'"):  # a file cut short
        task_data.Packed(bytes(damaged[:at + n // 2])).task("27_2")
    import marshal

    head = marshal.dumps({"format": 5})
    with pytest.raises(task_data.TaskDataError, match="format 5, this eai-gym reads format 6"):
        task_data.Packed(task_data.MAGIC + len(head).to_bytes(4, "little") + head)


@pytest.mark.parametrize("task_id", ["27_2", tasks.task_ids()[-1]])
def test_final_state_is_made_on_first_read_and_holds_the_recorded_final_graph(task_id: str) -> None:
    import pickle

    from eai_gym.envs.virtualhome.tasks import VirtualHomeTaskData

    tasks._load_task.cache_clear()
    task = tasks.load_task(task_id)
    extra = task.metadata["virtualhome"]
    twin = pickle.loads(pickle.dumps(task)).metadata["virtualhome"]  # picklable before it is made ...
    final = extra.final_state
    assert extra.final_state is final  # ... made once
    assert final.scene is task.initial_state.scene and final.parent_id == id(task.initial_state)
    rec = tasks.task_record(task_id)["final"]
    for n in rec["nodes"]["objects"]:
        assert final.states(n[0]) == frozenset(n[4])
    for oid, st in rec["nodes"]["states"]:
        assert final.states(oid) == frozenset(st)
    for a, rel, bs in rec["edges"]["add"]:
        assert all(final.has_edge(a, rel, b) for b in bs)
    assert twin.final_state.to_dict() == final.to_dict()
    again = pickle.loads(pickle.dumps(task)).metadata["virtualhome"]  # ... and after
    assert again.final_state.to_dict() == final.to_dict() and again.relevant == extra.relevant
    given = VirtualHomeTaskData(final, extra.relevant, extra.gold_script, extra.raw_goal)  # a state given as is
    assert given.final_state is final and given == extra


def test_a_task_builds_its_scene_only_when_its_initial_state_is_read(monkeypatch) -> None:
    from eai_gym.core import Scene

    derived = []
    real = Scene.derive
    monkeypatch.setattr(Scene, "derive", lambda self, **kw: derived.append(1) or real(self, **kw))
    tasks._load_task.cache_clear()
    task = tasks.load_task("27_2")
    extra = task.metadata["virtualhome"]
    assert task.goal.tl_goal and extra.gold_script and extra.relevant and derived == []
    assert task.initial_state is task.initial_state and derived == [1]
    assert extra.final_state.scene is task.initial_state.scene and derived == [1]

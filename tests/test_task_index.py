"""The packaged task-id index (eai_gym/data/task_index.json) is fresh and equals every world's own ids; a
stale or foreign entry is never used."""

from __future__ import annotations

import json

import pytest

from eai_gym import registry, task_index
from eai_gym.tasksets import task_sets


@pytest.mark.parametrize("world", [w.name for w in registry.worlds()])
def test_index_is_fresh_and_equals_the_task_set(world: str) -> None:
    spec = registry.world(world)
    entry = json.loads(task_index.INDEX.read_text())[world]
    assert entry["data_sha256"] == task_index.data_digest(world), \
        "stale index: run python -m tools.convert.task_index"
    own = list(registry.load(spec.task_set).ids())
    assert entry["ids"] == own
    assert task_index.indexed_ids(world, spec.task_set) == tuple(own)
    assert task_sets()[world].ids() == own


def test_stale_or_foreign_entries_are_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    spec = registry.world("alfworld")
    real = json.loads(task_index.INDEX.read_text())
    stale = {**real, "alfworld": {**real["alfworld"], "data_sha256": "0" * 64, "ids": ["x"]}}
    (tmp_path / "index.json").write_text(json.dumps(stale))
    monkeypatch.setattr(task_index, "INDEX", tmp_path / "index.json")
    task_index.load_index.cache_clear()
    task_index.indexed_ids.cache_clear()
    try:
        assert task_index.load_index()["alfworld"]["ids"] == ["x"]
        assert task_index.indexed_ids("alfworld", spec.task_set) is None
        assert task_index.indexed_ids("alfworld", "some.other.taskset") is None
        assert task_index.indexed_ids("no_such_world", spec.task_set) is None
        assert task_sets()["alfworld"].ids() == list(registry.load(spec.task_set).ids())
    finally:
        monkeypatch.undo()
        task_index.load_index.cache_clear()
        task_index.indexed_ids.cache_clear()

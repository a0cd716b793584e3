"""A small packaged index of every packaged world's task ids (``eai_gym/data/task_index.json``), so that
``eai-gym list`` and ``show`` need not decode each world's task data to count or check its tasks.

Each entry names the world's task-set module, its ids, and the sha256 of the world's data folder
(``eai_gym/data/<world>/``) the ids were read from. An entry is used only while that digest still matches the
files; otherwise (data changed, or a world outside the package) the task set reads its data as before, so the
index can make a command faster but never change what it prints. ``python -m tools.convert.task_index``
rewrites it; ``tests/test_task_index.py`` checks it is fresh and equal to the task sets' own ids.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
INDEX = DATA / "task_index.json"


def data_digest(world: str) -> str | None:
    """The sha256 of the files of ``eai_gym/data/<world>/`` (names and bytes, sorted by name; None if the
    world has no such folder)."""
    folder = DATA / world
    if not folder.is_dir():
        return None
    h = hashlib.sha256()
    for p in sorted(folder.iterdir()):
        if p.is_file():
            h.update(p.name.encode("utf-8") + b"\0")
            h.update(p.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=None)
def load_index() -> dict[str, Any]:
    """The packaged index ({} if it is missing or unreadable), read once."""
    try:
        return json.loads(INDEX.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@lru_cache(maxsize=None)
def indexed_ids(world: str, task_set: str) -> tuple[str, ...] | None:
    """The world's task ids from the index, or None when the index has no fresh entry for this world and
    task-set module."""
    entry = load_index().get(world)
    if not entry or entry.get("task_set") != task_set:
        return None
    digest = data_digest(world)
    if digest is None or digest != entry.get("data_sha256"):
        return None
    return tuple(entry["ids"])


def build(worlds: Any) -> dict[str, Any]:
    """The index of the given :class:`eai_gym.registry.WorldSpec` s, read from their task sets' ``ids()``
    (worlds without a data folder are left out)."""
    from . import registry

    out: dict[str, Any] = {}
    for w in worlds:
        digest = data_digest(w.name)
        if digest is None:
            continue
        ids = list(registry.load(w.task_set).ids())
        out[w.name] = {"task_set": w.task_set, "data_sha256": digest, "ids": ids}
    return out

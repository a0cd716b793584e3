"""Pack the converted VirtualHome task data into eai-gym's packaged file ``scene_1.bin`` (format 6).

:func:`pack` takes the converter's scene (``tools/convert/virtualhome.py``: a base scene and per task a record
with the differences of its initial graph from the base and of its final graph from the initial one) and
stores it in :mod:`marshal` form with what every process used to recompute: the base scene's edge indexes, and
per task which of its goals are node and edge goals once duplicates are removed.
:mod:`eai_gym.envs.virtualhome.task_data` documents the layout and reads it.

``python -m tools.convert.virtualhome_pack`` re-packs the packaged file from itself (its records) — for a change of
the layout; a change of the data goes through ``tools/convert/virtualhome.py``.
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import sys
from typing import Any

from eai_gym.core import ObjectInfo, Scene
from eai_gym.envs.virtualhome.task_data import FORMAT, MAGIC, MARSHAL_VERSION
from tools.common import PACKAGE_DATA

FILE_NAME = "scene_1.bin"


def _obj(n: list) -> ObjectInfo:
    return ObjectInfo(n[0], n[1], n[2] or "", frozenset(n[3]))


def base_scene(base: dict) -> Scene:
    """The base scene from its nodes and grouped edges (the format-4 loader's)."""
    edges = [(f, r, t) for f, r, ts in base["edges"] for t in ts]
    return Scene((_obj(n) for n in base["nodes"]), {n[0]: n[4] for n in base["nodes"]}, edges)


def first_occurrences(items: list[Any]) -> list[int]:
    """Indexes of the items that are not duplicates (equal JSON) of an earlier one."""
    seen, out = set(), []
    for i, x in enumerate(items):
        k = json.dumps(x, sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(i)
    return out


def goal_indexes(rec: dict) -> dict[str, list[int]]:
    """Which of ``vh_goal["goal"]`` are the task's node goals and its edge goals, duplicates removed."""
    goals = rec["vh_goal"]["goal"]
    node = [i for i, g in enumerate(goals) if {"id", "class_name", "state"} <= g.keys()]
    edge = [i for i, g in enumerate(goals) if {"from_id", "relation_type", "to_id"} <= g.keys()]
    return {"node_goals": [node[k] for k in first_occurrences([goals[i] for i in node])],
            "edge_goals": [edge[k] for k in first_occurrences([goals[i] for i in edge])]}


def interned(obj: Any) -> Any:
    """``obj`` with every string interned, so that marshal writes each distinct string once per blob."""
    if isinstance(obj, str):
        return sys.intern(obj)
    if isinstance(obj, list):
        return [interned(x) for x in obj]
    if isinstance(obj, tuple):
        return tuple(interned(x) for x in obj)
    if isinstance(obj, dict):
        return {interned(k): interned(v) for k, v in obj.items()}
    return obj


def _blob(obj: Any) -> bytes:
    return marshal.dumps(interned(obj), MARSHAL_VERSION)


def pack(scene: dict) -> bytes:
    """The bytes of ``scene_1.bin`` for the converter's scene dict (records as JSON texts or dicts).

    Everything is read back from JSON text first: which objects marshal writes once and refers back to depends
    on which are shared, and fresh JSON values make that the same whatever the scene dict was built from."""
    records = {t: json.loads(r if isinstance(r, str) else json.dumps(r)) for t, r in scene["tasks"].items()}
    base_data = json.loads(json.dumps(scene["base"]))
    base = base_scene(base_data)
    meta = json.loads(json.dumps({k: scene[k] for k in ("source", "scene", "character_id", "task_order")}))
    blobs, index, offset = [], {}, 0
    for tid in meta["task_order"]:
        blob = _blob((records[tid], goal_indexes(records[tid])))
        index[tid] = (offset, len(blob))
        blobs.append(blob)
        offset += len(blob)
    edges = _blob(base_data["edges"])
    header = {"format": FORMAT, "source": meta["source"], "scene": meta["scene"],
              "character_id": meta["character_id"], "task_order": meta["task_order"], "index": index,
              "base_edges_at": (offset, len(edges)), "base_nodes": base_data["nodes"],
              "base_out": base.out, "base_inn": base.inn, "base_relations": sorted(base.relations)}
    head = _blob(header)
    return MAGIC + len(head).to_bytes(4, "little") + head + b"".join(blobs) + edges


def unpack_scene(data: bytes) -> dict:
    """The converter's scene dict back from a packed file (records as JSON texts, as the converter makes them)."""
    from eai_gym.envs.virtualhome.task_data import Packed

    p = Packed(data)
    h = p.header
    return {"format": h["format"], "source": h["source"], "scene": h["scene"], "character_id": h["character_id"],
            "base": {"nodes": h["base_nodes"], "edges": p.base_edges()}, "task_order": h["task_order"],
            "tasks": {t: json.dumps(p.task(t)[0], separators=(",", ":")) for t in h["task_order"]}}


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    path = os.path.join(PACKAGE_DATA, "virtualhome", FILE_NAME)
    with open(path, "rb") as f:
        data = pack(unpack_scene(f.read()))
    with open(path, "wb") as f:
        f.write(data)
    print(f"wrote {os.path.normpath(path)} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The packaged VirtualHome task file, ``eai_gym/data/virtualhome/scene_1.bin`` (format 5), read a task at a time.

Written by ``tools/convert_virtualhome.py`` (through ``tools/pack_virtualhome.py``) from the eai-eval 1.0.5
wheel; provenance in ``eai_gym/data/virtualhome/PROVENANCE.md``. Layout::

    MAGIC | header length (4 bytes, little-endian) | header | one blob per task, in task order

The header is zlib-compressed :mod:`marshal` data (version :data:`MARSHAL_VERSION`), each task's blob plain
marshal data, all of plain builtins (dicts, lists, tuples, frozensets, strings, ints), so that a process decodes
only the tasks it uses. The header holds the format, the source, the task order, ``index`` (task id -> (offset
of its blob after the header, length)) and the base scene: its nodes and grouped edges, and its edge indexes as
:class:`eai_gym.core.Scene` builds them from those edges (``base_out``, ``base_inn``; ``base_relations`` sorted). A
task's blob is ``(record, derived)``: the converter's record (goals, gold script, relevant objects, the
differences of its initial graph from the base and of its final graph from the initial one) and
``{"node_goals", "edge_goals"}``, the indexes into ``record["vh_goal"]["goal"]`` of its node and edge goals with
duplicates removed. ``tests/envs/test_virtualhome_task_data.py`` checks both derived parts.
"""

from __future__ import annotations

import marshal
import os
import zlib
from functools import lru_cache
from typing import Any

MAGIC = b"eai-gym virtualhome\n"
FORMAT = 5
MARSHAL_VERSION = 4
FILE_NAME = "scene_1.bin"


class TaskDataError(Exception):
    """The packaged task file is missing, of another format, or damaged."""


def _decode(blob: Any, what: str, unpack: Any = None) -> Any:
    try:
        return marshal.loads(blob if unpack is None else unpack(blob))
    except (zlib.error, ValueError, EOFError, TypeError) as e:
        raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): cannot decode {what} ({e}); reinstall "
                            "eai-gym or regenerate the file with tools/convert_virtualhome.py") from None


class Packed:
    """A packed task file's bytes: the decoded header, and each task on demand."""

    def __init__(self, data: bytes) -> None:
        start = len(MAGIC) + 4
        if data[:len(MAGIC)] != MAGIC or len(data) < start:
            raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): not a packed task file")
        size = int.from_bytes(data[len(MAGIC):start], "little")
        self.header: dict[str, Any] = _decode(data[start:start + size], "the header", zlib.decompress)
        if self.header.get("format") != FORMAT:
            raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): format {self.header.get('format')!r}, "
                                f"this eai-gym reads format {FORMAT}")
        self.index: dict[str, tuple[int, int]] = self.header["index"]
        self._view = memoryview(data)
        self._blobs = start + size

    def task(self, task_id: str) -> tuple[dict[str, Any], dict[str, list[int]]]:
        """The task's record and derived goal indexes (raises KeyError for an unknown id)."""
        offset, n = self.index[task_id]
        at = self._blobs + offset
        return _decode(self._view[at:at + n], f"task {task_id!r}")


def _read() -> bytes:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "virtualhome", FILE_NAME)
    if os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    from importlib import resources  # an installation that is not a plain folder (e.g. a zip)

    return (resources.files("eai_gym.data") / "virtualhome" / FILE_NAME).read_bytes()


@lru_cache(maxsize=1)
def packed() -> Packed:
    """The packaged task file, read once."""
    try:
        return Packed(_read())
    except OSError as e:
        raise TaskDataError(f"VirtualHome task data: cannot read {FILE_NAME} ({e})") from None

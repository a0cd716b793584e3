"""``eai-gym compat``: the one-time, reversible setup that makes a compat stand-in importable in every interpreter
of a Python environment (Ray workers, ``multiprocessing`` spawn children, subprocesses), not only in the process
that called :func:`eai_gym.compat.alfworld.install`.

    eai-gym compat install alfworld [--alias PREFIX ...] [--target DIR]
    eai-gym compat uninstall alfworld [--target DIR]
    eai-gym compat status [--target DIR]

``install`` writes one file, ``eai_gym_compat_alfworld.pth``, into the environment's site-packages (the running
interpreter's ``purelib``, or ``--target DIR``). Python runs its import line at every start: it puts a small
finder first in the import system that imports nothing until ``alfworld`` (or a name under an ``--alias``
prefix) is imported, and then hands over to :mod:`eai_gym.compat.alfworld.importer`. ``uninstall`` removes
exactly that file (and refuses a file of that name that it did not write). ``install`` refuses while the real
alfworld is installed in the environment (the stand-in would shadow it). Nothing here depends on the registry.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.metadata
import json
import os
import site
import sys
import sysconfig
from pathlib import Path
from typing import Any

#: the compat packages this command installs -> the module whose BOOTSTRAP_SOURCE the .pth line runs
PACKAGES = {"alfworld": "eai_gym.compat.alfworld.importer"}
MARKER = "# eai-gym compat "


class SetupError(Exception):
    """A refusal or failure of ``eai-gym compat``, with the message to print."""


def pth_path(package: str, target: str | os.PathLike[str] | None = None) -> Path:
    """Where ``install`` writes the package's ``.pth`` file."""
    folder = Path(target) if target is not None else Path(sysconfig.get_paths()["purelib"])
    return folder / f"eai_gym_compat_{package}.pth"


def pth_text(package: str, aliases: list[str], path: Path) -> str:
    """The ``.pth`` file: a JSON header line (what ``status`` and ``uninstall`` read) and the import line."""
    from importlib import import_module

    source = import_module(PACKAGES[package]).BOOTSTRAP_SOURCE
    header = json.dumps({"package": package, "aliases": aliases, "written_by": "eai-gym compat install"})
    env = f'{{"sys": sys, "ALIASES": {aliases!r}, "PTH": {str(path)!r}}}'
    return (f"{MARKER}{header}\n# Makes `import {package}` resolve to eai-gym's stand-in in every interpreter of "
            f"this environment; remove with `eai-gym compat uninstall {package}`.\n"
            f"import sys; exec({source!r}, {env})\n")


def read_header(path: Path) -> dict[str, Any] | None:
    """The JSON header of a ``.pth`` file ``install`` wrote, None if the file is not one of ours."""
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline(65536)
    except (OSError, UnicodeDecodeError):
        return None
    if not first.startswith(MARKER):
        return None
    try:
        header = json.loads(first[len(MARKER):])
    except json.JSONDecodeError:
        return None
    return header if isinstance(header, dict) and header.get("written_by") == "eai-gym compat install" else None


def real_package(package: str, target: str | os.PathLike[str] | None = None) -> str | None:
    """Where the real ``package`` is installed in this environment (or ``target``), None if it is not: an
    installed distribution of that name, or a top-level module of that name on the import path (eai-gym's own
    finders, if active, are not asked)."""
    search = ([str(target)] if target is not None else []) + sys.path
    for dist in importlib.metadata.distributions(name=package, path=search):
        return f"the distribution {package} {dist.version} at {dist.locate_file('')}"
    spec = importlib.machinery.PathFinder.find_spec(package, search)
    if spec is not None:
        where = spec.origin if spec.has_location else list(spec.submodule_search_locations or [])
        return f"the module {package} at {where}"
    return None


def install(package: str, aliases: list[str], target: str | os.PathLike[str] | None = None) -> str:
    """Write the package's ``.pth`` file; the message to print. Raises :class:`SetupError` when it refuses."""
    from importlib import import_module

    check_alias = import_module(PACKAGES[package]).check_alias
    try:
        aliases = list(dict.fromkeys(check_alias(a) for a in aliases))
    except ValueError as e:
        raise SetupError(f"--alias: {e}") from None
    real = real_package(package, target)
    if real is not None:
        raise SetupError(f"the real {package} is installed here ({real}): eai-gym's stand-in would shadow it in every "
                         f"interpreter of this environment. Uninstall it first (pip uninstall {package}) or use "
                         f"another environment; to use the stand-in in one script only, call "
                         f"eai_gym.compat.{package}.install() before importing {package}.")
    path = pth_path(package, target)
    if not path.parent.is_dir():
        raise SetupError(f"{path.parent} is not a folder")
    previous = read_header(path) if path.exists() else None
    if path.exists() and previous is None:
        raise SetupError(f"{path} exists and was not written by eai-gym compat install: not overwriting it")
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    try:
        tmp.write_text(pth_text(package, aliases, path), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise SetupError(f"cannot write {path}: {e}") from None
    lines = [f"wrote {path}" + (f" (replacing aliases {previous['aliases']})" if previous else "")]
    lines.append(f"every interpreter started from here on resolves `import {package}`"
                 + (f" and {', '.join(aliases)}" if aliases else "") + " to eai-gym's stand-in")
    if target is not None and str(Path(target).resolve()) not in _site_dirs():
        lines.append(f"note: {path.parent} is not a site-packages folder of {sys.executable}: Python reads .pth files "
                     "only from site-packages folders")
    lines.append(f"undo: eai-gym compat uninstall {package}" + (f" --target {target}" if target is not None else ""))
    return "\n".join(lines)


def uninstall(package: str, target: str | os.PathLike[str] | None = None) -> str:
    """Remove the ``.pth`` file ``install`` wrote; the message to print."""
    path = pth_path(package, target)
    if not path.exists():
        return f"nothing to remove: {path} does not exist"
    if read_header(path) is None:
        raise SetupError(f"{path} was not written by eai-gym compat install: not removing it")
    try:
        path.unlink()
    except OSError as e:
        raise SetupError(f"cannot remove {path}: {e}") from None
    return f"removed {path}; interpreters started from here on import {package} normally"


def status(target: str | os.PathLike[str] | None = None) -> list[dict[str, Any]]:
    """Per compat package: its ``.pth`` file and aliases (if installed), whether the stand-in is active in this
    process, and where the real package is (if installed)."""
    out = []
    for package in PACKAGES:
        path = pth_path(package, target)
        header = read_header(path) if path.exists() else None
        from importlib import import_module

        active = import_module(PACKAGES[package]).is_active()
        out.append({"package": package, "pth": str(path), "installed": header is not None,
                    "foreign_file": path.exists() and header is None, "aliases": (header or {}).get("aliases", []),
                    "active_in_this_process": active, "real_package": real_package(package, target)})
    return out


def _site_dirs() -> set[str]:
    dirs = list(site.getsitepackages()) + [sysconfig.get_paths()["purelib"]]
    return {str(Path(d).resolve()) for d in dirs}


# -- the command ------------------------------------------------------------------------------------------------
def add_parser(sub: Any) -> None:
    c = sub.add_parser("compat", help="make a compat stand-in (alfworld) importable in every interpreter of this "
                                      "environment (a .pth file; reversible)",
                       description=__doc__.split("\n\n")[0])
    csub = c.add_subparsers(dest="compat_command", required=True)
    i = csub.add_parser("install", help="write the .pth file")
    i.add_argument("package", choices=sorted(PACKAGES))
    i.add_argument("--alias", action="append", default=[], metavar="PREFIX",
                   help="also resolve every module under PREFIX to the stand-in's (a client's bundled copy, e.g. "
                        "agent_system.environments.env_package.alfworld.alfworld); repeatable")
    u = csub.add_parser("uninstall", help="remove the .pth file install wrote")
    u.add_argument("package", choices=sorted(PACKAGES))
    s = csub.add_parser("status", help="what is installed, and where")
    for p in (i, u, s):
        p.add_argument("--target", default=None, metavar="DIR",
                       help="the site-packages folder to use (default: this interpreter's purelib)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.compat_command == "install":
            print(install(args.package, args.alias, args.target))
        elif args.compat_command == "uninstall":
            print(uninstall(args.package, args.target))
        else:
            for row in status(args.target):
                state = (f"installed ({row['pth']}, aliases {row['aliases']})" if row["installed"] else
                         f"a file not written by eai-gym is at {row['pth']}" if row["foreign_file"] else
                         f"not installed ({row['pth']})")
                print(f"{row['package']}: {state}; active in this process: {row['active_in_this_process']}; "
                      f"real {row['package']}: {row['real_package'] or 'not installed'}")
    except SetupError as e:
        print(f"eai-gym compat: {e}", file=sys.stderr)
        return 2
    return 0

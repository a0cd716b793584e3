"""The README and the docs' quickstart run as written: every ``sh`` block, in order, in one shell, then every
``python`` block on its own, in a copy of the checkout.

The Quickstart's own commands (a fenced block with no language: make a venv, ``pip install``, score, run the tests)
are what CI itself runs (``.ci/run``), so the test starts after them, as a reader does: with a ``.venv`` in the copy.
That ``.venv`` is this interpreter's environment seen from the copy (its ``lib`` linked, its commands linked), with
one stand-in: ``pip install '.[EXTRA]'`` checks that the extra's requirements are installed instead of reinstalling
eai-gym into the environment the tests run in.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
#: what the copy leaves out (the blocks read the package, examples/, docs/ and mkdocs.yml)
IGNORE = shutil.ignore_patterns(".git", ".venv", "venv", "site", "runs", "__pycache__", ".pytest_cache",
                                ".hypothesis", "*.egg-info", "build", "dist", "tests")
#: seconds for all of one document's blocks (the whole README runs in well under a minute here)
TIMEOUT = 900

PIP_STANDIN = '''#!{python}
"""pip, for the README test: 'pip install .[EXTRAS]' checks that the extras' requirements are installed."""
import importlib.metadata, re, sys, tomllib
args = sys.argv[1:]
if not args or args[0] != "install":
    sys.exit("the README test's pip only checks 'pip install .[EXTRAS]' lines, got: " + " ".join(args))
extras = dict(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"])
for target in args[1:]:
    m = re.fullmatch(r"\\.(?:\\[([\\w,-]+)\\])?", target)
    if m is None:
        sys.exit(f"the README test's pip knows the forms . and .[EXTRAS], not {{target!r}}")
    for extra in filter(None, (m.group(1) or "").split(",")):
        if extra not in extras:
            sys.exit(f"no extra {{extra!r}} in pyproject.toml")
        for requirement in extras[extra]:
            name = re.split(r"[<>=!~\\[; ]", requirement, 1)[0]
            try:
                importlib.metadata.version(name)
            except importlib.metadata.PackageNotFoundError:
                sys.exit(f"{{name}} ({{extra}} extra) is not installed")
print("requirements already installed (the README test's pip)")
'''

ACTIVATE = '''# the README test's venv activation
export VIRTUAL_ENV="{venv}"
export PATH="{venv}/bin:$PATH"
'''


def blocks(text: str) -> list[tuple[str, str]]:
    """``(language, code)`` of every fenced block, in order."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]


def make_venv(copy: Path) -> None:
    """``copy/.venv``: this interpreter's environment (see the module docstring)."""
    real, venv = Path(sys.prefix), copy / ".venv"
    (venv / "bin").mkdir(parents=True)
    shutil.copy(real / "pyvenv.cfg", venv / "pyvenv.cfg")
    for name in ("lib", "lib64", "include"):
        if (real / name).exists():
            os.symlink(real / name, venv / name)
    for exe in (real / "bin").iterdir():
        if exe.name.startswith(("pip", "activate")) or exe.name in ("Activate.ps1",):
            continue
        os.symlink(exe, venv / "bin" / exe.name)
    pip = venv / "bin" / "pip"
    pip.write_text(PIP_STANDIN.format(python=venv / "bin" / "python"))
    pip.chmod(0o755)
    (venv / "bin" / "activate").write_text(ACTIVATE.format(venv=venv))


def run_document(doc: Path, tmp_path: Path) -> None:
    copy = tmp_path / "clone"
    shutil.copytree(ROOT, copy, ignore=IGNORE, symlinks=True)
    make_venv(copy)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix))
    found = blocks(doc.read_text())
    shell = [code for lang, code in found if lang in ("sh", "bash")]
    python = [code for lang, code in found if lang == "python"]
    assert shell, f"{doc.name} has no sh block"
    script = "set -euo pipefail\n" + "\n".join(shell)
    out = subprocess.run(["bash", "-c", script], cwd=copy, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert out.returncode == 0, f"{doc.name}'s sh blocks failed (exit {out.returncode}):\n{out.stderr[-4000:]}"
    for n, code in enumerate(python):
        out = subprocess.run([str(copy / ".venv" / "bin" / "python"), "-c", code], cwd=copy, env=env,
                             capture_output=True, text=True, timeout=TIMEOUT)
        assert out.returncode == 0, f"{doc.name}'s python block {n + 1} failed:\n{code}\n{out.stderr[-3000:]}"


def test_the_readme_runs_as_written(tmp_path):
    run_document(ROOT / "README.md", tmp_path)


def test_the_quickstart_runs_as_written(tmp_path):
    run_document(ROOT / "docs" / "quickstart.md", tmp_path)


def test_every_block_is_run_or_is_the_quickstart():
    """A block the test would not run (another language, or none) is only the Quickstart's install line, which CI
    runs itself: a new example block must be ``sh`` or ``python`` to be checked."""
    for doc in (ROOT / "README.md", ROOT / "docs" / "quickstart.md"):
        unrun = [code for lang, code in blocks(doc.read_text()) if lang not in ("sh", "bash", "python")]
        assert all("python3 -m venv .venv" in code for code in unrun), (doc.name, unrun)


def test_the_pip_standin_knows_every_extra_the_docs_install():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for doc in (ROOT / "README.md", ROOT / "docs" / "quickstart.md"):
        for extra in re.findall(r"pip install '\.\[([\w,-]+)\]'", doc.read_text()):
            assert set(extra.split(",")) <= set(extras), (doc.name, extra)


@pytest.fixture(autouse=True)
def _needs_bash():
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")

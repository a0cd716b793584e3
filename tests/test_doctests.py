"""Every example in the package's docstrings runs and shows what it says: the doctests (``>>>``) of every
``eai_gym`` module that has one. Modules are found by reading the sources, so a module without examples is not
imported (nor its optional dependencies)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "eai_gym"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: the modules whose source has an example
MODULES = sorted(module_name(p) for p in PACKAGE.rglob("*.py")
                 if doctest.DocTestParser().get_examples(p.read_text(encoding="utf-8")))


def run_doctests(name: str) -> tuple[doctest.TestResults, str]:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    out: list[str] = []
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=out.append)
    return doctest.TestResults(runner.failures, runner.tries), "".join(out)


@pytest.mark.parametrize("name", MODULES)
def test_the_modules_examples_run_as_shown(name):
    results, report = run_doctests(name)
    assert results.failed == 0, report


def test_the_registrys_and_the_envs_examples_are_among_them():
    """The examples are found where they are known to be (a finder that finds nothing would pass everything)."""
    assert {"eai_gym.registry", "eai_gym.envs.virtualhome.env", "eai_gym.envs.rearrange.env"} <= set(MODULES)
    assert run_doctests("eai_gym.registry")[0].attempted > 0

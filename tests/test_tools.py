"""The offline tools and builders: every module under ``tools/`` imports as a package module and every script answers
``python -m tools.<group>.<name> --help`` from the repository root; no tool puts the checkout on ``sys.path``
(:func:`tools.common.add_import_path`, the one helper that changes it, refuses the checkout); the tools import
one another without a cycle; and no runtime module of ``eai_gym`` imports the offline builders."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
#: the references' own packages (and the kit's harness modules): a tool may need them, run with a reference venv
REFERENCE_PACKAGES = {"virtualhome_eval", "behavior_eval", "bddl", "alfworld", "textworld", "igibson", "habitat_llm",
                      "ref_beh_eval", "ref_partnr_eval", "ref_alfworld"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(TOOLS.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def _is_script(tree: ast.Module) -> bool:
    """Has an ``if __name__ == "__main__":`` block."""
    return any(isinstance(n, ast.If) and isinstance(n.test, ast.Compare) and isinstance(n.test.left, ast.Name)
               and n.test.left.id == "__name__" for n in tree.body)


SCRIPTS = sorted(name for name, tree in TREES.items() if _is_script(tree))


def _import(name: str) -> None:
    """Import a tools module; skip when what is missing is a reference's own package (and only then)."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top in REFERENCE_PACKAGES and importlib.util.find_spec(top) is None:
            pytest.skip(f"{name} needs {top}, a reference package not installed here (run it in a reference venv)")
        raise


def test_every_folder_of_tools_is_a_documented_package() -> None:
    folders = [TOOLS, *sorted(p for p in TOOLS.iterdir() if p.is_dir() and p.name != "__pycache__")]
    for folder in folders:
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder} is not a package"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{init} has no docstring"
    assert not [p for p in TOOLS.glob("*.py") if p.name not in ("__init__.py", "common.py")], \
        "a tool lives at the top of tools/: put it in the folder of its purpose"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_imports(name: str) -> None:
    _import(name)


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_answers_help(name: str) -> None:
    _import(name)
    run = subprocess.run([sys.executable, "-m", name, "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("usage:"), run.stdout[:500]


def _touches_sys_path(tree: ast.Module) -> list[int]:
    """Lines that read or change ``sys.path`` (``sys.path``, ``from sys import path``)."""
    lines = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "path"
             and isinstance(n.value, ast.Name) and n.value.id == "sys"]
    lines += [n.lineno for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "sys"
              and any(a.name == "path" for a in n.names)]
    return lines


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_tool_changes_sys_path(name: str) -> None:
    if name == "tools.common":  # the one helper, tested below
        return
    assert not _touches_sys_path(TREES[name]), \
        f"{MODULES[name]} uses sys.path (lines {_touches_sys_path(TREES[name])}): import the checkout's code as " \
        "packages, and put code from outside it on the path with tools.common.add_import_path"


def test_the_path_helper_refuses_the_checkout(tmp_path: Path) -> None:
    from tools.common import add_import_path

    for inside in (ROOT, TOOLS, ROOT / "tests" / "reference", ROOT / "eai_gym" / ".." / "tools"):
        with pytest.raises(ValueError, match="inside the checkout"):
            add_import_path(inside)
    before = list(sys.path)
    try:
        assert add_import_path(tmp_path) == str(tmp_path) and sys.path[0] == str(tmp_path)
        add_import_path(tmp_path)
        assert sys.path.count(str(tmp_path)) == 1
    finally:
        sys.path[:] = before


def _imports(name: str) -> set[str]:
    """The tools modules ``name`` imports, at module level or inside a function (a bare name that is a module of
    its own folder counts too: a sibling imported through ``sys.path``)."""
    out = set()
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    folder = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    out |= {f"{folder}.{m}" for m in out if "." not in m}
    return {m for m in out if m in MODULES and m != name}


def test_tools_import_one_another_without_a_cycle() -> None:
    graph = {name: _imports(name) for name in MODULES}
    done: set[str] = set()

    def visit(name: str, stack: list[str]) -> None:
        if name in stack:
            raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(name):] + [name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, stack + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_builders_are_offline_and_filed_by_world() -> None:
    """``eai_gym.builders`` is offline code, one folder per world: nothing else in the package imports it."""
    from eai_gym import registry

    package = ROOT / "eai_gym"
    folders = {p.name for p in (package / "builders").iterdir() if (p / "__init__.py").is_file()}
    assert folders and folders <= {w.name for w in registry.worlds()}, folders
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if (package / "builders") in path.parents:
            continue
        module = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = module.split(".")[:len(module.split(".")) - node.level + (path.name == "__init__.py")]
                target = ".".join([*base, node.module] if node.module else base) if node.level else node.module
                names = [target] + [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n == "eai_gym.builders" or (n or "").startswith("eai_gym.builders.") for n in names):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders

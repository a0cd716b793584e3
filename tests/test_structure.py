"""The package's structure rules (docs/design.md, "Structure rules"), read from its source with ``ast``: nothing
is imported or run, so a rule breaks here the moment the code does.

* no import cycles between modules; no private (``_name``) name imported from another module;
* a world's name is compared against (``world == "alfworld"``) only inside that world's own modules: a module whose
  dotted path holds the world's name (``envs/alfworld/``, ``scoring/alfworld/``, ``builders/alfworld/``);
* ``metrics/`` and the shared ``scoring/`` modules (outside ``scoring/<world>/``) import no world; no world imports
  another world (what several worlds share lives in a package of its own, e.g. ``eai/``);
* no instance's class is swapped (``x.__class__ = ...``), no ``os._exit``, and ``sys.meta_path`` is touched only by
  the opt-in alfworld import finder (installed by an explicit call, never by an import);
* modules stay readable: under :data:`MAX_LINES` lines.

The worlds are the folders of ``eai_gym/envs/``, so a new world is covered without a change here.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "eai_gym"
#: the one module allowed to touch ``sys.meta_path`` (installed only by explicit calls: see its docstring)
IMPORT_FINDER = "eai_gym.compat.alfworld.importer"
#: the longest module allowed (the house style is "under ~400 lines"; a little slack for docstrings)
MAX_LINES = 450
WORLD_ROOTS = ("envs", "scoring", "builders")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def modules() -> dict[str, tuple[Path, ast.Module]]:
    return {module_name(p): (p, ast.parse(p.read_text(encoding="utf-8"), str(p))) for p in PACKAGE.rglob("*.py")}


def worlds() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in (PACKAGE / "envs").iterdir()
                        if p.is_dir() and not p.name.startswith(("_", ".")) and (p / "__init__.py").exists()))


def world_of(module: str) -> str | None:
    """The world a module belongs to: ``eai_gym.<envs|scoring|builders>.<world>...``."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] in WORLD_ROOTS and parts[2] in worlds():
        return parts[2]
    return None


def imports(module: str) -> list[tuple[str, str, int]]:
    """``(imported module, imported name or "", line)`` for every import in ``module``, relative ones resolved."""
    path, tree = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:
                full = f"{target}.{a.name}"
                out.append((full, "", node.lineno) if full in modules() else (target, a.name, node.lineno))
    return out


def internal_graph() -> dict[str, set[str]]:
    known = modules()
    return {m: {t for t, _, _ in imports(m) if t in known and t != m} for m in known}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_package_and_its_worlds_are_found():
    assert len(modules()) > 100 and {"virtualhome", "behavior", "alfworld"} <= set(worlds())


def test_no_import_cycles():
    assert cycles(internal_graph()) == []


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_private_name_is_imported_from_another_module():
    bad = [f"{m}:{line} takes {name} from {target}" for m in modules() for target, name, line in imports(m)
           if name.startswith("_") and not name.startswith("__") and target in modules()]
    assert bad == []


def test_a_world_is_named_only_in_its_own_modules():
    bad = []
    for m, (_, tree) in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                for c in [node.left, *node.comparators]:
                    if isinstance(c, ast.Constant) and c.value in worlds() and world_of(m) != c.value:
                        bad.append(f"{m}:{node.lineno} compares with {c.value!r}")
    assert bad == []


@pytest.mark.parametrize("layer", ["metrics", "scoring"])
def test_metrics_and_shared_scoring_import_no_world(layer):
    bad = [f"{m}:{line} imports {t}" for m in modules() if m.split(".")[1:2] == [layer] and world_of(m) is None
           for t, _, line in imports(m) if world_of(t)]
    assert bad == []


def test_no_world_imports_another():
    bad = [f"{m}:{line} imports {t}" for m in modules() if world_of(m)
           for t, _, line in imports(m) if world_of(t) not in (None, world_of(m))]
    assert bad == []


def test_no_class_swap_no_os_exit_and_no_import_hook():
    bad = []
    for m, (_, tree) in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bad += [f"{m}:{node.lineno} assigns __class__" for t in targets
                        if isinstance(t, ast.Attribute) and t.attr == "__class__"]
            elif isinstance(node, ast.Attribute):
                if node.attr == "_exit" and isinstance(node.value, ast.Name) and node.value.id == "os":
                    bad.append(f"{m}:{node.lineno} calls os._exit")
                if node.attr == "meta_path" and m != IMPORT_FINDER:
                    bad.append(f"{m}:{node.lineno} touches sys.meta_path")
    assert bad == []


def test_importing_the_package_installs_no_import_hook():
    import subprocess
    import sys

    code = ("import sys; before = list(sys.meta_path); import eai_gym, eai_gym.cli, eai_gym.compat.alfworld; "
            "print(sys.meta_path == before)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "True", out.stderr


def test_modules_stay_readable():
    long = {m: n for m, (p, _) in modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}

"""alfworld's module names served by eai-gym's stand-in: an opt-in meta-path finder.

Nothing here runs unless asked: :func:`install` (in-process) puts an :class:`AlfworldFinder` first on
``sys.meta_path``; ``eai-gym compat install alfworld`` (:mod:`eai_gym.compat.setup`) writes a ``.pth`` file
whose one line puts a small bootstrap finder (:data:`BOOTSTRAP_SOURCE`) there in every interpreter of the
environment, which imports this module and calls :func:`install` the first time an alfworld name is
imported (so an interpreter that never imports alfworld pays for a prefix check per import, nothing more).
This module imports nothing of eai-gym's engine: the stand-in's contents (:mod:`.namespaces`) are loaded
when a module is executed.

The modules are real import-system citizens: each has a spec (``origin`` ``"eai-gym"``), the packages
alfworld has (``alfworld``, ``alfworld.agents``, ``alfworld.agents.environment``, ``alfworld.agents.utils``)
are packages (``__path__ == []``: their submodules come from this finder only), and
``importlib.reload`` re-executes them. An alfworld module the stand-in does not have raises
``ModuleNotFoundError`` saying which ones it has. An alias (``install(aliases=["pkg.bundled.alfworld"])``)
makes every module under that prefix the matching stand-in module (``pkg.bundled.alfworld.agents.environment``
is ``alfworld.agents.environment``'s twin), for clients that import a copy of alfworld bundled in their tree.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import keyword
import sys
import types
from typing import Iterable, Sequence

ROOT = "alfworld"
ORIGIN = "eai-gym"
#: the stand-in's modules, relative to ``alfworld`` ("" is ``alfworld`` itself) -> whether it is a package
MODULES: dict[str, bool] = {"": True, "info": False, "agents": True, "agents.environment": True,
                            "agents.environment.alfred_tw_env": False, "agents.utils": True,
                            "agents.utils.misc": False}
#: the attribute every stand-in module (and the bootstrap finder) carries
MARK = "__eai_gym_compat__"


def module_names(prefix: str = ROOT) -> list[str]:
    """The stand-in's module names under ``prefix`` (``alfworld`` or an alias)."""
    return [prefix + ("." + rel if rel else "") for rel in MODULES]


def check_alias(alias: object) -> str:
    """``alias`` if it is a dotted module name an alias may take, else ``ValueError`` saying why."""
    if not isinstance(alias, str) or not alias:
        raise ValueError(f"an alias is a dotted module name such as 'pkg.bundled.alfworld', got {alias!r}")
    parts = alias.split(".")
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise ValueError(f"alias {alias!r} is not a dotted module name (each part a Python identifier)")
    if alias == ROOT or alias.startswith(ROOT + "."):
        raise ValueError(f"alias {alias!r}: names under 'alfworld' are the stand-in's already")
    if parts[0] == "eai_gym" or parts[0] in sys.stdlib_module_names:
        raise ValueError(f"alias {alias!r} would shadow {parts[0]!r}, which the stand-in itself needs")
    return alias


class AlfworldFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads the stand-in's modules under ``alfworld`` and under each alias prefix."""

    def __init__(self, aliases: Iterable[str] = ()) -> None:
        self.aliases: tuple[str, ...] = ()
        self.add_aliases(aliases)

    def add_aliases(self, aliases: Iterable[str]) -> None:
        new = [check_alias(a) for a in aliases]
        self.aliases = tuple(dict.fromkeys([*self.aliases, *new]))
        # the longest prefix first, so that an alias inside another alias's tree wins
        self._prefixes = sorted((ROOT, *self.aliases), key=len, reverse=True)

    @property
    def prefixes(self) -> tuple[str, ...]:
        return (ROOT, *self.aliases)

    def split(self, fullname: str) -> tuple[str, str] | None:
        """(prefix, module relative to it) when ``fullname`` is under a prefix, else None."""
        for prefix in self._prefixes:
            if fullname == prefix:
                return prefix, ""
            if fullname.startswith(prefix) and fullname[len(prefix)] == ".":
                return prefix, fullname[len(prefix) + 1:]
        return None

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        where = self.split(fullname)
        if where is None:
            return None
        prefix, rel = where
        if rel not in MODULES:
            raise ModuleNotFoundError(
                f"No module named {fullname!r}: eai-gym's stand-in for alfworld 0.4.2 (eai_gym.compat.alfworld) "
                f"has {', '.join(module_names(prefix))} (the text env API; see docs/compat_alfworld.md)",
                name=fullname)
        return importlib.machinery.ModuleSpec(fullname, self, origin=ORIGIN, is_package=MODULES[rel])

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # the default module object

    def exec_module(self, module: types.ModuleType) -> None:
        where = self.split(module.__name__)
        if where is None or where[1] not in MODULES:
            raise ImportError(f"{module.__name__} is not a module of eai-gym's alfworld stand-in",
                              name=module.__name__)
        from .namespaces import missing_name_hook, namespace

        module.__dict__.update(namespace(where[1]))
        module.__dict__[MARK] = True
        module.__dict__["__getattr__"] = missing_name_hook(module.__name__, where[1])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(aliases={list(self.aliases)!r})"


def active_finder() -> AlfworldFinder | None:
    """The finder :func:`install` put on ``sys.meta_path``, if any."""
    return next((f for f in sys.meta_path if isinstance(f, AlfworldFinder)), None)


def is_active() -> bool:
    """Whether the stand-in (its finder, or a ``.pth`` bootstrap) is on ``sys.meta_path`` in this process."""
    return any(isinstance(f, AlfworldFinder) or getattr(f, MARK, None) == "bootstrap" for f in sys.meta_path)


def install(aliases: Iterable[str] = ()) -> AlfworldFinder:
    """Make ``import alfworld...`` (and the modules under each alias prefix) resolve to eai-gym's stand-in in
    this process; returns the finder (calling it again adds aliases). Raises ``RuntimeError`` when a module
    it would serve is already imported from elsewhere (the real alfworld, or a client's bundled copy)."""
    aliases = [check_alias(a) for a in aliases]
    for prefix in (ROOT, *aliases):
        for name in module_names(prefix):
            mod = sys.modules.get(name)
            if mod is not None and not getattr(mod, MARK, False):
                where = getattr(mod, "__file__", None) or repr(mod)
                raise RuntimeError(f"{name} is already imported (from {where}); eai-gym's alfworld stand-in must be "
                                   "installed before it is imported (or use a fresh interpreter)")
    finder = active_finder()
    if finder is None:
        finder = AlfworldFinder(aliases)
        sys.meta_path.insert(0, finder)
    else:
        finder.add_aliases(aliases)
    sys.meta_path[:] = [f for f in sys.meta_path if getattr(f, MARK, None) != "bootstrap"]
    return finder


def uninstall() -> bool:
    """Undo :func:`install` (and a ``.pth`` bootstrap) in this process: the finder leaves ``sys.meta_path`` and
    the stand-in's modules leave ``sys.modules``. Returns whether anything was installed."""
    finder = active_finder()
    prefixes = finder.prefixes if finder is not None else (ROOT,)
    before = len(sys.meta_path)
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, AlfworldFinder)
                        and getattr(f, MARK, None) != "bootstrap"]
    for prefix in prefixes:
        for name in module_names(prefix):
            if getattr(sys.modules.get(name), MARK, False):
                del sys.modules[name]
    return len(sys.meta_path) != before


#: what a ``.pth`` line of ``eai-gym compat install alfworld`` executes, with ``sys``, ``ALIASES`` and ``PTH``
#: (the file's path) given: a finder that imports nothing until an alfworld name (or an alias's) is imported,
#: then hands over to :func:`install`. Keep it small: every interpreter start of the environment runs it.
BOOTSTRAP_SOURCE = '''
class EaiGymAlfworldBootstrap:
    """eai-gym's alfworld stand-in, installed by `eai-gym compat install alfworld` (see PTH)."""
    __eai_gym_compat__ = "bootstrap"

    def __init__(self, aliases, pth):
        self.aliases, self.pth, self.busy = tuple(aliases), pth, False
        self.names = ("alfworld",) + self.aliases
        self.dotted = tuple(p + "." for p in self.names)

    def find_spec(self, name, path=None, target=None):
        if self.busy or not (name in self.names or name.startswith(self.dotted)):
            return None
        self.busy = True
        try:
            from eai_gym.compat.alfworld.importer import install
        except ImportError as e:
            raise ImportError(f"{name}: {self.pth} makes alfworld resolve to eai-gym's stand-in, but eai_gym "
                              f"cannot be imported ({e}); reinstall eai-gym, or delete that file") from e
        finally:
            self.busy = False
        return install(self.aliases).find_spec(name, path, target)

    def __repr__(self):
        return f"EaiGymAlfworldBootstrap(aliases={list(self.aliases)!r}, pth={self.pth!r})"


if not any(getattr(f, "__eai_gym_compat__", None) for f in sys.meta_path):
    sys.meta_path.insert(0, EaiGymAlfworldBootstrap(ALIASES, PTH))
'''

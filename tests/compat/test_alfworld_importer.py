"""The alfworld stand-in as an import-system citizen: specs, packages, reload, aliases, clear errors, opt-in only,
and the ``eai-gym compat`` setup that makes it active in every interpreter of an environment."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from eai_gym.compat import alfworld as compat
from eai_gym.compat import setup as compat_setup
from eai_gym.compat.alfworld import importer

ROOT = Path(__file__).resolve().parents[2]
ALIAS = "bundled_client.env_package.alfworld.alfworld"


@pytest.fixture
def clean_imports(monkeypatch):
    """No alfworld module and no stand-in finder before and after the test."""
    def purge():
        importer.uninstall()
        for name in [m for m in sys.modules if m.split(".")[0] in ("alfworld", "bundled_client")]:
            del sys.modules[name]
    purge()
    yield
    purge()


def run_python(python: str, code: str, cwd: Path | None = None, env: dict | None = None,
               timeout: int = 300) -> subprocess.CompletedProcess:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([python, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd, env=environ,
                          timeout=timeout)


@pytest.mark.parametrize("rel", sorted(importer.MODULES))
def test_every_module_has_a_spec_and_reloads(clean_imports, rel):
    compat.install()
    name = "alfworld" + ("." + rel if rel else "")
    module = importlib.import_module(name)
    assert module.__spec__ is not None and module.__spec__.name == name and module.__spec__.origin == "eai-gym"
    assert (getattr(module, "__path__", None) == []) == importer.MODULES[rel]  # packages where alfworld's are
    before = dict(vars(module))
    assert importlib.reload(module) is module
    assert {k: v for k, v in vars(module).items() if k not in ("__spec__", "__getattr__")} == \
        {k: v for k, v in before.items() if k not in ("__spec__", "__getattr__")}


def test_what_the_clients_import(clean_imports):
    compat.install()
    import alfworld
    import alfworld.agents.environment
    from alfworld.agents.environment.alfred_tw_env import TASK_TYPES, AlfredTWEnv
    from alfworld.agents.utils.misc import add_task_to_grammar, get_templated_task_desc
    from alfworld.info import ALFWORLD_DATA

    importlib.reload(alfworld)  # Reflexion's alfworld_trial.run_trial, before every trial
    importlib.reload(alfworld.agents.environment)
    assert getattr(alfworld.agents.environment, "AlfredTWEnv") is AlfredTWEnv is compat.AlfredTWEnv
    assert alfworld.agents.environment.get_environment("AlfredTWEnv") is AlfredTWEnv
    assert TASK_TYPES[6] == "pick_two_obj_and_place" and ALFWORLD_DATA == os.environ["ALFWORLD_DATA"]
    traj = {"task_type": "pick_heat_then_place_in_recep", "turk_annotations": {"anns": [{"task_desc": "Warm it."}]},
            "pddl_params": {"object_target": "Mug", "parent_target": "CoffeeMachine", "toggle_target": "",
                            "mrecep_target": "", "object_sliced": False}}
    assert get_templated_task_desc(traj) in ("put a hot mug in coffeemachine", "heat some mug and put it in coffeemachine")
    assert add_task_to_grammar("goal: UNKNOWN GOAL", traj, 1.0) == "goal: Warm it."
    with pytest.raises(ValueError, match="sliced"):
        get_templated_task_desc({**traj, "pddl_params": {**traj["pddl_params"], "object_sliced": True}})


def test_names_not_provided_raise_clear_import_errors(clean_imports):
    compat.install()
    with pytest.raises(ModuleNotFoundError, match=r"No module named 'alfworld.agents.modules'.*has alfworld, alfworld.info"):
        import alfworld.agents.modules.generic  # noqa: F401
    with pytest.raises(ImportError, match=r"has no alfworld.agents.environment.alfred_tw_env.AlfredExpert: .*textworld-free"):
        from alfworld.agents.environment.alfred_tw_env import AlfredExpert  # noqa: F401
    with pytest.raises(ImportError, match="no .pddl"):
        from alfworld.info import ALFRED_PDDL_PATH  # noqa: F401
    import alfworld.agents.utils.misc as misc
    assert not hasattr(misc, "no_such_name") and not hasattr(misc, "__wrapped__")  # other names: AttributeError


def test_alias_maps_a_bundled_copy(clean_imports, tmp_path, monkeypatch):
    """A client's bundled copy of alfworld (its parent packages real, on disk) resolves to the stand-in: the
    copy's files never run (verl-agent's does ``from alfworld.info import *`` and imports textworld)."""
    pkg = tmp_path / "bundled_client" / "env_package" / "alfworld"
    (pkg / "alfworld" / "agents" / "environment").mkdir(parents=True)
    for folder in (tmp_path / "bundled_client", tmp_path / "bundled_client" / "env_package", pkg):
        (folder / "__init__.py").write_text("")
    for folder in (pkg / "alfworld", pkg / "alfworld" / "agents", pkg / "alfworld" / "agents" / "environment"):
        (folder / "__init__.py").write_text("raise RuntimeError('the bundled copy ran')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    compat.install(aliases=[ALIAS])
    env_module = importlib.import_module(ALIAS + ".agents.environment")
    assert env_module.get_environment("AlfredTWEnv") is compat.AlfredTWEnv and env_module.__name__ == ALIAS + ".agents.environment"
    assert importlib.reload(importlib.import_module(ALIAS)).__spec__.origin == "eai-gym"
    with pytest.raises(ModuleNotFoundError, match=re.escape(f"{ALIAS}.agents.expert")):
        importlib.import_module(ALIAS + ".agents.expert")
    assert importlib.import_module("bundled_client.env_package.alfworld").__file__.startswith(str(tmp_path))


@pytest.mark.parametrize("alias", ["alfworld.x", "eai_gym.x", "os.path", "1abc", "a..b", "a.class", ""])
def test_bad_aliases_are_refused(clean_imports, alias):
    with pytest.raises(ValueError, match="alias"):
        compat.install(aliases=[alias])
    assert importer.active_finder() is None


def test_install_refuses_when_the_module_is_already_imported(clean_imports, monkeypatch):
    fake = type(sys)("alfworld")
    fake.__file__ = "/somewhere/alfworld/__init__.py"
    monkeypatch.setitem(sys.modules, "alfworld", fake)
    with pytest.raises(RuntimeError, match="already imported .*/somewhere/alfworld"):
        compat.install()


def test_uninstall_restores_the_import_system(clean_imports):
    before = list(sys.meta_path)
    compat.install(aliases=[ALIAS])
    import alfworld.info  # noqa: F401
    assert importer.uninstall() is True
    ours = [f for f in sys.meta_path if isinstance(f, importer.AlfworldFinder)
            or getattr(f, importer.MARK, None) == "bootstrap"]
    assert ours == [] and all(f in sys.meta_path for f in before)  # (a library may add a finder of its own meanwhile)
    left = [m for m in sys.modules if m.split(".")[0] in ("alfworld", ALIAS.split(".")[0])]
    assert left == [], left
    with pytest.raises(ModuleNotFoundError):
        import alfworld  # noqa: F401
    assert importer.uninstall() is False


def test_importing_eai_gym_never_touches_the_import_system():
    """Only the explicit activation changes ``sys.meta_path`` (``import eai_gym`` registers the env ids, with no
    hook); the stand-in's package and the finder import nothing more (no engine, no lark), and ``sys.meta_path``
    appears in eai_gym/compat only in the finder's module."""
    out = run_python(sys.executable, """
        import sys
        before = list(sys.meta_path)
        import eai_gym
        loaded = set(sys.modules)
        import eai_gym.compat, eai_gym.compat.alfworld, eai_gym.compat.setup, eai_gym.compat.alfworld.importer
        new = set(sys.modules) - loaded
        heavy = sorted({m.split('.')[0] for m in new} & {'numpy', 'gymnasium', 'lark'})
        print(sys.meta_path == before, heavy, sorted(m for m in new if m.startswith('eai_gym.envs')))
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "[]", "[]"]
    users = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "eai_gym" / "compat").rglob("*.py")
                   if "meta_path" in p.read_text())
    assert users == ["eai_gym/compat/alfworld/importer.py"]


# -- the one-time setup (.pth) -------------------------------------------------------------------------------
def cli(python: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run_python(python, f"import sys; from eai_gym.cli import main; sys.exit(main({list(args)!r}))", env=env)


@pytest.fixture
def venv(tmp_path):
    """A fresh venv that sees this interpreter's packages (a path .pth), its python and its site-packages."""
    folder = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = str(folder / "bin" / "python")
    site = Path(run_python(python, "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (site / "_parent_env.pth").write_text("\n".join(p for p in sys.path if p and "site-packages" in p) + "\n")
    return python, site


def test_compat_install_reaches_subprocesses_spawn_children_and_uninstalls(venv, tmp_path):
    python, site = venv
    before = sorted(p.name for p in site.iterdir())
    out = cli(python, "compat", "install", "alfworld", "--alias", "some_client.bundled.alfworld")
    assert out.returncode == 0, out.stderr
    pth = site / "eai_gym_compat_alfworld.pth"
    assert str(pth) in out.stdout and sorted(p.name for p in site.iterdir()) == sorted(before + [pth.name])
    script = tmp_path / "spawn_probe.py"  # a file: spawn children re-import the main module by path
    script.write_text(textwrap.dedent("""
        import sys, importlib, multiprocessing as mp, subprocess
        assert 'numpy' not in sys.modules and 'eai_gym' not in sys.modules  # the .pth line imports nothing
        def probe(_):
            import alfworld.agents.environment
            return alfworld.agents.environment.get_environment('AlfredTWEnv').__module__
        if __name__ == '__main__':
            import alfworld
            importlib.reload(alfworld)
            with mp.get_context('spawn').Pool(1) as pool:
                print(pool.map(probe, [0])[0])
            print(subprocess.run([sys.executable, '-c', 'import alfworld.info as i; print(i.__version__)'],
                                 capture_output=True, text=True).stdout.strip())
    """))
    child = subprocess.run([python, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["eai_gym.compat.alfworld.tw_env", "0.4.2"]
    status = cli(python, "compat", "status")
    assert "installed" in status.stdout and "some_client.bundled.alfworld" in status.stdout
    out = cli(python, "compat", "uninstall", "alfworld")
    assert out.returncode == 0 and sorted(p.name for p in site.iterdir()) == before
    gone = run_python(python, "import alfworld")
    assert gone.returncode != 0 and "No module named 'alfworld'" in gone.stderr


def test_compat_install_refusals(tmp_path):
    target = tmp_path / "site"
    target.mkdir()
    real = tmp_path / "real"
    (real / "alfworld-0.4.2.dist-info").mkdir(parents=True)
    (real / "alfworld-0.4.2.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: alfworld\nVersion: 0.4.2\n")
    out = cli(sys.executable, "compat", "install", "alfworld", "--target", str(target), env={
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(real)])})
    assert out.returncode == 2 and "the real alfworld is installed" in out.stderr and "pip uninstall alfworld" in out.stderr
    assert list(target.iterdir()) == []
    foreign = target / "eai_gym_compat_alfworld.pth"
    foreign.write_text("import something_else\n")
    for args in (("install", "alfworld"), ("uninstall", "alfworld")):
        out = cli(sys.executable, "compat", *args, "--target", str(target))
        assert out.returncode == 2 and "not written by eai-gym" in out.stderr
    assert foreign.read_text() == "import something_else\n"
    foreign.unlink()
    out = cli(sys.executable, "compat", "install", "alfworld", "--alias", "os.path", "--target", str(target))
    assert out.returncode == 2 and "--alias" in out.stderr and list(target.iterdir()) == []
    out = cli(sys.executable, "compat", "install", "alfworld", "--target", str(target))
    assert out.returncode == 0 and "not a site-packages folder" in out.stdout
    assert json.loads(foreign.read_text().splitlines()[0][len(compat_setup.MARKER):])["aliases"] == []
    assert compat_setup.status(target)[0]["installed"] is True


def test_ray_workers_import_the_aliased_path(venv, tmp_path):
    """verl-agent's pattern: a Ray actor class defined in a module that imports the client's bundled alfworld
    path; every worker is a new interpreter, and the .pth makes the alias work there."""
    pytest.importorskip("ray")
    python, _ = venv
    pkg = tmp_path / "client" / "some_client"
    (pkg / "bundled").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "bundled" / "__init__.py").write_text("")
    # the shape of verl-agent's envs.py (vanzll/verl-agent d0b9724, agent_system/environments/env_package/alfworld/
    # envs.py, Apache-2.0): the import of the bundled copy at module top, and AlfworldWorker's two calls
    (pkg / "envs.py").write_text(textwrap.dedent("""
        from some_client.bundled.alfworld.agents.environment import get_environment

        class Worker:
            def __init__(self, seed, base_env):
                self.env = base_env.init_env(batch_size=1)
                self.env.seed(seed)

            def reset(self):
                return self.env.reset()
    """))
    assert cli(python, "compat", "install", "alfworld", "--alias", "some_client.bundled.alfworld").returncode == 0
    out = run_python(python, """
        import ray
        from some_client.envs import Worker, get_environment
        from eai_gym.compat.alfworld import default_config
        base = get_environment('AlfredTWEnv')(default_config(), train_eval='eval_out_of_distribution')
        ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            actor = ray.remote(num_cpus=0.1)(Worker).remote(3, base)
            obs, infos = ray.get(actor.reset.remote())
            local = Worker(3, base).reset()
            print(obs == local[0], infos['extra.gamefile'] == local[1]['extra.gamefile'])
        finally:
            ray.shutdown()
    """, cwd=tmp_path / "client", env={"PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path / "client")])},
                     timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split()[-2:] == ["True", "True"]

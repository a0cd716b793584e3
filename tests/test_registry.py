"""Every registered environment passes Gymnasium's checker with no warnings, is deterministic and pickles."""

from __future__ import annotations

import itertools
import pickle
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import eai_gym
from eai_gym import registry
from eai_gym.registration import GYMNASIUM_ENVS

IDS = sorted({e.id for w in registry.worlds() for e in w.envs if e.kind == "gymnasium"})
VARIANTS = [{}, {"action_mode": "index"}, {"protocol": "reference"}]
#: each env's reference variant (its name for the reference protocol; ALFWorld: the older text dialect)
REFERENCE_VARIANT = {"eai_gym/Rearrange-v0": {"protocol": "partnr"}, "eai_gym/AlfWorld-v0": {"dialect": "0.3"},
                     "eai_gym/Behavior1K-v0": {"protocol": "bddl-3.6.0"}}


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("kwargs", VARIANTS, ids=["text", "index", "reference"])
def test_check_env_no_warnings(env_id, kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if kwargs.get("protocol") == "reference":
            kwargs = REFERENCE_VARIANT.get(env_id, {"protocol": "eai-1.0.5"})
        env = gym.make(env_id, disable_env_checker=True, **kwargs)
        check_env(env.unwrapped)
        env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_make_with_module_prefix(env_id):
    env = gym.make(f"eai_gym:{env_id}")
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    env.close()


@pytest.mark.parametrize("env_id", IDS)
def test_seeded_determinism_and_pickle(env_id):
    a, b = gym.make(env_id), gym.make(env_id)
    oa, ia = a.reset(seed=123)
    ob, ib = b.reset(seed=123)
    assert oa == ob and ia == ib
    for act in ["[WALK] <bedroom> (67)", "nonsense", '{"FIND": ["bedroom", "67"]}']:
        ra, rb = a.step(act), b.step(act)
        assert ra[0] == rb[0] and ra[1:4] == rb[1:4] and ra[4] == rb[4]
    c = pickle.loads(pickle.dumps(a.unwrapped))
    assert c.step("[WALK] <bathroom> (1)")[0] == a.unwrapped.step("[WALK] <bathroom> (1)")[0]


def test_register_envs_is_idempotent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eai_gym.register_envs()


def test_the_registry_and_the_registered_ids_agree():
    assert sorted(GYMNASIUM_ENVS) == IDS and all(i in gym.registry for i in IDS)


def _fresh_python(code: str) -> str:
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {root!r}); {code}"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_command_line_imports_no_world_and_no_gymnasium():
    """The ``eai-gym`` console script (``eai_gym_command:main``) builds its parser from the registry alone."""
    printed = _fresh_python("import eai_gym_command, eai_gym.cli as c; c.build_parser().format_help(); "
                            "print(sorted(m for m in sys.modules if m.startswith(('gymnasium', 'pettingzoo', "
                            "'eai_gym.envs.', 'eai_gym.scoring'))))")
    names = eval(printed)
    assert names and all(n.endswith(".spec") or n.count(".") == 2 for n in names), names
    assert not any(n.startswith(("gymnasium", "pettingzoo", "eai_gym.scoring")) for n in names)


def test_the_console_script_is_the_light_module():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["eai-gym"] == f"{eai_gym.COMMAND_MODULE}:main"


#: every registered id, as (kind, id): gymnasium ids, and PettingZoo's parallel and AEC ids
ALL_IDS = sorted({(e.kind, e.id) for w in registry.worlds() for e in w.envs})
#: makes (and closes) every registered id
MAKE_EVERY_ID = ("import gymnasium, pettingzoo\n"
                 f"for kind, i in {ALL_IDS!r}:\n"
                 "    env = gymnasium.make(i) if kind == 'gymnasium' else pettingzoo.make(kind, i)\n"
                 "    env.close()\n"
                 f"print('made', {len(ALL_IDS)})")


#: every order of importing the three, and gymnasium's "module:id" form with nothing else imported
ORDERS = [*itertools.permutations(["eai_gym", "gymnasium", "pettingzoo"]), ("module prefix",)]


@pytest.mark.parametrize("order", ORDERS, ids=lambda order: "-".join(order))
def test_every_import_order_makes_every_id(order):
    if order == ("module prefix",):
        first = "import gymnasium\n" + "\n".join(f"gymnasium.make('eai_gym:{i}').close()" for i in IDS)
    else:
        first = "; ".join(f"import {m}" for m in order)
    out = _fresh_python(first + "\n" + MAKE_EVERY_ID)
    assert out.split() == ["made", str(len(ALL_IDS))]


def test_importing_the_package_installs_no_import_hook():
    out = _fresh_python("before = list(sys.meta_path); import eai_gym; print(sys.meta_path == before)")
    assert out.strip() == "True"


def test_the_command_registers_when_a_command_makes_an_env():
    """Through the console script nothing is registered at import; ``eai-gym play`` registers and plays."""
    out = _fresh_python("import eai_gym_command, gymnasium; assert 'eai_gym/VirtualHome-v0' not in gymnasium.registry; "
                        "import io; sys.stdin = io.StringIO('look\\n:quit\\n'); "
                        "code = eai_gym_command.main(['play', 'alfworld', '--task', '0']); "
                        "print('exit', code, 'eai_gym/AlfWorld-v0' in gymnasium.registry)")
    assert out.split()[-3:] == ["exit", "0", "True"], out

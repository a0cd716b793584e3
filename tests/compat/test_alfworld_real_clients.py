"""The real ALFWorld clients' own code, unedited, on eai-gym's stand-in, run the way their users run them (each in
a fresh interpreter of an environment set up with ``eai-gym compat install alfworld``).

The clients are read from git mirrors (``$EAI_GYM_CLIENT_MIRRORS/<owner>+<repo>/repo``, default ``/work/.mirror``)
at the commits named below; a test skips when its client is absent. The model is scripted: it answers the
expert's next command (:class:`eai_gym.envs.alfworld.expert.Expert`), so every episode is won.

- Reflexion (noahshinn/reflexion 218cf0e, MIT): ``alfworld_runs/alfworld_trial.run_trial``, two trials
  (``importlib.reload(alfworld)`` before each), its ``llm`` replaced by the scripted model.
- ReAct (ysymyth/ReAct 6bdb3a1, MIT): the code cells of ``alfworld.ipynb`` after the first (which calls OpenAI).
- AgentBench (THUDM/AgentBench 578c5e9, Apache-2.0): ``src/server/tasks/alfworld/environment.py``'s
  ``AlfworldEnvWrapper``, one env per game.
- verl-agent (vanzll/verl-agent d0b9724, Apache-2.0): ``agent_system.environments.make_envs`` (Ray
  ``AlfworldWorker`` actors importing the bundled alfworld path, mapped with ``--alias``), the env manager's
  prompts and projection, actions taken from ``extra.expert_plan`` (train split, DAgger). Needs torch,
  torchvision, ray and omegaconf: the interpreter ``$EAI_GYM_CLIENT_PYTHON`` (or this one, if it has them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIRRORS = Path(os.environ.get("EAI_GYM_CLIENT_MIRRORS", "/work/.mirror"))
ALIAS = "agent_system.environments.env_package.alfworld.alfworld"

#: the scripted model: the expert's next command for the game the last reset batch env plays
SCRIPTED_MODEL = """
from eai_gym.compat.alfworld.batch_env import AlfredBatchEnv
ENVS = []
_reset = AlfredBatchEnv.reset
def _recording_reset(self):
    ENVS.append(self)
    return _reset(self)
AlfredBatchEnv.reset = _recording_reset
def scripted_model(*args, **kwargs):
    run = ENVS[-1].runs[0]
    return run.expert.next_command(run.state) or "look"
"""


def checkout(tmp_path: Path, repo: str, commit: str, *paths: str) -> Path:
    git_dir = MIRRORS / repo.replace("/", "+") / "repo"
    if not git_dir.is_dir():
        pytest.skip(f"no mirror of {repo} under {MIRRORS}")
    out = tmp_path / repo.replace("/", "+")
    out.mkdir()
    archive = subprocess.run(["git", f"--git-dir={git_dir}", "archive", commit, *paths], capture_output=True, timeout=120)
    if archive.returncode != 0:
        pytest.skip(f"{repo} {commit} is not in the mirror: {archive.stderr.decode()[-200:]}")
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True, timeout=120)
    return out


def environment(tmp_path: Path, base_python: str, aliases: tuple[str, ...] = ()) -> str:
    """A fresh venv seeing ``base_python``'s packages, set up with ``eai-gym compat install alfworld``."""
    folder = tmp_path / "venv"
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = str(folder / "bin" / "python")
    paths = subprocess.run([base_python, "-c", "import sys; print('\\n'.join(p for p in sys.path if 'site-packages' in p))"],
                           capture_output=True, text=True, check=True).stdout
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "_parent_env.pth").write_text(paths)
    args = [a for alias in aliases for a in ("--alias", alias)]
    out = subprocess.run([python, "-m", "eai_gym.cli", "compat", "install", "alfworld", *args], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert out.returncode == 0, out.stderr
    return python


def run_driver(python: str, code: str, cwd: Path, timeout: int = 1200) -> dict:
    script = cwd / "eai_gym_driver.py"
    script.write_text(textwrap.dedent(code))
    out = subprocess.run([python, str(script)], capture_output=True, text=True, cwd=cwd, timeout=timeout,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(cwd)]),
                              "OPENAI_API_KEY": "unused-by-the-scripted-model"})
    assert out.returncode == 0, out.stderr[-4000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_reflexion_alfworld_trial(tmp_path):
    pytest.importorskip("yaml")
    pytest.importorskip("tenacity")
    pytest.importorskip("openai")
    repo = checkout(tmp_path, "noahshinn/reflexion", "218cf0e", "alfworld_runs")
    python = environment(tmp_path, sys.executable)
    result = run_driver(python, SCRIPTED_MODEL + """
import json, os
import alfworld_trial
alfworld_trial.llm = scripted_model
configs = [{"name": f"env_{i}", "memory": [], "is_success": False, "skip": False} for i in range(134)]
for trial in range(2):
    configs = alfworld_trial.run_trial("trial.log", "world.log", trial, configs, False, "gpt-4")
print(json.dumps({"won": sum(c["is_success"] for c in configs), "games": len(configs),
                  "envs": len({id(e) for e in ENVS}), "resets": len(ENVS)}))
""", repo / "alfworld_runs")
    assert result["won"] == result["games"] == 134
    assert result["envs"] == 2 and result["resets"] == 2 * 134  # an env per trial, made after importlib.reload


def test_react_notebook(tmp_path):
    pytest.importorskip("yaml")
    repo = checkout(tmp_path, "ysymyth/ReAct", "6bdb3a1", "alfworld.ipynb", "base_config.yaml", "prompts")
    python = environment(tmp_path, sys.executable)
    result = run_driver(python, SCRIPTED_MODEL + """
import contextlib, io, json
cells = [''.join(c["source"]) for c in json.load(open("alfworld.ipynb"))["cells"] if c["cell_type"] == "code"]
namespace = {"llm": scripted_model}
with contextlib.redirect_stdout(io.StringIO()):
    for cell in cells[1:]:  # cell 0 defines llm with OpenAI's API
        exec(cell, namespace)
print(json.dumps({"rs": namespace["rs"], "cnts": namespace["cnts"]}))
""", repo)
    assert sum(result["cnts"]) == 134 and result["rs"] == result["cnts"]


def test_agentbench_environment(tmp_path):
    yaml = pytest.importorskip("yaml")
    repo = checkout(tmp_path, "THUDM/AgentBench", "578c5e9", "src/server/tasks/alfworld/environment.py",
                    "src/server/tasks/alfworld/configs/base_config.yaml")
    python = environment(tmp_path, sys.executable)
    assert yaml
    result = run_driver(python, SCRIPTED_MODEL + """
import importlib.util, json, yaml
from eai_gym.compat.alfworld import shipped_paths
spec = importlib.util.spec_from_file_location("agentbench_alfworld_env", "src/server/tasks/alfworld/environment.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
config = yaml.safe_load(open("src/server/tasks/alfworld/configs/base_config.yaml"))
wrapper = module.AlfworldEnvWrapper(config)
won = 0
for game in shipped_paths("eval_out_of_distribution"):
    env = wrapper.create_env(game)
    ob, info = wrapper.reset_env(env)
    for _ in range(35):
        ob, reward, done, info = wrapper.step_env(env, scripted_model())
        if done[0]:
            won += int(info["won"][0])
            break
    wrapper.close_env(env)
print(json.dumps({"won": won}))
""", repo)
    assert result["won"] == 134


def client_python() -> str:
    python = os.environ.get("EAI_GYM_CLIENT_PYTHON", sys.executable)
    probe = subprocess.run([python, "-c", "import torch, torchvision, ray, omegaconf, yaml"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"{python} lacks torch/torchvision/ray/omegaconf (verl-agent's env side); set EAI_GYM_CLIENT_PYTHON")
    return python


def test_verl_agent_make_envs_with_ray_workers(tmp_path):
    base = client_python()
    repo = checkout(tmp_path, "vanzll/verl-agent", "d0b9724", "agent_system/environments/__init__.py",
                    "agent_system/environments/base.py", "agent_system/environments/env_manager.py",
                    "agent_system/environments/prompts", "agent_system/environments/env_package/alfworld",
                    "agent_system/memory")
    python = environment(tmp_path, base, aliases=(ALIAS,))
    result = run_driver(python, VERL_AGENT_DRIVER, repo, timeout=1800)
    assert result["train_won"] == result["train_envs"] == 8 and result["val_envs"] == 2
    assert result["val_steps_ok"]


VERL_AGENT_DRIVER = """
import json, ray
from omegaconf import OmegaConf
from agent_system.environments import make_envs

ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
config = OmegaConf.create({
    "env": {"env_name": "alfworld/AlfredTWEnv", "seed": 0, "history_length": 2, "max_steps": 50,
            "rollout": {"n": 2}, "resources_per_worker": {"num_cpus": 0.1},
            "alfworld": {"eval_dataset": "eval_out_of_distribution"}},
    "data": {"train_batch_size": 4, "val_batch_size": 2}})
envs, val_envs = make_envs(config)
observations, infos = envs.reset({})
won = [False] * len(infos)
for _ in range(50):
    actions = [f"<think>the expert's next command</think><action>{info['extra.expert_plan'][0]}</action>"
               for info in infos]
    observations, rewards, dones, infos = envs.step(actions)
    won = [w or bool(info["won"]) for w, info in zip(won, infos)]
    if all(dones):
        break
val_obs, val_infos = val_envs.reset({})
val_obs, _, _, val_infos = val_envs.step(["<think>look</think><action>look</action>"] * len(val_infos))
ok = all("extra.expert_plan" not in i and i["admissible_commands"] for i in val_infos) and len(val_obs["text"]) == 2
envs.envs.close(); val_envs.envs.close(); ray.shutdown()
print(json.dumps({"train_envs": len(won), "train_won": sum(won), "val_envs": len(val_infos), "val_steps_ok": ok,
                  "prompt_example": observations["text"][0][:200]}))
"""

"""verifiers 0.4's OpenEnv bridge (``verifiers.v1.tasksets.openenv``, run by its own ``vf-eval``) playing ALFWorld
against ``eai-gym serve alfworld --protocol openenv``, with eai-gym's fake model server (it streams when asked, as
verifiers' harness asks) answering each task's gold plan. verifiers pins mcp 2 while OpenEnv 0.10's fastmcp needs
mcp < 2, so it lives in a venv of its own: the test runs ``vf-eval`` from ``$EAI_GYM_VERIFIERS_VENV/bin`` (else from
``PATH``) and skips when there is none."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("openenv")

from eai_gym.evaluate.fake_server import FakeChatServer  # noqa: E402
from eai_gym.openenv.episode import EpisodeConfig  # noqa: E402
from eai_gym.openenv.gold import gold_reply  # noqa: E402
from eai_gym.openenv.server import build_app, running  # noqa: E402

VENV_BIN = Path(os.environ["EAI_GYM_VERIFIERS_VENV"]) / "bin" if os.environ.get("EAI_GYM_VERIFIERS_VENV") else None
VF_EVAL = str(VENV_BIN / "vf-eval") if VENV_BIN and (VENV_BIN / "vf-eval").exists() else shutil.which("vf-eval")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "verifiers" / "alfworld_openenv.toml"

pytestmark = pytest.mark.skipif(VF_EVAL is None, reason="verifiers' vf-eval is not installed (EAI_GYM_VERIFIERS_VENV)")


def config_for(example: str, model_url: str, env_url: str) -> str:
    """The documented example config, pointed at this test's servers, with the second reset rewarded with progress
    and a third reset cut off after one step."""
    text = example.replace('"http://127.0.0.1:8001/v1"', json.dumps(model_url))
    text = text.replace('"http://127.0.0.1:8000"', json.dumps(env_url))
    text = text.replace('model = "your-model"', 'model = "fake-model"')
    text = text.replace('api_key_var = "OPENAI_API_KEY"', 'api_key_var = "EAI_GYM_FAKE_KEY"')
    text = text.replace('resets = [{task = "0"}, {task = "1"}, {seed = 7}]',
                        'resets = [{task = "0"}, {task = "1", reward = "progress"}, {task = "2", max_steps = 1}]')
    assert text.count("127.0.0.1") == 2 and "max_steps = 1" in text, "the example config changed shape"
    return text


def test_verifiers_plays_alfworld_through_its_openenv_bridge(tmp_path):
    with FakeChatServer(gold_reply) as model, \
            running(build_app(EpisodeConfig("alfworld"), max_sessions=8, idle_timeout=0)) as env_url:
        (tmp_path / "eval.toml").write_text(config_for(EXAMPLE.read_text(), model.base_url, env_url))
        env = {**os.environ, "EAI_GYM_FAKE_KEY": "x",
               "PATH": os.pathsep.join([str(Path(VF_EVAL).parent), os.environ.get("PATH", "")])}
        out = subprocess.run([VF_EVAL, "@", "eval.toml", "--no-rich"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    traces = [json.loads(line) for f in (tmp_path / "outputs").glob("*/traces.jsonl") for line in f.open()]
    scores = {t["task"]["data"]["idx"]: t["traces"][0]["rewards"]["openenv_reward"]["score"] for t in traces}
    assert all(t["ok"] and not t["errors"] for t in traces), [t["errors"] for t in traces]
    # the gold plans win: success sums to 1, and so does progress (ALFWorld's games start at progress 0); the
    # episode cut off after one step ends with 0
    assert scores == {0: 1.0, 1: 1.0, 2: 0.0}

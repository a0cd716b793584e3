"""OpenEnv (which imports gradio: seconds) stays out of ``import eai_gym``, ``eai-gym --help`` and the serve
command's own ``--help``."""

from __future__ import annotations

import subprocess
import sys

import pytest

PROBE = """
import sys
{code}
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('openenv', 'gradio', 'fastmcp'))
print(heavy)
"""


@pytest.mark.parametrize("code", [
    "import eai_gym",
    "import eai_gym.openenv, eai_gym.openenv.episode",
    "from eai_gym.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
    "from eai_gym.cli import main\ntry:\n    main(['serve', 'alfworld', '--protocol', 'openenv', '--help'])\n"
    "except SystemExit:\n    pass",
], ids=["import", "adapter", "help", "serve-help"])
def test_openenv_is_not_imported(code):
    out = subprocess.run([sys.executable, "-c", PROBE.format(code=code)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_the_rl_package_and_what_it_shares_with_the_adapter_import_no_openenv():
    code = ("import sys\nimport eai_gym.rl, eai_gym.rl.split_play, eai_gym.rl.episode, eai_gym.rl.trl, "
            "eai_gym.rl.datasets\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openenv', 'gradio', 'fastmcp')"
            " or m.startswith('eai_gym.openenv')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"

"""What starting the command line costs: ``python -X importtime -c "import eai_gym_command"`` (cumulative import
time of the ``eai-gym`` console script's module) and the wall time of ``eai-gym --help`` run the way the console
script runs it, median of ``--repeat`` runs. For a ``--root`` tree from before the console script had its own
module, ``eai_gym.cli`` (then the console script's module) is measured instead.

    python benchmarks/bench_cli_startup.py [--repeat 7] [--root SOURCE_TREE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def measure(root: Path, repeat: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    module = "eai_gym_command" if (root / "eai_gym_command.py").exists() else "eai_gym.cli"
    imports, walls, bare = [], [], []
    for _ in range(repeat):
        p = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"], cwd=root, env=env,
                           capture_output=True, text=True, check=True)
        last = [line for line in p.stderr.splitlines() if line.rstrip().endswith(f"| {module}")][-1]
        imports.append(int(last.split("|")[1]) / 1000)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import sys; from {module} import main; sys.exit(main())", "--help"],
                       cwd=root, env=env, capture_output=True, check=True)
        walls.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append((time.perf_counter() - t) * 1000)
    return {"import_command_module_ms": statistics.median(imports), "help_wall_ms": statistics.median(walls),
            "bare_python_ms": statistics.median(bare)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = ap.parse_args()
    for k, v in measure(args.root.resolve(), args.repeat).items():
        print(f"{k}: {v:.0f}")


if __name__ == "__main__":
    main()

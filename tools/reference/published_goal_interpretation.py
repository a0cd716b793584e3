#!/usr/bin/env python
"""Extract the EAI paper's published goal-interpretation outputs (15 models, VirtualHome).

Source: ``virtualhome-eval==0.1.1`` on PyPI (MIT licence), folder
``virtualhome_eval/llm_response/goal_interpretation/`` — one ``<model>_outputs.json`` per model, a list
of 342 ``{"identifier", "llm_output"}`` items. (The wheel's ``llm_response/`` also holds subgoal
decomposition, action sequencing and transition modeling outputs; there are no BEHAVIOR
goal-interpretation outputs in it.) The wheel is read as data; none of its code is run.

* ``--out-dir DIR``: writes the 15 files unchanged into DIR (for ``tools/reference/goal_interpretation.py``
  and ``benchmarks/``);
* ``--test-data PATH``: writes them, with provenance, as one gzip JSON
  ``{"source", "wheel", "sha256", "license", "models": {model: items}}`` (default
  ``tests/reference/data/goal_interpretation/published_virtualhome_inputs.json.gz``).

Usage: python -m tools.reference.published_goal_interpretation [--wheel PATH] [--out-dir DIR] [--test-data [PATH]]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zipfile

from tools.common import REFERENCE_DATA

VERSION = "0.1.1"
FOLDER = "virtualhome_eval/llm_response/goal_interpretation/"
TEST_DATA = os.path.join(REFERENCE_DATA, "goal_interpretation",
                         "published_virtualhome_inputs.json.gz")


def fetch_wheel(dest: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", f"virtualhome-eval=={VERSION}",
                    "-d", dest, "-q"], check=True)
    return next(os.path.join(dest, f) for f in os.listdir(dest) if f.endswith(".whl"))


def read_models(wheel: str, folder: str = FOLDER) -> dict[str, list]:
    """``{model name: items}`` of one ``llm_response/<module>/`` folder of the wheel, in model-name order."""
    out = {}
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if name.startswith(folder) and name.endswith("_outputs.json"):
                out[name[len(folder):-len("_outputs.json")]] = json.loads(z.read(name))
    if len(out) != 15:
        raise ValueError(f"expected 15 model files in {folder} of {wheel}, found {len(out)}")
    return out


def provenance(wheel: str, folder: str = FOLDER) -> dict[str, str]:
    """Where the outputs come from: the wheel's name, sha256 and the first line of its licence."""
    with zipfile.ZipFile(wheel) as z:
        licence = z.read(f"virtualhome_eval-{VERSION}.dist-info/LICENSE").decode().splitlines()[0]
    return {"source": f"virtualhome-eval=={VERSION} (PyPI), {folder}", "wheel": os.path.basename(wheel),
            "sha256": hashlib.sha256(open(wheel, "rb").read()).hexdigest(), "license": licence}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel", help="virtualhome_eval-0.1.1-py3-none-any.whl (downloaded when omitted)")
    ap.add_argument("--out-dir")
    ap.add_argument("--test-data", nargs="?", const=TEST_DATA)
    args = ap.parse_args(argv)
    wheel = args.wheel or fetch_wheel(tempfile.mkdtemp(prefix="vh_eval_"))
    models = read_models(wheel)
    if args.out_dir:
        os.makedirs(args.out_dir, exist_ok=True)
        for name, items in models.items():
            with open(os.path.join(args.out_dir, f"{name}_outputs.json"), "w") as f:
                json.dump(items, f)
    if args.test_data:
        doc = {**provenance(wheel), "models": models}
        os.makedirs(os.path.dirname(os.path.abspath(args.test_data)), exist_ok=True)
        with open(args.test_data, "wb") as f:
            f.write(gzip.compress(json.dumps(doc, sort_keys=True).encode(), 9, mtime=0))
    print(f"{len(models)} models, {sum(len(v) for v in models.values())} items", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

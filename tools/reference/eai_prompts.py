#!/usr/bin/env python
"""Run eai-eval 1.0.5's VirtualHome prompt generator and store its output as test reference data.

Run with the Python of a reference venv (``bash ../shared/reference/harness/setup-virtualhome.sh VENV``):

    VENV/bin/python -m tools.reference.eai_prompts [--seed 0] [--out tests/reference/data/prompts]

For each module, a fresh subprocess with ``PYTHONHASHSEED=<seed>`` calls
``virtualhome_eval.agent_eval.agent_evaluation(mode="generate_prompts", eval_type=MODULE,
dataset="virtualhome", output_dir=TMP)`` and the ``helm_prompt.json`` it writes is stored as
``virtualhome_<MODULE>.json.gz`` (seed 0) or ``virtualhome_<MODULE>.seed<SEED>.json.gz``. The BEHAVIOR
references are the files eai-eval 1.0.5 ships; they are copied by ``python -m tools.convert.eai_prompts
--reference``. ``--behavior-check`` runs eai-eval 1.0.5's BEHAVIOR goal-interpretation generator (it needs no
iGibson) and checks its output equals the stored ``behavior_goal_interpretation.json.gz``. Nothing of the
reference is copied into eai-gym's package; these files are test data.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

MODULES = ("goal_interpretation", "action_sequencing", "subgoal_decomposition", "transition_modeling")
RUN = ("import sys; from virtualhome_eval.agent_eval import agent_evaluation; "
       "agent_evaluation(mode='generate_prompts', eval_type=sys.argv[1], dataset='virtualhome', "
       "output_dir=sys.argv[2])")


def generate(module: str, seed: int, python: str = sys.executable) -> tuple[list[dict], float]:
    """The generator's prompts for ``module`` under ``PYTHONHASHSEED=seed`` and the wall time it took."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        t0 = time.perf_counter()
        subprocess.run([python, "-c", RUN, module, tmp], env=env, cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - t0
        path = os.path.join(tmp, "virtualhome", "generate_prompts", module, "helm_prompt.json")
        with open(path, encoding="utf-8") as f:
            return json.load(f), seconds


BEHAVIOR_GI = ("import sys; from behavior_eval.evaluation.goal_interpretation.scripts.generate_prompts "
               "import generate_prompts; generate_prompts(sys.argv[1])")


def behavior_check(out: str, python: str = sys.executable) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([python, "-c", BEHAVIOR_GI, tmp], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "goal_interpretation_prompts.json"), encoding="utf-8") as f:
            generated = json.load(f)
    with gzip.open(os.path.join(out, "behavior_goal_interpretation.json.gz")) as f:
        stored = json.load(f)
    same = sum(a == b for a, b in zip(generated, stored))
    print(f"BEHAVIOR goal_interpretation: generator {len(generated)} prompts, {same} equal to the stored "
          f"{len(stored)}")


def compare(seed0_dir: str, other_dir: str, seed: int) -> None:
    """How many prompts of each module differ between the seed-0 files and the seed-``seed`` files."""
    for module in MODULES:
        paths = (os.path.join(seed0_dir, f"virtualhome_{module}.json.gz"),
                 os.path.join(other_dir, f"virtualhome_{module}.seed{seed}.json.gz"))
        if not all(os.path.exists(p) for p in paths):
            continue
        a, b = (json.load(gzip.open(p)) for p in paths)
        differ = sum(x != y for x, y in zip(a, b))
        print(f"{module}: {differ} of {len(a)} prompts differ between PYTHONHASHSEED=0 and {seed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="tests/reference/data/prompts")
    ap.add_argument("--modules", nargs="*", default=list(MODULES))
    ap.add_argument("--behavior-check", action="store_true", help="only run the BEHAVIOR check")
    ap.add_argument("--compare", metavar="DIR", help="only compare DIR's seed-SEED files with --out's seed-0 files")
    args = ap.parse_args()
    if args.compare:
        compare(args.out, args.compare, args.seed)
        return
    if args.behavior_check:
        behavior_check(args.out)
        return
    os.makedirs(args.out, exist_ok=True)
    suffix = "" if args.seed == 0 else f".seed{args.seed}"
    for module in args.modules:
        prompts, seconds = generate(module, args.seed)
        path = os.path.join(args.out, f"virtualhome_{module}{suffix}.json.gz")
        with gzip.GzipFile(path, "wb", mtime=0) as f:
            f.write(json.dumps(prompts, ensure_ascii=False).encode("utf-8"))
        print(f"{module}: {len(prompts)} prompts in {seconds:.1f} s -> {path}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""eai-eval 1.0.5 and eai-gym on the EAI paper's published action-sequencing and subgoal-decomposition outputs.

The outputs: ``virtualhome-eval==0.1.1`` (PyPI, MIT), folders ``virtualhome_eval/llm_response/action_sequence/``
(342 items per model, the older ``{"WALK": ["sofa"], ...}`` format without object ids) and
``.../subgoal_decomposition/`` (338 per model), 15 models each, VirtualHome only (the wheel holds no BEHAVIOR
outputs of these modules). Read as data with ``tools/reference/published_goal_interpretation.py``'s helpers.

* ``inputs [--wheel PATH]``: writes ``tests/reference/data/published_plans/inputs.json.gz`` =
  ``{"source", "wheel", "sha256", "license", "modules": {module: {model: items}}}`` (items unchanged);
* ``run MODULE OUT_DIR --python REF_PY [--kit DIR] [--models M ...] [--items A:B] [--reverse]``: runs the reference
  kit's harness (``harness/virtualhome/ref_vh_eval.py``: eai-eval 1.0.5 imported from the venv of ``REF_PY``,
  unmodified, ``PYTHONHASHSEED=0``; subgoal decomposition with one worker and ``random.seed(0)`` before the run)
  on every model (or on ``items[A:B]`` of each), one process at a time under ``nice``, writing ``OUT_DIR/<model>.json``
  (``<model>.items<A>-<B>.json``) and skipping the files that exist;
* ``pack MODULE OUT_DIR``: adds those files to ``tests/reference/data/published_plans/reference_<module>.json.gz``
  = ``{"reference", "harness", "models": {model: {"summary", "summary_exception", "counters", "items"}},
  "subsets": {"<model>.items<A>-<B>": {... "model", "start", "stop"}}}`` (stored runs of other names are kept),
  per item the fields the tests compare (action sequencing: the harness's status, error type, executable,
  success, goal counts, runtime errors and counter contributions; subgoal decomposition: category, success, goal
  counts, error types of the branches run, actions of a correct plan; see ``tests/reference/virtualhome_compare.py``);
* ``legacy MODEL OUT --python REF_PY --package-dir DIR``: virtualhome-eval 0.1.1's own action-sequence evaluator,
  which reads the name-only format, on one model (see docs/reproduce.md);
* ``mutants OUT_DIR --python REF_PY`` / ``pack-mutants OUT_DIR``: the harness on published subgoal replies
  rewritten by the rules of ``tools.reference.published_subgoal_mutants.MUTANTS`` (a missing step that names no
  missing precondition), stored in ``reference_subgoal_mutants.json.gz``;
* ``compare [--module M] [--models M ...]``: scores every model with eai-gym ``protocol="eai-1.0.5"`` and prints,
  per stored run, whether its summary and every item agree with the stored reference, then "N of M runs agree"
  (and, without ``--models``, the same for the mutant batches).
"""

from __future__ import annotations

import argparse
import sys

from tools.common import KIT
from tools.reference.published_runs import FOLDERS, compare_module, pack, run, run_legacy, write_inputs
from tools.reference.published_subgoal_mutants import compare_mutants, pack_mutants, run_mutants


def compare(modules: list[str], models: list[str] | None) -> int:
    """Prints one line per model and per subset run (and, for subgoal decomposition without ``models``, per mutant
    batch); returns 1 if anything differs."""
    failures = 0
    for module in modules:
        failures += compare_module(module, models)
        if module == "subgoal_decomposition" and not models:
            failures += compare_mutants()
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("inputs")
    a.add_argument("--wheel")
    r = sub.add_parser("run")
    r.add_argument("module", choices=sorted(FOLDERS))
    r.add_argument("out_dir")
    r.add_argument("--python", required=True, help="the Python of a venv with eai-eval 1.0.5")
    r.add_argument("--kit", default=str(KIT))
    r.add_argument("--models", nargs="*")
    r.add_argument("--items", help="START:STOP, a slice of each model's items")
    r.add_argument("--reverse", action="store_true", help="models in reverse name order")
    lg = sub.add_parser("legacy", help="virtualhome-eval 0.1.1's action-sequence evaluator on one model")
    lg.add_argument("model")
    lg.add_argument("out")
    lg.add_argument("--python", required=True, help="the Python of the eai-eval 1.0.5 venv")
    lg.add_argument("--package-dir", required=True, help="the unpacked virtualhome_eval-0.1.1 wheel")
    p = sub.add_parser("pack")
    p.add_argument("module", choices=sorted(FOLDERS))
    p.add_argument("out_dir")
    mu = sub.add_parser("mutants", help="the reference on rewritten subgoal replies "
                                        "(see tools/reference/published_subgoal_mutants.py)")
    mu.add_argument("out_dir")
    mu.add_argument("--python", required=True, help="the Python of a venv with eai-eval 1.0.5")
    mu.add_argument("--kit", default=str(KIT))
    pm = sub.add_parser("pack-mutants")
    pm.add_argument("out_dir")
    c = sub.add_parser("compare")
    c.add_argument("--module", choices=sorted(FOLDERS))
    c.add_argument("--models", nargs="*")
    args = ap.parse_args(argv)
    if args.cmd == "inputs":
        write_inputs(args.wheel)
    elif args.cmd == "run":
        span = tuple(int(x) for x in args.items.split(":")) if args.items else None
        run(args.module, args.out_dir, args.python, args.kit, args.models, span, args.reverse)
    elif args.cmd == "legacy":
        run_legacy(args.model, args.out, args.python, args.package_dir)
    elif args.cmd == "mutants":
        run_mutants(args.out_dir, args.python, args.kit)
    elif args.cmd == "pack-mutants":
        pack_mutants(args.out_dir)
    elif args.cmd == "pack":
        pack(args.module, args.out_dir)
    else:
        return compare([args.module] if args.module else sorted(FOLDERS), args.models)
    return 0


if __name__ == "__main__":
    sys.exit(main())

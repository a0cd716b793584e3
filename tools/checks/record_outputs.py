"""Record what ``eai-gym score`` writes for every packaged gold run and every recorded reference input, to
compare two trees of the package: a refactoring must leave every file the same.

    python -m tools.checks.record_outputs record OUT_DIR [--only SUBSTRING] [--skip-slow]
    python -m tools.checks.record_outputs compare BEFORE_DIR AFTER_DIR

``record`` runs the command line in this process (``eai_gym.cli.main``; the tree is this checkout, or the one
``--tree TREE`` names) once per case and keeps each results file, minus what depends on the run and
not on the scoring (``source`` paths and wall times), as ``OUT_DIR/<case>.json``; ``OUT_DIR/index.json`` maps
each case to the sha256 of its file. ``compare`` prints the cases whose files differ (or exist on one side only)
and exits 1 if any differs or failed (a case recorded on one side only is listed, not an error: e.g.
``--skip-slow`` on one side).

The cases: every mode with packaged gold, in every protocol (and the option values that change its scoring);
the inputs of ``tests/reference/data`` (VirtualHome and BEHAVIOR action sequencing and subgoal decomposition,
the published EAI plans of every model, goal-interpretation inputs, transition-modeling outputs, PARTNR's cases)
in every protocol of their mode.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import io
import json
import os
import sys
import tempfile
import time
from typing import Any, Iterator

from tools.common import REFERENCE_DATA, ROOT, add_import_path

DATA = str(REFERENCE_DATA)
#: results-file fields that describe the run rather than the scores
VOLATILE = ("source", "plans", "elapsed_s", "wall_s", "scored_in_s", "seconds")


def _load(rel: str) -> Any:
    path = os.path.join(DATA, rel)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _strip(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


def cases(skip_slow: bool) -> Iterator[tuple[str, list[str], Any]]:
    """``(name, argv after 'score WORLD', input items or None)`` for every case."""
    from eai_gym import registry

    eai_protocols = ("fixed", "eai-1.0.5")
    for w in registry.worlds():
        for m in w.modes:
            if m.gold is None:
                continue
            variants: list[list[str]] = [[]]
            if m.option("initial_state"):
                variants = [[], ["--initial-state", "reference-defaults"]]
            if m.option("gold_shortcut"):
                variants = [[], ["--gold-shortcut", "on"], ["--gold-shortcut", "off"]]
            if m.option("planner"):
                if skip_slow:
                    continue
                variants = [["--planner", "none"], ["--planner", "builtin"]]
            for protocol in m.protocols:
                for v in variants:
                    tail = "".join("_" + x.lstrip("-") for x in v)
                    yield f"gold_{w.name}_{m.name}_{protocol}{tail}", [w.name, "--gold", "--mode", m.name,
                                                                     "--protocol", protocol, *v], None
    vh = {
        "vh_gold": _load("virtualhome/gold_inputs.json"),
        "vh_perturbed": _load("virtualhome/perturbed_inputs.json"),
        "vh_quirks": _load("virtualhome/quirk_inputs.json"),
        "vh_quirk_greet": _load("virtualhome/quirk_greet_crash_input.json"),
        "vh_quirk_lower": _load("virtualhome/quirk_lowercase_crash_input.json"),
        "vh_quirk_putobjback": _load("virtualhome/quirk_putobjback_crash_input.json"),
    }
    published = _load("published_plans/inputs.json.gz")["modules"]
    for name, items in vh.items():
        for p in eai_protocols:
            yield f"{name}_action_sequencing_{p}", ["virtualhome", "--mode", "action_sequencing", "--protocol", p], items
            yield f"{name}_similarity_{p}", ["virtualhome", "--mode", "similarity", "--protocol", p], items
    for model, items in published["action_sequencing"].items():
        for p in eai_protocols:
            yield f"vh_published_{model}_action_sequencing_{p}", ["virtualhome", "--mode", "action_sequencing",
                                                                "--protocol", p], items
    for rel in ("virtualhome/subgoal_goal_and_split_inputs.json", "virtualhome/subgoal_goal_then_split_inputs.json",
                "virtualhome/subgoal_perturbed_inputs.json"):
        for p in eai_protocols:
            yield f"vh_{os.path.basename(rel)[:-5]}_{p}", ["virtualhome", "--mode", "subgoal_decomposition",
                                                          "--protocol", p], _load(rel)
    for model, items in published["subgoal_decomposition"].items():
        for p in eai_protocols:
            yield f"vh_published_{model}_subgoal_{p}", ["virtualhome", "--mode", "subgoal_decomposition",
                                                       "--protocol", p], items
    for model, items in _load("goal_interpretation/published_virtualhome_inputs.json.gz")["models"].items():
        for p in eai_protocols:
            yield f"vh_published_{model}_goal_interpretation_{p}", ["virtualhome", "--mode", "goal_interpretation",
                                                                   "--protocol", p], items
    generated = _load("goal_interpretation/generated_inputs.json.gz")
    for world in ("virtualhome", "behavior"):
        for name, items in generated[world].items():
            for p in eai_protocols:
                yield f"{world}_generated_{name}_goal_interpretation_{p}", [world, "--mode", "goal_interpretation",
                                                                           "--protocol", p], items
    for rel in ("behavior/gold.json", "behavior/pert_drop.json", "behavior/pert_duplicate.json",
                "behavior/pert_nonexistent_object.json", "behavior/pert_swap.json", "behavior/pert_syntax.json",
                "behavior/pert_wrong_hand.json"):
        items = _load(rel)["inputs"]
        for p in eai_protocols:
            for init in ("calibrated", "reference-defaults"):
                yield f"beh_{os.path.basename(rel)[:-5]}_action_sequencing_{p}_{init}", [
                    "behavior", "--mode", "action_sequencing", "--protocol", p, "--initial-state", init], items
            yield f"beh_{os.path.basename(rel)[:-5]}_similarity_{p}", ["behavior", "--mode", "similarity",
                                                                      "--protocol", p], items
    for rel in ("behavior/subgoal_goal_conditions.json", "behavior/subgoal_goal_with_prerequisites.json",
                "behavior/subgoal_gold_actions.json", "behavior/subgoal_perturbed_a.json",
                "behavior/subgoal_perturbed_b.json", "behavior/subgoal_quirks.json"):
        items = _load(rel)["inputs"]
        for p in eai_protocols:
            yield f"beh_{os.path.basename(rel)[:-5]}_{p}", ["behavior", "--mode", "subgoal_decomposition",
                                                           "--protocol", p, "--initial-state", "reference-defaults"], items
    b1k = _load("behavior1k/goal_interpretation_cases.json.gz")["files"]
    for name, items in b1k.items():
        for p in eai_protocols:
            yield f"b1k_{name}_goal_interpretation_{p}", ["behavior1k", "--mode", "goal_interpretation",
                                                         "--protocol", p], items
    if not skip_slow:
        for world, rel in (("virtualhome", "transition_modeling/outputs_virtualhome.json.gz"),
                           ("behavior", "transition_modeling/outputs_behavior.json.gz")):
            for model, items in _load(rel).items():
                for p in eai_protocols:
                    yield f"{world}_tm_{model}_{p}", [world, "--mode", "transition_modeling", "--protocol", p,
                                                      "--planner", "none"], items
    for rel in ("partnr/recorded_cases.json.gz", "partnr/edge_cases.json.gz"):
        items = [c["input"] for c in _load(rel)]
        for p in ("fixed", "partnr"):
            yield f"partnr_{os.path.basename(rel).split('.')[0]}_{p}", ["rearrange", "--mode", "facts",
                                                                        "--protocol", p], items


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def record(out_dir: str, only: str | None, skip_slow: bool, tree: str | None = None) -> int:
    if tree is not None and os.path.realpath(tree) != os.path.realpath(ROOT):
        if "eai_gym" in sys.modules:
            raise SystemExit(f"--tree {tree}: eai_gym is imported already (from {sys.modules['eai_gym'].__file__})")
        add_import_path(tree)  # another source tree: its eai_gym before this checkout's
    from eai_gym.cli import main

    os.makedirs(out_dir, exist_ok=True)
    index: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, argv, items in cases(skip_slow):
            if only and only not in name:
                continue
            out = os.path.join(tmp, "out.json")
            args = ["score", argv[0]]
            if items is not None:
                plans = os.path.join(tmp, "plans.json")
                with open(plans, "w", encoding="utf-8") as f:
                    json.dump(items, f)
                args.append(plans)
            args += [*argv[1:], "--out", out]
            t0 = time.perf_counter()
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = main(args)
            if code != 0 or not os.path.exists(out):
                print(f"{name}: exit {code}: {err.getvalue()[-400:]}", file=sys.stderr)
                index[name] = f"exit {code}"
                continue
            with open(out, encoding="utf-8") as f:
                result = _strip(json.load(f))
            os.unlink(out)
            text = json.dumps(result, sort_keys=True, indent=0)
            with open(os.path.join(out_dir, _safe(name) + ".json"), "w", encoding="utf-8") as f:
                f.write(text)
            index[name] = hashlib.sha256(text.encode()).hexdigest()
            print(f"{name}: {index[name][:12]} ({time.perf_counter() - t0:.1f} s)", flush=True)
    with open(os.path.join(out_dir, "index.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, sort_keys=True)
    print(f"{len(index)} cases recorded in {out_dir}")
    return 0


def compare(before: str, after: str) -> int:
    with open(os.path.join(before, "index.json"), encoding="utf-8") as f:
        a = json.load(f)
    with open(os.path.join(after, "index.json"), encoding="utf-8") as f:
        b = json.load(f)
    differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
    only_a, only_b = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
    for k in differ:
        print(f"differs: {k}")
    for k in only_a:
        print(f"only in {before}: {k}")
    for k in only_b:
        print(f"only in {after}: {k}")
    failed = sorted(k for k in b if not b[k] or b[k].startswith("exit "))
    for k in failed:
        print(f"failed in {after}: {k} ({b[k]})")
    print(f"{len(a.keys() & b.keys())} cases compared, {len(differ)} differ, {len(only_a)} + {len(only_b)} on one "
          f"side only, {len(failed)} failed")
    return 1 if differ or failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("out_dir")
    r.add_argument("--only", help="only the cases whose name contains this")
    r.add_argument("--skip-slow", action="store_true", help="leave out transition modeling (planner runs)")
    r.add_argument("--tree", help="record the eai_gym of this source tree (default: this checkout's)")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args(argv)
    if args.command == "record":
        return record(args.out_dir, args.only, args.skip_slow, args.tree)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())

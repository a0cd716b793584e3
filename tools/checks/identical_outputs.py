"""Record, then compare, what every ``eai-gym`` command prints and writes on every world and mode.

Used to show that a refactoring changes no output::

    python -m tools.checks.identical_outputs record BEFORE_DIR --root OLD_TREE   # before the change
    python -m tools.checks.identical_outputs record AFTER_DIR                     # after it (this tree)
    python -m tools.checks.identical_outputs compare BEFORE_DIR AFTER_DIR

``record`` runs ``eai-gym score WORLD --gold`` for every world, mode, protocol and world option, scores the
reference-case inputs (``--cases``, default ``../shared/reference/cases``), runs ``list`` / ``show`` and
``report``, and stores per run: the results file (``--out``), the streamed records (``--jsonl``), stdout, and
stderr with the wall time ("scored in 1.23 s") masked. ``compare`` prints every file that differs and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from tools.common import KIT, ROOT


def runs(cases: Path) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for world in ("virtualhome", "behavior"):
        for mode in ("action_sequencing", "subgoal_decomposition", "similarity"):
            for proto in ("fixed", "eai-1.0.5"):
                states = ("calibrated", "reference-defaults") if world == "behavior" and mode != "similarity" else (None,)
                for st in states:
                    extra = [] if st is None else ["--initial-state", st]
                    out.append((f"{world}.{mode}.{proto}{'.' + st if st else ''}.gold",
                                ["score", world, "--gold", "--mode", mode, "--protocol", proto, *extra]))
    out.append(("virtualhome.action_sequencing.eai.shortcut-off.gold",
                ["score", "virtualhome", "--gold", "--protocol", "eai-1.0.5", "--gold-shortcut", "off"]))
    out.append(("virtualhome.subgoal.eai.seed3.gold",
                ["score", "virtualhome", "--gold", "--mode", "subgoal_decomposition", "--protocol", "eai-1.0.5",
                 "--seed", "3"]))
    for mode in ("actions", "similarity"):
        for proto in ("fixed", "partnr"):
            out.append((f"rearrange.{mode}.{proto}.gold", ["score", "rearrange", "--gold", "--mode", mode,
                                                            "--protocol", proto]))
    for mode in ("commands", "similarity"):
        for dialect in ("0.4", "0.3"):
            out.append((f"alfworld.{mode}.{dialect}.gold", ["score", "alfworld", "--gold", "--mode", mode,
                                                             "--dialect", dialect]))
    if cases.is_dir():
        vh = cases / "virtualhome"
        for f in ("perturbed_inputs", "quirk_inputs", "gold_inputs"):
            for proto in ("fixed", "eai-1.0.5"):
                out.append((f"cases.vh.{f}.{proto}", ["score", "virtualhome", str(vh / f"{f}.json"),
                                                      "--protocol", proto]))
        for f in ("subgoal_perturbed_inputs", "subgoal_goal_and_split_inputs"):
            for proto in ("fixed", "eai-1.0.5"):
                out.append((f"cases.vh.{f}.{proto}", ["score", "virtualhome", str(vh / f"{f}.json"),
                                                      "--mode", "subgoal_decomposition", "--protocol", proto]))
        beh = ROOT / "tests" / "reference" / "data" / "behavior"  # the perturbed plans, as the tests hold them
        for f in sorted(beh.glob("pert_*.json")):
            for proto in ("fixed", "eai-1.0.5"):
                out.append((f"cases.beh.{f.stem}.{proto}", ["score", "behavior", str(f),
                                                             "--protocol", proto,
                                                             "--initial-state", "reference-defaults"]))
        for proto in ("fixed", "partnr"):
            out.append((f"cases.partnr.facts.{proto}", ["score", "rearrange", str(cases / "partnr"),
                                                        "--mode", "facts", "--protocol", proto]))
    for world in ("virtualhome", "behavior", "rearrange", "alfworld"):
        out.append((f"list.{world}", ["list", world]))
    out.append(("list.all", ["list"]))
    out.append(("list.json", ["list", "--json"]))
    for world, task in (("virtualhome", "27_2"), ("behavior", "sorting_mail"), ("alfworld", "3"),
                       ("behavior", "bottling_fruit_0_Wainscott_0_int_0_2021-05-24_19-46-46")):
        out.append((f"show.{world}.{task[:12]}", ["show", world, task, "--json"]))
    return out


TIME = re.compile(r"scored in \d+\.\d+ s")


def record(dest: Path, root: Path, cases: Path, only: str = "") -> int:
    dest.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    for name, argv in runs(cases):
        if only and not name.startswith(only):
            continue
        out, jsonl = dest / f"{name}.results.json", dest / f"{name}.jsonl"
        full = [sys.executable, "-m", "eai_gym.cli", *argv] + (
            ["--out", str(out), "--jsonl", str(jsonl)] if argv[0] == "score" else [])
        p = subprocess.run(full, cwd=root, env=env, capture_output=True, text=True)
        (dest / f"{name}.stdout").write_text(p.stdout)
        (dest / f"{name}.stderr").write_text(TIME.sub("scored in T s", p.stderr).replace(str(out), "OUT")
                                             .replace(str(jsonl), "JSONL")
                                             + f"\nexit {p.returncode}\n")
        print(f"{name}: exit {p.returncode}", flush=True)
    if only:
        return 0
    results = sorted(str(p) for p in dest.glob("*.gold.results.json"))[:6]
    report = dest / "report.html"
    p = subprocess.run([sys.executable, "-m", "eai_gym.cli", "report", *results, "--out", str(report)],
                       cwd=root, env=env, capture_output=True, text=True)
    (dest / "report.stderr").write_text(p.stderr.replace(str(report), "OUT") + f"\nexit {p.returncode}\n")
    if report.exists():  # the page names the results files it read: make them relative
        report.write_text(report.read_text().replace(str(dest) + "/", ""))
    print(f"report: exit {p.returncode}")
    return 0


def compare(a: Path, b: Path) -> int:
    names = sorted({p.name for p in a.iterdir()} | {p.name for p in b.iterdir()})
    bad = 0
    for n in names:
        pa, pb = a / n, b / n
        if not pa.exists() or not pb.exists() or pa.read_bytes() != pb.read_bytes():
            bad += 1
            print(f"DIFFERS: {n}")
    print(f"{len(names)} files compared, {bad} differ")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("dest", type=Path)
    r.add_argument("--root", type=Path, default=ROOT, help="the source tree to run (default: this one)")
    r.add_argument("--only", default="", help="only the runs whose name starts with this")
    r.add_argument("--cases", type=Path, default=KIT / "cases")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "record":
        return record(args.dest.resolve(), args.root.resolve(), args.cases.resolve(), args.only)
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""The command-line and scoring speed targets of issues 18 and 20, in CPU time, repeated (range and median).

    python -m benchmarks.bench_targets [--repeat 5] [--eai-python VENV/bin/python] [--slow-references]
                                       [--only ROW,...] [--json OUT] [--markdown OUT]

Every eai-gym figure is a fresh ``python -m eai_gym.cli ...`` process (interpreter start, imports, data,
work, output file) measured with ``getrusage`` (user + system CPU of the child), ``--repeat`` times:

* ``eai-gym --help``, ``eai-gym list`` (target 0.2 s each) and ``eai-gym score virtualhome --gold``
  (target 0.5 s);
* VirtualHome subgoal decomposition of the 338 gold-subgoal plans (``--protocol eai-1.0.5``);
* ``eai-gym prompts`` of every module of both worlds (one process per world and module; the sum);
* goal interpretation of one model's 342 published VirtualHome outputs;
* VirtualHome action-sequencing scoring in-process on 40 plans (the first 40 of the recorded perturbed plans,
  ``tests/reference/data/virtualhome/perturbed_inputs.json``, distinct tasks, which the reference really
  simulates), two figures: the CPU time of the ``score`` command's ``main`` after ``import eai_gym.cli``, and
  of the span it reports as "scored in" (after the mode's code is imported; task data loading included), each
  with its ratio to the reference;
* ALFWorld reset from a game folder (``benchmarks/bench_alfworld_reset.py``).

With ``--eai-python`` (eai-eval 1.0.5) the reference runs on the same inputs in the same run, also in CPU
time: its ``evaluate_results`` call on the 40 plans (in-process) and its goal-interpretation evaluator (whole
process); with ``--slow-references`` also its prompt generators (about 8 CPU minutes). Ratios are reference
over eai-gym medians.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "reference" / "data"
#: the source tree whose eai-gym is measured (``--tree``; default this one): before/after in one session
TREE = ROOT
MODULES = ("goal_interpretation", "action_sequencing", "subgoal_decomposition", "transition_modeling")

#: ``cpu_s``: the whole ``main`` call (building the parser, checking the arguments, importing the mode's code, the
#: span, writing the results file and printing the summary); ``scored_in_cpu_s``: the CPU time of exactly the span
#: the command reports as "scored in" (it reads ``time.perf_counter()`` where the span starts and where it ends: the
#: clock it reads is replaced by one that also notes the CPU time there). The span starts once the output path is
#: checked and the mode's entry points are resolved (its code imported, like for like with the reference's figure,
#: its ``evaluate_results`` call after its module is imported) and ends once the results are made, before they are
#: written: it holds reading the plans, loading the tasks (task data included), scoring and the summary.
IN_PROCESS = r"""
import io, contextlib, json, sys, time
import eai_gym.cli as cli
marks = []


class CpuNotingClock:
    def __getattr__(self, name):
        return getattr(time, name)

    def perf_counter(self):
        marks.append(time.process_time())
        return time.perf_counter()


cli.time = CpuNotingClock()
err = io.StringIO()
t = time.process_time()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
    code = cli.main(["score", "virtualhome", sys.argv[1], "--protocol", "eai-1.0.5", "-o", sys.argv[2]])
cpu = time.process_time() - t
assert len(marks) == 2, marks
print(json.dumps({"cpu_s": cpu, "scored_in_cpu_s": marks[1] - marks[0], "code": code,
                  "stderr": err.getvalue()[-300:]}))
"""

#: where the CPU time of one ``score`` command goes after ``import eai_gym.cli``, part by part, through public
#: names only (but for the scenes, below): building the parser and parsing, importing the scoring modules, reading the task file, loading the
#: items' tasks, then (on the warm process) ``main`` itself: the second parse is cheap, the rest is scoring, the summary
#: and the results file. "total" adds the parts (the second parse left out); "of_which_collector": the CPU time
#: the cyclic garbage collector took from the first part to the end (the second parse included); "of_which_scenes":
#: the CPU time building the tasks' scenes (the method that applies ``Scene.derive``'s changes, timed: when a task
#: is loaded where the tree derives scenes at once, in the part that first reads the scene where it makes them on
#: first read); "of_which_records": decoding the tasks' records (``task_data.Packed.task``). From the
#: imports on, the collector runs as the command runs it while it scores
#: (:func:`eai_gym.scoring.runner.fewer_collections`)
PHASES = r"""
import io, contextlib, importlib, json, sys, time
import eai_gym.cli as cli
from eai_gym import registry
import gc
argv, modules = json.loads(sys.argv[1]), json.loads(sys.argv[2])
pt = time.process_time
in_gc = [0.0, 0.0]  # CPU time in the cyclic collector (all parts), and when the current collection started


def note_collection(phase, info):
    if phase == "start":
        in_gc[1] = pt()
    else:
        in_gc[0] += pt() - in_gc[1]


gc.callbacks.append(note_collection)
t0 = pt()
args = cli.build_parser(argv[0]).parse_args(argv)
t1 = pt()
from eai_gym.scoring.runner import fewer_collections
collector = fewer_collections()  # the collector as the command sets it for its work (kept, never left: a
collector.__enter__()            # dropped context manager's generator would be closed and restore the setting)
for m in modules:
    importlib.import_module(m)
t2 = pt()
from eai_gym.core.state import Scene  # (imported above)
from eai_gym.envs.virtualhome.task_data import Packed
timers = {"scenes": [0.0], "records": [0.0]}  # CPU time building the tasks' scenes (wherever that happens: loading
                                             # or, made on first read, scoring) and decoding their records


def timed(cls, name, total):
    method = getattr(cls, name)

    def run(*a, **k):
        t = pt()
        try:
            return method(*a, **k)
        finally:
            total[0] += pt() - t
    setattr(cls, name, run)


timed(Scene, "_apply" if hasattr(Scene, "_apply") else "derive", timers["scenes"])
timed(Packed, "task", timers["records"])
from eai_gym.envs.virtualhome import tasks
tasks.load_task(tasks.task_ids()[0])
t3 = pt()
if args.gold:
    ids = [t for t in tasks.task_ids() if tasks.task_record(t)["tl_goal"]]
else:
    ids = [it["identifier"] for it in json.load(open(args.plans[0]))]
for t in ids:
    tasks.load_task(t)
t4 = pt()
cli.build_parser(argv[0]).parse_args(argv)
t5 = pt()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    cli.main(argv)
t6 = pt()
print(json.dumps({"parser": t1 - t0, "imports": t2 - t1, "task_file": t3 - t2, "tasks": t4 - t3,
                  "scoring_and_results": t6 - t5, "total": t2 - t0 + t4 - t2 + t6 - t5, "of_which_collector": in_gc[0],
                  "of_which_scenes": timers["scenes"][0], "of_which_records": timers["records"][0]}))
"""


def phases(repeat: int, tmp: Path) -> dict[str, dict[str, float]]:
    """Medians (ms) of :data:`PHASES` for the 40 perturbed plans and for the 338 gold subgoal plans."""
    out = str(tmp / "phases.json")
    scoring = ["eai_gym.scoring.runner", "eai_gym.scoring.io", "eai_gym.scoring.results"]
    runs = {"vh40": (["score", "virtualhome", str(_vh40_plans(tmp)), "--protocol", "eai-1.0.5", "-o", out],
                     scoring + ["eai_gym.scoring.virtualhome.action_sequencing"]),
            "subgoal_gold": (["score", "virtualhome", "--gold", "--mode", "subgoal_decomposition", "--protocol",
                              "eai-1.0.5", "-o", out], scoring + ["eai_gym.scoring.virtualhome.subgoal_decomposition"])}
    res = {}
    for name, (argv, modules) in runs.items():
        cmd = [sys.executable, "-c", PHASES, json.dumps(argv), json.dumps(modules)]
        got = [json.loads(run_cpu(cmd, _ours_env())[1].splitlines()[-1]) for _ in range(repeat + 1)][1:]
        res[name] = {k: round(1000 * statistics.median(g[k] for g in got), 1) for k in got[0]}
    return res


def _reference_as_driver() -> str:
    """bench_virtualhome's eai-eval driver (``evaluate_results`` on a plans file), timed in CPU time."""
    from benchmarks.bench_virtualhome import REFERENCE_DRIVER

    return REFERENCE_DRIVER.replace("time.perf_counter()", "time.process_time()")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cpu(argv: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, str]:
    """CPU seconds of one child process (and what it printed); fails loudly on a non-zero exit."""
    before = _children_cpu()
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd or TREE)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:6])} ... exited {p.returncode}: {p.stderr[-1500:]}")
    return _children_cpu() - before, p.stdout


def _ours_env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(TREE))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode
    return env


def _spread(xs: list[float]) -> dict[str, Any]:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": [round(x, 4) for x in xs]}


def cli_cpu(args: list[str], repeat: int) -> dict[str, Any]:
    env = _ours_env()
    run_cpu([sys.executable, "-m", "eai_gym.cli", *args], env)  # warm-up: bytecode and file caches
    return _spread([run_cpu([sys.executable, "-m", "eai_gym.cli", *args], env)[0] for _ in range(repeat)])


def gi_inputs(tmp: Path, model: str = "gpt-4o-2024-05-13") -> Path:
    with gzip.open(DATA / "goal_interpretation" / "published_virtualhome_inputs.json.gz") as f:
        items = json.load(f)["models"][model]
    path = tmp / "gi.json"
    path.write_text(json.dumps(items))
    return path


#: the rows ``--only`` selects, in the order the table shows them
ROWS = ("help", "list", "score_gold", "subgoal_gold", "vh40", "goal_interpretation", "prompts", "alfworld_reset")


def _vh40_plans(tmp: Path) -> Path:
    plans = tmp / "vh40.json"
    plans.write_text(json.dumps(json.loads((DATA / "virtualhome" / "perturbed_inputs.json").read_text())[:40]))
    return plans


def ours(repeat: int, tmp: Path, only: tuple[str, ...] = ROWS) -> dict[str, Any]:
    out = str(tmp / "out.json")
    commands = {"help": ["--help"], "list": ["list"], "score_gold": ["score", "virtualhome", "--gold", "-o", out],
                "subgoal_gold": ["score", "virtualhome", "--gold", "--mode", "subgoal_decomposition",
                                 "--protocol", "eai-1.0.5", "-o", out]}
    res: dict[str, Any] = {k: cli_cpu(argv, repeat) for k, argv in commands.items() if k in only}
    if "goal_interpretation" in only:
        res["goal_interpretation"] = cli_cpu(["score", "virtualhome", str(gi_inputs(tmp)), "--mode",
                                              "goal_interpretation", "--protocol", "eai-1.0.5", "-o", out], repeat)
    if "prompts" in only:
        res["prompts"] = {f"{w}:{m}": cli_cpu(["prompts", w, "--mode", m, "--protocol", "eai-1.0.5", "-o", out],
                                              repeat) for w in ("virtualhome", "behavior") for m in MODULES}
    if "vh40" in only:
        plans = _vh40_plans(tmp)
        runs, spans = [], []
        for _ in range(repeat):
            _, text = run_cpu([sys.executable, "-c", IN_PROCESS, str(plans), out], _ours_env())
            got = json.loads(text.strip().splitlines()[-1])
            runs.append(got["cpu_s"])
            spans.append(got["scored_in_cpu_s"])
        res["vh40_in_process"] = _spread(runs)
        res["vh40_scored_in"] = _spread(spans)
        res["vh40_summary"] = json.loads(Path(out).read_text())["summary"]
    if "alfworld_reset" in only:
        _, text = run_cpu([sys.executable, str(TREE / "benchmarks" / "bench_alfworld_reset.py")], _ours_env())
        res["alfworld_reset"] = json.loads(text.strip().splitlines()[-1])
    return res


def references(python: str, tmp: Path, slow: bool, only: tuple[str, ...] = ROWS) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    res: dict[str, Any] = {}
    if "vh40" in only:
        _, text = run_cpu([python, "-c", _reference_as_driver(), str(_vh40_plans(tmp))], env, tmp)
        r = json.loads(text.strip().splitlines()[-1])
        res["vh40_in_process"], res["vh40_summary"] = r["seconds"], r["summary"]
    if "goal_interpretation" in only:
        from benchmarks.bench_goal_interpretation import REFERENCE as GI_REFERENCE

        res["goal_interpretation"], _ = run_cpu([python, "-c", GI_REFERENCE, "virtualhome", str(gi_inputs(tmp))],
                                                env, tmp)
    if slow and "prompts" in only:
        from benchmarks.bench_prompts import BE_REF, VH_REF

        prompts = {}
        with tempfile.TemporaryDirectory() as d:
            for m in MODULES:
                prompts[f"virtualhome:{m}"], _ = run_cpu([python, "-c", VH_REF, m, d], env, Path(d))
            prompts["behavior:goal_interpretation"], _ = run_cpu([python, "-c", BE_REF, d], env, Path(d))
        res["prompts"] = prompts
    return res


def rows(o: dict[str, Any], r: dict[str, Any]) -> list[list[str]]:
    """Markdown rows: measure, eai-gym CPU median (range), reference, ratio, target."""
    def cell(s: dict) -> str:
        return f"{s['median']:.3f} s ({s['min']:.3f}–{s['max']:.3f})"

    out = []
    labels = {"help": ("`eai-gym --help`, whole process", "≤ 0.2 s"),
              "list": ("`eai-gym list`, whole process", "≤ 0.2 s"),
              "score_gold": ("`eai-gym score virtualhome --gold`, whole process", "≤ 0.5 s"),
              "subgoal_gold": ("VirtualHome subgoal decomposition, 338 gold-subgoal plans, whole process",
                               "10x faster than before")}
    out += [[label, cell(o[k]), "", "", target] for k, (label, target) in labels.items() if k in o]
    if "vh40_in_process" in o:
        ref = r.get("vh40_in_process")
        ratio = f"{ref / o['vh40_in_process']['median']:,.0f}x" if ref else ""
        same = "" if not ref else (" (same summary)" if r["vh40_summary"] == o["vh40_summary"]
                                   else " (SUMMARY DIFFERS)")
        out.append(["VirtualHome action sequencing, 40 perturbed plans, in-process: `main` after `import eai_gym.cli`",
                    cell(o["vh40_in_process"]), f"{ref:.2f} s{same}" if ref else "", ratio, ""])
        if "vh40_scored_in" in o:
            span = o["vh40_scored_in"]["median"]
            out.append(["the same runs, the span `eai-gym score` reports as \"scored in\" (after the mode's code is "
                        "imported, task data loading included)", cell(o["vh40_scored_in"]),
                        f"{ref:.2f} s" if ref else "", f"{ref / span:,.0f}x" if ref else "", "≥ 1000x"])
    if "goal_interpretation" in o:
        ref = r.get("goal_interpretation")
        out.append(["VirtualHome goal interpretation, 342 outputs of one model, whole process",
                    cell(o["goal_interpretation"]), f"{ref:.2f} s" if ref else "",
                    f"{ref / o['goal_interpretation']['median']:,.0f}x" if ref else "", "≥ 100x"])
    if "prompts" in o:
        total = sum(s["median"] for s in o["prompts"].values())
        refp = r.get("prompts")
        both = [k for k in (refp or {})]
        ours_both = sum(o["prompts"][k]["median"] for k in both)
        out.append([f"`eai-gym prompts`, all {len(o['prompts'])} (world, module) pairs, one process each (sum of "
                    f"medians)", f"{total:.2f} s", "", "", ""])
        if refp:
            out.append([f"the {len(both)} pairs eai-eval generates (without iGibson)", f"{ours_both:.2f} s",
                        f"{sum(refp.values()):.1f} s", f"{sum(refp.values()) / ours_both:,.0f}x", "≥ 100x"])
    if "alfworld_reset" in o:
        a = o["alfworld_reset"]
        out.append(["ALFWorld reset from a game folder, first / again (median over 20 games, CPU)",
                    f"{a['first_reset_ms_median']:.2f} ms / {a['again_reset_ms_median']:.2f} ms", "", "", "≤ 3 ms"])
    return out


def markdown(res: dict[str, Any]) -> str:
    lines = ["| measure (CPU time) | eai-gym: median (range) | eai-eval 1.0.5 | ratio | target |",
             "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows(res["ours"], res.get("reference", {}))]
    if "prompts" not in res["ours"]:
        return "\n".join(lines) + "\n"
    per = ", ".join(f"{k} {v['median']:.2f} s" for k, v in res["ours"]["prompts"].items())
    return "\n".join(lines) + f"\n\nPrompts per (world, module), medians: {per}.\n"


def measure(repeat: int, eai_python: str | None = None, slow: bool = False,
            only: tuple[str, ...] = ROWS) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        res: dict[str, Any] = {"repeat": repeat, "ours": ours(repeat, tmp, only)}
        if eai_python:
            res["reference"] = references(eai_python, tmp, slow, only)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--eai-python", help="a Python with eai-eval 1.0.5 (VirtualHome reference)")
    ap.add_argument("--slow-references", action="store_true", help="also run eai-eval's prompt generators")
    ap.add_argument("--json", help="write the measurements to this JSON file")
    ap.add_argument("--markdown", help="write the table to this file")
    ap.add_argument("--phases", action="store_true",
                    help="also where the CPU time of the in-process run and of the subgoal run goes, part by part "
                         "(eai-gym only; medians in ms)")
    ap.add_argument("--tree", default=str(ROOT),
                    help="measure the eai-gym of this source tree, e.g. a checkout of an earlier commit (default: "
                         "this one; the inputs are always this tree's)")
    ap.add_argument("--only", default=",".join(ROWS),
                    help=f"comma-separated rows to measure (default all): {', '.join(ROWS)}")
    a = ap.parse_args(argv)
    global TREE
    TREE = Path(a.tree).resolve()
    only = tuple(x.strip() for x in a.only.split(",") if x.strip())
    unknown = [x for x in only if x not in ROWS]
    if unknown:
        ap.error(f"unknown row(s) {', '.join(unknown)}; expected some of {', '.join(ROWS)}")
    res = measure(a.repeat, a.eai_python, a.slow_references, only)
    md = markdown(res)
    if a.phases:
        with tempfile.TemporaryDirectory() as d:
            res["phases"] = phases(a.repeat, Path(d))
        md += "\nCPU ms by part (medians): " + "; ".join(
            f"{name}: " + ", ".join(f"{k} {v}" for k, v in parts.items())
            for name, parts in res["phases"].items()) + "\n"
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1) + "\n")
    if a.markdown:
        Path(a.markdown).write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``eai-gym list``, ``eai-gym show``, ``eai-gym play`` and ``eai-gym report``: exploring tasks, playing them
by hand and comparing scoring runs. Exit codes as for the whole command: 0 success, 2 usage error or bad
input (unknown world or task, unreadable results file), 1 internal error, 130 interrupted (143: by
SIGTERM).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, TextIO

from . import __version__, registry
from .tasksets import task_sets, unknown_task_message


class UsageError(Exception):
    """Bad input from the user: reported on stderr with exit code 2."""


# ------------------------------------------------------------------------------ list / show
def cmd_list(args: argparse.Namespace) -> int:
    sets = task_sets()
    if args.world is None:
        rows = [{"world": s.world, "env_ids": list(s.env_ids), "task_set": s.name, "tasks": s.count(),
                 "modes": list(s.modes), "protocols": list(s.protocols)} for s in sets.values()]
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        width = max([len("task set")] + [len(r["task_set"]) for r in rows])
        print(f"{'world':<12} {'tasks':>6}  {'task set':<{width}} env ids")
        for r in rows:
            print(f"{r['world']:<12} {r['tasks']:>6}  {r['task_set']:<{width}} {', '.join(r['env_ids'])}")
        print("\nScore: eai-gym score WORLD PLANS.json --mode MODE; modes: "
              + "; ".join(f"{r['world']} {'/'.join(r['modes'])}" for r in rows))
        print("Tasks of one world: eai-gym list WORLD; one task: eai-gym show WORLD TASK")
        return 0
    s = sets[args.world]
    entries = s.entries()
    if args.json:
        print(json.dumps([{"id": i, "name": n} for i, n in entries], indent=1))
    else:
        for i, n in entries:
            print(f"{i}\t{n}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    s = task_sets()[args.world]
    try:
        card = s.show(args.task)
    except KeyError:
        raise UsageError(unknown_task_message(s, args.task)) from None
    if args.json:
        print(json.dumps(card, indent=1))
        return 0
    print(f"{args.world} task {card['id']}: {card['name']}")
    print(f"Instruction: {card['instruction']}")
    print("Goal:")
    for g in card["goal"]:
        print(f"  {g}")
    print(f"Objects ({len(card['objects'])}):")
    for o in card["objects"]:
        print(f"  {o}")
    print(f"Gold plan ({card['gold_plan_source']}, {len(card['gold_plan'])} actions):")
    for i, a in enumerate(card["gold_plan"], 1):
        print(f"  {i:>2}. {a}")
    return 0


# ------------------------------------------------------------------------------ play
PLAY_HELP = """Type an action and press Enter. Commands:
  :help     this help            :look      the full observation again
  :actions  actions that would execute now (where the world lists them)
  :metrics  the live metrics     :reset     start the task again       :quit  leave"""
#: the commands of ``eai-gym play`` (a line starting with ``:`` is a command, never an action)
PLAY_COMMANDS = (":help", ":look", ":actions", ":metrics", ":reset", ":quit")
#: other names of ``:quit``
QUIT = (":quit", ":q", ":exit")


def _metric_line(info: dict[str, Any]) -> str:
    e, p, g = info["trajectory_errors"], info["progress_rate"], info["goal_success"]
    errs = ", ".join(f"{k} {v}" for k, v in e["counts"].items() if v) or "none"
    rate = "-" if e["execution_success_rate"] is None else f"{e['execution_success_rate']:.2f}"
    partial = "-" if g["partial"] is None else f"{g['partial']:.2f}"
    return (f"[metrics] actions {e['actions']} executed {e['executed']} (rate {rate}); errors: {errs}; "
            f"progress {p['value']:.2f} ({p['definition']}); goal {'reached' if g['success'] else 'not yet'}, "
            f"partial {partial}")


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    s = task_sets()[args.world]
    try:
        env, reset_options = s.play_env(args.task, args.protocol)
    except KeyError:
        raise UsageError(unknown_task_message(s, args.task)) from None
    except ValueError as e:
        raise UsageError(str(e)) from None

    def say(text: str = "") -> None:
        out.write(text + "\n")
        out.flush()

    def start() -> dict:
        obs, info = env.reset(seed=args.seed, options=reset_options)
        say(obs)
        return info

    say(f"eai-gym {__version__}: playing {args.world}. {PLAY_HELP.splitlines()[0]} Type :help for commands.")
    info = start()
    steps = 0
    over = ""  # how the episode ended (empty while it runs)
    while True:
        out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line:
            say()
            break
        line = line.strip()
        if not line:
            continue
        if line in QUIT:
            break
        if line == ":help":
            say(PLAY_HELP)
            continue
        if line == ":look":
            say(env.render() or "")
            continue
        if line == ":metrics":
            say(_metric_line(info))
            continue
        if line == ":reset":
            info, steps, over = start(), 0, ""
            continue
        if line == ":actions":
            acts = [] if over else s.legal_actions(env)
            say("\n".join(acts) if acts else "(none: the episode is over)" if over else "(this world does not list them)")
            continue
        if line.startswith(":"):
            say(f"unknown command {line.split()[0]!r}; the commands are {', '.join(PLAY_COMMANDS)} (:help explains them)")
            continue
        if over:
            say(f"The episode is over ({over}); {line!r} was not sent. Type :reset to play the task again, :quit to leave.")
            continue
        obs, reward, terminated, truncated, info = env.step(line)
        steps += 1
        say(s.feedback(env, obs, info))
        say(_metric_line(info))
        if terminated or truncated:
            summary = info["goal_success"]["summary"]
            over = (f"after {steps} steps: {'goal reached' if summary['success'] else 'goal not reached'}"
                    f", {'terminated' if terminated else 'step limit'}")
            say(f"Episode over {over.replace(', ', ' (', 1)}). :reset to play again, :quit to leave.")
    env.close()
    return 0


# ------------------------------------------------------------------------------ report
def _run_files(paths: list[str]) -> list[str]:
    """The files a report reads or that belong to its runs: each results file, and every file of a run directory
    (an ``--out`` among them is refused)."""
    import os

    from .report.runs import SETTINGS

    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names]
        else:
            files += [p, os.path.join(os.path.dirname(p), SETTINGS)]
    return files


def cmd_report(args: argparse.Namespace) -> int:
    from .report import RunFileError, build_report, load_run
    from .report.text import text_report
    from .scoring.io import OutPathError, check_out_path, save_text

    names = args.name or []
    if names and len(names) != len(args.results):
        raise UsageError(f"give one --name per results file ({len(args.results)}), got {len(names)}")
    if args.out is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError("the HTML report (--out) draws its plots with matplotlib: pip install 'eai-gym[report]' "
                             "(without --out, eai-gym report prints the text report only)") from None
        try:
            check_out_path(args.out, _run_files(args.results))
        except OutPathError as e:
            raise UsageError(str(e)) from None
    try:
        runs = [load_run(p, names[i] if names else None) for i, p in enumerate(args.results)]
    except RunFileError as e:
        raise UsageError(str(e)) from None
    # the text report goes to stdout, unless the page does (--out -): then to stderr, so stdout is the page alone
    print(text_report(runs, args.task_lines), end="", file=sys.stderr if args.out == "-" else sys.stdout)
    if args.out is None:
        return 0
    page = build_report(runs, args.title)
    written, problem = save_text(args.out, page)
    if problem:
        print(f"eai-gym: {problem}", file=sys.stderr)
        return 2
    if args.out != "-":
        print(f"wrote {written} ({len(page) // 1024} KiB, {len(runs)} run(s))", file=sys.stderr)
    return 0


# ------------------------------------------------------------------------------ parsers
def add_parsers(sub: Any) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Add the subcommands to ``eai-gym``'s subparsers; returns command name -> handler."""
    world_names = registry.world_names()
    p = sub.add_parser("list", help="list the worlds, their env ids and task sets (or one world's tasks)",
                       description="Without WORLD: every world, its env ids, task set and size, scoring modes. "
                                   "With WORLD: its task ids and names, one per line.")
    p.add_argument("world", nargs="?", choices=world_names)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p = sub.add_parser("show", help="show one task: instruction, goal, objects, gold plan",
                       description="Show one task of a world: its instruction, goal, objects and gold plan "
                                   "(the annotated plan, or the oracle's where the world has no annotation).")
    p.add_argument("world", choices=world_names)
    p.add_argument("task", help="a task id as 'eai-gym list WORLD' prints it")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p = sub.add_parser("play", help="play a task interactively in the terminal",
                       description="An interactive session: type actions, see observations, errors and live "
                                   "metrics (the eai-gym metric wrappers). " + PLAY_HELP.replace("\n", " "))
    p.add_argument("world", choices=world_names)
    p.add_argument("--task", default=None, help="a task id (default: drawn with --seed)")
    p.add_argument("--seed", type=int, default=0, help="seed of the reset (default 0)")
    p.add_argument("--protocol", default="fixed", help="the world's protocol (default fixed)")
    p = sub.add_parser("report", help="compare scoring and evaluate runs: a text report, and a self-contained HTML page",
                       description="Compare runs: result files written by 'eai-gym score --out', and 'eai-gym "
                                   "evaluate' runs (their run directory or its results.json). Prints the runs (world, "
                                   "mode, protocol, items; model, endpoint, tokens and failed requests of evaluate "
                                   "runs), headline figures, every summary figure (rates in percent), error types, "
                                   "success by task category, progress over steps and a per-task drill-down; --out "
                                   "also writes them as an HTML page with plots (needs matplotlib: pip install "
                                   "'eai-gym[report]').")
    p.add_argument("results", nargs="+", metavar="RUN",
                   help="a results JSON file (eai-gym score --out), or an eai-gym evaluate run directory or its "
                        "results.json")
    p.add_argument("--out", default=None, help="also write the HTML report to this file ('-': to standard output, "
                                               "the text report then going to standard error)")
    p.add_argument("--task-lines", type=int, default=20, metavar="N",
                   help="tasks listed in the text report's drill-down (default 20; -1: all; the HTML page lists all)")
    p.add_argument("--name", action="append", help="a label per results file, in order (default: file names)")
    p.add_argument("--title", default="eai-gym report", help="the page title")
    return {"list": cmd_list, "show": cmd_show, "play": cmd_play, "report": cmd_report}


def run(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return handler(args)
    except UsageError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    except (BrokenPipeError, KeyboardInterrupt) as e:
        if isinstance(e, KeyboardInterrupt):
            from .interrupts import exit_code

            print("eai-gym: interrupted", file=sys.stderr)
            return exit_code(e)
        return 0

"""The ``eai-gym score`` command: its flags, the checks before any work, the run through the one scoring path
(:func:`eai_gym.scoring.score.score`) and what it prints. Worlds, modes, protocols and each mode's options come
from :mod:`eai_gym.registry`; this module names no world."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Sequence

from . import registry
from .interrupts import exit_code


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Score as the flags say; the exit code (0 done, 2 a usage error or an input that cannot be read, 1 a worker
    that died, 130/143 interrupted)."""
    from .scoring.runner import RunnerError, WorkerError, check_backend

    mode = _check_score_args(parser, args)
    options, all_options = _score_options(parser, args, mode)
    try:
        check_backend(args.backend)
        return _score(args, mode, options, all_options)
    except BrokenPipeError:
        return 0
    except RunnerError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    except WorkerError as e:
        print(f"eai-gym: {e}" + (f"; the finished records are in {args.jsonl} (rerun with --resume)"
                                 if args.jsonl else ""), file=sys.stderr)
        return 1
    except KeyboardInterrupt as e:
        print("eai-gym: interrupted" + (f"; the finished records are in {args.jsonl} (rerun with --resume)"
                                        if args.jsonl else ""), file=sys.stderr)
        return exit_code(e)


def _score(args: argparse.Namespace, mode: registry.ModeSpec, options: dict, all_options: dict) -> int:
    from .scoring.io import InputFileError, OutPathError, check_out_path, input_paths
    from .scoring.score import RunSettings, score

    try:
        check_out_path(args.out, input_paths(args.plans, mode, options), args.jsonl)
    except OutPathError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    # the mode's code is imported before the clock starts (its entry points resolved), as the reference's own
    # timing leaves out importing its evaluator: the span is reading the items, the task data they use, scoring and
    # the results (not written yet)
    for entry in (mode.gold if args.gold else mode.load_items, mode.jobs, mode.result):
        registry.load(entry or "")
    settings = RunSettings(workers=args.workers, backend=args.backend, jsonl=args.jsonl, resume=args.resume,
                           texts=bool(args.out), run_options=all_options,
                           log=lambda msg: print(f"eai-gym: {msg}", file=sys.stderr))
    t0 = time.perf_counter()
    try:
        result, shown = score(mode, args.protocol, options, gold=args.gold, paths=args.plans, settings=settings)
    except InputFileError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    return _finish(args, result, shown, time.perf_counter() - t0)


def _finish(args: argparse.Namespace, result: dict, records: list, elapsed: float) -> int:
    from .scoring.io import STDOUT, save_results

    written, problem = save_results(args.out, result) if args.out else (None, None)
    if args.out != STDOUT:  # with --out -, standard output holds the results (the summary among them)
        print(json.dumps(result["summary"], indent=2))
    statuses: dict[str, int] = {}
    for r in records:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    line = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
    print(f"{len(records)} items ({line}) scored in {elapsed:.2f} s with protocol {args.protocol}"
          + (f"; results in {written}" if written and not problem else ""), file=sys.stderr)
    mode = registry.mode(args.world, args.mode)
    for text in (_headline_line(mode, result["summary"]), _gold_line(mode, args.protocol, records) if args.gold else ""):
        if text:
            print(text, file=sys.stderr)
    for r in records:
        if r["status"] in ("invalid_input", "evaluation_error"):
            print(f"  {r['status'].replace('_', ' ')} {r['identifier']!r}: {r['message']}", file=sys.stderr)
    if problem:
        print(f"eai-gym: {problem}", file=sys.stderr)
        return 2
    return 0


def _headline_line(mode: registry.ModeSpec, summary: Any) -> str:
    """The mode's headline figures on one scale, rates in percent (``task_success_rate 99.71 %, ...``), and the
    scale of the reference's own summary printed above."""
    from .report.units import headline, scale_note

    layout = mode.summary_layout
    figures = ", ".join(f"{name} {value}" for name, value in headline(summary, layout))
    note = scale_note(layout)
    return f"{figures} ({note})" if figures and note else figures


#: gold plans named in the line about them, at most
GOLD_NAMED = 8


def _gold_line(mode: registry.ModeSpec, protocol: str, records: list) -> str:
    """With ``--gold``: which packaged gold plans do not reach their goal, or were not simulated, and where
    the mode's documentation explains why (``ModeSpec.gold_notes``); "" when every gold plan reaches its goal or
    the mode's records do not say (no ``success``)."""
    failed = [str(r.get("identifier")) for r in records if r.get("status") == "evaluated" and r.get("success") is False]
    other: dict[str, int] = {}
    for r in records:
        if r.get("status") != "evaluated" and "success" in r:
            other[r["status"]] = other.get(r["status"], 0) + 1
    if not failed and not other:
        return ""
    parts = []
    if failed:
        named = ", ".join(failed[:GOLD_NAMED]) + (f" and {len(failed) - GOLD_NAMED} more" if len(failed) > GOLD_NAMED else "")
        parts.append(f"{len(failed)} of {len(records)} gold plans {'does' if len(failed) == 1 else 'do'} not reach "
                     f"{'its' if len(failed) == 1 else 'their'} goal under {protocol}: {named}")
    if other:
        parts.append(f"not simulated under {protocol}: "
                     + ", ".join(f"{n} {status}" for status, n in sorted(other.items())))
    return "; ".join(parts) + (f" (why: {mode.gold_notes})" if mode.gold_notes else "")


# ------------------------------------------------------------------------------ the parser
def _plans_help(worlds: Sequence[registry.WorldSpec]) -> str:
    """What each world and mode reads, one entry per kind of input."""
    readers: dict[str, list[str]] = {}
    for w in worlds:
        by_input: dict[str, list[str]] = {}
        for m in w.modes:
            by_input.setdefault(m.inputs, []).append(m.name)
        for text, names in by_input.items():
            label = w.name if len(names) == len(w.modes) else f"{w.name} --mode {'/'.join(names)}"
            readers.setdefault(text, []).append(label)
    return "; ".join(f"{', '.join(labels)}: {text}" for text, labels in readers.items())


def add_parser(sub: Any) -> None:
    worlds = registry.worlds()
    s = sub.add_parser("score", help="score a file of LLM plans offline",
                       description="Replay static plans (LLM outputs) through the environment and "
                                   "print the reference benchmark's summary.")
    s.add_argument("world", choices=[w.name for w in worlds])
    s.add_argument("plans", nargs="*", help=_plans_help(worlds))
    s.add_argument("--gold", action="store_true", help="score the packaged gold plans instead of a file")
    modes = dict.fromkeys(m.name for w in worlds for m in w.modes)
    s.add_argument("--mode", choices=list(modes), default=None,
                   help="the world's scoring mode (default: its first): " + "; ".join(
                       f"{w.name}: {', '.join(m.name for m in w.modes)}" for w in worlds))
    protocols = dict.fromkeys(p for w in worlds for p in w.protocols)
    s.add_argument("--protocol", choices=list(protocols), default=None,
                   help="the mode's protocol (default: its first, fixed: the documented intent; the reference's "
                        "exact behaviour by its name): " + "; ".join(
                            f"{w.name}: {', '.join(w.protocols)}" for w in worlds))
    for opt, users in registry.options():
        where = ", ".join(dict.fromkeys(f"{m.world} {m.name}" for m in users))
        s.add_argument(opt.flag, type=int if opt.type == "int" else str, default=None,
                       choices=list(opt.choices) or None, metavar="PATH" if opt.type == "path" else None,
                       help=f"{where}: {opt.help}")
    s.add_argument("-o", "--out", help="write the full results (summary and one record per item) to this JSON "
                                       "file (atomically, once every item is scored; never one of the inputs, "
                                       "never over anything but a regular file); -: to standard output, "
                                       "instead of the summary")
    s.add_argument("--workers", type=int, default=1,
                   help="score with N worker processes (or Ray actors); 1 (default): in this process; "
                        "0: one per CPU. Results are the serial ones, in input order")
    s.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="processes (default): a local process pool; ray: Ray actors, on the cluster named by "
                        "RAY_ADDRESS or a local one (pip install 'eai-gym[ray]')")
    s.add_argument("--jsonl", metavar="PATH",
                   help="stream each item's record to this JSONL file (a regular file) as it finishes "
                        "({\"index\": i, \"record\": ...} lines after a {\"run\": ...} line)")
    s.add_argument("--resume", action="store_true",
                   help="with --jsonl: keep the records an interrupted run left there and score only the rest")


def _score_options(parser: argparse.ArgumentParser, args: argparse.Namespace,
                   mode: registry.ModeSpec) -> tuple[dict, dict]:
    """The mode's option values, and every registry option's (for the run record); an option given to a mode
    that does not take it is a usage error."""
    accepted = {o.name for o in mode.options}
    all_options = {}
    for opt, users in registry.options():
        value = getattr(args, opt.name)
        if value is not None and opt.name not in accepted:
            where = ", ".join(dict.fromkeys(f"{m.world} {m.name}" for m in users))
            parser.error(f"{opt.flag} does not apply to {mode.world} --mode {mode.name} (it is for {where})")
        all_options[opt.name] = opt.default if value is None else value
    return {o.name: all_options[o.name] for o in mode.options}, all_options


def _check_score_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> registry.ModeSpec:
    if bool(args.plans) == args.gold:
        parser.error("give a PLANS file or --gold (not both)")
    try:
        mode = registry.mode(args.world, args.mode)
    except registry.RegistryError as e:
        parser.error(str(e))
    args.mode = mode.name
    args.protocol = args.protocol or mode.default_protocol
    if args.protocol not in mode.protocols:
        parser.error(f"{args.world} has protocol(s) {', '.join(mode.protocols)}, not {args.protocol}")
    if args.gold and mode.gold is None:
        with_gold = [m.name for m in registry.world(args.world).modes if m.gold is not None]
        parser.error(f"{args.world} --mode {mode.name} has no packaged gold; give {mode.inputs}"
                     + (f"; {args.world}'s modes with gold: --mode {', --mode '.join(with_gold)}" if with_gold else ""))
    if len(args.plans) > 1 and not mode.multiple_inputs:
        parser.error(f"{args.world} --mode {mode.name} scores one PLANS file at a time")
    if args.workers < 0:
        parser.error("--workers must be 0 (one per CPU) or more")
    if args.resume and not args.jsonl:
        parser.error("--resume needs --jsonl PATH (the file the interrupted run streamed to)")
    if args.jsonl == "-":
        parser.error("--jsonl needs a file path (--resume reads it back); for the results on standard output, "
                     "--out -")
    return mode

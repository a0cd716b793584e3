"""The ``eai-gym`` command.

Commands: ``score`` (offline scoring), ``prompts`` (:mod:`.cli_prompts`), ``evaluate`` (a model behind an
OpenAI-compatible endpoint, :mod:`.evaluate`), ``serve`` (a world's env server, :func:`eai_gym.registry.serve`),
``list``, ``show``, ``play``, ``report`` (:mod:`.cli_explore`), ``compat`` (:mod:`.compat.setup`). Worlds, modes,
protocols and per-mode options come from :mod:`eai_gym.registry`; this module names no world.
Exit codes: 0 success, 2 usage or unreadable input file (or an output path that is not a regular file), 1
unexpected internal error, 130 interrupted (Ctrl-C, SIGINT), 143 stopped by SIGTERM (:mod:`.interrupts`).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from typing import Any, NoReturn, Sequence

from . import __version__, registry
from .interrupts import exit_code, sigterm_interrupts


def _map(args: argparse.Namespace, items: list, jobs: Any, all_options: dict) -> tuple[list, dict, Any]:
    """Score every unit of ``jobs`` (one per input item) with the run options (--workers, --backend,
    --jsonl, --resume): the one place every world's scoring goes through. Returns the records in input
    order (only the fields the summary and the results file's fields read, where the mode names them:
    ``Jobs.summary_fields``), the result fields of their summary and, with --out, each record's JSON text (made
    where the record was: by the workers, in parallel)."""
    from .scoring.runner import run_items

    run_info = None
    if args.jsonl:  # the JSONL file's first line names the run it holds, so that --resume can check it
        import hashlib

        digest = hashlib.sha256(json.dumps(items, sort_keys=True, default=repr).encode("utf-8")).hexdigest()
        run_info = {"world": args.world, "mode": args.mode, "protocol": args.protocol, "n_items": len(items),
                    "input_sha256": digest, "options": all_options, "eai_gym_version": __version__}
    results = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=args.workers,
                        backend=args.backend, jsonl=args.jsonl, resume=args.resume, run_info=run_info,
                        encode=bool(args.out), keep=jobs.keep(),
                        log=lambda msg: print(f"eai-gym: {msg}", file=sys.stderr))
    records, texts = results if args.out else (results, None)
    return records, jobs.summarize(records), texts


def _score(args: argparse.Namespace, mode: registry.ModeSpec, options: dict, all_options: dict) -> int:
    from .scoring.io import InputFileError, OutPathError, check_out_path, input_paths
    from .scoring.results import ScoreRun

    try:
        check_out_path(args.out, input_paths(args.plans, mode, options), args.jsonl)
    except OutPathError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    from .scoring.runner import fewer_collections

    # the mode's code is imported before the clock starts (its entry points resolved), as the reference's own
    # timing leaves out importing its evaluator: the span is reading the items, the task data they use, scoring and
    # the results (not written yet)
    read_items = registry.load(mode.gold or "") if args.gold else registry.load(mode.load_items)
    make_jobs, make_result = registry.load(mode.jobs), registry.load(mode.result)
    t0 = time.perf_counter()
    with fewer_collections():  # task data, items and records are long-lived: collecting them is wasted work
        try:
            items = read_items(options) if args.gold else read_items(args.plans, options)
            jobs = make_jobs(items, args.protocol, options, mode)
        except InputFileError as e:
            print(f"eai-gym: {e}", file=sys.stderr)
            return 2
        records, fields, texts = _map(args, items, jobs, all_options)
        run = ScoreRun(args.world, mode, args.protocol, list(args.plans), args.gold, options, records, fields,
                       __version__, texts)
        result, shown = make_result(run)
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


def _add_score_parser(sub: Any) -> None:
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


def _add_evaluate_parser(sub: Any) -> None:
    from .evaluate.command import add_parser
    from .evaluate.targets import modes_of

    worlds = registry.worlds()
    modes = list(dict.fromkeys(m for w in worlds for m in modes_of(w)))
    protocols = list(dict.fromkeys(p for w in worlds for p in w.protocols))
    add_parser(sub, [w.name for w in worlds if modes_of(w)], modes, protocols)


def _add_serve_parser(sub: Any) -> None:
    worlds = registry.worlds()
    protocols = {w.name: registry.server_protocols(w.name) for w in worlds}
    v = sub.add_parser("serve", help="run a world's env server (OpenEnv for every world; AgentGym's protocol for "
                                     "alfworld)",
                       description="Run an env server for WORLD: eai-gym serve WORLD [--protocol P] [server options]. "
                                   "The first line printed is the server's base URL. The options after WORLD are "
                                   "the server's own (eai-gym serve WORLD [--protocol P] --help lists them).")
    v.add_argument("world", choices=[w.name for w in worlds])
    v.add_argument("server_args", nargs=argparse.REMAINDER, metavar="...",
                   help="--protocol P (default: the world's first): " + "; ".join(
                       f"{name}: {', '.join(p)}" for name, p in protocols.items()) + "; then the server's options")


def _serve_protocol(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[str, list[str]]:
    """The ``--protocol`` of ``eai-gym serve`` (wherever it is among the server's options) and the other options."""
    picker = argparse.ArgumentParser(add_help=False)
    picker.add_argument("--protocol", default=None)
    known, rest = picker.parse_known_args(args.server_args)
    protocols = registry.server_protocols(args.world)
    if known.protocol is not None and known.protocol not in protocols:
        parser.error(f"{args.world} is served with protocol(s) {', '.join(protocols)}, not {known.protocol}")
    return known.protocol or protocols[0], rest


#: what ``eai-gym serve`` needs: the ``server`` extra of pyproject.toml (``pip install 'eai-gym[server]'``)
SERVER_MODULES = ("fastapi", "uvicorn")


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a module registered without a spec: let the import say what it is
        return True


#: the commands, in the order ``eai-gym --help`` lists them; ``COMMANDS[4:8]`` are :mod:`.cli_explore`'s
COMMANDS = ("score", "evaluate", "prompts", "serve", "list", "show", "play", "report", "compat", "fake-llm")


class _Parser(argparse.ArgumentParser):
    """The top-level parser. Once a command line names its command, every error is reported with that command's
    usage: unrecognised arguments, and the errors the command finds after parsing (``parser.error``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands: dict[str, argparse.ArgumentParser] = {}
        self.command: str | None = None

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        ns, extras = super().parse_known_args(args, namespace)
        self.command = getattr(ns, "command", None)
        return ns, extras

    def error(self, message: str) -> NoReturn:
        sub = self.commands.get(self.command or "")
        if sub is not None:
            sub.error(message)
        if len(self.commands) < len(COMMANDS):  # a parser of one command, before it parsed: as the whole parser
            build_parser().error(message)
        super().error(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``command`` (one of :data:`COMMANDS`) a parser that knows only that
    command and parses its arguments, and reports errors, as the whole parser does (building every command's
    options costs more than parsing one command line)."""
    p = _Parser(prog="eai-gym", description="Symbolic embodied-planning environments and scorers.")
    p.add_argument("--version", action="version", version=f"eai-gym {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=argparse.ArgumentParser)
    if command in (None, "score"):
        _add_score_parser(sub)
    if command in (None, "evaluate"):
        _add_evaluate_parser(sub)
    if command in (None, "prompts"):
        from .cli_prompts import add_parser as add_prompts_parser

        add_prompts_parser(sub)
    if command in (None, "serve"):
        _add_serve_parser(sub)
    explore = {}
    if command is None or command in COMMANDS[4:8]:
        from .cli_explore import add_parsers

        explore = add_parsers(sub)
    if command in (None, "compat"):
        from .compat.setup import add_parser as add_compat_parser

        add_compat_parser(sub)
    if command in (None, "fake-llm"):
        from .evaluate.fake_llm import add_parser as add_fake_llm_parser

        add_fake_llm_parser(sub)
    p.set_defaults(explore=explore)
    p.commands = dict(sub.choices)
    return p


def _command(argv: Sequence[str]) -> str | None:
    """The command a command line names in its first word (None: none, or an option comes first)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


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


#: commands after which, run as a program, the process ends at once (:func:`os._exit`, once both streams are
#: flushed and every file written is closed): they hold the task data, and freeing it object by object at
#: interpreter exit took ~0.2 s of CPU, a third of ``eai-gym score virtualhome --gold``. Not under a profiler or
#: a tracer (cProfile, coverage): they write their results at exit.
QUICK_EXIT_COMMANDS = ("score", "prompts")


def main(argv: Sequence[str] | None = None) -> int:
    """The command; ``argv`` None: ``sys.argv`` (run as a program). SIGTERM stops it as Ctrl-C does
    (:mod:`.interrupts`): what runs is stopped, what finished is kept, and the exit code is 143 (130 for Ctrl-C)."""
    with sigterm_interrupts():
        try:
            parser = build_parser(_command(sys.argv[1:] if argv is None else argv))
            args = parser.parse_args(argv)
            code = _dispatch(parser, args, argv)
        except KeyboardInterrupt as e:
            print("eai-gym: interrupted", file=sys.stderr)
            return exit_code(e)
    if argv is None and args.command in QUICK_EXIT_COMMANDS and sys.getprofile() is None and sys.gettrace() is None:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - e.g. a closed pipe: leave it to the normal exit
            return code
        os._exit(code)
    return code


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    if args.command == "score":
        mode = _check_score_args(parser, args)
        options, all_options = _score_options(parser, args, mode)
        from .scoring.runner import RunnerError, WorkerError, check_backend
        try:
            check_backend(args.backend)
        except RunnerError as e:
            print(f"eai-gym: {e}", file=sys.stderr)
            return 2
        try:
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
    if args.command == "serve":
        protocol, server_args = _serve_protocol(parser, args)
        own = registry.world(args.world)
        missing = [m for m in SERVER_MODULES if not _importable(m)]
        # a world's own server needs the server extra; the shared protocols' servers name their own extra
        if own.server and protocol == own.server_protocol and missing and not {"-h", "--help"} & set(server_args):
            print(f"eai-gym: eai-gym serve needs the server extra ({', '.join(missing)} missing): "
                  f"pip install 'eai-gym[server]'", file=sys.stderr)
            return 2
        return registry.serve(args.world, protocol, server_args)
    if args.command == "prompts":
        from .cli_prompts import run as run_prompts

        try:
            return run_prompts(args)
        except BrokenPipeError:
            return 0
    if args.command == "evaluate":
        from .evaluate.command import run_evaluate
        from .scoring.io import OutPathError, check_out_dir

        try:
            check_out_dir(args.run_dir)
        except OutPathError as e:
            print(f"eai-gym: --run-dir: {e}", file=sys.stderr)
            return 2
        try:
            return run_evaluate(args, list(sys.argv[1:] if argv is None else argv))
        except KeyboardInterrupt as e:
            print(f"eai-gym: interrupted; finished replies are kept in {args.run_dir} (rerun with --resume)",
                  file=sys.stderr)
            return exit_code(e)
    if args.command == "compat":
        from .compat.setup import run as run_compat

        return run_compat(args)
    if args.command == "fake-llm":
        from .evaluate.fake_llm import run as run_fake_llm

        return run_fake_llm(args)
    if args.command in args.explore:
        from .cli_explore import run

        return run(args.explore[args.command], args)
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())

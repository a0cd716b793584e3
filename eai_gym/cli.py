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
import gc
import importlib.util
import sys
from typing import Any, NoReturn, Sequence

from . import __version__, registry
from .interrupts import exit_code, sigterm_interrupts


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
        from .cli_score import add_parser as add_score_parser

        add_score_parser(sub)
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
    if argv is None:
        # Run as a program, the process ends next. The objects the command made (task data, records) stay until the
        # end, and the interpreter's last cyclic collection at exit would walk every one of them (docs/benchmarks.md
        # gives what that cost); frozen, they are skipped by the collector and still freed as usual.
        gc.freeze()
    return code


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    if args.command == "score":
        from .cli_score import run as run_score

        return run_score(parser, args)
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

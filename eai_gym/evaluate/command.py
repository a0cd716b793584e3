"""The ``eai-gym evaluate`` command: flags, checks before any model call, and the run."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any, Callable

from .. import __version__
from ..interrupts import exit_code, sigterm_interrupts
from .limits import MAX_REPLY_CHARS

#: exit code of a run that finished but had requests that failed after their retries (rerun with --resume)
EXIT_REQUEST_ERRORS = 3


def number(kind: type, low: float, *, above: bool = False, what: str = "") -> Callable[[str], Any]:
    """An argparse type: a finite ``kind`` (int or float) that is at least ``low`` (``above``: more than it)."""
    bound = f"more than {low:g}" if above else f"at least {low:g}"

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'}, "
                                             f"got {text!r}") from None
        if not math.isfinite(value) or value < low or (above and value == low):
            raise argparse.ArgumentTypeError(f"must be a finite number {bound}{what}, got {text!r}")
        return value
    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def add_parser(sub: Any, worlds: list[str], modes: list[str], protocols: list[str]) -> argparse.ArgumentParser:
    e = sub.add_parser("evaluate", help="run a model behind an OpenAI-compatible endpoint on a world's prompts or "
                                        "episodes, score it, and record the run",
                       description="Prompts -> model -> replies -> the registered scorer (offline modes), or the "
                                   "model playing episodes through step() (--mode episodes). Everything is recorded "
                                   "in --run-dir; --resume continues a run without asking for finished requests again.")
    e.add_argument("world", choices=worlds)
    e.add_argument("--mode", required=True, choices=modes,
                   help="a mode with prompts (goal_interpretation, subgoal_decomposition, action_sequencing, "
                        "transition_modeling) or episodes (online play)")
    e.add_argument("--protocol", choices=protocols, default=None, help="default: the mode's default protocol")
    e.add_argument("--model", action="append", required=True, metavar="NAME",
                   help="the model name the endpoint serves; rearrange episodes: agent_0=NAME and agent_1=NAME "
                        "(or one NAME for both)")
    e.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"),
                   help="the endpoint, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL, else OpenAI's)")
    e.add_argument("--api-key-env", default="OPENAI_API_KEY",
                   help="the environment variable holding the API key (default OPENAI_API_KEY; never written anywhere)")
    e.add_argument("--run-dir", required=True, help="the run's directory (created; holds settings, requests, "
                                                    "replies, results and the reply cache)")
    e.add_argument("--resume", action="store_true", help="continue the run in --run-dir (same options)")
    e.add_argument("--concurrency", type=number(int, 1), default=4, help="requests in flight at once (default 4)")
    e.add_argument("--temperature", type=number(float, 0), default=0.0, help="sampling temperature (default 0)")
    e.add_argument("--max-tokens", type=number(int, 1), default=None,
                   help="reply length limit (default: the endpoint's)")
    e.add_argument("--seed", type=int, default=None, help="sampling seed sent to the endpoint")
    e.add_argument("--limit", type=number(int, 1), default=None, help="only the first N tasks")
    e.add_argument("--task", action="append", default=None, metavar="ID", help="only this task (repeatable)")
    e.add_argument("--system-prompt", metavar="FILE", help="a system message read from FILE")
    e.add_argument("--request-timeout", type=number(float, 0, above=True), default=120.0,
                   help="seconds per attempt (default 120)")
    e.add_argument("--max-retries", type=number(int, 0), default=6,
                   help="retries of a request on 429/5xx/timeouts/connection errors (default 6, exponential backoff)")
    e.add_argument("--max-steps", type=number(int, 1), default=50, help="episodes: replies per episode (default 50)")
    e.add_argument("--admissible", action="store_true", help="episodes: list the legal actions in every prompt")
    e.add_argument("--history", type=number(int, 0), default=0,
                   help="episodes: steps of history shown (default 0: all)")
    e.add_argument("--max-reply-chars", type=number(int, 1), default=MAX_REPLY_CHARS, metavar="N",
                   help=f"episodes: characters of one reply's action the history keeps (default {MAX_REPLY_CHARS}; "
                        f"longer ones are clipped with a marker)")
    from .. import registry

    for opt, users in registry.options():
        if opt.name in OWN_FLAGS:
            continue  # evaluate's own flag of that name wins; the mode's default applies
        where = ", ".join(dict.fromkeys(f"{m.world} {m.name}" for m in users))
        e.add_argument(opt.flag, type=int if opt.type == "int" else str, default=None,
                       choices=list(opt.choices) or None, help=f"{where}: {opt.help}")
    return e


#: evaluate's own flags that share a name with a scoring option (``--seed`` is the sampling seed here,
#: ``--max-steps`` the replies per episode)
OWN_FLAGS = ("seed", "max_steps")


def mode_options(args: argparse.Namespace, world: str, mode: str) -> dict[str, Any]:
    """The values of the scoring options the mode (for episodes: any mode of the world) takes."""
    from .. import registry

    w = registry.world(world)
    modes = w.modes if mode == "episodes" else (w.mode(mode),)
    out: dict[str, Any] = {}
    for m in modes:
        for opt in m.options:
            value = None if opt.name in OWN_FLAGS else getattr(args, opt.name, None)
            out.setdefault(opt.name, opt.default if value is None else value)
    return out


def settings_of(args: argparse.Namespace, protocol: str, argv: list[str]) -> dict[str, Any]:
    from .client import public_endpoint

    return {"eai_gym_version": __version__, "world": args.world, "mode": args.mode, "protocol": protocol,
            "model": args.model, "endpoint": public_endpoint(args.base_url),
            "sampling": {"temperature": args.temperature, "max_tokens": args.max_tokens, "seed": args.seed},
            "run_options": {"limit": args.limit, "task": args.task, "system_prompt": args.system_prompt,
                            "max_steps": args.max_steps, "admissible": args.admissible, "history": args.history,
                            "mode_options": mode_options(args, args.world, args.mode),
                            **({"max_reply_chars": args.max_reply_chars} if args.mode == "episodes" else {})},
            "request_options": {"concurrency": args.concurrency, "request_timeout": args.request_timeout,
                                "max_retries": args.max_retries},
            "api_key_env": args.api_key_env, "argv": _redacted(argv)}


def _redacted(argv: list[str]) -> list[str]:
    """The command line, with anything that looks like a key replaced (keys belong in the environment)."""
    out = []
    for a in argv:
        low = a.lower()
        out.append("<redacted>" if low.startswith(("sk-", "bearer ")) or "api_key=" in low or "apikey=" in low else a)
    return out


def resolve_task_ids(known: list[str], wanted: list[str]) -> list[str]:
    """The ids of ``known`` that ``wanted`` names, in ``known``'s order: each exactly, or as the id's last part
    (``27_2`` names VirtualHome's subgoal prompt ``scene_1_27_2``). Raises ValueError naming the unknown ones."""
    exact = set(known)
    chosen, missing = set(), []
    for t in wanted:
        hits = [t] if t in exact else [k for k in known if k.endswith("_" + t)]
        if len(hits) != 1:
            missing.append(t)
        else:
            chosen.add(hits[0])
    if missing:
        raise ValueError(f"unknown task(s) {', '.join(map(repr, missing))} ({len(known)} tasks, e.g. "
                         f"{', '.join(known[:3])})")
    return [k for k in known if k in chosen]


def select_tasks(all_ids: list[str], task: list[str] | None, limit: int | None) -> list[str]:
    ids = resolve_task_ids(all_ids, task) if task else list(all_ids)
    return ids[:limit] if limit is not None else ids


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` with every float rounded to ``digits`` decimals, for display."""
    if isinstance(value, float):
        return round(value, digits) if math.isfinite(value) else value
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v, digits) for v in value]
    return value


def run_evaluate(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the world's mode as the flags say. Exit codes: 0 done, 2 bad options, an unusable run directory or
    an endpoint that cannot be used (before any model call), 3 done with failed requests (rerun with --resume),
    130 interrupted (Ctrl-C), 143 stopped by SIGTERM; finished replies are kept in every case."""
    with sigterm_interrupts():  # as the command line sets it up (a caller of this function may not have)
        try:
            return _run_evaluate(args, argv)
        except KeyboardInterrupt as e:
            code = exit_code(e)
            print(f"eai-gym: {'stopped (SIGTERM)' if code == 143 else 'interrupted'}; finished "
                  f"replies are kept in {args.run_dir} (rerun with --resume)", file=sys.stderr)
            return code


def _run_evaluate(args: argparse.Namespace, argv: list[str]) -> int:
    from .. import registry
    from .client import LLM_MISSING, FatalRequestError, ModelClient
    from .offline import ScoringError
    from .rundir import RunDir, RunDirError
    from .targets import target as make_target

    try:
        target = make_target(args.world, args.mode, args.protocol, mode_options(args, args.world, args.mode))
    except registry.RegistryError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    try:
        models = target.models(args.model)
        tasks = select_tasks(target.task_ids(), args.task, args.limit)
    except ValueError as e:
        print(f"eai-gym: {args.world}: {e}", file=sys.stderr)
        return 2
    system_prompt = None
    if args.system_prompt:
        try:
            with open(args.system_prompt, encoding="utf-8") as f:
                system_prompt = f.read()
        except (OSError, UnicodeDecodeError) as e:
            print(f"eai-gym: cannot read the system prompt {args.system_prompt}: {e}", file=sys.stderr)
            return 2
    try:
        client = ModelClient(args.base_url, os.environ.get(args.api_key_env), timeout_s=args.request_timeout,
                             max_retries=args.max_retries)
    except ImportError:
        print(f"eai-gym: {LLM_MISSING}", file=sys.stderr)
        return 2
    sampling = {"temperature": args.temperature, "max_tokens": args.max_tokens, "seed": args.seed}
    try:
        with RunDir(args.run_dir, settings_of(args, target.protocol, argv), args.resume, begin=False) as run:
            if args.resume:
                client.check_before_first_request()  # everything may be in the cache already
            else:
                for note in client.check_endpoint(list(models.values())):
                    print(f"eai-gym: {note}", file=sys.stderr)
            run.begin()
            result = target.run(run, client, tasks, sampling=sampling, system_prompt=system_prompt, args=args)
    except RunDirError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    except FatalRequestError as e:
        kept = f"; finished replies are kept in {args.run_dir}" if os.path.exists(
            os.path.join(args.run_dir, "settings.json")) else ""
        print(f"eai-gym: {e}{kept}", file=sys.stderr)
        return 2
    except ScoringError as e:
        print(f"eai-gym: {e}; the replies are kept in {os.path.join(args.run_dir, 'replies.json')}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"eai-gym: cannot write in the run directory {args.run_dir}: {e.strerror or e}; finished replies "
              f"are kept (rerun with --resume)", file=sys.stderr)
        return 2
    finally:
        client.close()
    import json

    print(json.dumps(rounded(result["summary"]), indent=2))
    failed = result.get("n_request_errors", result["summary"].get("request_errors", 0))
    tokens = result["tokens"]
    print(f"{result['n_items']} items, {tokens['total_tokens']} tokens; results in "
          f"{os.path.join(args.run_dir, 'results.json')} (summary floats shown rounded to 4 decimals; the file "
          f"keeps them whole)", file=sys.stderr)
    if failed:
        print(f"eai-gym: {failed} request(s) failed after their retries (see requests.jsonl); "
              f"rerun with --resume to ask for them again", file=sys.stderr)
        return EXIT_REQUEST_ERRORS
    return 0

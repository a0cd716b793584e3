"""``eai-gym fake-llm``: a deterministic OpenAI-compatible server to try ``eai-gym evaluate`` without a model.

It prints its base URL (``http://HOST:PORT/v1``) as the first line of stdout, then serves until Ctrl-C or
SIGTERM (exit 0). Its replies play each world's format (:mod:`.fake_replies`); ``--faults`` switches on the
misbehaviour the tests use (:mod:`.fake_server`).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import Any

from .fake_server import CONTENT, TRANSIENT, FakeChatServer

FAULTS = TRANSIENT + CONTENT


def parse_faults(text: str) -> dict[str, float]:
    """``KIND[=FRACTION],...`` (FRACTION of the prompts, default 1) -> ``{kind: fraction}``."""
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, value = part.partition("=")
        kind = kind.strip()
        if kind not in FAULTS:
            raise argparse.ArgumentTypeError(f"unknown fault {kind!r}; expected one of {', '.join(FAULTS)}")
        try:
            fraction = float(value) if value else 1.0
        except ValueError:
            raise argparse.ArgumentTypeError(f"{part!r}: the fraction must be a number from 0 to 1") from None
        if not 0.0 <= fraction <= 1.0:
            raise argparse.ArgumentTypeError(f"{part!r}: the fraction must be a number from 0 to 1")
        out[kind] = fraction
    return out


def add_parser(sub: Any) -> argparse.ArgumentParser:
    from .command import number

    f = sub.add_parser("fake-llm", help="run a deterministic OpenAI-compatible server that answers in each world's "
                                        "format (to try eai-gym evaluate without a model)",
                       description="A fake model behind an OpenAI-compatible endpoint. It prints its base URL on the "
                                   "first line of stdout, then serves until Ctrl-C. EAI prompts get the gold output of "
                                   "their task; episode prompts get one of the admissible actions they list (else an "
                                   "action of their examples).")
    f.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    f.add_argument("--port", type=number(int, 0), default=8000, help="the port (default 8000; 0: a free one)")
    f.add_argument("--model", default="fake-model", help="the model name it lists (default fake-model)")
    f.add_argument("--strict-model", action="store_true", help="answer 404 to requests for another model")
    f.add_argument("--faults", type=parse_faults, default={}, metavar="KIND[=FRACTION],...",
                   help=f"misbehave for that fraction of the prompts (default 1): transient faults, on the first "
                        f"--fail-attempts attempts of a prompt ({', '.join(TRANSIENT)}), or replies "
                        f"({', '.join(CONTENT)})")
    f.add_argument("--fail-attempts", type=number(int, 1), default=1,
                   help="attempts of a prompt that meet its transient fault (default 1)")
    f.add_argument("--retry-after", type=number(float, 0), default=0.0,
                   help="the Retry-After seconds of a rate_limit fault (default 0)")
    f.add_argument("--slow-s", type=number(float, 0), default=2.0, help="seconds a slow fault takes (default 2)")
    f.add_argument("--delay-s", type=number(float, 0), default=0.0, help="seconds every reply takes (default 0)")
    f.add_argument("--huge-chars", type=number(int, 1), default=100_000,
                   help="characters of a huge reply (default 100000)")
    f.add_argument("--api-key-env", metavar="VAR",
                   help="require the key held in this environment variable (else 401); default: any key")
    f.add_argument("--no-models-route", action="store_true",
                   help="answer 404 on /v1/models (a server with only the chat route)")
    return f


def run(args: argparse.Namespace) -> int:
    from .fake_replies import WorldReplies

    api_key = None
    if args.api_key_env:
        api_key = os.environ.get(args.api_key_env)
        if not api_key:
            print(f"eai-gym: ${args.api_key_env} is not set (--api-key-env names the variable holding the key)",
                  file=sys.stderr)
            return 2
    transient = {k: v for k, v in args.faults.items() if k in TRANSIENT}
    content = {k: v for k, v in args.faults.items() if k in CONTENT}
    replies = WorldReplies()
    server = FakeChatServer(replies, model=args.model, transient=transient, content=content,
                            fail_attempts=args.fail_attempts, slow_s=args.slow_s, retry_after=f"{args.retry_after:g}",
                            delay_s=args.delay_s, api_key=api_key, strict_model=args.strict_model,
                            models_route=not args.no_models_route, huge_chars=args.huge_chars, host=args.host,
                            port=args.port)
    try:
        server.start()
    except OSError as e:
        print(f"eai-gym: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    try:
        replies.warm()
        print(server.base_url, flush=True)
        print(f"eai-gym fake-llm: serving {args.model!r} at {server.base_url}"
              + (f" with faults {', '.join(f'{k}={v:g}' for k, v in args.faults.items())}" if args.faults else "")
              + "; Ctrl-C stops it", file=sys.stderr, flush=True)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
    return 0

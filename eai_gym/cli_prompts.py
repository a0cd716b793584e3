"""``eai-gym prompts WORLD --mode MODULE``: the benchmark's LLM prompts, as the reference writes them.

Writes a JSON list of ``{"identifier", "llm_prompt"}`` in the reference's order (every task of the module,
or ``--task`` / ``--limit`` of them) to ``--out`` (``-``: standard output). The prompt builders are the
modes' ``prompts`` entry points in the registry; ``--protocol eai-1.0.5`` gives eai-eval 1.0.5's text byte
for byte, ``fixed`` (default) the same templates with every set-derived list in a hash-independent order.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import registry


def prompt_modes() -> list[tuple[str, str]]:
    return [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.prompts]


def add_parser(sub: Any) -> None:
    pairs = prompt_modes()
    worlds = list(dict.fromkeys(w for w, _ in pairs))
    modes = list(dict.fromkeys(m for _, m in pairs))
    p = sub.add_parser("prompts", help="write the benchmark's LLM prompts (reference-identical)",
                       description="Write the prompts of one module for every task (JSON list of {identifier, "
                                   "llm_prompt}, in the reference's order).")
    p.add_argument("world", choices=worlds)
    p.add_argument("--mode", required=True, choices=modes,
                   help="; ".join(f"{w}: {', '.join(m for ww, m in pairs if ww == w)}" for w in worlds))
    p.add_argument("--protocol", default=None,
                   help="fixed (default): hash-independent order of set-derived lists; eai-1.0.5: eai-eval 1.0.5's "
                        "text byte for byte (as run with PYTHONHASHSEED=0)")
    p.add_argument("--task", action="append", default=None, metavar="ID", help="only this task (repeatable)")
    p.add_argument("--limit", type=int, default=None, help="only the first N prompts")
    p.add_argument("-o", "--out", default="-", help="the JSON file to write (default -: standard output)")


def run(args: argparse.Namespace) -> int:
    from .scoring.io import OutPathError, check_out_path, save_text

    try:
        mode = registry.mode(args.world, args.mode)
    except registry.RegistryError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    if not mode.prompts:
        print(f"eai-gym: {args.world} --mode {mode.name} has no prompts", file=sys.stderr)
        return 2
    protocol = args.protocol or mode.default_protocol
    if protocol not in mode.protocols:
        print(f"eai-gym: {args.world} --mode {mode.name} has protocol(s) {', '.join(mode.protocols)}, not {protocol}",
              file=sys.stderr)
        return 2
    if args.limit is not None and args.limit < 0:
        print("eai-gym: --limit must be 0 or more", file=sys.stderr)
        return 2
    out = None if args.out == "-" else args.out
    try:
        check_out_path(out)
    except OutPathError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return 2
    prompts = mode.prompt_items(protocol, {o.name: o.default for o in mode.options})
    if args.task:
        from .evaluate.command import resolve_task_ids

        try:
            wanted = set(resolve_task_ids([p["identifier"] for p in prompts], args.task))
        except ValueError as e:
            print(f"eai-gym: {args.world} --mode {mode.name}: no prompt for {e}", file=sys.stderr)
            return 2
        prompts = [p for p in prompts if p["identifier"] in wanted]
    if args.limit is not None:
        prompts = prompts[:args.limit]
    text = json.dumps(prompts, indent=2, ensure_ascii=False) + "\n"
    if out is None:
        sys.stdout.write(text)
        return 0
    written, problem = save_text(out, text)
    if problem:
        print(f"eai-gym: {problem}", file=sys.stderr)
        return 2
    print(f"{len(prompts)} prompts ({args.world} {mode.name}, protocol {protocol}) written to {written}", file=sys.stderr)
    return 0

"""The ``eai-gym`` command.

Commands: ``score`` (offline scoring), ``list``, ``show``, ``play``, ``report`` (:mod:`.cli_explore`).
Exit codes: 0 success, 2 usage or unreadable input file, 1 unexpected internal error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Callable, Sequence

from . import __version__
from .cli_explore import add_parsers, run

WORLDS = ("virtualhome", "behavior", "rearrange", "alfworld")
#: per world: its scoring modes (the first is the default) and protocols (the first is the default)
WORLD_MODES = {"virtualhome": ("action_sequencing", "subgoal_decomposition", "similarity"),
               "behavior": ("action_sequencing", "subgoal_decomposition", "similarity"),
               "rearrange": ("facts", "actions", "similarity"), "alfworld": ("commands", "similarity")}
WORLD_PROTOCOLS = {"virtualhome": ("fixed", "eai-1.0.5"), "behavior": ("fixed", "eai-1.0.5"),
                   "rearrange": ("fixed", "partnr"), "alfworld": ("fixed",)}
MODES = tuple(dict.fromkeys(m for ms in WORLD_MODES.values() for m in ms))
PROTOCOLS = tuple(dict.fromkeys(p for ps in WORLD_PROTOCOLS.values() for p in ps))


def _score_virtualhome(args: argparse.Namespace) -> int:
    from .envs.virtualhome.tasks import gold_plan_json, task_ids
    from .scoring import jobs

    items, source = _items(args, lambda: [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()])
    if items is None:
        return 2
    shortcut = None if args.gold_shortcut is None else args.gold_shortcut == "on"
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.virtualhome_actions(items, args.protocol, shortcut))
    result = _result("virtualhome", args, source, records, fields.pop("summary"))
    result.update(fields)
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_virtualhome_subgoals(args: argparse.Namespace) -> int:
    from .envs.virtualhome.subgoals import goal_subgoal_plan
    from .envs.virtualhome.tasks import task_ids, task_record
    from .scoring import jobs

    def gold() -> list:
        return [{"identifier": t, "llm_output": json.dumps({"output": goal_subgoal_plan(task_record(t))})}
                for t in task_ids() if task_record(t)["tl_goal"]]

    items, source = _items(args, gold)
    if items is None:
        return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.virtualhome_subgoals(items, args.protocol, args.seed))
    result = _result("virtualhome", args, source, records, fields["summary"])
    result["seed"] = args.seed
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_behavior(args: argparse.Namespace) -> int:
    from .envs.behavior.tasks import task_ids, task_record
    from .scoring import jobs

    items, source = _items(args, lambda: [{"identifier": t, "llm_output": json.dumps(task_record(t)["gold_plan"])}
                                          for t in task_ids()])
    if items is None:
        return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.behavior_actions(items, args.protocol, args.initial_state))
    result = _result("behavior", args, source, records, fields["summary"])
    result["initial_state"] = args.initial_state
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_behavior_subgoals(args: argparse.Namespace) -> int:
    from .envs.behavior.subgoals import gold_subgoal_plan
    from .envs.behavior.tasks import task_ids, task_record
    from .scoring import jobs

    def gold() -> list:
        # the subgoals read off each task's human-annotated gold action plan
        return [{"identifier": t, "llm_output": json.dumps({"output": gold_subgoal_plan(task_record(t))})}
                for t in task_ids()]

    items, source = _items(args, gold)
    if items is None:
        return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.behavior_subgoals(items, args.protocol, args.initial_state, args.seed))
    result = _result("behavior", args, source, records, fields["summary"])
    result.update(seed=args.seed, initial_state=args.initial_state)
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_rearrange_facts(args: argparse.Namespace) -> int:
    from .scoring import jobs
    from .scoring.rearrange_facts import load_cases

    t0 = time.perf_counter()
    entries = load_cases(args.plans)
    tasks, fields = _map(args, entries, jobs.rearrange_facts(entries, args.protocol))
    result = {"world": "rearrange", "mode": args.mode, "protocol": args.protocol, "source": args.plans,
              "eai_gym_version": __version__, "summary": fields["summary"], "tasks": tasks}
    records = [{**r, "identifier": r["case_id"], "message": r.get("error")} for r in tasks]
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_rearrange_actions(args: argparse.Namespace) -> int:
    from .envs.rearrange.episode import EpisodeError, load_episodes, shipped_episodes
    from .scoring import jobs

    try:
        episodes = load_episodes(args.episodes) if args.episodes else shipped_episodes("val")
    except (OSError, ValueError, EpisodeError) as e:
        print(f"eai-gym: cannot read the episodes {args.episodes}: {e}", file=sys.stderr)
        return 2
    by_id = {e.episode_id: e for e in episodes}

    def gold() -> list:
        from .envs.rearrange.oracle import oracle_scripts

        return [{"episode_id": e.episode_id, "actions": oracle_scripts(e)} for e in episodes]
    items, source = _items(args, gold)
    if items is None:
        return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.rearrange_actions(items, by_id, args.protocol, args.max_steps,
                                                               args.observability))
    result = _result("rearrange", args, source, records, fields["summary"])
    result.update(episodes=args.episodes or "val (packaged)", max_steps=args.max_steps,
                  observability=args.observability)
    return _finish(args, result, records, time.perf_counter() - t0)


def _score_alfworld(args: argparse.Namespace) -> int:
    from .scoring import jobs

    def gold() -> list:
        from .envs.alfworld.engine import Engine
        from .envs.alfworld.generator import eval_game, eval_split
        from .envs.alfworld.oracle import Oracle

        out = []
        for i in range(len(eval_split())):
            engine = Engine(eval_game(i), args.dialect)
            out.append({"game": i, "commands": Oracle(engine).plan(engine.initial_state()) or []})
        return out
    items, source = _items(args, gold)
    if items is None:
        return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.alfworld(items, args.dialect))
    result = _result("alfworld", args, source, records, fields["summary"])
    result.update(dialect=args.dialect)
    return _finish(args, result, records, time.perf_counter() - t0)


#: the options that change what is scored (a --resume must repeat them)
SCORING_OPTIONS = ("gold_shortcut", "seed", "initial_state", "episodes", "max_steps", "observability", "dialect",
                   "reference")


def _map(args: argparse.Namespace, items: list, jobs) -> tuple[list, dict]:
    """Score every unit of ``jobs`` (one per input item) with the run options (--workers, --backend,
    --jsonl, --resume): the one place every world's scoring goes through. Returns the records in input
    order and the result fields of their summary."""
    import hashlib

    from .scoring.runner import run_items

    digest = hashlib.sha256(json.dumps(items, sort_keys=True, default=repr).encode("utf-8")).hexdigest()
    run_info = {"world": args.world, "mode": args.mode, "protocol": args.protocol, "n_items": len(items),
                "input_sha256": digest, "options": {k: getattr(args, k) for k in SCORING_OPTIONS},
                "eai_gym_version": __version__}
    records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=args.workers,
                        backend=args.backend, jsonl=args.jsonl, resume=args.resume, run_info=run_info,
                        log=lambda msg: print(f"eai-gym: {msg}", file=sys.stderr))
    return records, jobs.summarize(records)


def _score_similarity(args: argparse.Namespace) -> int:
    from .scoring import jobs
    from .scoring.io import InputFileError, read_items
    from .scoring.similarity import gold_items

    items, source = _items(args, lambda: gold_items(args.world, args.dialect))
    if items is None:
        return 2
    reference = None
    if args.reference != "gold":
        try:
            reference = read_items(args.reference)
        except InputFileError as e:
            print(f"eai-gym: {e}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    records, fields = _map(args, items, jobs.similarity(items, args.world, reference, args.dialect))
    result = _result(args.world, args, source, records, fields["summary"])
    result["reference"] = args.reference
    return _finish(args, result, records, time.perf_counter() - t0)


def _items(args: argparse.Namespace, gold: Callable[[], list]) -> tuple[list | None, str]:
    """The items to score: the packaged gold plans, or the plans file (None if unreadable)."""
    from .scoring.io import InputFileError, read_items

    if args.gold:
        return gold(), "gold plans (packaged)"
    try:
        return read_items(args.plans[0]), args.plans[0]
    except InputFileError as e:
        print(f"eai-gym: {e}", file=sys.stderr)
        return None, args.plans[0]


def _result(world: str, args: argparse.Namespace, source: str, records: list, summary: dict) -> dict:
    return {"world": world, "mode": args.mode, "protocol": args.protocol, "source": source,
            "eai_gym_version": __version__, "n_items": len(records),
            "n_invalid_input": sum(r["status"] == "invalid_input" for r in records),
            "summary": summary, "tasks": records}


def _finish(args: argparse.Namespace, result: dict, records: list, elapsed: float) -> int:
    from .scoring.io import write_json_atomic

    summary = result["summary"]
    if args.out:
        write_json_atomic(args.out, result)
    print(json.dumps(summary, indent=2))
    statuses: dict[str, int] = {}
    for r in records:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    line = ", ".join(f"{k} {v}" for k, v in sorted(statuses.items()))
    print(f"{len(records)} items ({line}) scored in {elapsed:.2f} s with protocol {args.protocol}"
          + (f"; results in {args.out}" if args.out else ""), file=sys.stderr)
    for r in records:
        if r["status"] in ("invalid_input", "evaluation_error"):
            print(f"  {r['status'].replace('_', ' ')} {r['identifier']!r}: {r['message']}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="eai-gym", description="Symbolic embodied-planning environments and scorers.")
    p.add_argument("--version", action="version", version=f"eai-gym {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score", help="score a file of LLM plans offline",
                       description="Replay static plans (LLM outputs) through the environment and "
                                   "print the reference benchmark's summary.")
    s.add_argument("world", choices=WORLDS)
    s.add_argument("plans", nargs="*",
                   help="virtualhome/behavior: one JSON file, a list of {identifier, llm_output} or a dict id -> "
                        "output; rearrange --mode facts: case files and/or folders of cases; rearrange --mode actions: "
                        "one JSON file of {episode_id, actions: {agent_0: [...], agent_1: [...]}}; alfworld: one JSON file "
                        "of {game, commands}")
    s.add_argument("--gold", action="store_true", help="score the packaged gold plans instead of a file")
    s.add_argument("--mode", choices=MODES, default=None,
                   help="virtualhome/behavior: action_sequencing (default) or subgoal_decomposition; "
                        "rearrange: facts (replay per-step world facts through the evaluation engine) or "
                        "actions (replay per-agent skill scripts through the rearrange world); alfworld: commands; "
                        "every world: similarity (LCS, Jaccard and edit distance against a reference plan)")
    s.add_argument("--protocol", choices=PROTOCOLS, default="fixed",
                   help="fixed (default): documented intent; the reference's exact behaviour: eai-1.0.5 "
                        "(virtualhome, behavior) or partnr (rearrange)")
    s.add_argument("--gold-shortcut", choices=("on", "off"), default=None,
                   help="virtualhome: count plans identical to the gold script as executable without "
                        "simulating them (default: on for eai-1.0.5, off for fixed)")
    s.add_argument("--seed", type=int, default=0,
                   help="subgoal_decomposition, eai-1.0.5: seed of the reference's random choice of 'or' "
                        "disjuncts (0 reproduces runs after random.seed(0); fixed explores them all)")
    s.add_argument("--initial-state", choices=("calibrated", "reference-defaults"), default="calibrated",
                   help="behavior: how unstated initial values are completed (default: calibrated)")
    s.add_argument("--episodes", default=None,
                   help="rearrange --mode actions: the episode file (PARTNR layout; default: the packaged "
                        "validation set)")
    s.add_argument("--max-steps", type=int, default=300,
                   help="rearrange --mode actions: ticks before an episode is cut off (default 300)")
    s.add_argument("--observability", choices=("full", "partial"), default="full",
                   help="rearrange --mode actions: what the agents see (no effect on scripted replays' "
                        "outcome; recorded in the results)")
    s.add_argument("--dialect", choices=("0.4", "0.3"), default="0.4",
                   help="alfworld: the text dialect (0.4: move X to Y; 0.3: put X in/on Y), unless an item says")
    s.add_argument("--reference", default="gold",
                   help="--mode similarity: compare each plan with the task's gold plan (gold, the default) or "
                        "with the plan for the same task in this plans file")
    s.add_argument("-o", "--out", help="write the full results (summary and one record per item) to this JSON "
                                       "file (atomically, once every item is scored)")
    s.add_argument("--workers", type=int, default=1,
                   help="score with N worker processes (or Ray actors); 1 (default): in this process; "
                        "0: one per CPU. Results are the serial ones, in input order")
    s.add_argument("--backend", choices=("processes", "ray"), default="processes",
                   help="processes (default): a local process pool; ray: Ray actors, on the cluster named by "
                        "RAY_ADDRESS or a local one (pip install 'eai-gym[ray]')")
    s.add_argument("--jsonl", metavar="PATH",
                   help="stream each item's record to this JSONL file as it finishes "
                        "({\"index\": i, \"record\": ...} lines after a {\"run\": ...} line)")
    s.add_argument("--resume", action="store_true",
                   help="with --jsonl: keep the records an interrupted run left there and score only the rest")
    p.set_defaults(explore=add_parsers(sub))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "score":
        if bool(args.plans) == args.gold:
            parser.error("give a PLANS file or --gold (not both)")
        args.mode = args.mode or WORLD_MODES[args.world][0]
        if args.mode not in WORLD_MODES[args.world]:
            parser.error(f"{args.world} has mode(s) {', '.join(WORLD_MODES[args.world])}, not {args.mode}")
        if args.protocol not in WORLD_PROTOCOLS[args.world]:
            parser.error(f"{args.world} has protocol(s) {', '.join(WORLD_PROTOCOLS[args.world])}, not {args.protocol}")
        if args.world != "rearrange" and len(args.plans) > 1:
            parser.error(f"{args.world} scores one PLANS file at a time")
        if args.world == "rearrange" and args.mode == "facts" and args.gold:
            parser.error("rearrange --mode facts has no packaged gold cases; give case files or folders")
        if args.world == "rearrange" and args.mode == "actions" and len(args.plans) > 1:
            parser.error("rearrange --mode actions scores one PLANS file at a time")
        if args.workers < 0:
            parser.error("--workers must be 0 (one per CPU) or more")
        if args.resume and not args.jsonl:
            parser.error("--resume needs --jsonl PATH (the file the interrupted run streamed to)")
        from .scoring.runner import RunnerError, check_backend
        try:
            check_backend(args.backend)
        except RunnerError as e:
            print(f"eai-gym: {e}", file=sys.stderr)
            return 2
        try:
            if args.mode == "similarity":
                return _score_similarity(args)
            if args.world == "rearrange":
                return _score_rearrange_actions(args) if args.mode == "actions" else _score_rearrange_facts(args)
            if args.world == "alfworld":
                return _score_alfworld(args)
            if args.world == "virtualhome":
                if args.mode == "subgoal_decomposition":
                    return _score_virtualhome_subgoals(args)
                return _score_virtualhome(args)
            if args.mode == "subgoal_decomposition":
                return _score_behavior_subgoals(args)
            return _score_behavior(args)
        except BrokenPipeError:
            return 0
        except RunnerError as e:
            print(f"eai-gym: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("eai-gym: interrupted" + (f"; the finished records are in {args.jsonl} (rerun with --resume)"
                                            if args.jsonl else ""), file=sys.stderr)
            return 130
    if args.command in args.explore:
        return run(args.explore[args.command], args)
    parser.error(f"unknown command {args.command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())

"""Command replay for ALFWorld: score per-game command lists with success and every progress metric.

A commands file is a JSON list of items::

    {"identifier": "run-7",                          # optional; default: the game
     "game": {"split": "eval", "index": 12}          # or a game folder path (initial_state.pddl + traj_data.json)
     "commands": ["go to fridge 1", "open fridge 1", ...],
     "dialect": "0.4"}                                # optional, default the scorer's

Each command is run through the engine (a command that is not admissible gives ``Nothing happens.``);
the episode stops when the goal holds or the commands run out. Commands after the winning one are
ignored, as ALFWorld ignores them (a won game is frozen: same observation, same infos): they are not
steps of any metric, and ``commands_after_win`` counts them. Each record: ``success``, ``steps``,
the initial oracle plan length, AgentQuest's progress (per step and final) and repetition rate, the
FSM progress (per step and final), AgentBoard's progress (per step and final) and grounding
accuracy; the FSM and AgentBoard finals are also given ``_dialect_aware`` (accepting the 0.4 texts,
which the originals never match). A malformed item is ``invalid_input`` and the others are still scored.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Mapping, Sequence

from ...envs.alfworld.command_errors import classify
from ...envs.alfworld.engine import DIALECTS, NOTHING, Engine
from ...envs.alfworld.game import Game, GameError, load_game_folder
from ...envs.alfworld.generator import eval_game, eval_split
from ...envs.alfworld.oracle import Oracle
from ...envs.alfworld.pddl import PddlError
from ...envs.alfworld.progress import progress_series
from ...metrics.alfworld_progress import grounding_accuracy, repetition_rate
from ..items import describe_error, item_identifier, quote, short_repr
from ..similarity import compare


class ItemError(ValueError):
    pass


def game_of(spec: Any) -> Game:
    """The game an item's ``game`` names (raises :class:`ItemError`, :class:`GameError` or :class:`PddlError`)."""
    index = _eval_index(spec)
    if index is not None:
        n = len(eval_split())
        if not 0 <= index < n:
            shown = index if index.bit_length() <= 64 else "with more than 19 digits"
            raise ItemError(f"eval index {shown} out of range 0..{n - 1}")
        return eval_game(index)
    if isinstance(spec, str):
        return load_game_folder(_folder(spec))
    raise ItemError("'game' must be an eval index, {'split': 'eval', 'index': i} or a game folder, got "
                    + short_repr(spec))


def _eval_index(spec: Any) -> int | None:
    """The eval index ``spec`` names (an integer, or ``{"split": "eval", "index": i}``), else None."""
    if isinstance(spec, Mapping) and spec.get("split") == "eval":
        spec = spec.get("index")
    return spec if isinstance(spec, int) and not isinstance(spec, bool) else None


def _folder(path: str) -> str:
    """A game folder path that names two regular files (raises :class:`ItemError`)."""
    try:
        path.encode("utf-8")
        if "\x00" in path:
            raise ValueError("a NUL character")
        files = [os.path.join(path, name) for name in ("initial_state.pddl", "traj_data.json")]
        missing = [f for f in files if not os.path.isfile(f)]
    except (ValueError, OSError) as e:  # (UnicodeEncodeError is a ValueError: a lone surrogate)
        raise ItemError(f"'game' is not a usable folder path ({describe_error(e)})") from None
    if missing:
        raise ItemError(f"the game folder {quote(path)} has no regular file {os.path.basename(missing[0])}")
    return path


def game_key(item: Any) -> Any:
    """What :meth:`Jobs.once_per_identifier` compares: the item's identifier (a string) or else its game (an
    eval index, a folder path); None when it names neither."""
    if not isinstance(item, Mapping):
        return None
    ident = item.get("identifier")
    if isinstance(ident, str):
        return ("identifier", ident)
    game = item.get("game")
    index = _eval_index(game)
    if index is not None:
        return ("eval", index)
    return ("folder", os.path.normpath(game)) if isinstance(game, str) else None


def trajectory(engine: Engine, commands: Sequence[str], oracle: Oracle | None = None) -> list[dict[str, Any]]:
    """The steps of ``commands`` from the game's initial state (see :mod:`eai_gym.envs.alfworld.progress`).
    What a state gives (its commands, whether it is won, its admissible commands, its plan length) is worked
    out once per state: a long list of commands that revisit states (or change nothing) costs little more per
    command than reading it."""
    oracle = oracle or Oracle(engine)
    state = engine.initial_state()
    seen: dict[tuple, tuple] = {}

    def facts() -> tuple:
        key = state.key()
        known = seen.get(key)
        if known is None:
            plan = oracle.plan(state)
            known = seen[key] = (engine.commands(state), engine.won(state), engine.admissible(state),
                                 len(plan) if plan is not None else None)
        return known

    def row(action: str | None, obs: str, known: tuple) -> dict[str, Any]:
        return {"action": action, "obs": obs, "won": known[1], "admissible": list(known[2]),
                "plan_length": known[3]}
    known = facts()
    steps = [row(None, engine.intro(engine.game.task_text(0)), known)]
    for cmd in commands:
        op = known[0].get(cmd.strip()) if isinstance(cmd, str) else None  # what engine.step(state, cmd) does
        obs = NOTHING if op is None else engine.apply(state, op)
        known = facts()
        steps.append(row(cmd, obs, known))
        steps[-1]["executed"] = op is not None
        if known[1]:
            break
    return steps


def score_item(item: Any, dialect: str = "0.4", theta: float = 1.0) -> dict[str, Any]:
    ident = item_identifier(item)
    rec: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": ""}
    try:
        if not isinstance(item, Mapping):
            raise ItemError(f"an item must be an object, got {type(item).__name__}")
        cmds = item.get("commands")
        if not isinstance(cmds, list) or not all(isinstance(c, str) for c in cmds):
            raise ItemError("'commands' must be a list of strings")
        d = item.get("dialect", dialect)
        if d not in DIALECTS:
            raise ItemError(f"unknown dialect {d!r}; expected 0.4 or 0.3")
        game = game_of(item.get("game"))
    except (ItemError, GameError, PddlError, IndexError) as e:
        rec.update(status="invalid_input", message=str(e), success=False, executable=False, error_type=None)
        return rec
    engine = Engine(game, d)
    oracle = Oracle(engine)
    steps = trajectory(engine, cmds, oracle)
    gold = oracle.plan(engine.initial_state())
    series = progress_series(game.task_type, game.params, steps)
    aq, fsm, ab = series["agentquest"], series["fsm"], series["agentboard"]
    fsm_aware, ab_aware = series["fsm_dialect_aware"], series["agentboard_dialect_aware"]
    n = len(steps) - 1
    rec.update(identifier=ident if ident is not None else game.name, game=game.name, task_type=game.task_type,
               dialect=d, success=bool(steps[-1]["won"]), steps=n, initial_plan_length=steps[0]["plan_length"],
               agentquest_progress=aq, agentquest_progress_final=aq[-1] if aq else 0.0,
               repetition_rate=repetition_rate([s["action"] for s in steps[1:]], n, theta),
               fsm_progress=fsm, fsm_states=series["fsm_states"], fsm_progress_final=fsm[-1] if fsm else 0.0,
               fsm_progress_final_dialect_aware=fsm_aware[-1] if fsm_aware else 0.0,
               agentboard_progress=ab, agentboard_progress_final=ab[-1] if ab else 0.0,
               agentboard_progress_final_dialect_aware=ab_aware[-1] if ab_aware else 0.0,
               grounding_accuracy=grounding_accuracy(steps), commands_used=n, commands_after_win=len(cmds) - n,
               similarity=None if gold is None else compare(list(cmds), gold))
    # every plan mode's fields: each command was admissible; the EAI error type of the first that was not
    failed = next((s["action"] for s in steps[1:] if not s["executed"]), None)
    rec.update(executable=failed is None, error_type=None if failed is None else classify(engine, failed)[0].value)
    return rec


#: the record fields :func:`summarize` reads (with ``status``)
SUMMARY_FIELDS = ("success", "steps", "task_type", "grounding_accuracy", "agentquest_progress_final",
                  "fsm_progress_final", "fsm_progress_final_dialect_aware", "agentboard_progress_final")


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    done = [r for r in records if r["status"] == "evaluated"]

    def block(rs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        if not rs:
            return {"games": 0}
        ga = [r["grounding_accuracy"] for r in rs if r["grounding_accuracy"] is not None]
        return {"games": len(rs), "success_rate": round(sum(r["success"] for r in rs) / len(rs), 4),
                "avg_progress_rate": round(sum(r["agentquest_progress_final"] for r in rs) / len(rs), 4),
                "avg_fsm_progress": round(sum(r["fsm_progress_final"] for r in rs) / len(rs), 4),
                "avg_fsm_progress_dialect_aware": round(sum(r["fsm_progress_final_dialect_aware"] for r in rs) / len(rs), 4),
                "avg_agentboard_progress": round(sum(r["agentboard_progress_final"] for r in rs) / len(rs), 4),
                "avg_grounding_accuracy": round(sum(ga) / len(ga), 4) if ga else None,
                "avg_steps": round(sum(r["steps"] for r in rs) / len(rs), 2)}
    types = sorted({r["task_type"] for r in done})
    return {**block(done), "by_task_type": {t: block([r for r in done if r["task_type"] == t]) for t in types},
            "invalid_input": sum(r["status"] == "invalid_input" for r in records)}


def score_items(items: Iterable[Any], dialect: str = "0.4", theta: float = 1.0) -> dict[str, Any]:
    records = [score_item(it, dialect, theta) for it in items]
    return {"summary": summarize(records), "tasks": records}

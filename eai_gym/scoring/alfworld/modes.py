"""ALFWorld's scoring modes as :mod:`eai_gym.registry` names them: the jobs, the packaged gold items and the
actions plan similarity compares."""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..jobs import Jobs, same
from ..similarity import PlanItemError


def _item(ctx: tuple, item: Any) -> dict:
    from .commands import score_item

    return score_item(item, ctx[0])


def commands_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .commands import SUMMARY_FIELDS, game_key, summarize

    return Jobs(_item, list(items), lambda rs: {"summary": summarize(rs)}, same, (options["dialect"],),
                summary_fields=SUMMARY_FIELDS).once_per_identifier(game_key, mode="commands", protocol=protocol)


def oracle_commands(game: Any, dialect: str) -> list[str]:
    """The oracle's shortest command list from a game's initial state (``game`` as an item names it)."""
    from ...envs.alfworld.engine import Engine
    from ...envs.alfworld.oracle import Oracle
    from .commands import game_of

    engine = Engine(game_of(game), dialect)
    return Oracle(engine).plan(engine.initial_state()) or []


def commands_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """The oracle's shortest command list for every game of the eval split, in ``--dialect``."""
    from ...envs.alfworld.generator import eval_split

    return [{"game": i, "commands": oracle_commands(i, options["dialect"])} for i in range(len(eval_split()))]


def similarity_actions(item: Any) -> tuple[str, list[str]]:
    if not isinstance(item, Mapping):
        raise PlanItemError(f"an item must be an object, got {type(item).__name__}")
    cmds = item.get("commands")
    if not isinstance(cmds, list) or not all(isinstance(c, str) for c in cmds):
        raise PlanItemError("'commands' must be a list of strings")
    try:
        key = json.dumps(item.get("game"), sort_keys=True)
    except (ValueError, TypeError, RecursionError) as e:
        raise PlanItemError(f"'game' cannot be read ({type(e).__name__})") from None
    return key, list(cmds)


def gold_actions(key: str, options: Mapping[str, Any]) -> list[str]:
    return oracle_commands(json.loads(key), options.get("dialect", "0.4"))


def similarity_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """Every eval game's oracle commands, through the similarity gold cache."""
    from ...envs.alfworld.generator import eval_split
    from ..similarity import gold_plan

    dialect = options.get("dialect", "0.4")
    return [{"game": i, "commands": gold_plan("alfworld", json.dumps(i), {"dialect": dialect})}
            for i in range(len(eval_split()))]

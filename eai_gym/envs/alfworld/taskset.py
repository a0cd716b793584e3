"""ALFWorld's task set (the eval split's games) as ``eai-gym list``, ``show``, ``play`` and ``report`` see it
(named by its :mod:`.spec`)."""

from __future__ import annotations

from typing import Any


def ids() -> list[str]:
    from .generator import eval_split

    return [str(i) for i in range(len(eval_split()))]


def names() -> list[str]:
    from .generator import eval_game

    return [f"{eval_game(int(i)).task_type}: {eval_game(int(i)).task_text(0)}" for i in ids()]


def card(t: str) -> dict[str, Any]:
    from .engine import Engine
    from .generator import eval_game, formula_text
    from .oracle import Oracle

    game = eval_game(int(t))
    engine = Engine(game)
    return {"id": t, "name": f"{game.task_type} ({game.name})", "instruction": game.task_text(0),
            "goal": [formula_text(game.goal)], "objects": sorted(engine.name[o] for o in game.objects + game.receptacles),
            "gold_plan": Oracle(engine).plan(engine.initial_state()) or [], "gold_plan_source": "oracle (shortest)"}


def play(t: str | None, protocol: str) -> tuple[str, dict, dict | None]:
    """The env and reset options of a task; the goal is phrased with the game's first template, as ``names`` and
    ``card`` (``show``) and the offline scorer phrase it (the env alone draws one of ALFWorld's two)."""
    return "eai_gym/AlfWorld-v0", {}, {"split": "eval", "template": 0, **({} if t is None else {"index": int(t)})}


def legal_actions(env: Any) -> list[str]:
    base = env.unwrapped
    return base.engine.admissible(base.state)


def category(t: str) -> None:
    """Records carry their task type themselves."""
    return None

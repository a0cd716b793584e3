"""Replay a recorded ALFWorld reference transcript through eai-gym's env, step by step.

Used by ``test_alfworld_listing_and_win.py`` and by ``python -m tools.reference.alfworld_games compare``.
A transcript row (``tools/reference/alfworld_play.py``) holds the reference's obs, score, done, won,
admissible commands, planner plan, handcoded expert's next command, the facts a command can change
(readable, as textworld prints them) and a digest of all facts.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

from eai_gym.envs.alfworld.env import AlfWorldEnv
from eai_gym.envs.alfworld.game import game_from_pddl

INFOS = ["admissible_commands", "won", "expert_plan", "expert_next", "facts"]
_FACT = re.compile(r"^(\w+)\((.*)\)$")
#: textworld's predicate -> the word eai-gym's ``facts()`` uses (objectatlocation follows from inreceptacle)
_WORD = {"atlocation": "at", "inreceptacle": "in"}


def reference_facts(facts: list[str]) -> list[str]:
    """textworld's printed facts (``inreceptacle(apple 1: object, fridge 1: receptacle)``) in eai-gym's
    words (``in apple 1 fridge 1``), sorted; the agent argument is dropped."""
    out = []
    for f in facts:
        m = _FACT.match(f)
        assert m, f
        pred, args = m.group(1), [a.rsplit(":", 1)[0].strip() for a in m.group(2).split(", ")]
        if pred == "objectatlocation" or pred.startswith("not_"):
            continue
        args = [a for a in args if a != "agent1"]
        out.append(" ".join([_WORD.get(pred, pred)] + args))
    return sorted(out)


def comparable_facts(facts: list[str]) -> list[str]:
    """eai-gym's facts without ``ison``: textworld's fact list applies both conditional effects of
    ``ToggleObject`` (``when isOn: not isOn``, ``when not isOn: isOn``) and shows ``not_ison`` after
    every ``use``, while the planner's state (and eai-gym) toggles ``isOn``; no text or goal reads it."""
    return sorted(f for f in facts if not f.startswith("ison "))


def replay_env(case: dict[str, Any], run: str) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Yield (reference row, list of mismatches) per step; ``row["after_win"]`` marks a step sent after
    the step that won (which both must freeze: same obs and infos as that step)."""
    rows = case["transcripts"][run]
    game = game_from_pddl(case["pddl"], case["traj"], case["spec"]["name"])
    env = AlfWorldEnv([game], dialect=run.split("/")[0], request_infos=INFOS)
    task = rows[0]["obs"].split("Your task is to: ")[1][:-1]
    template = [game.task_text(i) for i in (0, 1)].index(task)
    won_ref = won_ours = None
    for row in rows:
        if row["command"] is None:
            obs, info = env.reset(options={"game": game, "template": template})
            reward, terminated = 0.0, False
        else:
            obs, reward, terminated, truncated, info = env.step(row["command"])
        problems = [k for k, ok in (("obs", obs == row["obs"]), ("admissible", info["admissible_commands"] == row["admissible"]),
                                    ("won", info["won"] == row["won"]),
                                    ("done", row["command"] is None or terminated == row["done"]),
                                    ("plan", len(info["expert_plan"]) == len(row["planner_plan"])),
                                    ("facts", row.get("facts") is None or comparable_facts(info["facts"]) == reference_facts(row["facts"])))
                    if not ok]
        after = won_ref is not None
        row = {**row, "after_win": after}
        if after:  # the reference repeats the winning step; eai-gym too, with reward 0 and the ignored command
            same_ref = {k: row.get(k) == won_ref.get(k) for k in ("obs", "score", "done", "won", "admissible",
                                                                  "planner_plan", "handcoded_next", "facts",
                                                                  "facts_sha256")}
            problems += [f"reference {k} changed after the win" for k, ok in same_ref.items() if not ok]
            ours = {k: v for k, v in info.items() if k != "step"}
            if ours != won_ours or reward != 0.0 or not terminated:
                problems.append("eai-gym changed after the win")
            if not (info["step"]["details"].get("after_win") and info["step"]["raw"] == row["command"]):
                problems.append("step record of the ignored command")
        elif row["command"] is not None and row["done"]:
            won_ref, won_ours = row, {k: v for k, v in info.items() if k != "step"}
        yield row, problems

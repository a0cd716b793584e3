"""PARTNR's skill vocabulary and syntax: the skill names, ``Name[arg, ...]`` parsing with PARTNR's error texts,
the failure a skill raises, and the phases a running skill is made of (:mod:`.skills` runs them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ...core import ErrorType

SUCCESS = "Successful execution!"
MOTOR_SKILLS = ("Navigate", "Pick", "Place", "Rearrange", "Open", "Close", "Clean", "Fill", "Pour", "PowerOn",
                "PowerOff", "Explore", "Wait")
TOOLS = ("FindObjectTool", "FindReceptacleTool", "FindRoomTool", "FindAgentActionTool")
SKILLS = MOTOR_SKILLS + TOOLS + ("Done",)
STATE_SKILLS = ("Clean", "Fill", "Pour", "PowerOn", "PowerOff")
_ARITY = {"Navigate": 1, "Pick": 1, "Open": 1, "Close": 1, "Clean": 1, "Fill": 1, "Pour": 1, "PowerOn": 1,
          "PowerOff": 1, "Explore": 1, "Wait": 0, "Done": 0, "FindAgentActionTool": 0}
_SYNTAX = re.compile(r"^\s*([A-Za-z_]\w*)\s*\[(.*)\]\s*$", re.S)
PLACE_API = ("Wrong use of API for place or rearrange. Please us [<object_to_be_moved>, <spatial_relation>, "
             "<furniture/floor to be placed>, <spatial_constraint> (Optional - None otherwise), "
             "<reference_object> (Optional - None otherwise)]")


class SkillFailure(Exception):
    def __init__(self, error: ErrorType, text: str) -> None:
        super().__init__(text)
        self.error = error
        self.text = text


@dataclass
class Phase:
    ticks: int
    run: Callable[[], str | None]  #: applies the effect; returns an answer text or None; raises SkillFailure


@dataclass
class RunningSkill:
    text: str
    name: str
    args: tuple[str, ...]
    phases: list[Phase] = field(default_factory=list)
    ticks_left: int = 0  #: in the current phase
    answer: str = ""

    def __post_init__(self) -> None:
        self.ticks_left = self.phases[0].ticks if self.phases else 0


def parse(text: object) -> tuple[str, tuple[str, ...]]:
    """``"Place[cup_1, on, table_2, None, None]"`` → ``("Place", ("cup_1", "on", "table_2", "None", "None"))``."""
    if not isinstance(text, str):
        raise SkillFailure(ErrorType.PARSING, f"An action must be text like Navigate[table_1], got {type(text).__name__}")
    m = _SYNTAX.match(text)
    if m is None:
        raise SkillFailure(ErrorType.PARSING, f"Could not parse the action {text.strip()[:80]!r}: expected Tool[arguments]")
    name, inner = m.group(1), m.group(2).strip()
    if name not in SKILLS:
        raise SkillFailure(ErrorType.HALLUCINATION, f'Tool "{name}" not found')
    if name in TOOLS[:3]:
        return name, (inner,)
    args = tuple(a.strip() for a in inner.split(",")) if inner else ()
    n = _ARITY.get(name)
    if n is not None and len(args) != n:
        raise SkillFailure(ErrorType.ARGUMENTS, f"{name} takes {n} argument{'s' if n != 1 else ''}, got {len(args)}")
    return name, args

"""A parsed action: a name and its arguments, plus the raw text it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable


@dataclass(frozen=True, slots=True)
class Action:
    """One grounded action.

    Attributes:
        name: the action name in the world's vocabulary (upper case for VirtualHome).
        args: object identifiers the action applies to, in order.
        arg_names: the names the agent used for those objects (for messages and logs).
        raw: the text the agent sent, unchanged.
    """

    name: str
    args: tuple[Hashable, ...] = ()
    arg_names: tuple[str, ...] = ()
    raw: str = field(default="", compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "args": list(self.args), "arg_names": list(self.arg_names)}

"""Step records: what happened to one action. The same record type for every world."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .action import Action
from .errors import ErrorType


def raw_text(action: Any) -> str:
    """What a step records as the raw text of an action sent as something else than a ``str``: its ``repr``, or,
    where Python refuses one (an int past its 4,300-digit conversion limit, a ``__repr__`` that raises), its type
    and size."""
    if isinstance(action, str):
        return action
    try:
        return repr(action)
    except Exception:  # noqa: BLE001 - any value an agent sends must give a record
        if isinstance(action, int):
            return f"<an int of {action.bit_length()} bits>"
        return f"<a {type(action).__name__}>"


@dataclass(slots=True)
class Step:
    """The record of one action sent to a world.

    Attributes:
        index: position of the action in the episode (0-based).
        raw: the action as the agent sent it.
        action: the parsed action, or None if it could not be parsed or resolved.
        ok: True if the action executed and changed (or kept) the state as intended.
        error: the failure class, None when ``ok``.
        message: a human-readable explanation of the failure ("" when ok).
        feedback: the text the environment shows the agent after this action.
        details: world-specific extras (e.g. the missing preconditions), JSON-serialisable.
    """

    index: int
    raw: str
    action: Action | None
    ok: bool
    error: ErrorType | None = None
    message: str = ""
    feedback: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def executed(self) -> bool:
        """True if the action changed the world's trajectory (it succeeded)."""
        return self.ok

    @property
    def fatal(self) -> bool:
        return self.error is not None and self.error.is_fatal

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data; an action that was not parsed is ``{}`` (a dict-valued entry is
        always a dict, so Gymnasium's vector envs can batch the records of several envs)."""
        return {
            "index": self.index,
            "raw": self.raw,
            "action": {} if self.action is None else self.action.to_dict(),
            "ok": self.ok,
            "error": None if self.error is None else self.error.value,
            "message": self.message,
            "feedback": self.feedback,
            "details": self.details,
        }

"""The EAI error taxonomy shared by every world."""

from __future__ import annotations

from enum import Enum


class ErrorType(str, Enum):
    """Why an action (or a whole plan) failed.

    The grammar errors (``PARSING``, ``HALLUCINATION``, ``ARGUMENTS``) are raised before anything
    executes; the runtime errors come from the transition model. ``ADDITIONAL_STEP`` is the only
    non-fatal one: the action changes nothing and execution continues.
    """

    PARSING = "parsing"
    HALLUCINATION = "hallucination"
    ARGUMENTS = "arguments"
    MISSING_STEP = "missing_step"
    ADDITIONAL_STEP = "additional_step"
    WRONG_ORDER = "wrong_order"
    AFFORDANCE = "affordance"

    @property
    def is_fatal(self) -> bool:
        """True if execution of a plan stops at an action failing with this error."""
        return self is not ErrorType.ADDITIONAL_STEP


class ActionError(Exception):
    """An action could not be parsed or resolved; carries its place in the taxonomy."""

    def __init__(self, error: ErrorType, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class UnknownTaskError(KeyError):
    """A task id that the task set does not contain."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown task"

"""A task: where an episode starts, what it must achieve, and a reference solution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class Task(Generic[S]):
    """One task of a world.

    Attributes:
        id: identifier, unique in its task set (e.g. ``"27_2"``).
        name: the task family (e.g. ``"Wash clothes"``).
        instruction: the natural-language description given to the agent.
        initial_state: the world state the episode starts from.
        goal: the world's goal object (its type is world-specific).
        gold_plan: a human-annotated plan, as action texts in the world's syntax.
        metadata: anything else the data provides (provenance, annotations).
    """

    id: str
    name: str
    instruction: str
    initial_state: S
    goal: Any
    gold_plan: tuple[str, ...] = ()
    metadata: dict[str, Any] = field(default_factory=dict)

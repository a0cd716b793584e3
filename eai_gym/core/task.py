"""A task: where an episode starts, what it must achieve, and a reference solution."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

S = TypeVar("S")
T = TypeVar("T")


class Deferred(Generic[T]):
    """A value made by ``make()`` (a function of no arguments) the first time :attr:`value` is read, then kept.
    It pickles when ``make`` does (a module-level function, a ``functools.partial`` of one); a copy pickled before
    the value is made makes its own."""

    __slots__ = ("make", "_value")

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self._value: T | None = None

    @property
    def value(self) -> T:
        if self._value is None:
            self._value = self.make()
        return self._value

    @property
    def made(self) -> bool:
        """Whether :attr:`value` has been made."""
        return self._value is not None


class Task(Generic[S]):
    """One task of a world (immutable).

    Attributes:
        id: identifier, unique in its task set (e.g. ``"27_2"``).
        name: the task family (e.g. ``"Wash clothes"``).
        instruction: the natural-language description given to the agent.
        initial_state: the world state the episode starts from. A world may give a :class:`Deferred` state
            instead: it is made the first time it is read (a task loaded only for its goal or record never builds
            its scene).
        goal: the world's goal object (its type is world-specific).
        gold_plan: a human-annotated plan, as action texts in the world's syntax.
        metadata: anything else the data provides (provenance, annotations).
    """

    __slots__ = ("id", "name", "instruction", "_initial_state", "goal", "gold_plan", "metadata")

    def __init__(self, id: str, name: str, instruction: str, initial_state: S | Deferred[S], goal: Any,
                 gold_plan: tuple[str, ...] = (), metadata: dict[str, Any] | None = None) -> None:
        self.__setstate__({"id": id, "name": name, "instruction": instruction, "_initial_state": initial_state,
                           "goal": goal, "gold_plan": gold_plan, "metadata": {} if metadata is None else metadata})

    @property
    def initial_state(self) -> S:
        state = self._initial_state
        return state.value if type(state) is Deferred else state  # type: ignore[return-value]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Task is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Task is immutable: cannot delete {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, state[name])

    def _fields(self) -> tuple:
        return (self.id, self.name, self.instruction, self.initial_state, self.goal, self.gold_plan, self.metadata)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Task(id={self.id!r}, name={self.name!r}, instruction={self.instruction!r}, goal={self.goal!r})"

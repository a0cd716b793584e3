"""What the predicates read: one symbolic snapshot of the world per evaluation step.

Any world can be scored by providing :class:`Facts` (the rearrange env implements it over its
houses; the fact-replay scorer builds :class:`WorldFacts` from JSON). The reference answers the same
questions with habitat-sim geometry (``above``, ``within``, ``object_in_region``, ``on_floor``,
``obj_next_to`` and the object-state snapshot); see ``reference/notes/partnr.md`` §1.2.

A fact-replay world is a JSON object::

    {"on_top": [[obj, furniture], ...], "inside": [[obj, furniture], ...],
     "in_room": [[obj_or_furniture, room], ...], "on_floor": [obj, ...],
     "next_to": [[a, b], ...],                      # symmetric
     "states": {"is_clean": {obj: bool}, "is_filled": {...}, "is_powered_on": {...}}}

Each world is a complete snapshot: a fact that is not listed does not hold. A state value missing
from a world's ``states`` falls back to the episode's initial ``object_states``; after that the
object is not registered for the state (the ``partnr`` protocol raises KeyError as the reference
does, ``fixed`` uses the documented defaults: not clean, not filled, powered off).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Protocol, Sequence

from ...core.safe_repr import bounded_repr
from .results import PropositionResult

_RELATIONS = ("on_top", "inside", "in_room")


class Facts(Protocol):
    """The per-step questions the predicates ask. Handles are strings."""

    def has_entity(self, handle: str) -> bool: ...
    def has_room(self, room: str) -> bool: ...
    def on_top(self, obj: str, receptacle: str) -> bool: ...
    def inside(self, obj: str, receptacle: str) -> bool: ...
    def related(self, relation: str, obj: str) -> list[str]:
        """The entities ``obj`` is ``on_top`` of or ``inside``."""
        return [r for r in self._rel[relation].get(obj, ()) if r in self.entities]

    def in_room(self, entity: str, room: str) -> bool: ...
    def on_floor(self, obj: str) -> bool: ...
    def next_to(self, a: str, b: str) -> bool: ...
    def state(self, name: str, handle: str) -> Any:
        """The object's value of ``name``; raise KeyError if the object is not registered for it."""
        ...


class FactsError(ValueError):
    """A malformed fact-replay world."""


class WorldFacts:
    """Facts from one JSON world (see the module docstring)."""

    __slots__ = ("entities", "rooms", "_rel", "_on_floor", "_next_to", "_states", "_initial")

    def __init__(self, world: Mapping[str, Any], entities: frozenset[str], rooms: frozenset[str],
                 initial_states: Mapping[str, Mapping[str, Any]] | None = None, where: str = "world") -> None:
        if not isinstance(world, Mapping):
            raise FactsError(f"{where}: expected an object, got {type(world).__name__}")
        unknown = sorted(set(world) - {"on_top", "inside", "in_room", "on_floor", "next_to", "states"})
        if unknown:
            raise FactsError(f"{where}: unknown fact kind(s) {', '.join(unknown)}")
        self.entities = entities
        self.rooms = rooms
        self._rel = {}
        for kind in _RELATIONS:
            pairs: dict[str, set[str]] = {}
            for pair in _pairs(world.get(kind, []), f"{where}.{kind}"):
                pairs.setdefault(pair[0], set()).add(pair[1])
            self._rel[kind] = pairs
        floor = world.get("on_floor", [])
        if not isinstance(floor, list) or not all(isinstance(h, str) for h in floor):
            raise FactsError(f"{where}.on_floor: expected a list of handles")
        self._on_floor = frozenset(floor)
        self._next_to = frozenset(frozenset(p) for p in _pairs(world.get("next_to", []), f"{where}.next_to"))
        states = world.get("states", {})
        if not isinstance(states, Mapping) or not all(isinstance(v, Mapping) for v in states.values()):
            raise FactsError(f"{where}.states: expected {{state_name: {{handle: value}}}}")
        self._states = states
        self._initial = initial_states or {}

    def has_entity(self, handle: str) -> bool:
        return handle in self.entities

    def has_room(self, room: str) -> bool:
        return room in self.rooms

    def on_top(self, obj: str, receptacle: str) -> bool:
        return receptacle in self._rel["on_top"].get(obj, ()) and receptacle in self.entities

    def inside(self, obj: str, receptacle: str) -> bool:
        return receptacle in self._rel["inside"].get(obj, ()) and receptacle in self.entities

    def related(self, relation: str, obj: str) -> list[str]:
        """The entities ``obj`` is ``on_top`` of or ``inside``."""
        return [r for r in self._rel[relation].get(obj, ()) if r in self.entities]

    def in_room(self, entity: str, room: str) -> bool:
        return room in self._rel["in_room"].get(entity, ())

    def on_floor(self, obj: str) -> bool:
        return obj in self._on_floor

    def next_to(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self._next_to

    def state(self, name: str, handle: str) -> Any:
        values = self._states.get(name)
        if values is not None and handle in values:
            return values[handle]
        initial = self._initial.get(name)
        if initial is not None and handle in initial:
            return initial[handle]
        if values is None and initial is None:
            raise KeyError(f"State key `{name}` not in the object state snapshot dict.")
        raise KeyError(f"Object handle `{handle}` not registered with object state `{name}` dict.")

    def mentioned(self) -> set[str]:
        """Every entity handle this world mentions (rooms excluded)."""
        out = set(self._on_floor)
        for kind in _RELATIONS:
            for a, bs in self._rel[kind].items():
                out.add(a)
                if kind != "in_room":
                    out.update(bs)
        for pair in self._next_to:
            out.update(pair)
        for values in self._states.values():
            out.update(values)
        return out


def _pairs(items: Any, where: str) -> Iterable[tuple[str, str]]:
    if not isinstance(items, list):
        raise FactsError(f"{where}: expected a list of [a, b] pairs")
    for x in items:
        if not (isinstance(x, (list, tuple)) and len(x) == 2 and all(isinstance(h, str) for h in x)):
            raise FactsError(f"{where}: expected [a, b] handle pairs, got {bounded_repr(x)}")
        yield x[0], x[1]


class TruthFacts:
    """Precomputed proposition results for one step (the ``truths`` mode of the case format):
    one entry per original proposition, a bool or ``{"is_satisfied": bool, "info": {...}}``.
    Unrolled copies of a proposition read the original's entry."""

    __slots__ = ("_row",)

    def __init__(self, row: Sequence[Any], n_propositions: int, where: str = "truths") -> None:
        if not isinstance(row, list) or len(row) != n_propositions:
            raise FactsError(f"{where}: expected a list of {n_propositions} proposition truths")
        parsed = []
        for j, v in enumerate(row):
            if isinstance(v, bool):
                parsed.append(PropositionResult(v, {}))
            elif isinstance(v, Mapping) and isinstance(v.get("is_satisfied"), bool) \
                    and isinstance(v.get("info", {}), Mapping):
                parsed.append(PropositionResult(v["is_satisfied"], dict(v.get("info", {}))))
            else:
                raise FactsError(f"{where}[{j}]: expected true/false or {{\"is_satisfied\": bool, \"info\": {{...}}}}")
        self._row = parsed

    def result(self, original_index: int) -> PropositionResult:
        r = self._row[original_index]
        return PropositionResult(r.is_satisfied, dict(r.info))

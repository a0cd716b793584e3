"""The static part of a rearrange house: rooms, furniture (receptacles) and their positions.

Houses are built from real layouts (see :mod:`eai_gym.envs.rearrange.houses` for the data and the
seeded generator). Coordinates are metres in the house frame, ``y`` up; rooms are axis-aligned
rectangles on the ``x``/``z`` plane. Furniture names follow PARTNR's ``<class>_<n>`` form
(``counter_22``, ``chest_of_drawers_1``); every room has a floor entity ``floor_<room>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Room:
    """A room: ``name`` like ``kitchen_1``; ``kind`` one of kitchen, living_room, bedroom, bathroom."""

    name: str
    kind: str
    layout: str  #: where the room comes from, e.g. ``alfworld:FloorPlan12``
    bounds: tuple[float, float, float, float]  #: x_min, z_min, x_max, z_max

    @property
    def center(self) -> tuple[float, float]:
        x0, z0, x1, z1 = self.bounds
        return ((x0 + x1) / 2, (z0 + z1) / 2)

    @property
    def floor(self) -> str:
        return f"floor_{self.name}"


@dataclass(frozen=True)
class Furniture:
    """A piece of furniture that holds objects, ``on`` it (a surface) or ``within`` it (a container)."""

    name: str
    cls: str
    room: str
    position: tuple[float, float, float]
    relation: str  #: "on" or "within"
    articulated: bool = False  #: can be opened and closed; objects within are reachable only when open
    water_source: bool = False  #: a sink or bathtub: Fill and faucet cleaning need one near
    source_id: str = ""  #: the id in the source layout, e.g. ``Cabinet|+00.02|+02.01|+01.31``


@dataclass(frozen=True)
class House:
    id: str
    source: str
    rooms: tuple[Room, ...]
    furniture: tuple[Furniture, ...]
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    @cached_property
    def room_by_name(self) -> dict[str, Room]:
        return {r.name: r for r in self.rooms}

    @cached_property
    def furniture_by_name(self) -> dict[str, Furniture]:
        return {f.name: f for f in self.furniture}

    @cached_property
    def floors(self) -> dict[str, str]:
        """floor entity name -> room name."""
        return {r.floor: r.name for r in self.rooms}

    def furniture_in(self, room: str) -> list[Furniture]:
        return [f for f in self.furniture if f.room == room]

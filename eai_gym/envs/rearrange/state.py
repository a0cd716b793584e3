"""The changing part of a rearrange episode: where objects and agents are, open furniture, object states.

:class:`RearrangeState` also answers the evaluation engine's questions (it implements
:class:`eai_gym.logic.propositions.Facts`), so the engine scores every step of the env directly.

Geometry. An agent stands at a position on the floor (``x``, ``z``); navigating to furniture puts it
at the furniture's position. An object on or within furniture occupies a placement slot: slot ``k``
is offset along ``x`` by ``0, +0.6, -0.6, +1.2, -1.2...`` m from the furniture's position; an object
placed ``next_to`` another takes a free spot 0.3 m from it along ``z``. Two entities are next to
each other when their horizontal distance is at most ``NEXT_TO_DISTANCE`` (0.5 m, PARTNR's default
``l2_threshold``) and their heights differ by at most 1 m — so objects in neighbouring slots or
cabinets 0.25 m apart count, objects 0.6 m apart do not. A held object is at its holder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ...logic.propositions.spec import STATE_PREDICATES, TRACKED_ARGS
from .house import House

NEXT_TO_DISTANCE = 0.5
SLOT_STEP = 0.6
NEIGHBOUR_STEP = 0.3
#: the documented values of an object-state an object is registered for but never given
STATE_DEFAULTS = {"is_clean": False, "is_filled": False, "is_powered_on": False}

Vec = tuple[float, float, float]


@dataclass
class AgentState:
    name: str
    position: tuple[float, float]
    room: str
    at: str | None = None  #: the furniture, floor or room the agent last navigated to
    held: str | None = None
    last_action: str = ""  #: the last skill this agent started, as text ("" before any)
    last_result: str = ""  #: the feedback of its last finished skill


@dataclass
class RearrangeState:
    house: House
    classes: dict[str, str]  #: object handle -> class name
    registered: dict[str, tuple[str, ...]]  #: object handle -> the states it affords
    loc: dict[str, tuple[str, str]] = field(default_factory=dict)  #: handle -> (on|within|floor|held, target)
    pos: dict[str, Vec] = field(default_factory=dict)
    open: dict[str, bool] = field(default_factory=dict)  #: articulated furniture -> is open
    values: dict[str, dict[str, bool]] = field(default_factory=dict)  #: state name -> handle -> value
    agents: dict[str, AgentState] = field(default_factory=dict)

    # -- placement ---------------------------------------------------------------------------
    def holder_position(self, target: str) -> Vec:
        f = self.house.furniture_by_name.get(target)
        if f is not None:
            return f.position
        room = self.house.floors.get(target) or target
        cx, cz = self.house.room_by_name[room].center
        return (cx, 0.0, cz)

    def free_slot(self, target: str, near: str | None = None, base: Vec | None = None) -> Vec:
        """A free spot on/in ``target`` (furniture or floor) around ``base`` (default: the target's
        position), or next to the object ``near`` on it."""
        taken = [p for h, p in self.pos.items() if self.loc.get(h, ("", ""))[1] == target]
        if near is not None:
            x, y, z = self.pos[near]
            cands = [(x, y, z + NEIGHBOUR_STEP * s) for k in range(1, 6) for s in (k, -k)]
        else:
            x, y, z = base or self.holder_position(target)
            cands = [(x + SLOT_STEP * s, y, z) for k in range(0, 8) for s in ((0,) if k == 0 else (k, -k))]
        for c in cands:
            if all(_dist2(c, p) > 0.01 for p in taken):
                return c
        return cands[-1]

    def put(self, handle: str, relation: str, target: str, near: str | None = None, base: Vec | None = None) -> None:
        """Place ``handle`` on/within furniture or on a floor (``relation`` on, within or floor)."""
        self.loc.pop(handle, None)
        self.pos.pop(handle, None)
        self.pos[handle] = self.free_slot(target, near, base)
        self.loc[handle] = (relation, target)

    def give(self, handle: str, agent: str) -> None:
        a = self.agents[agent]
        self.loc[handle] = ("held", agent)
        self.pos[handle] = (a.position[0], 1.0, a.position[1])
        a.held = handle

    def move_agent(self, agent: str, position: tuple[float, float], room: str, at: str | None) -> None:
        a = self.agents[agent]
        a.position, a.room, a.at = position, room, at
        if a.held is not None:
            self.pos[a.held] = (position[0], 1.0, position[1])

    # -- queries -----------------------------------------------------------------------------
    def room_of(self, entity: str) -> str | None:
        """The room an object, furniture, floor, agent or room is in."""
        if entity in self.loc:
            rel, target = self.loc[entity]
            if rel == "held":
                return self.agents[target].room
            return self.room_of(target)
        f = self.house.furniture_by_name.get(entity)
        if f is not None:
            return f.room
        if entity in self.house.floors:
            return self.house.floors[entity]
        if entity in self.agents:
            return self.agents[entity].room
        if entity in self.house.room_by_name:
            return entity
        return None

    def position_of(self, entity: str) -> Vec | None:
        if entity in self.pos:
            return self.pos[entity]
        if entity in self.agents:
            x, z = self.agents[entity].position
            return (x, 0.0, z)
        if entity in self.house.furniture_by_name or entity in self.house.floors or entity in self.house.room_by_name:
            return self.holder_position(entity)
        return None

    def reachable_inside(self, handle: str) -> bool:
        """False when the object is within closed articulated furniture."""
        rel, target = self.loc[handle]
        return not (rel == "within" and self.open.get(target, True) is False)

    def describe_location(self, handle: str) -> str:
        rel, target = self.loc[handle]
        return f"{target} (held)" if rel == "held" else target

    def copy(self) -> "RearrangeState":
        return RearrangeState(self.house, self.classes, self.registered, dict(self.loc), dict(self.pos),
                              dict(self.open), {k: dict(v) for k, v in self.values.items()},
                              {k: AgentState(**vars(a)) for k, a in self.agents.items()})

    # -- Facts (the evaluation engine's questions) -----------------------------------------------
    def has_entity(self, handle: str) -> bool:
        return (handle in self.classes or handle in self.house.furniture_by_name or handle in self.house.floors
                or handle in self.agents)

    def has_room(self, room: str) -> bool:
        return room in self.house.room_by_name

    def on_top(self, obj: str, receptacle: str) -> bool:
        rel, target = self.loc.get(obj, ("", ""))
        return target == receptacle and rel in ("on", "floor")

    def inside(self, obj: str, receptacle: str) -> bool:
        rel, target = self.loc.get(obj, ("", ""))
        return target == receptacle and rel == "within"

    def related(self, relation: str, obj: str) -> list[str]:
        rel, target = self.loc.get(obj, ("", ""))
        if relation == "on_top" and rel in ("on", "floor"):
            return [target]
        if relation == "inside" and rel == "within":
            return [target]
        if relation == "in_room":
            room = self.room_of(obj)
            return [] if room is None else [room]
        return []

    def in_room(self, entity: str, room: str) -> bool:
        return self.room_of(entity) == room

    def on_floor(self, obj: str) -> bool:
        return self.loc.get(obj, ("", ""))[0] == "floor"

    def next_to(self, a: str, b: str) -> bool:
        pa, pb = self.position_of(a), self.position_of(b)
        if pa is None or pb is None or a == b:
            return False
        return math.hypot(pa[0] - pb[0], pa[2] - pb[2]) <= NEXT_TO_DISTANCE and abs(pa[1] - pb[1]) <= 1.0

    def evaluation_reads(self, function_name: str, args: dict[str, Any]) -> Callable[[], Any] | None:
        """A function giving, as a value, everything of this state a proposition with these arguments
        reads now (the predicates of both protocols): where each handle it names is, and per predicate
        its room, its position or its state values. The rest of what they read (the house, the classes,
        which handles exist, which states they are registered for) does not change within an episode.
        None when an argument is not a list of handles (or of lists of them, ``*args``): such a
        proposition is evaluated every time."""
        placement = function_name in _PLACEMENT_PREDICATES  # these read only where the objects are
        handles: list[str] = []
        for k, v in args.items():
            if k == "object_handles" if placement else k in _HANDLE_ARGS:
                if isinstance(v, list):
                    for h in v:
                        if isinstance(h, str):
                            handles.append(h)
                        elif k == "*args" and isinstance(h, list) and all(isinstance(x, str) for x in h):
                            handles.extend(h)
                        else:
                            return None
                else:
                    return None
        hs = tuple(dict.fromkeys(handles))
        if placement:
            if len(hs) == 1:
                return lambda: self.loc.get(hs[0])
            return lambda: tuple([self.loc.get(h) for h in hs])
        if function_name == "is_in_room":
            return lambda: tuple([self.room_of(h) for h in hs])
        if function_name in _POSITION_PREDICATES:
            return lambda: tuple([self.position_of(h) for h in hs])
        if function_name in _STATE_PREDICATES:
            return lambda: tuple([(k, tuple([v.get(h) for h in hs])) for k, v in self.values.items()])
        return None

    def state(self, name: str, handle: str) -> Any:
        if name not in self.registered.get(handle, ()):
            raise KeyError(f"{handle} is not registered for {name}")
        return self.values.get(name, {}).get(handle, STATE_DEFAULTS.get(name, False))


_HANDLE_ARGS = frozenset(TRACKED_ARGS)  #: the arguments that name entities or rooms (``*args``: groups of them)
_PLACEMENT_PREDICATES = frozenset({"is_on_top", "is_inside", "is_on_floor"})  #: read where each handle is
_POSITION_PREDICATES = frozenset({"is_next_to", "is_clustered"})  #: read each handle's position
_STATE_PREDICATES = frozenset(STATE_PREDICATES)  #: read each handle's state values


def _dist2(a: Vec, b: Vec) -> float:
    return (a[0] - b[0]) ** 2 + (a[2] - b[2]) ** 2

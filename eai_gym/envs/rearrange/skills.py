"""PARTNR's high-level skills over a :class:`~.state.RearrangeState`: preconditions, effects, texts (the syntax
and vocabulary: :mod:`.skill_syntax`).

An agent writes ``Name[arg, ...]`` (``Navigate[counter_22]``, ``Place[cup_1, on, table_3, None, None]``).
:func:`start` checks what can be checked at once and returns a :class:`RunningSkill` made of phases;
each phase lasts some ticks and, on its last tick, re-checks its preconditions against the state of
that moment (the other agent may have changed it) and applies its effect. Feedback texts are
PARTNR's: ``Successful execution!`` or ``Unexpected failure! - <reason>``; the Find tools answer with
text and change nothing.

Durations (ticks): Navigate ``ceil(distance / 2 m)`` (at least 1); Pick, Place, Open, Close, Pour,
PowerOn/Off, Wait, Done and the Find tools 1; Fill 2; Clean 3; Rearrange is navigate, pick,
navigate, place; Explore navigates to every piece of furniture in the room in turn.
Reach: an agent is near furniture within ``REACH`` (2 m, PARTNR's grasping distance) of it, near a
floor when in its room, near an object when near what holds it.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ...core import ErrorType

# the vocabulary and syntax, re-exported: ``skills.SKILLS``, ``skills.parse``, ... as before
from .skill_syntax import (
    MOTOR_SKILLS,
    PLACE_API,
    SKILLS,
    STATE_SKILLS,
    SUCCESS,
    TOOLS,
    Phase,
    RunningSkill,
    SkillFailure,
    parse,
)

#: the rearrange world a skill acts on (:class:`.world.RearrangeWorld`; not imported here: it imports this module)
World = Any

REACH = 2.0
SPEED = 2.0  #: metres per tick
_HINT = "Use the appropriate tool to get a valid name."


def start(w: World, agent: str, text: object) -> RunningSkill:
    """Parse and check ``text`` for ``agent``; raise :class:`SkillFailure` when it fails at once."""
    name, args = parse(text)
    return start_parsed(w, agent, name, args, str(text).strip())


def start_parsed(w: World, agent: str, name: str, args: tuple[str, ...], text: str) -> RunningSkill:
    """:func:`start` for an action already parsed (``name, args = parse(text)``)."""
    if name not in w.capabilities[agent]:
        raise SkillFailure(ErrorType.AFFORDANCE, f'Tool "{name}" not found')
    skill = _BUILDERS[name](w, agent, args)
    return RunningSkill(text, name, args, skill)


# -- helpers -------------------------------------------------------------------------------------------
def _entity(w: World, name: str) -> str:
    s = w.state
    if s.has_entity(name) and name not in s.agents or name in s.house.room_by_name:
        return name
    raise SkillFailure(ErrorType.HALLUCINATION, f"Node with name {name} not present in the graph. {_HINT}")


def _xz(p: tuple[float, ...]) -> tuple[float, float]:
    return (p[0], p[2]) if len(p) == 3 else (p[0], p[1])


def distance(w: World, agent: str, target: str) -> float:
    """Horizontal distance from the agent to what it must reach to act on ``target``."""
    s = w.state
    if target in s.loc:
        rel, holder = s.loc[target]
        if rel == "held":
            return 0.0 if holder == agent else distance(w, agent, holder)
        if rel != "floor":
            target = holder
    if target in s.house.floors:
        return 0.0 if s.agents[agent].room == s.house.floors[target] else math.inf
    if target in s.house.room_by_name:
        return 0.0 if s.agents[agent].room == target else math.inf
    a = s.agents[agent].position
    f = s.house.furniture_by_name.get(target)
    if f is not None and target not in s.pos and target not in s.agents:
        b = f.position  # what position_of gives a piece of furniture
        return math.hypot(a[0] - b[0], a[1] - b[2])
    b = _xz(s.position_of(target))
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _nav_target(w: World, name: str) -> tuple[tuple[float, float], str, str]:
    """(position, room, at) of a navigation target."""
    s = w.state
    if name in s.loc:
        rel, holder = s.loc[name]
        if rel == "held":
            a = s.agents[holder]
            return a.position, a.room, a.at or a.room
        if rel == "floor":
            return _xz(s.pos[name]), s.house.floors[holder], holder
        name = holder
    if name in s.house.furniture_by_name:
        f = s.house.furniture_by_name[name]
        return _xz(f.position), f.room, name
    room = s.house.floors.get(name, name)
    return s.house.room_by_name[room].center, room, name


def _nav_phase(w: World, agent: str, target: str) -> Phase:
    pos, _, _ = _nav_target(w, target)
    a = w.state.agents[agent].position
    ticks = max(1, math.ceil(math.hypot(pos[0] - a[0], pos[1] - a[1]) / SPEED))

    def run() -> None:
        if target in w.state.loc and w.state.loc[target] == ("held", agent):
            return None
        p, room, at = _nav_target(w, target)
        w.state.move_agent(agent, p, room, at)
        w.observe_at(agent, at)
        return None
    return Phase(ticks, run)


# -- motor skills ----------------------------------------------------------------------------------------
def _navigate(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    target = _entity(w, args[0])
    return [_nav_phase(w, agent, target)]


def _check_pick(w: World, agent: str, obj: str) -> None:
    s = w.state
    held = s.agents[agent].held
    if held == obj:
        raise SkillFailure(ErrorType.ADDITIONAL_STEP, f"The arm is already grasping {obj}. Make the agent place the "
                           f"{obj} either on the floor or at its target location using the place action.")
    if held is not None:
        raise SkillFailure(ErrorType.MISSING_STEP, f"Failed to pick {obj}! The arm is currently grasping {held}. "
                           "Make the agent place the grasped object first.")
    _entity(w, obj)
    if obj not in s.classes:
        raise SkillFailure(ErrorType.AFFORDANCE, "Failed to pick! This is not a movable object.")
    rel, holder = s.loc[obj]
    if rel == "held":
        raise SkillFailure(ErrorType.MISSING_STEP, "Failed! This object is held by another agent.")
    if not s.reachable_inside(obj):
        raise SkillFailure(ErrorType.MISSING_STEP, "Failed to pick! Object is in a closed furniture, you need to "
                           "open the furniture first.")
    if distance(w, agent, obj) > REACH:
        raise SkillFailure(ErrorType.MISSING_STEP, "Failed to pick! Not close enough to the object.")


def _pick_phase(w: World, agent: str, obj: str) -> Phase:
    def run() -> None:
        _check_pick(w, agent, obj)
        w.state.give(obj, agent)
        w.observe_objects(obj)
        return None
    return Phase(1, run)


def _pick(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    _check_pick(w, agent, args[0])
    return [_pick_phase(w, agent, args[0])]


def _place_args(w: World, args: tuple[str, ...]) -> tuple[str, str, str, str | None]:
    if len(args) != 5:
        raise SkillFailure(ErrorType.ARGUMENTS, PLACE_API)
    obj, relation, target, constraint, ref = args
    relation = relation.lower()
    if relation not in ("on", "within"):
        raise SkillFailure(ErrorType.ARGUMENTS, PLACE_API)
    has_c, has_r = constraint.lower() != "none", ref.lower() != "none"
    if has_r and not has_c:
        raise SkillFailure(ErrorType.ARGUMENTS, "Incorrect syntax for place/rearrange skill. reference_object was "
                           "valid, but corresponding spatial_constraint was none")
    if has_c and not has_r:
        raise SkillFailure(ErrorType.ARGUMENTS, "Incorrect syntax for place/rearrange skill. spatial_constraint was "
                           "valid, but corresponding reference_object was none")
    if has_c and constraint.lower() != "next_to":
        raise SkillFailure(ErrorType.ARGUMENTS, PLACE_API)
    _entity(w, obj)
    _entity(w, target)
    if has_r:
        _entity(w, ref)
    return obj, relation, target, ref if has_r else None


def _check_place(w: World, agent: str, obj: str, relation: str, target: str, ref: str | None) -> None:
    s = w.state
    if s.agents[agent].held != obj:
        if s.agents[agent].held is None:
            raise SkillFailure(ErrorType.MISSING_STEP, "Failed to place! The agent is not holding any object.")
        raise SkillFailure(ErrorType.ARGUMENTS, f"Failed to place! The agent is holding {s.agents[agent].held}, "
                           f"not {obj}.")
    f = s.house.furniture_by_name.get(target)
    if f is None and target not in s.house.floors:
        raise SkillFailure(ErrorType.AFFORDANCE, "Failed to place! Place receptacle is not furniture or floor.")
    if distance(w, agent, target) > REACH:
        raise SkillFailure(ErrorType.MISSING_STEP, f"Failed to place! Not close enough to {target} or occluded.")
    if f is not None and f.articulated and relation == "within" and not s.open.get(target, False):
        raise SkillFailure(ErrorType.MISSING_STEP, "Failed to place! Furniture is closed, you need to open it first.")
    fits = (relation == "on" and (f is None or f.relation == "on")) or (
        relation == "within" and f is not None and f.relation == "within")
    if not fits:
        raise SkillFailure(ErrorType.AFFORDANCE, f"No valid placements found for entity {target}.")
    if ref is not None and (ref == obj or s.loc.get(ref, ("", ""))[1] != target):
        raise SkillFailure(ErrorType.MISSING_STEP, f"Failed to place! the spatial constraint next_to is not feasible "
                           f"because the reference object {ref} either does not exist or has not yet been placed on "
                           f"the {target}. Try placing the object on {target} without the spatial constraint.")


def _place_phase(w: World, agent: str, obj: str, relation: str, target: str, ref: str | None) -> Phase:
    def run() -> None:
        _check_place(w, agent, obj, relation, target, ref)
        s = w.state
        s.agents[agent].held = None
        if target in s.house.floors:
            x, z = s.agents[agent].position
            s.put(obj, "floor", target, base=(x, 0.0, z))
        else:
            s.put(obj, relation, target, near=ref)
        w.observe_objects(obj)
        return None
    return Phase(1, run)


def _place(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    obj, relation, target, ref = _place_args(w, args)
    _check_place(w, agent, obj, relation, target, ref)
    return [_place_phase(w, agent, obj, relation, target, ref)]


def _rearrange(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    obj, relation, target, ref = _place_args(w, args)
    if obj not in w.state.classes:
        raise SkillFailure(ErrorType.AFFORDANCE, "Failed to pick! This is not a movable object.")
    phases = []
    if w.state.loc[obj] != ("held", agent):
        phases += [_nav_phase(w, agent, obj), _pick_phase(w, agent, obj)]
    return phases + [_nav_phase(w, agent, target), _place_phase(w, agent, obj, relation, target, ref)]


def _open_close(opening: bool) -> Callable[[World, str, tuple[str, ...]], list[Phase]]:
    verb = "open" if opening else "close"

    def can_start(w: World, agent: str, target: str) -> bool:
        """Whether :func:`check` passes, without building its failure (the index-mode mask asks this)."""
        f = w.state.house.furniture_by_name.get(target)
        return (f is not None and f.articulated and (opening or w.state.agents[agent].held is None)
                and w.state.open.get(target, False) != opening and distance(w, agent, target) <= REACH)

    def check(w: World, agent: str, target: str) -> None:
        """Raise the SkillFailure of an Open/Close that cannot start (``CHECKS`` exposes it)."""
        if can_start(w, agent, target):
            return
        f = w.state.house.furniture_by_name.get(target)
        if f is None:
            raise SkillFailure(ErrorType.AFFORDANCE, f"Failed to {verb}! You can't {verb} a {target}.")
        if not f.articulated:
            raise SkillFailure(ErrorType.AFFORDANCE, f"Failed to {verb}! {target} is not articulated - and cannot "
                               f"be {'opened' if opening else 'closed'}.")
        if not opening and w.state.agents[agent].held is not None:
            raise SkillFailure(ErrorType.MISSING_STEP, f"Failed to close! You cannot close {target} since you are "
                               "holding something. Please place the object on the floor first and then close. "
                               "Pick up the object again afterward.")
        if distance(w, agent, target) > REACH:
            raise SkillFailure(ErrorType.MISSING_STEP, f"Failed to {verb}! {target} is occluded or too far from "
                               f"agent to {verb}.")
        if w.state.open.get(target, False) == opening:
            raise SkillFailure(ErrorType.ADDITIONAL_STEP, f"{target} is already {'open' if opening else 'closed'}.")

    def build(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
        target = _entity(w, args[0])
        check(w, agent, target)

        def run() -> None:
            check(w, agent, target)
            w.state.open[target] = opening
            if opening:
                w.observe_at(agent, target)
            return None
        return [Phase(1, run)]
    build.check = check  # type: ignore[attr-defined]
    build.can_start = can_start  # type: ignore[attr-defined]
    return build


def _state_skill(name: str) -> Callable[[World, str, tuple[str, ...]], list[Phase]]:
    state_name, value, ticks, what = {
        "Clean": ("is_clean", True, 3, "clean"), "Fill": ("is_filled", True, 2, "fill"),
        "PowerOn": ("is_powered_on", True, 1, "power on"), "PowerOff": ("is_powered_on", False, 1, "power off"),
        "Pour": ("is_filled", True, 1, "pour")}[name]

    def check(w: World, agent: str, obj: str) -> None:
        s = w.state
        if name == "Pour":
            held = s.agents[agent].held
            if held is None:
                raise SkillFailure(ErrorType.MISSING_STEP, "Unable to pour: Agent is not holding an object")
            if not s.values.get("is_filled", {}).get(held, False):
                raise SkillFailure(ErrorType.MISSING_STEP, "Unable to pour: The held object is not filled")
        if state_name not in s.registered.get(obj, ()):
            raise SkillFailure(ErrorType.AFFORDANCE, f"The targeted object does not afford the state: {state_name}")
        dist = distance(w, agent, obj)
        if dist > REACH:
            raise SkillFailure(ErrorType.MISSING_STEP, f"Agent too far from object to {what}: Distance {dist:.2f}")
        if name == "Fill" and not w.near_water(agent, obj):
            raise SkillFailure(ErrorType.MISSING_STEP, "The object is not close enough to a water source")

    def build(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
        obj = _entity(w, args[0])
        check(w, agent, obj)

        def run() -> None:
            check(w, agent, obj)
            w.state.values.setdefault(state_name, {})[obj] = value
            if name == "Pour":
                w.state.values["is_filled"][w.state.agents[agent].held] = False
            w.observe_objects(obj)
            return None
        return [Phase(ticks, run)]
    return build


def _explore(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    room = args[0]
    if room not in w.state.house.room_by_name:
        _entity(w, room)
        raise SkillFailure(ErrorType.AFFORDANCE, f"{room} is not a room. Explore takes a room name.")
    furniture = w.state.house.furniture_in(room)
    if not furniture:
        raise SkillFailure(ErrorType.AFFORDANCE, f"There is no furniture in {room} room. Explore another room.")
    phases = []
    prev = w.state.agents[agent].position
    for f in furniture:
        p = _xz(f.position)
        ticks = max(1, math.ceil(math.hypot(p[0] - prev[0], p[1] - prev[1]) / SPEED))
        phases.append(Phase(ticks, _arrive(w, agent, f.name)))
        prev = p
    return phases


def _arrive(w: World, agent: str, furniture: str) -> Callable[[], None]:
    def run() -> None:
        p, room, at = _nav_target(w, furniture)
        w.state.move_agent(agent, p, room, at)
        w.observe_at(agent, at)
        return None
    return run


def _wait(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    return [Phase(1, lambda: None)]


def _done(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
    return [Phase(1, lambda: None)]


def _tool(name: str) -> Callable[[World, str, tuple[str, ...]], list[Phase]]:
    def build(w: World, agent: str, args: tuple[str, ...]) -> list[Phase]:
        query = args[0] if args else ""
        return [Phase(1, lambda: w.answer(name, agent, query))]
    return build


_BUILDERS: dict[str, Callable[[World, str, tuple[str, ...]], list[Phase]]] = {
    "Navigate": _navigate, "Pick": _pick, "Place": _place, "Rearrange": _rearrange,
    "Open": _open_close(True), "Close": _open_close(False), "Explore": _explore, "Wait": _wait, "Done": _done,
    **{n: _state_skill(n) for n in STATE_SKILLS}, **{t: _tool(t) for t in TOOLS},
}
#: the immediate checks of the skills whose builder does nothing else (for the index-mode legal mask)
CHECKS: dict[str, Callable[[World, str, str], None]] = {
    name: _BUILDERS[name].check for name in ("Open", "Close")}  # type: ignore[attr-defined]
#: skill name -> whether its CHECKS entry would pass (a bool, no failure built)
CAN_START: dict[str, Callable[[World, str, str], bool]] = {
    name: _BUILDERS[name].can_start for name in ("Open", "Close")}  # type: ignore[attr-defined]

__all__ = ["MOTOR_SKILLS", "PLACE_API", "SKILLS", "STATE_SKILLS", "SUCCESS", "TOOLS", "Phase", "RunningSkill",
           "SkillFailure", "parse", "REACH", "SPEED", "distance", "start", "start_parsed"]

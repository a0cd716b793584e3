"""Index mode: the catalogue of concrete actions for an episode, and which of them can start now.

The catalogue lists, in a fixed order, ``Navigate`` to every piece of furniture, floor, room and
object; ``Pick`` of every object; ``Place`` of every object on or within (the furniture's own relation)
every piece of furniture and on every floor (without ``next_to``: use text actions for that); ``Open``/``Close`` of
articulated furniture; the object-state skills on the objects that afford them; ``Explore`` of every
room with furniture; ``FindAgentActionTool[]``, ``Wait[]`` and ``Done[]``. An index is legal when the skill would
start (its immediate checks pass); a busy agent's action is ignored, so then only ``Wait[]`` is marked.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from . import skills
from .world import RearrangeWorld

MAX_ACTIONS = 4096


def catalogue(world: RearrangeWorld) -> list[str]:
    s = world.state
    house = s.house
    objs = list(s.classes)
    out = [f"Navigate[{n}]" for n in [f.name for f in house.furniture] + list(house.floors)
           + [r.name for r in house.rooms] + objs]
    out += [f"Pick[{o}]" for o in objs]
    for o in objs:
        out += [f"Place[{o}, {f.relation}, {f.name}, None, None]" for f in house.furniture]
        out += [f"Place[{o}, on, {fl}, None, None]" for fl in house.floors]
    art = [f.name for f in house.furniture if f.articulated]
    out += [f"Open[{f}]" for f in art] + [f"Close[{f}]" for f in art]
    for name, state in (("Clean", "is_clean"), ("Fill", "is_filled"), ("Pour", "is_filled"),
                        ("PowerOn", "is_powered_on"), ("PowerOff", "is_powered_on")):
        out += [f"{name}[{o}]" for o in objs if state in s.registered[o]]
    out += [f"Explore[{r.name}]" for r in house.rooms if house.furniture_in(r.name)]
    out += ["FindAgentActionTool[]", "Wait[]", "Done[]"]
    if len(out) > MAX_ACTIONS:
        raise ValueError(f"episode {world.episode.episode_id} has {len(out)} catalogue actions, more than the "
                         f"index space's {MAX_ACTIONS}; use action_mode='text'")
    return out


_CATALOGUES: dict[tuple[int, str], tuple[object, list[str]]] = {}


def cached_catalogue(world: RearrangeWorld) -> list[str]:
    """:func:`catalogue` of a freshly reset world, computed once per (episode, protocol) and shared (a
    catalogue depends only on the episode's house, objects and the states its evaluation registers);
    the same list object also keeps :func:`legal_mask`'s index of it. Callers must not modify it."""
    key = (id(world.episode), world.protocol)
    hit = _CATALOGUES.get(key)
    if hit is None or hit[0] is not world.episode:
        if len(_CATALOGUES) > 256:
            _CATALOGUES.clear()
        hit = _CATALOGUES[key] = (world.episode, catalogue(world))
    return hit[1]


_ALWAYS = frozenset({"Navigate", "Explore", "Wait", "Done", "FindAgentActionTool"})  # every catalogue entry of these starts


@lru_cache(maxsize=65536)
def _parsed(text: str) -> tuple[str, tuple[str, ...]]:
    return skills.parse(text)


class _Index:
    """Where each skill's entries sit in one catalogue (built once per catalogue)."""

    def __init__(self, actions: list[str]) -> None:
        self.actions = actions
        by_name: dict[str, list[int]] = {}
        self.place: dict[str, list[int]] = {}
        self.parsed = [_parsed(text) for text in actions]
        for i, (name, args) in enumerate(self.parsed):
            by_name.setdefault(name, []).append(i)
            if name == "Place":
                self.place.setdefault(args[0], []).append(i)
        self.by_name = by_name  # (lists: the mask loops over them entry by entry)
        self.wait = actions.index("Wait[]")
        self.wait_mask = np.zeros(MAX_ACTIONS, dtype=np.int8)  # a busy agent's mask
        self.wait_mask[self.wait] = 1
        self._always: dict[frozenset, np.ndarray] = {}

    def always_mask(self, caps: set[str]) -> np.ndarray:
        """The entries that start whenever the agent is idle, for an agent with these skills (not to be changed)."""
        key = frozenset(caps & _ALWAYS)
        mask = self._always.get(key)
        if mask is None:
            mask = self._always[key] = np.zeros(MAX_ACTIONS, dtype=np.int8)
            for name in key:
                mask[self.by_name.get(name, ())] = 1
        return mask


_INDEX: dict[int, _Index] = {}


def _index(actions: list[str]) -> _Index:
    idx = _INDEX.get(id(actions))
    if idx is None or idx.actions is not actions:
        if len(_INDEX) > 256:  # (as many as the catalogues cached)
            _INDEX.clear()
        idx = _INDEX[id(actions)] = _Index(actions)
    return idx


def can_pick(w: RearrangeWorld, agent: str, obj: str) -> bool:
    """Whether Pick of ``obj`` would start (the checks of ``_check_pick`` in :mod:`.skills`), without building
    its failure."""
    s = w.state
    return (s.agents[agent].held is None and (s.has_entity(obj) and obj not in s.agents or obj in s.house.room_by_name)
            and obj in s.classes and s.loc[obj][0] != "held" and s.reachable_inside(obj)
            and skills.distance(w, agent, obj) <= skills.REACH)


def can_place(w: RearrangeWorld, agent: str, args: tuple[str, ...]) -> bool | None:
    """Whether ``Place`` with these arguments would start, for the form the catalogue lists
    (``obj, on|within, target, None, None``) without building a failure; None for any other form."""
    if len(args) != 5 or args[1] not in ("on", "within") or args[3] != "None" or args[4] != "None":
        return None
    obj, relation, target = args[0], args[1], args[2]
    s = w.state
    for name in (obj, target):  # skills' _entity check
        if not (s.has_entity(name) and name not in s.agents or name in s.house.room_by_name):
            return False
    if s.agents[agent].held != obj:
        return False
    f = s.house.furniture_by_name.get(target)
    if f is None and target not in s.house.floors:
        return False
    if skills.distance(w, agent, target) > skills.REACH:
        return False
    if f is not None and f.articulated and relation == "within" and not s.open.get(target, False):
        return False
    return (relation == "on" and (f is None or f.relation == "on")) or (
        relation == "within" and f is not None and f.relation == "within")


_OPEN_CLOSE = frozenset({"Open", "Close"})


def open_close_entries(w: RearrangeWorld, agent: str, opening: bool, where: list[int], parsed: list,
                       mask: np.ndarray) -> None:
    """Set the Open (``opening``) or Close entries at ``where`` that would start: the checks of the skill's
    ``can_start`` (:mod:`.skills`), in its order, in one loop."""
    s = w.state
    if not opening and s.agents[agent].held is not None:
        return  # Close with something in hand fails
    furniture, is_open, distance, reach = s.house.furniture_by_name, s.open, skills.distance, skills.REACH
    position = tuple(s.agents[agent].position)
    within = _WITHIN_REACH.get((id(s.house), position))
    if within is None or within[0] is not s.house:
        if len(_WITHIN_REACH) > 4096:
            _WITHIN_REACH.clear()
        within = _WITHIN_REACH[(id(s.house), position)] = (s.house, within_reach(s.house, position))
    key = (id(s.house), id(where))
    hit = _ARTICULATED.get(key)
    if hit is None or hit[0] is not s.house or hit[1] is not where:
        if len(_ARTICULATED) > 4096:
            _ARTICULATED.clear()
        entries = []
        for i in where:
            target = parsed[i][1][0]
            f = furniture.get(target)
            if f is not None and f.articulated:
                entries.append((i, target))
        hit = _ARTICULATED[key] = (s.house, where, entries)
    for i, target in hit[2]:
        if is_open.get(target, False) == opening:
            continue
        if target in s.loc or target in s.pos or target in s.agents or target in s.house.floors \
                or target in s.house.room_by_name:  # (not plain furniture: skills.distance decides)
            if distance(w, agent, target) <= reach:
                mask[i] = 1
        elif target in within[1]:
            mask[i] = 1


#: (id of a house, id of a list of Open or Close entries) -> (the house, the list, its entries on articulated
#: furniture of the house as (index, target)): the others never start
_ARTICULATED: dict[tuple, tuple] = {}
#: (id of a house, an agent position) -> (the house, :func:`within_reach` of them)
_WITHIN_REACH: dict[tuple, tuple] = {}


def within_reach(house, position: tuple[float, float]) -> frozenset[str]:
    """The furniture within ``skills.REACH`` of an agent at ``position``, measured as :func:`skills.distance`
    measures it for a piece of furniture that is nothing else (not an object, agent, floor or room)."""
    return frozenset(name for name, f in house.furniture_by_name.items()
                     if math.hypot(position[0] - f.position[0], position[1] - f.position[2]) <= skills.REACH)


def legal_mask(world: RearrangeWorld, agent: str, actions: list[str]) -> np.ndarray:
    """int8 mask over ``MAX_ACTIONS``: the catalogue entries whose skill would start now. Only the entries
    that can start are tried: every Navigate/Explore/Wait/Done/FindAgentActionTool entry starts; a Pick
    only with empty hands, a Place only of the held object."""
    idx = _index(actions)
    if not world.idle(agent):
        return idx.wait_mask.copy()
    held = world.state.agents[agent].held
    caps = world.capabilities[agent]
    mask = idx.always_mask(caps).copy()
    for name, where in idx.by_name.items():
        if name not in caps or name in _ALWAYS:
            continue
        if name == "Place":
            where = idx.place.get(held, ()) if held is not None else ()
        elif name == "Pick" and held is not None:
            continue  # the first check Pick makes fails
        elif name in _OPEN_CLOSE:
            open_close_entries(world, agent, name == "Open", where, idx.parsed, mask)
            continue
        can_start = can_pick if name == "Pick" else skills.CAN_START.get(name)  # entries name existing things,
        # so the checks alone decide
        if can_start is not None:
            for i in where:
                if can_start(world, agent, idx.parsed[i][1][0]):
                    mask[i] = 1
            continue
        check = skills.CHECKS.get(name)
        for i in where:
            if name == "Place":
                ok = can_place(world, agent, idx.parsed[i][1])
                if ok is not None:
                    mask[i] = ok
                    continue
            try:
                if check is not None:
                    check(world, agent, idx.parsed[i][1][0])
                else:
                    skills.start_parsed(world, agent, name, idx.parsed[i][1], actions[i])
            except skills.SkillFailure:
                continue
            mask[i] = 1
    return mask

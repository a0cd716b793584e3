"""Houses for the rearrange world, assembled from real AI2-THOR floor plans (ALFWorld 0.4.2's layouts).

A house joins one kitchen, one living room, one bedroom and one bathroom floor plan (ALFWorld's
FloorPlan 1–30, 201–230, 301–330, 401–430), laid side by side along ``x`` with a 1 m gap; each
room keeps its floor plan's receptacles at their real positions (shifted with the room). Furniture
classes and names: see ``FURNITURE`` in ``tools/convert/rearrange_houses.py``; pieces are numbered
``<class>_<n>`` across the house in room order, then by their id in the layout.

* ``house_00`` … ``house_11``: the shipped houses; ``random.Random(2026)`` draws 12 floor plans of each
  kind without repetition, so no two houses share a room.
* ``generate_house(seed, rooms)``: any combination, seeded; ``load_house("gen:<seed>")`` is the same.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .house import Furniture, House, Room
from .objects import layouts, object_classes

KINDS = ("kitchen", "living_room", "bedroom", "bathroom")
N_SHIPPED = 12
GAP = 1.0


class UnknownHouseError(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def _plans_by_kind() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {k: [] for k in KINDS}
    for fp, v in sorted(layouts()["floorplans"].items(), key=lambda kv: int(kv[0][9:])):
        out[v["kind"]].append(fp)
    return out


@lru_cache(maxsize=1)
def _shipped_plans() -> list[tuple[str, ...]]:
    rng = random.Random(2026)
    by_kind = _plans_by_kind()
    picks = {k: rng.sample(by_kind[k], N_SHIPPED) for k in KINDS}
    return [tuple(picks[k][i] for k in KINDS) for i in range(N_SHIPPED)]


def house_ids() -> list[str]:
    return [f"house_{i:02d}" for i in range(N_SHIPPED)]


def build_house(house_id: str, floorplans: tuple[str, ...], source: str) -> House:
    """A house from floor plans (one room each, in order)."""
    data = layouts()
    furn_cls = data["furniture_classes"]
    rooms: list[Room] = []
    pieces: list[tuple[str, str, str, tuple[float, float, float], str]] = []
    counts: dict[str, int] = {}
    x = 0.0
    for fp in floorplans:
        plan = data["floorplans"][fp]
        kind = plan["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        name = f"{kind}_{counts[kind]}"
        x0, z0, x1, z1 = plan["bounds"]
        dx, dz = x - x0, -z0
        rooms.append(Room(name, kind, f"alfworld:{fp}", (round(x, 2), 0.0, round(x + x1 - x0, 2), round(z1 - z0, 2))))
        for cls, rx, ry, rz in plan["receptacles"]:
            pieces.append((cls, name, fp, (round(rx + dx, 2), ry, round(rz + dz, 2)), f"{cls}|{rx:+.2f}|{ry:+.2f}|{rz:+.2f}"))
        x += x1 - x0 + GAP
    numbers: dict[str, int] = {}
    furniture = []
    for cls, room, fp, pos, sid in pieces:
        info = furn_cls[cls]
        numbers[info["name"]] = numbers.get(info["name"], 0) + 1
        furniture.append(Furniture(f"{info['name']}_{numbers[info['name']]}", info["name"], room, pos,
                                   info["relation"], info["articulated"], info["water_source"], f"{fp}:{sid}"))
    return House(house_id, source, tuple(rooms), tuple(furniture), {"floorplans": list(floorplans)})


def generate_house(seed: int, rooms: tuple[str, ...] = KINDS) -> House:
    """A seeded house with one floor plan per entry of ``rooms`` (kinds may repeat; plans do not)."""
    unknown = [k for k in rooms if k not in KINDS]
    if unknown or not rooms:
        raise ValueError(f"rooms must be a non-empty tuple of {', '.join(KINDS)}; got {rooms!r}")
    rng = random.Random(seed)
    by_kind = _plans_by_kind()
    picked: list[str] = []
    for k in rooms:
        choices = [fp for fp in by_kind[k] if fp not in picked]
        if not choices:
            raise ValueError(f"only {len(by_kind[k])} {k} floor plans exist")
        picked.append(rng.choice(choices))
    return build_house(f"gen:{seed}" if tuple(rooms) == KINDS else f"gen:{seed}:{'+'.join(rooms)}",
                       tuple(picked), f"generated (seed {seed})")


@lru_cache(maxsize=64)
def load_house(house_id: str) -> House:
    if house_id.startswith("gen:"):
        parts = house_id.split(":")
        try:
            seed = int(parts[1])
        except (IndexError, ValueError):
            raise UnknownHouseError(f"bad generated house id {house_id!r}; expected gen:<seed>[:<kind>+<kind>...]") from None
        return generate_house(seed, tuple(parts[2].split("+")) if len(parts) > 2 else KINDS)
    ids = house_ids()
    if house_id not in ids:
        raise UnknownHouseError(f"unknown house {house_id!r}; shipped houses are {ids[0]} ... {ids[-1]}, "
                                "or gen:<seed> for a generated one")
    return build_house(house_id, _shipped_plans()[ids.index(house_id)], "alfworld 0.4.2 floor plans")


def objects_for_room(house: House, room: str) -> list[str]:
    """Object classes present in the room's floor plan that some furniture of the room can hold."""
    r = house.room_by_name[room]
    present = layouts()["floorplans"][r.layout.split(":", 1)[1]]["objects"]
    here = {f.cls for f in house.furniture_in(room)}
    classes = object_classes()
    return [o for o in present if o in classes and here.intersection(classes[o].receptacles)]

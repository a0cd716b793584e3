"""Natural-language instructions for generated rearrange episodes (seeded templates).

Objects are named by class ("the alarm clock"), furniture by class and room ("the counter in the
kitchen"); several templates per goal form, chosen with the episode's generator.
"""

from __future__ import annotations

import random

from .house import House


def _nice(name: str) -> str:
    return name.replace("_", " ")


def _obj(h: str, objects: dict[str, str]) -> str:
    return f"the {_nice(objects[h])}"


def _furn(name: str, house: House) -> str:
    f = house.furniture_by_name[name]
    return f"the {_nice(f.cls)} in the {_nice(house.room_by_name[f.room].kind)}"


def _prep(name: str, house: House) -> str:
    return "in" if house.furniture_by_name[name].relation == "within" else "on"


def _clause(p: list, objects: dict[str, str], house: House, rng: random.Random) -> str:
    form = p[0]
    if form == "place":
        o, f = _obj(p[1], objects), p[2]
        return rng.choice([f"move {o} to {_furn(f, house)}", f"put {o} {_prep(f, house)} {_furn(f, house)}",
                           f"place {o} {_prep(f, house)} {_furn(f, house)}"])
    if form == "any":
        f = house.furniture_by_name[p[2]]
        return f"put {_obj(p[1], objects)} {_prep(p[2], house)} any {_nice(f.cls)} in the " \
               f"{_nice(house.room_by_name[f.room].kind)}"
    if form == "room":
        return rng.choice([f"bring {_obj(p[1], objects)} to the {_nice(house.room_by_name[p[2]].kind)}",
                           f"take {_obj(p[1], objects)} into the {_nice(house.room_by_name[p[2]].kind)}"])
    if form == "two":
        return f"put both {_nice(objects[p[1]])}s {_prep(p[3], house)} {_furn(p[3], house)}"
    if form == "next_to":
        a, c, f = p[1], p[2], p[3]
        return f"put {_obj(a, objects)} and {_obj(c, objects)} next to each other on {_furn(f, house)}"
    if form == "cluster":
        names = [_obj(h, objects) for h in p[1:-1]]
        return f"gather {', '.join(names[:-1])} and {names[-1]} together on {_furn(p[-1], house)}"
    if form in ("same", "different"):
        a, c = _obj(p[1], objects), _obj(p[2], objects)
        if form == "same":
            return f"put {a} and {c} on the same {_nice(p[3])}"
        return f"put {a} and {c} on two different {_nice(p[3])}s"
    if form == "via":
        o = _obj(p[1], objects)
        return f"take {o} to {_furn(p[2], house)} first, and after that move it to {_furn(p[3], house)}"
    state = {"is_clean": "clean", "is_filled": "fill", "is_powered_on": "turn on"}
    verb = state[form.split("+")[0]]
    o = _obj(p[1], objects)
    if form.endswith("+place"):
        return f"{verb} {o}{' with water' if verb == 'fill' else ''} and put it {_prep(p[2], house)} {_furn(p[2], house)}"
    return f"{verb} {o}{' with water' if verb == 'fill' else ''}"


def instruction(phrases: list[list], objects: dict[str, str], house: House, rng: random.Random) -> str:
    """The instruction for the goal phrases of an episode; staged phrases (a trailing stage number)
    are ordered with "first", "then", "finally"."""
    staged: dict[int, list[str]] = {}
    for p in phrases:
        stage = p[-1] if p[0] == "place" and len(p) == 4 else 0
        staged.setdefault(stage, []).append(_clause(p[:3] if p[0] == "place" else p, objects, house, rng))
    parts = []
    for k, stage in enumerate(sorted(staged)):
        text = " and ".join(staged[stage])
        if len(staged) > 1:
            text = ("first " if k == 0 else "finally " if k == len(staged) - 1 and k > 1 else "then ") + text
        parts.append(text)
    out = ", ".join(parts) + "."
    return out[0].upper() + out[1:]

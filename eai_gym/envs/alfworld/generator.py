"""Seeded procedural ALFWorld games from the real floor-plan data (``eai_gym/data/alfworld/floorplans.json``).

A game uses one floor plan: its big receptacles with their real ids (receptacles with the same
interaction pose share a location, as in ALFWorld), the lamps it holds (on a desk, side table,
dresser or shelf — ALFWorld's receptacle table has no row for lamps), the appliances its class list names (one coffee
machine, toaster, garbage can; four stove burners on two locations), and objects of the classes the
floor plan holds, each in a receptacle whose type can hold it (``VAL_RECEPTACLE_OBJECTS``). The task
type must fit the room (``GOALS_VALID``); the goal object class must have the property the task
needs (heatable, coolable, cleanable) and a receptacle of the goal type must exist that can hold it;
``look_at_obj_in_light`` needs a lamp. One to three goal objects (two or three for pick-two) and
four to twelve distractors are placed; openable receptacles start closed; the agent starts in the
middle of the room. A game is kept only if its goal does not hold at the start and the oracle
solves it. Goals are eai-gym's restatement of ALFWorld's six goal formulas.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib import resources
from typing import Any

from .game import TASK_TYPES, Game, demangle, pddl_sorted

_ROOMS = {"Kitchen": range(1, 31), "LivingRoom": range(201, 231), "Bedroom": range(301, 331),
          "Bathroom": range(401, 431)}
_NEEDS = {"pick_heat_then_place_in_recep": ("Heatable", "Microwave", "heatable", "ishot"),
          "pick_cool_then_place_in_recep": ("Coolable", "Fridge", "coolable", "iscool"),
          "pick_clean_then_place_in_recep": ("Cleanable", "SinkBasin", "cleanable", "isclean")}
LAMPS = ("DeskLamp", "FloorLamp")
#: where a lamp stands (ALFWorld's receptacle table has no row for lamps; eai-gym's choice)
LAMP_PLACES = {"DeskLamp": ("Desk", "SideTable", "Dresser", "Shelf"),
               "FloorLamp": ("SideTable", "Dresser", "Desk", "ArmChair", "Sofa")}


class GenerationError(ValueError):
    pass


@lru_cache(maxsize=1)
def data() -> dict[str, Any]:
    ref = resources.files("eai_gym.data") / "alfworld" / "floorplans.json"
    return json.loads(ref.read_text(encoding="utf-8"))


def mangle(alfred_id: str) -> str:
    """``Cabinet|+00.68|-02.20`` → ``Cabinet_bar__plus_00_dot_68_bar__minus_02_dot_20`` (ALFWorld's PDDL ids)."""
    return (alfred_id.replace("|", "_bar_").replace("+", "_plus_").replace("-", "_minus_")
            .replace(".", "_dot_"))


def goal_formula(task_type: str, obj: str, recep: str, toggle: str) -> tuple:
    o, r = ("objectType", "?o", obj + "Type"), ("receptacleType", "?r", recep + "Type")
    if task_type == "pick_and_place_simple":
        body: tuple = ("and", ("inReceptacle", "?o", "?r"), o, r)
    elif task_type in _NEEDS:
        _, _, prop, state = _NEEDS[task_type]
        body = ("and", (prop, "?o"), o, r, (state, "?o"), ("inReceptacle", "?o", "?r"))
    elif task_type == "pick_two_obj_and_place":
        body = ("and", ("objectType", "?o1", obj + "Type"), r, ("inReceptacle", "?o1", "?r"),
                ("exists", ("?o2", "-", "object"), ("and", ("not", ("=", "?o1", "?o2")),
                                                     ("objectType", "?o2", obj + "Type"), ("inReceptacle", "?o2", "?r"))))
        return ("exists", ("?r", "-", "receptacle"), ("exists", ("?o1", "-", "object"), body))
    else:
        lamp = ("exists", ("?ot", "-", "object", "?r", "-", "receptacle", "?a", "-", "agent", "?l", "-", "location"),
                ("and", ("objectType", "?ot", toggle + "Type"), ("toggleable", "?ot"), ("isToggled", "?ot"),
                 ("receptacleAtLocation", "?r", "?l"), ("atLocation", "?a", "?l"), ("inReceptacle", "?ot", "?r")))
        held = ("exists", ("?o", "-", "object", "?a", "-", "agent"), ("and", o, ("holds", "?a", "?o")))
        return ("and", lamp, held)
    return ("exists", ("?r", "-", "receptacle"), ("exists", ("?o", "-", "object"), body))


def split_of(floorplan: str) -> str:
    """ALFWorld's scene split (constants.py): floor plans 1–6 of each room kind are test scenes
    ("eval", unseen in training), 7–30 train scenes."""
    return "eval" if int(floorplan[9:]) % 100 <= 6 else "train"


def generate_game(seed: int, task_type: str | None = None, floorplan: str | None = None,
                  name: str | None = None, split: str = "train") -> Game:
    """One game; raises :class:`GenerationError` when the floor plan cannot host the task. Without
    ``floorplan``, one of the ``split``'s floor plans that fits the task type is drawn."""
    d = data()
    rng = random.Random(f"alfworld:{seed}:{task_type}:{floorplan}:{split}")
    task_type = task_type or rng.choice(TASK_TYPES)
    if task_type not in TASK_TYPES:
        raise ValueError(f"unknown task_type {task_type!r}; expected one of {', '.join(TASK_TYPES)}")
    if split not in ("train", "eval"):
        raise ValueError(f"split must be 'train' or 'eval', got {split!r}")
    if floorplan is None:
        rooms = d["goals_valid"][task_type]
        floorplan = rng.choice([f"FloorPlan{n}" for r in rooms for n in _ROOMS[r] if split_of(f"FloorPlan{n}") == split])
    fp = d["floorplans"].get(floorplan)
    if fp is None:
        raise ValueError(f"unknown floorplan {floorplan!r}")
    if fp["room"] not in d["goals_valid"][task_type]:
        raise GenerationError(f"{task_type} does not fit a {fp['room']}")
    # receptacles and locations
    rtype, rloc, poses = {}, {}, {}
    for cls, rid, x, z in fp["receptacles"]:
        key = mangle(rid)
        rtype[key] = cls
        rloc[key] = poses.setdefault((x, z), f"loc_bar_{len(poses) + 1}")
    for cls, count in fp["appliances"]:
        for k in range(count):
            key = mangle(f"{cls}|{k:+06.2f}|+00.90|{seed % 97:+06.2f}")
            rtype[key] = cls
            rloc[key] = poses.setdefault((cls, k // 2 if cls == "StoveBurner" else k), f"loc_bar_{len(poses) + 1}")
    can = d["can_contain"]
    holders = {o: sorted(r for r in rtype if o in can.get(rtype[r], ())) for o in fp["objects"]}
    holders.update({t: sorted(r for r in rtype if rtype[r] in LAMP_PLACES[t]) for t in fp.get("lamps", [])})
    acts = {k: set(v) for k, v in d["actions"].items()}
    # the goal
    classes = [o for o in fp["objects"] if holders.get(o) and o not in LAMPS]
    toggle = recep = ""
    if task_type in _NEEDS:
        need, appliance, _, _ = _NEEDS[task_type]
        if appliance not in rtype.values():
            raise GenerationError(f"no {appliance} in {floorplan}")
        classes = [o for o in classes if o in acts[need]]
    if task_type == "look_at_obj_in_light":
        lamps = [t for t in fp.get("lamps", []) if holders.get(t)]
        if not lamps:
            raise GenerationError(f"no lamp place in {floorplan}")
        toggle = rng.choice(lamps)
    else:
        classes = [o for o in classes if any(o in can[t] for t in set(rtype.values()))]
    if not classes:
        raise GenerationError(f"no object class fits {task_type} in {floorplan}")
    obj = rng.choice(sorted(classes))
    if task_type != "look_at_obj_in_light":
        types = sorted({rtype[r] for r in holders[obj]})
        recep = rng.choice(types)
    n_goal = rng.randint(2, 3) if task_type == "pick_two_obj_and_place" else rng.randint(1, 3)
    start_at = [r for r in holders[obj] if rtype[r] != recep]  # not already where the task wants them
    if not start_at:
        raise GenerationError(f"every receptacle that holds {obj} is a {recep}")
    placed: list[tuple[str, str]] = [(obj, rng.choice(start_at)) for _ in range(n_goal)]
    if toggle:
        placed.append((toggle, rng.choice(holders[toggle])))
    others = [o for o in fp["objects"] if o not in (obj, toggle) and holders.get(o)]
    for _ in range(rng.randint(4, 12)):
        if others:
            o = rng.choice(others)
            placed.append((o, rng.choice(holders[o])))
    objects, otype, inside = [], {}, {}
    for k, (cls, r) in enumerate(placed):
        key = mangle(f"{cls}|{k * 0.07 - 1:+06.2f}|+01.00|{(seed % 50) * 0.01:+06.2f}")
        objects.append(key)
        otype[key] = cls
        inside[key] = r
    props = {"pickupable": frozenset(o for o in objects if otype[o] not in LAMPS),
             "heatable": frozenset(o for o in objects if otype[o] in acts["Heatable"]),
             "coolable": frozenset(o for o in objects if otype[o] in acts["Coolable"]),
             "cleanable": frozenset(o for o in objects if otype[o] in acts["Cleanable"]),
             "toggleable": frozenset(o for o in objects if otype[o] in acts["Toggleable"]),
             "sliceable": frozenset(o for o in objects if otype[o] in acts["Sliceable"]),
             "isreceptacleobject": frozenset(o for o in objects if otype[o] in d["movable_receptacles"])}
    recs = pddl_sorted(rtype)
    locs = sorted(set(rloc.values()) | {"loc_bar_0"})
    params = {"object_target": obj, "parent_target": recep, "toggle_target": toggle, "mrecep_target": "",
              "object_sliced": False}
    game = Game(name or f"{task_type}-{obj}-{recep or toggle}-{floorplan}-{seed}", task_type, params, recs,
                pddl_sorted(objects), rtype, otype, rloc, frozenset(r for r in recs if rtype[r] in d["openable"]),
                props,
                frozenset((r, o) for r, os in can.items() for o in os), "loc_bar_0", inside, frozenset(),
                {k: frozenset() for k in ("ishot", "iscool", "isclean", "istoggled", "ison", "issliced")},
                goal_formula(task_type, obj, recep, toggle))
    game.locations = locs
    game.names = demangle(recs + pddl_sorted(objects) + locs)
    return game


#: ALFWorld's valid_unseen (eval_out_of_distribution) mix of task types, 134 games
EVAL_MIX = {"pick_and_place_simple": 24, "pick_clean_then_place_in_recep": 31, "pick_heat_then_place_in_recep": 23,
            "pick_cool_then_place_in_recep": 21, "look_at_obj_in_light": 18, "pick_two_obj_and_place": 17}


@lru_cache(maxsize=1)
def eval_split() -> tuple[tuple[str, str, int], ...]:
    """The shipped eval split: (task type, floor plan, seed) of 134 validated games."""
    ref = resources.files("eai_gym.data") / "alfworld" / "eval.json"
    return tuple(tuple(x) for x in json.loads(ref.read_text(encoding="utf-8"))["games"])


@lru_cache(maxsize=256)
def eval_game(index: int) -> Game:
    """Eval game ``index`` (generated once and shared: games are not changed after generation)."""
    games = eval_split()
    if not 0 <= index < len(games):
        raise IndexError(f"eval index {index} out of range 0..{len(games) - 1}")
    task_type, floorplan, seed = games[index]
    game = generate_game(seed, task_type, None, split="eval")
    if f"-{floorplan}-" not in game.name:
        raise RuntimeError(f"eval game {index} no longer generates on {floorplan}: the generator changed; "
                           "rerun python -m tools.convert.alfworld_splits")
    game.name = f"eval_{index:03d}"
    return game


def formula_text(f: Any) -> str:
    """A goal formula in PDDL syntax."""
    return "(" + " ".join(formula_text(x) for x in f) + ")" if isinstance(f, tuple) else str(f)


def game_to_pddl(game: Game) -> str:
    """The game as an ALFWorld ``initial_state.pddl`` problem (loadable by ALFWorld and by eai-gym)."""
    decl = ["agent1 - agent"] + [f"{o} - object" for o in game.objects] + [f"{r} - receptacle" for r in game.receptacles]
    decl += [f"{loc} - location" for loc in game.locations]
    types = sorted({t for t in game.otype.values()} | {t for _, t in game.can_contain})
    rtypes = sorted(set(game.rtype.values()) | {r for r, _ in game.can_contain})
    decl += [f"{t}Type - otype" for t in types] + [f"{t}Type - rtype" for t in rtypes]
    init = [f"(atLocation agent1 {game.start})"]
    for r in game.receptacles:
        init += [f"(receptacleType {r} {game.rtype[r]}Type)", f"(receptacleAtLocation {r} {game.rloc[r]})"]
        if r in game.openable:
            init.append(f"(openable {r})")
    for o in game.objects:
        r = game.init_in[o]
        init += [f"(objectType {o} {game.otype[o]}Type)", f"(inReceptacle {o} {r})", f"(objectAtLocation {o} {game.rloc[r]})"]
        init += [f"({p} {o})" for p, members in sorted(game.props.items()) if o in members]
    init += [f"(canContain {r}Type {o}Type)" for r, o in sorted(game.can_contain)]
    return (f"(define (problem {game.name})\n (:domain alfred)\n (:objects\n  " + "\n  ".join(decl)
            + "\n )\n (:init\n  " + "\n  ".join(init) + f"\n )\n (:goal {formula_text(game.goal)})\n)\n")

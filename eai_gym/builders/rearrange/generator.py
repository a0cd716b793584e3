"""Seeded episode generator for PARTNR's four task kinds over the rearrange houses.

``generate_episode(house, kind, seed, episode_id)`` places a few goal objects and distractors on
furniture that can hold them (ALFWorld's receptacle table, only classes the room's floor plan
holds), writes an instruction, PARTNR's evaluation spec and its intended solution:

* ``constraint_free``: one to three rearrangements (``is_on_top`` / ``is_inside`` with one receptacle
  or a list of same-class receptacles, ``is_in_room``, two objects of a class with ``number``);
* ``spatial``: next-to placements, a cluster of three, the same receptacle (``SameArgConstraint``)
  or different receptacles (``DifferentArgConstraint``);
* ``temporal``: two or three ordered stages (``TemporalConstraint``), including "to A, then on to B";
* ``heterogeneous``: object-state goals (clean, fill, power on) that only the human can do, with
  rearrangements for the robot (``capabilities`` removes the state skills from ``agent_0``).

Dependencies follow PARTNR's automatic rules (``attach_auto_dependencies``): next-to and clustered
propositions are gated ``while_satisfied`` (mode any) on the placements of the same stage that share
an entity; a later stage's placement of an entity is gated ``after_satisfied`` (any) on its placement
in the most recent earlier stage. ``TerminalSatisfactionConstraint`` lists every proposition that
must still hold at the end. ``info["solution"]`` holds the intended solution, stage by stage, as
subtasks the oracle (:mod:`eai_gym.envs.rearrange.oracle`) executes.
"""

from __future__ import annotations

import random
from typing import Any

from ...envs.rearrange.episode import RearrangeEpisode
from ...envs.rearrange.house import Furniture, House
from ...envs.rearrange.houses import objects_for_room
from ...envs.rearrange.instructions import instruction
from ...envs.rearrange.objects import object_classes
from ...envs.rearrange.skills import STATE_SKILLS

KINDS = ("constraint_free", "spatial", "temporal", "heterogeneous")
ROBOT_SKILLS = sorted(set(("Navigate", "Pick", "Place", "Rearrange", "Open", "Close", "Explore", "Wait",
                           "FindObjectTool", "FindReceptacleTool", "FindRoomTool", "FindAgentActionTool", "Done")))
STATE_GOALS = (("is_clean", "is_clean", False, "Clean"), ("is_filled", "is_filled", False, "Fill"),
               ("is_powered_on", "is_powered_on", False, "PowerOn"))


class GenerationError(ValueError):
    """The house cannot host the requested episode with this seed."""


class _Builder:
    def __init__(self, house: House, rng: random.Random) -> None:
        self.house, self.rng = house, rng
        self.classes = object_classes()
        self.objects: dict[str, str] = {}
        self.start: dict[str, str] = {}
        self.counts: dict[str, int] = {}
        self.props: list[dict] = []
        self.groups: list[int] = []  # stage of each proposition
        self.solution: list[list[dict]] = []
        self.states: dict[str, dict[str, bool]] = {}
        self.phrases: list[list[str]] = []

    # -- objects -------------------------------------------------------------------------------------
    def spawn(self, cls: str | None = None, room: str | None = None, avoid: set[str] | None = None) -> str:
        rooms = [room] if room else [r.name for r in self.house.rooms]
        options = []
        for r in rooms:
            for c in objects_for_room(self.house, r):
                if (cls is None or c == cls) and c not in (avoid or ()):
                    options += [(c, f) for f in self.house.furniture_in(r) if f.cls in self.classes[c].receptacles]
        if not options:
            raise GenerationError(f"no furniture in {rooms} can hold {cls or 'any object'}")
        c, f = self.rng.choice(sorted(options, key=lambda cf: (cf[0], cf[1].name)))
        self.counts[c] = self.counts.get(c, 0) + 1
        h = f"{c}_{self.counts[c]}"
        self.objects[h], self.start[h] = c, f.name
        return h

    def targets(self, h: str, exclude_room: str | None = None) -> list[Furniture]:
        """Furniture that can hold ``h``, not where it starts (nor in ``exclude_room``)."""
        cls = self.classes[self.objects[h]]
        return [f for f in self.house.furniture if f.cls in cls.receptacles and f.name != self.start[h]
                and f.room != exclude_room]

    def pick_target(self, h: str, other_room: bool = True) -> Furniture:
        here = self.room(self.start[h])
        fs = self.targets(h, here if other_room else None) or self.targets(h)
        if not fs:
            raise GenerationError(f"nowhere to move {h}")
        return self.rng.choice(fs)

    def room(self, place: str) -> str:
        f = self.house.furniture_by_name.get(place)
        return f.room if f else self.house.floors.get(place, place)

    # -- propositions -----------------------------------------------------------------------------------
    def add(self, stage: int, fn: str, args: dict) -> int:
        self.props.append({"function_name": fn, "args": args})
        self.groups.append(stage)
        return len(self.props) - 1

    def step(self, stage: int, op: dict) -> None:
        while len(self.solution) <= stage:
            self.solution.append([])
        self.solution[stage].append(op)

    def place(self, stage: int, h: str, f: Furniture, receptacles: list[str] | None = None,
              next_to: str | None = None) -> int:
        fn = "is_inside" if f.relation == "within" else "is_on_top"
        if receptacles is None:  # "the <class> in the <room>": any piece of that class there
            receptacles = [g.name for g in self.house.furniture_in(f.room) if g.cls == f.cls]
        i = self.add(stage, fn, {"object_handles": [h], "receptacle_handles": receptacles,
                                 "number": 1, "is_same_receptacle": False})
        self.step(stage, {"op": "place", "object": h, "relation": f.relation, "target": f.name, "next_to": next_to})
        return i

    def state_goal(self, stage: int, h: str) -> tuple[str, str]:
        cls = self.classes[self.objects[h]]
        for pred, state, initial, skill in STATE_GOALS:
            if state in cls.states:
                self.states.setdefault(state, {})[h] = initial
                self.add(stage, pred, {"object_handles": [h], "number": 1})
                self.step(stage, {"op": "state", "object": h, "skill": skill})
                return pred, skill
        raise GenerationError(f"{h} affords no state goal")

    # -- dependencies and constraints -----------------------------------------------------------------
    def spec(self) -> dict[str, Any]:
        deps = []
        placements = {i: p for i, p in enumerate(self.props) if p["function_name"] in ("is_on_top", "is_inside",
                                                                                      "is_in_room")}
        for i, p in enumerate(self.props):
            ents = _entities(p)
            if p["function_name"] in ("is_next_to", "is_clustered"):
                on = [j for j, q in placements.items() if self.groups[j] == self.groups[i] and ents & _entities(q)]
                if on:
                    deps.append({"proposition_indices": [i], "depends_on": on, "relation_type": "while_satisfied",
                                 "dependency_mode": "any"})
            if i in placements:
                earlier = [j for j, q in placements.items() if self.groups[j] < self.groups[i] and ents & _entities(q)]
                if earlier:
                    last = max(self.groups[j] for j in earlier)
                    deps.append({"proposition_indices": [i], "depends_on": [j for j in earlier if self.groups[j] == last],
                                 "relation_type": "after_satisfied", "dependency_mode": "any"})
        n = len(self.props)
        cons: list[dict] = []
        stages = sorted(set(self.groups))
        if len(stages) > 1:
            edges = [[a, b] for a in range(n) for b in range(n) if self.groups[b] == self.groups[a] + 1]
            cons.append({"type": "TemporalConstraint", "args": {"dag_edges": edges, "n_propositions": n}})
        moved_later = {e for i, p in enumerate(self.props) for e in _entities(p) if self.groups[i] > min(self.groups)}
        terminal = [i for i, p in enumerate(self.props)
                    if self.groups[i] == max(self.groups) or not (_objects(p) & moved_later)]
        cons.append({"type": "TerminalSatisfactionConstraint", "args": {"proposition_indices": terminal,
                                                                         "n_propositions": n}})
        return {"evaluation_propositions": self.props, "evaluation_proposition_dependencies": deps,
                "evaluation_constraints": cons, "object_states": self.states}


def _objects(p: dict) -> set[str]:
    a = p["args"]
    return set(a.get("object_handles", [])) | set(a.get("entity_handles_a", [])) | {
        h for g in a.get("*args", []) for h in g}


def _entities(p: dict) -> set[str]:
    return _objects(p) | set(p["args"].get("entity_handles_b", []))


# -- the four kinds ----------------------------------------------------------------------------------------------
def _constraint_free(b: _Builder) -> None:
    for _ in range(b.rng.randint(1, 3)):
        h = b.spawn(avoid=set(b.objects.values()))
        f = b.pick_target(h)
        form = b.rng.choice(("one", "one", "any_of_class", "room", "two"))
        if form == "two":
            cls = b.objects[h]
            h2 = b.spawn(cls=cls)
            if f.name == b.start[h2]:
                raise GenerationError("the second object already starts there")
            fn = "is_inside" if f.relation == "within" else "is_on_top"
            b.add(0, fn, {"object_handles": [h, h2], "receptacle_handles": [f.name], "number": 2,
                          "is_same_receptacle": False})
            for o in (h, h2):
                b.step(0, {"op": "place", "object": o, "relation": f.relation, "target": f.name, "next_to": None})
            b.phrases.append(["two", h, h2, f.name])
        elif form == "room":
            b.add(0, "is_in_room", {"object_handles": [h], "room_ids": [f.room], "number": 1, "is_same_room": False})
            b.step(0, {"op": "place", "object": h, "relation": f.relation, "target": f.name, "next_to": None})
            b.phrases.append(["room", h, f.room])
        elif form == "any_of_class":
            same = [g.name for g in b.house.furniture_in(f.room) if g.cls == f.cls and g.name != b.start[h]]
            b.place(0, h, f, receptacles=same)
            b.phrases.append(["any", h, f.name])
        else:
            b.place(0, h, f)
            b.phrases.append(["place", h, f.name])


def _spatial(b: _Builder) -> None:
    form = b.rng.choice(("next_to", "cluster", "same", "different"))
    a = b.spawn()
    f = b.pick_target(a)
    if f.relation != "on":
        ons = [g for g in b.targets(a) if g.relation == "on"]
        if not ons:
            raise GenerationError("no surface for a spatial goal")
        f = b.rng.choice(ons)
    if form in ("next_to", "cluster"):
        others = [b.spawn(avoid={b.objects[a]}) for _ in range(1 if form == "next_to" else 2)]
        if any(f.cls not in b.classes[b.objects[o]].receptacles for o in others):
            raise GenerationError("the surface cannot hold every object")
        group = [a] + others
        for k, h in enumerate(group):
            b.place(0, h, f, next_to=group[k - 1] if k else None)
        if form == "next_to":
            b.add(0, "is_next_to", {"entity_handles_a": [others[0]], "entity_handles_b": [a], "number": 1,
                                    "is_same_b": False, "l2_threshold": 0.5})
        else:
            b.add(0, "is_clustered", {"*args": [[h] for h in group], "number": [1] * len(group)})
        b.phrases.append([form, *group, f.name])
        return
    c = b.spawn(avoid={b.objects[a]})
    pool = [g for g in b.house.furniture if g.cls == f.cls and g.name not in (b.start[a], b.start[c])]
    if f.cls not in b.classes[b.objects[c]].receptacles or len(pool) < 2:
        raise GenerationError(f"need two {f.cls} for both objects")
    names = [g.name for g in pool]
    second = f if form == "same" else b.rng.choice([g for g in pool if g.name != f.name])
    i = b.place(0, a, f, receptacles=names)
    j = b.place(0, c, second, receptacles=names)
    b.phrases.append([form, a, c, f.cls])
    b.constraints = [{"type": "SameArgConstraint" if form == "same" else "DifferentArgConstraint",
                      "args": {"proposition_indices": [i, j], "arg_names": ["receptacle_handles"] * 2,
                               "n_propositions": 0}}]


def _temporal(b: _Builder) -> None:
    if b.rng.random() < 0.4:
        h = b.spawn()
        first = b.pick_target(h)
        then = [g for g in b.targets(h) if g.name != first.name and g.room != first.room]
        if not then:
            raise GenerationError("nowhere to go next")
        second = b.rng.choice(then)
        b.place(0, h, first)
        b.place(1, h, second)
        b.phrases.append(["via", h, first.name, second.name])
        extra = b.spawn(avoid={b.objects[h]})
        b.place(0, extra, b.pick_target(extra))
        b.phrases.append(["place", extra, b.solution[0][-1]["target"]])
        return
    for stage in range(b.rng.choice((2, 2, 3))):
        for _ in range(2 if stage == 0 else b.rng.randint(1, 2)):
            h = b.spawn(avoid=set(b.objects.values()))
            f = b.pick_target(h)
            b.place(stage, h, f)
            b.phrases.append(["place", h, f.name, stage])


def _heterogeneous(b: _Builder) -> None:
    able = [c for c, oc in sorted(b.classes.items()) if oc.states]
    h = b.spawn(cls=b.rng.choice([c for c in able if any(c in objects_for_room(b.house, r.name)
                                                          for r in b.house.rooms)]))
    pred, _ = b.state_goal(0, h)
    if b.rng.random() < 0.5:
        f = b.pick_target(h)
        b.place(0, h, f)
        b.phrases.append([pred + "+place", h, f.name])
    else:
        b.phrases.append([pred, h])
    for _ in range(b.rng.randint(1, 2)):
        o = b.spawn(avoid=set(b.objects.values()))
        f = b.pick_target(o)
        b.place(0, o, f)
        b.phrases.append(["place", o, f.name])


_KIND_BUILDERS = {"constraint_free": _constraint_free, "spatial": _spatial, "temporal": _temporal,
                  "heterogeneous": _heterogeneous}


def generate_episode(house: House, kind: str, seed: int, episode_id: str) -> RearrangeEpisode:
    """One episode; raises :class:`GenerationError` when this seed does not fit the house."""
    if kind not in _KIND_BUILDERS:
        raise ValueError(f"unknown task kind {kind!r}; expected one of {', '.join(KINDS)}")
    rng = random.Random(f"{house.id}:{kind}:{seed}")
    b = _Builder(house, rng)
    b.constraints = []
    _KIND_BUILDERS[kind](b)
    for _ in range(rng.randint(2, 4)):
        try:
            b.spawn(avoid=set(b.objects.values()))
        except GenerationError:
            break
    spec = b.spec()
    for c in b.constraints:
        c["args"]["n_propositions"] = len(b.props)
    spec["evaluation_constraints"] = b.constraints + spec["evaluation_constraints"]
    rooms = [r.name for r in house.rooms]
    starts = {"agent_0": rng.choice(rooms), "agent_1": rng.choice(rooms)}
    caps = {"agent_0": ROBOT_SKILLS} if kind == "heterogeneous" else {}
    assert not set(STATE_SKILLS) & set(ROBOT_SKILLS)
    text = instruction(b.phrases, b.objects, house, rng)
    return RearrangeEpisode(episode_id, house.id, text, dict(b.objects), dict(b.start), spec, starts, caps, kind,
                            {"generator": "eai_gym.builders.rearrange.generator", "seed": seed,
                             "solution": b.solution})

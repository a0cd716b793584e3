"""The actions BEHAVIOR-1K's goals need that OmniGibson's symbolic primitives lack (see ``docs/behavior1k.md``)."""

from __future__ import annotations

from .dynamics import (
    ADD,
    AFF,
    MISSING,
    Failure,
    Handler,
    conditions_met,
    hand_free,
    holding,
    is_fixture,
    need,
    produced,
    removable,
    require_object,
)
from .kb import ActivityKB
from .rules import exposure, gather_inputs, produce
from .state import B1KState, Edit, begin


def _support(kb: ActivityKB, s: B1KState, t: str) -> list[tuple[str, str]]:
    """Where ``t`` stands: its ``ontop``/``inside`` relations; a scene object bddl places in a room (``inroom``)
    with none stands on the floor of that room (as NAVIGATE_TO and RELEASE read it)."""
    out = [(rel, x) for rel in ("ontop", "inside") for x in s.targets(rel, t)]
    if not out and t in kb.room and (floor := kb.floor_of_room.get(kb.room[t])) not in (None, t):
        out.append(("ontop", floor))
    return out


def _beside(relation: str) -> Handler:
    """PLACE_NEXT_TO / PLACE_UNDER: the held object goes next to (under) ``t``, on what ``t`` stands on (and
    touching it, as PLACE_ON_TOP)."""
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        o = holding(s, t)
        require_object(kb, s, t)
        e = begin(s)
        e.held = None
        e.add(relation, o, t)
        if relation == "nextto":
            e.add("nextto", t, o)
        for rel, x in _support(kb, s, t):
            if x != o:
                e.add(rel, o, x)
                if rel == "ontop":
                    e.add("touching", o, x)
                    e.add("touching", x, o)
        return e
    return act


_next_to = _beside("nextto")


def place_next_to_group(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """PLACE_NEXT_TO_GROUP(t): the held object joins the objects ``t`` is next to: next to ``t`` and to each of
    them, on what ``t`` stands on (as PLACE_NEXT_TO). OmniGibson's NextTo is geometric (bounding boxes within a
    sixth of their mean size, and a horizontal ray from either centre hitting the other): an object laid in a
    cluster is next to each member it touches. ``t`` must be next to something (else it is PLACE_NEXT_TO)."""
    assert t is not None
    holding(s, t)
    require_object(kb, s, t)
    group = s.targets("nextto", t)
    if not group:
        raise Failure(MISSING, f"{t} is next to nothing: PLACE_NEXT_TO puts the held object beside it alone")
    o = s.held
    e = _next_to(kb, s, t)
    for n in group:
        if n != o:
            e.add("nextto", o, n)
            e.add("nextto", n, o)
    return e


def place_near_heating_element(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """OmniGibson's primitive: on top of a heat source that does not need its objects inside."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    need(kb, t, "heatSource", "PLACE_NEAR_HEATING_ELEMENT")
    if kb.param(t, "heatSource").get("requires_inside"):
        raise Failure(AFF, f"{t} heats only what is inside it: use PLACE_INSIDE")
    e = begin(s)
    e.held = None
    e.add("ontop", o, t)
    e.add("touching", o, t)
    e.add("touching", t, o)
    return e


def _source_substances(kb: ActivityKB, s: B1KState, src: str) -> list[str]:
    return sorted(set(produced(kb, s, src)) | set(s.targets("contains", src)) | set(s.targets("filled", src)))


def lying_on(kb: ActivityKB, s: B1KState, t: str) -> list[str]:
    """Physical substances covering ``t`` (grass clippings on a lawn): OmniGibson simulates their particles, so a
    container scooping them takes them in (visual substances such as stains are attached to ``t`` and cannot)."""
    return [x for x in s.targets("covered", t) if kb.has(x, "physicalSubstance")]


def fill(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """FILL(source): the held fillable container takes what ``t`` gives (a toggled-on sink, a bottle, a container)
    or scoops up the physical substances lying on ``t`` (which then no longer cover it)."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    need(kb, o, "fillable", "FILL (the held container)")
    scooped = lying_on(kb, s, t)
    got = sorted(set(_source_substances(kb, s, t)) | set(scooped))
    if not got:
        raise Failure(MISSING, f"{t} gives no substance now (is it toggled on? is it filled?)")
    if all(s.has("filled", o, x) for x in got):
        raise Failure(ADD, f"{o} is already filled with {', '.join(got)}")
    e = begin(s)
    for x in got:
        e.add("filled", o, x)
        e.add("contains", o, x)
    for x in scooped:
        e.remove("covered", t, x)
    return e


def pour(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """POUR(t): what the held object contains (or is a source of) goes into ``t`` (fillable) or onto it."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    got = _source_substances(kb, s, o)
    if not got:
        raise Failure(MISSING, f"{o} contains nothing to pour")
    if kb.has(t, "openable") and not s.has("open", t):
        raise Failure(MISSING, f"{t} is closed: OPEN it first")
    e = begin(s)
    for x in got:
        if kb.has(t, "fillable"):
            e.add("contains", t, x)
            if s.has("filled", o, x):
                e.add("filled", t, x)
        else:
            land_on(kb, s, e, t, x)
        e.remove("contains", o, x)
        e.remove("filled", o, x)
    return e


def apply_substance(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """APPLY(t): a held particle applier (spray bottle, shaker) whose conditions hold, or any held source of a
    substance, covers ``t`` with it."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    conds = kb.param(o, "particleApplier").get("conditions", {})
    got = [i for syn, c in sorted(conds.items()) if (i := kb.substance_instance(syn)) and conditions_met(kb, s, o, c)]
    got = sorted(set(got) | set(s.targets("insource", o)) | set(s.targets("contains", o)))
    if not got:
        if conds:
            raise Failure(MISSING, f"{o} applies nothing now (is it toggled on?)")
        raise Failure(AFF, f"{o} is not a particle applier and holds no substance")
    if all(s.has("covered", t, x) for x in got):
        raise Failure(ADD, f"{t} is already covered with {', '.join(got)}")
    e = begin(s)
    for x in got:
        land_on(kb, s, e, t, x)
    return e


def land_on(kb: ActivityKB, s: B1KState, e: Edit, t: str, x: str) -> None:
    """Substance ``x`` lands on ``t``: it covers ``t``; a particle remover that can remove ``x`` now (its
    conditions for ``x`` hold) also soaks it up, as OmniGibson's removers absorb what touches them (a pot plant
    watered becomes saturated with water)."""
    e.add("covered", t, x)
    if removable(kb, s, t, [x]):
        e.add("saturated", t, x)


def rinse(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """RINSE(source): hold the held object under a source giving water now (a toggled-on sink): it loses every
    covering substance the washer table removes with water alone, or with a solvent it is covered with."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    water = kb.substance_instance("water.n.06")
    if water is None or water not in produced(kb, s, t):
        raise Failure(MISSING, f"{t} gives no water now (is it a water source, toggled on?)")
    on_o = s.targets("covered", o)
    gone = [x for x in on_o if x != water and (solvents := kb.washer_solvents(kb.synset[x])) is not None
            and (not solvents or any(s.has("covered", o, kb.substance_instance(v) or "") for v in solvents))]
    if not gone:
        raise Failure(ADD, f"rinsing removes nothing from {o}")
    e = begin(s)
    for x in gone:
        e.remove("covered", o, x)
    return e


def mix(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """MIX(c): stir ``c`` with the held mixing tool: a mixing_stick rule whose inputs ``c`` holds fires."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    need(kb, o, "mixingTool", "MIX (the held tool)")
    for rule in kb.rules["mixing_stick"]:
        inputs = gather_inputs(kb, s.facts, rule, t)
        if inputs is not None:
            e = Edit(s)
            if produce(kb, e, rule, t, inputs):
                return e
    raise Failure(MISSING, f"{t} does not hold all the inputs of a mixing recipe this activity can make")


def attach(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    if (kb.synset[o], kb.synset[t]) not in kb.attach_pairs and not kb.has(o, "attachable"):
        raise Failure(AFF, f"{o} cannot be attached: its synset is not attachable and ({kb.synset[o]}, "
                           f"{kb.synset[t]}) is not a valid attachment pair")
    e = begin(s)
    e.held = None
    e.add("attached", o, t)
    return e


def detach(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    assert t is not None
    require_object(kb, s, t)
    hand_free(s, t)
    parents = s.targets("attached", t)
    if not parents:
        raise Failure(ADD, f"{t} is not attached to anything")
    e = begin(s)
    for p in parents:
        e.remove("attached", t, p)
    if not is_fixture(kb, t):  # a fixture comes off but stays where it is
        e.held = t
    return e


def fold(value: bool) -> Handler:
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        require_object(kb, s, t)
        need(kb, t, "cloth", "FOLD/UNFOLD")
        if s.held not in (None, t):
            raise Failure(MISSING, f"the hand must be empty or hold {t} (holding {s.held})")
        state = "folded" if value else "unfolded"
        if s.has(state, t):
            raise Failure(ADD, f"{t} is already {state}")
        e = begin(s)
        e.add(state, t)
        e.remove("unfolded" if value else "folded", t)
        return e
    return act


def _cover(relation: str, prop: str) -> Handler:
    """DRAPE (drapeable) / OVERLAY (cloth): the held object hangs over / lies over ``t``."""
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        o = holding(s, t)
        require_object(kb, s, t)
        need(kb, o, prop, relation.upper())
        e = begin(s)
        e.held = None
        e.add(relation, o, t)
        if relation == "overlaid":  # a cloth laid over t also lies over what stands on t
            pile, seen = s.sources("ontop", t), {t}
            while pile:
                x = pile.pop()
                if x not in seen and x != o:
                    seen.add(x)
                    e.add("overlaid", o, x)
                    pile += s.sources("ontop", x)
        e.add("ontop", o, t)
        e.add("touching", o, t)
        e.add("touching", t, o)
        return e
    return act


def wait(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """WAIT(): time passes: what no active heat source reaches cools down (not hot); what no active cold source
    reaches thaws (not frozen). (Reads each instance's hot/frozen atom, not a scan of the facts: a kept mask
    answer then depends on those atoms only.)"""
    heated = exposure(kb, s.facts, "heatSource")
    cooled = exposure(kb, s.facts, "coldSource")
    gone = [("hot", i) for i in kb.instances if s.has("hot", i) and i not in heated]
    gone += [("frozen", i) for i in kb.instances if s.has("frozen", i) and i not in cooled]
    if not gone:
        raise Failure(ADD, "nothing changes with time now")
    e = begin(s)
    for f in gone:
        e.remove(*f)
    return e


def ignite(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    assert t is not None
    require_object(kb, s, t)
    need(kb, t, "flammable", "IGNITE")
    if t not in exposure(kb, s.facts, "heatSource"):
        raise Failure(MISSING, f"{t} must be on or in an active heat source to catch fire")
    if s.has("on_fire", t):
        raise Failure(ADD, f"{t} is already on fire")
    e = begin(s)
    e.add("on_fire", t)
    return e


ADDED: dict[str, Handler] = {
    "PLACE_NEAR_HEATING_ELEMENT": place_near_heating_element,
    "PLACE_NEXT_TO": _next_to, "PLACE_NEXT_TO_GROUP": place_next_to_group, "PLACE_UNDER": _beside("under"),
    "FILL": fill, "POUR": pour, "RINSE": rinse, "APPLY": apply_substance, "MIX": mix, "ATTACH": attach, "DETACH": detach,
    "FOLD": fold(True), "UNFOLD": fold(False), "DRAPE": _cover("draped", "drapeable"),
    "OVERLAY": _cover("overlaid", "cloth"), "WAIT": wait, "IGNITE": ignite,
}

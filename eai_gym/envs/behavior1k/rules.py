"""The knowledge base's transition rules and the heat and cold sources, fired to a fixpoint after every action.

* Each round fires the heated recipes before heat acts (their input states, e.g. uncooked apples, are read
  first), then heat and cold act.
* Heat and cold sources (``heatSource``/``coldSource`` with ``requires_toggled_on``/``requires_closed``/
  ``requires_inside``) act on what is inside them (or on top, unless ``requires_inside``) and on the contents of
  that: ``hot`` (heatable), ``cooked`` (cookable objects, source temperature >= ``cook_temperature``) and not
  ``frozen``; or ``frozen`` (freezable) and not ``hot``. Reverting (cooling down, thawing) takes a WAIT.
* ``heat_cook``: the inputs in a container of the rule's kind heated (or, for a rule whose source is a cold
  source, cooled: ice cubes in a deep freeze) by an active source of the rule's kind.
* ``substance_cooking``/``substance_watercooking``: a substance contained in a heated container; ``melting``: a
  meltable object heated, or a meltable substance (grated cheese) contained in a heated container.
* ``single_toggleable_machine``: the inputs inside (objects) or contained in (substances) a toggled-on machine.
* washer (``washer*.json``): a toggled-on, closed washer removes from the items inside it every covering substance
  whose solvent (if any) it contains, then wets them (covered, and saturated for particle removers, by water) when
  the activity declares water (the water then exists: OmniGibson's WasherRule initialises the water system).
* dryer (no bddl file; OmniGibson's ``DryerRule``, ``transition_rules.py``: ``CategoryFilter("clothes_dryer")``,
  toggled on and not open): the items inside stop being saturated with water and the dryer stops containing water,
  which removes the water particles on those items too (not covered by water).

Consumed inputs stop existing (``future``; a substance only leaves the container it was in); outputs take over
``future`` instances of their synset, in declaration order (a rule whose outputs have no free instance does not
fire: the activity cannot show its result).
"""

from __future__ import annotations

from typing import Any

from .kb import ActivityKB, synset_of
from .state import Edit

MAX_ROUNDS = 20


def active(kb: ActivityKB, facts: set, source: str, prop: str) -> bool:
    p = kb.param(source, prop)
    if p.get("requires_toggled_on") and ("toggled_on", source) not in facts:
        return False
    return not (p.get("requires_closed") and ("open", source) in facts)


def exposure(kb: ActivityKB, facts: set, prop: str) -> dict[str, str]:
    """Instances (objects and contained substances) an active source of kind ``prop`` acts on -> the source: what
    is inside it (or on top, unless ``requires_inside``), what is inside or on top of those (or of the source),
    and what those contain. One source at a time, in KB order: the first source wins. (The facts are read in one
    pass, when some source is active.)"""
    out: dict[str, str] = {}
    below: dict[str, list[tuple[str, str]]] | None = None  # by a fact's second argument: (relation, first)
    held: dict[str, list[str]] = {}  # by container: what it contains / is filled with
    for src in kb.sources[prop]:
        if ("real", src) not in facts or not active(kb, facts, src, prop):
            continue
        if below is None:
            below = {}
            for f in facts:
                if len(f) == 3:
                    if f[0] == "inside" or f[0] == "ontop":
                        below.setdefault(f[2], []).append((f[0], f[1]))
                    elif f[0] == "contains" or f[0] == "filled":
                        held.setdefault(f[1], []).append(f[2])
        inside_only = bool(kb.param(src, prop).get("requires_inside"))
        holders = sorted(x for rel, x in below.get(src, ()) if rel == "inside" or not inside_only)
        for h in holders:
            out.setdefault(h, src)
        for h in holders + [src]:
            # what stands on or in the source itself is its holders (on top only without ``requires_inside``);
            # what stands on or in a holder is heated through it
            if h != src:
                for _, x in below.get(h, ()):
                    if x != src:
                        out.setdefault(x, src)
            for x in held.get(h, ()):
                out.setdefault(x, src)
    return out


def free_instances(kb: ActivityKB, facts: set, synset: str) -> list[str]:
    return [i for i in kb.objects.get(synset, ()) if ("future", i) in facts]


def _states_ok(kb: ActivityKB, facts: set, inst: str, states: list[list[Any]] | None) -> bool:
    return all(((pred, inst) in facts) == bool(value) for pred, value in (states or ()))


def gather_inputs(kb: ActivityKB, facts: set, rule: dict[str, Any], place: str) -> list[str] | None:
    """The instances a rule would use up at ``place`` (objects inside/on it, substances it contains), or None."""
    used: list[str] = []
    states = rule.get("input_states") or {}
    for synset, count in (rule.get("input_synsets") or {}).items():
        names = kb.objects.get(synset, [])
        if names and names[0] in kb.substances:
            s = names[0]
            if ("contains", place, s) not in facts and ("filled", place, s) not in facts:
                return None
            used.append(s)
            continue
        here = [o for o in names if ("real", o) in facts and _states_ok(kb, facts, o, states.get(synset))
                and (("inside", o, place) in facts or ("ontop", o, place) in facts)]
        if len(here) < count:
            return None
        used += here[:count]
    return used


def states_ok(kb: ActivityKB, facts: set, inst: str, rule: dict[str, Any]) -> bool:
    """``inst`` meets the rule's unary input states for its synset."""
    return _states_ok(kb, facts, inst, (rule.get("input_states") or {}).get(kb.synset[inst]))


def produce(kb: ActivityKB, e: Edit, rule: dict[str, Any], place: str | None, inputs: list[str]) -> list[str]:
    """Use up ``inputs`` and create the rule's outputs at ``place`` (None: not placed); returns the created
    instances (none, and nothing done, if no output has a free instance)."""
    made: list[tuple[str, bool]] = []
    for synset, count in (rule.get("output_synsets") or {}).items():
        names = kb.objects.get(synset, [])
        if names and names[0] in kb.substances:
            made.append((names[0], True))
        else:
            made += [(o, False) for o in free_instances(kb, e.facts, synset)[:count]]
    if not made:
        return []
    was_filled = place is not None and any(("filled", place, s) in e.facts for s in inputs)
    relation = "inside" if place is not None and (kb.has(place, "fillable") or kb.has(place, "openable")) else "ontop"
    objects_in = [i for i in inputs if i not in kb.substances]
    if objects_in and place is not None and rule.get("container") and all(("ontop", i, place) in e.facts and ("inside", i, place) not in e.facts
                                                for i in objects_in):
        relation = "ontop"  # a recipe's container holding what stood on it (dough on a cookie sheet): so do the outputs
    for inst in inputs:
        if inst in kb.substances and place is not None:
            e.remove("contains", place, inst)
            e.remove("filled", place, inst)
        else:
            e.consume(inst)
    out_states = rule.get("output_states") or {}
    for inst, is_substance in made:
        e.create(inst)
        if place is None:
            pass
        elif is_substance:
            e.add("contains", place, inst)
            if was_filled:
                e.add("filled", place, inst)
        else:
            e.add(relation, inst, place)
        for pred, value in out_states.get(synset_of(inst), ()):
            (e.add if value else e.remove)(pred, inst)
    return [inst for inst, _ in made]


def _temperature(kb: ActivityKB, e: Edit, heated: dict[str, str]) -> None:
    for inst, src in heated.items():
        if inst in kb.substances:
            continue
        if kb.has(inst, "heatable"):
            e.add("hot", inst)
        e.remove("frozen", inst)
        cook = kb.param(inst, "cookable")
        if "cookable" in kb.props[inst] and kb.param(src, "heatSource").get("temperature", 0) >= \
                cook.get("cook_temperature", 0):
            e.add("cooked", inst)
    for inst in exposure(kb, e.facts, "coldSource"):
        if inst not in kb.substances and kb.has(inst, "freezable"):
            e.add("frozen", inst)
            e.remove("hot", inst)


def _container_of(e: Edit, inst: str) -> str | None:
    for f in sorted(e.facts):
        if len(f) == 3 and f[0] in ("contains", "filled") and f[2] == inst:
            return f[1]
    return None


def _heat_rules(kb: ActivityKB, e: Edit, heated: dict[str, str], cooled: dict[str, str]) -> None:
    for rule in kb.rules["heat_cook"]:  # its "heat source" may be a cold source (ice cubes: a deep freeze)
        for place in kb.objects.get(next(iter(rule["container"])), []):
            src = heated.get(place) if place in heated and kb.synset[heated[place]] in rule["heat_source"] \
                else cooled.get(place)
            if src is None and any(("inside", place, h) in e.facts or ("ontop", place, h) in e.facts
                                   for h in kb.instances if kb.synset[h] in rule["heat_source"]):
                continue  # on a source of the right kind that is off
            if src is None or kb.synset[src] not in rule["heat_source"]:
                continue
            inputs = gather_inputs(kb, e.facts, rule, place)
            if inputs is not None:
                produce(kb, e, rule, place, inputs)
    for kind in ("substance_watercooking", "substance_cooking"):
        for rule in kb.rules[kind]:
            for s in list(rule["input_synsets"])[:1]:
                inst = kb.substance_instance(s)
                place = _container_of(e, inst) if inst else None
                if place is not None and (inst in heated or place in heated):
                    inputs = gather_inputs(kb, e.facts, rule, place)
                    if inputs is not None:
                        produce(kb, e, rule, place, inputs)
    for rule in kb.rules["melting"]:
        for inst in kb.objects.get(next(iter(rule["input_synsets"])), []):
            if inst in kb.substances and ("real", inst) in e.facts:  # a substance melts as it cooks: contained
                place = _container_of(e, inst)                       # in a heated container
                if place is not None and (inst in heated or place in heated):
                    produce(kb, e, rule, place, [inst])
                continue
            if inst in heated and ("real", inst) in e.facts and inst not in kb.substances:
                holders = [f[2] for f in sorted(e.facts) if len(f) == 3 and f[0] in ("inside", "ontop")
                           and f[1] == inst]
                if holders:
                    produce(kb, e, rule, holders[0], [inst])


def _machines(kb: ActivityKB, e: Edit) -> None:
    for rule in kb.rules["single_toggleable_machine"]:
        for m in kb.objects.get(next(iter(rule["machine"])), []):
            if ("toggled_on", m) in e.facts and ("real", m) in e.facts:
                inputs = gather_inputs(kb, e.facts, rule, m)
                if inputs is not None:
                    produce(kb, e, rule, m, inputs)


def _washers(kb: ActivityKB, e: Edit) -> None:
    machines = {m for kind in ("washer_particleremover", "washer_nonparticleremover")
                for rule in kb.rules[kind] for m in rule["machine"]}
    water = kb.substance_instance("water.n.06")
    saturating = {s for rule in kb.rules["washer_particleremover"] for s in rule["washed_item"]}
    for synset in sorted(machines):
        for w in kb.objects.get(synset, []):
            if ("toggled_on", w) not in e.facts or ("open", w) in e.facts:
                continue
            for item in [f[1] for f in sorted(e.facts) if f[0] == "inside" and f[2] == w]:
                for f in [f for f in sorted(e.facts) if f[0] == "covered" and f[1] == item]:
                    solvents = kb.washer_solvents(kb.synset[f[2]])
                    if solvents is not None and (not solvents or any(
                            ("contains", w, kb.substance_instance(s) or "") in e.facts for s in solvents)):
                        e.remove(*f)
                if water is not None:
                    e.create(water)
                    e.add("covered", item, water)
                    if kb.synset[item] in saturating:
                        e.add("saturated", item, water)


#: the object category OmniGibson's DryerRule acts through (``CategoryFilter("clothes_dryer")``); bddl 3.6.0 has
#: no dryer rule file, so the category is matched against the synset's head word as OmniGibson names categories
DRYER_CATEGORY = "clothes_dryer"


def _dryers(kb: ActivityKB, e: Edit) -> None:
    water = kb.substance_instance("water.n.06")
    if water is None or ("real", water) not in e.facts:  # OmniGibson: only once the water system exists
        return
    for w in kb.instances:
        if kb.synset[w].split(".")[0] != DRYER_CATEGORY or ("toggled_on", w) not in e.facts or ("open", w) in e.facts:
            continue
        for item in [f[1] for f in sorted(e.facts) if f[0] == "inside" and f[2] == w]:
            e.remove("saturated", item, water)
            e.remove("covered", item, water)
        e.remove("contains", w, water)
        e.remove("filled", w, water)


def settle(kb: ActivityKB, e: Edit) -> None:
    """Fire the sources and rules until nothing changes."""
    for _ in range(MAX_ROUNDS):
        before = (frozenset(e.facts), e.held)
        if kb.sources["heatSource"] or kb.sources["coldSource"]:
            heated = exposure(kb, e.facts, "heatSource")
            cooled = exposure(kb, e.facts, "coldSource")
            if heated or cooled:  # recipes first: their input states (e.g. raw apples) are read before heat acts
                _heat_rules(kb, e, heated, cooled)
                heated = exposure(kb, e.facts, "heatSource")
            _temperature(kb, e, heated)
        _machines(kb, e)
        _washers(kb, e)
        _dryers(kb, e)
        if (frozenset(e.facts), e.held) == before:
            return

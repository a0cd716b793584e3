"""Why an activity has no plan: static checks of its goal against what the world's actions and rules can do.

:func:`unreachable` names the first literal that a goal conjunct not holding at the start needs (reached through
and/forall/not only) and that no action or rule of this world can make as the goal needs it, or returns None (then
the planner's search budget is the reason). The checks are sufficient reasons, not a complete analysis.
"""

from __future__ import annotations

import itertools

from ...envs.behavior1k.dynamics import is_fixture
from ...envs.behavior1k.goals import activity_goal, goal_forced_literals
from ...envs.behavior1k.kb import ActivityKB, activity_kb
from ...envs.behavior1k.rules import DRYER_CATEGORY
from ...envs.behavior1k.world import initial_state

#: predicates no action or rule of the world makes false, and why
IRREVERSIBLE = {"broken": "no action or rule repairs a broken object (OmniGibson has no repair primitive, bddl 3.6.0 "
                          "no repair rule)"}
#: relations that place their first argument
PLACING = ("ontop", "inside", "under", "draped", "overlaid")

def _made_by_rule(kb: ActivityKB, synset: str, seen: frozenset[str] = frozenset()) -> bool:
    """Some rule of the activity makes ``synset`` from inputs it has enough of: each object input with as many
    instances as the rule uses, each input that does not exist at the start itself made by a rule."""
    start = initial_state(kb.activity)
    for rules in kb.rules.values():
        for rule in rules:
            if synset not in (rule.get("output_synsets") or {}):
                continue
            ok = True
            for syn, count in (rule.get("input_synsets") or {}).items():
                names = kb.objects.get(syn, [])
                if not names or (names[0] not in kb.substances and len(names) < count):
                    ok = False
                elif not any(("real", i) in start.facts for i in names):
                    ok = syn not in seen and (syn == synset or _made_by_rule(kb, syn, seen | {synset})
                                              or _cut_makes(kb, syn))
                if not ok:
                    break
            if ok:
                return True
    return False


def _removers(kb: ActivityKB, substance: str) -> list[str]:
    out = []
    for i in kb.instances:
        need = kb.remover_conditions(i, substance)
        if need is None:
            continue
        saturations = [c for c in need if c and c[0] == "saturated"]
        if not saturations or any(kb.substance_instance(c[1]) for c in saturations):
            out.append(i)
    return out


def _sources(kb: ActivityKB, substance: str) -> bool:
    """Some declared object can give ``substance``: a knowledge-base source or applier of it, or it starts
    somewhere (filled, contained, insource, covering)."""
    syn = kb.synset[substance]
    for i in kb.instances:
        for prop in ("particleSource", "particleApplier"):
            if syn in kb.param(i, prop).get("conditions", {}):
                return True
    start = initial_state(kb.activity)
    # where it can be taken from (POUR, FILL, APPLY, or FILL scooping a physical substance lying on something);
    # a visual substance covering something or what saturates something cannot be collected
    scoop = ("covered",) if kb.has(substance, "physicalSubstance") else ()
    return any(len(f) == 3 and f[2] == substance and f[0] in ("filled", "contains", "insource") + scoop
               for f in start.facts) or _made_by_rule(kb, syn) or _cut_makes(kb, syn)


def unreachable(activity: str) -> str | None:
    kb = activity_kb(activity)
    goal = activity_goal(activity)
    start = initial_state(activity)
    side = _placed_together(kb, goal, start)
    if side:
        return side
    for cond in goal.conditions:
        if cond.holds(start.facts):
            continue
        for atom, positive in cond.necessary_literals():
            reason = _literal_reason(kb, start, atom, positive)
            if reason:
                return reason
    for atom, positive in goal_forced_literals(activity):  # forced through a choice or by conjuncts together
        reason = _literal_reason(kb, start, atom, positive)
        if reason:
            return reason
    return _fixed_out(kb, goal, start)


def _literal_reason(kb: ActivityKB, start, atom: tuple, positive: bool) -> str | None:
    """Why no action or rule can make the goal literal ``(atom, positive)`` as the goal needs it, or None."""
    pred, args = atom[0], atom[1:]
    if pred == "real" and positive and ("future", args[0]) in start.facts \
            and not _made_by_rule(kb, kb.synset[args[0]]) and not _cut_makes(kb, kb.synset[args[0]]):
        return (f"{atom}: no transition rule or cut makes {kb.synset[args[0]]} in this activity (from the "
                "inputs it declares, in the numbers a rule uses, through undeclared intermediates, with the "
                "containers, heat sources, machines and tools it declares)")
    if pred == "covered" and not positive and atom in start.facts and not _removers(kb, args[1]) \
            and not _rinses(kb, args[1]) and not _scoops(kb, args[1]):
        return (f"{atom} must become false: no declared object removes {kb.synset[args[1]]} (no particle "
                "remover whose conditions the activity's substances can meet, no water source to rinse, "
                + ("no container the agent can carry to scoop it up)" if kb.has(args[1], "physicalSubstance")
                   else "and a visual substance cannot be scooped up)"))
    if pred in ("covered", "contains", "filled", "saturated") and positive and atom not in start.facts \
            and not _sources(kb, args[1]):
        return f"{atom}: nothing in the activity gives {kb.synset[args[1]]}"
    if pred in IRREVERSIBLE and not positive and atom in start.facts:
        return f"{atom} must become false: {IRREVERSIBLE[pred]}"
    if pred in PLACING and positive and atom not in start.facts and is_fixture(kb, args[0]):
        return (f"{atom}: {args[0]} is a fixture (a scene object bddl places in the {kb.room[args[0]]} with "
                "inroom) and cannot be moved")
    if pred == "cooked" and positive and atom not in start.facts and ("real", args[0]) in start.facts:
        need = kb.param(args[0], "cookable").get("cook_temperature", 0)
        if not any(kb.param(h, "heatSource").get("temperature", 0) >= need for h in kb.sources["heatSource"]):
            if not kb.sources["heatSource"]:
                return f"{atom}: the activity declares no heat source"
            return (f"{atom}: no declared heat source reaches {kb.synset[args[0]]}'s cook_temperature "
                    f"({need:g}; the knowledge base's heatSource temperatures are lower)")
    if pred in ("hot", "frozen") and positive and atom not in start.facts \
            and not kb.sources["heatSource" if pred == "hot" else "coldSource"]:
        return f"{atom}: the activity declares no {'heat' if pred == 'hot' else 'cold'} source"
    if pred == "saturated" and not positive and atom in start.facts and not (
            kb.synset[args[1]] == "water.n.06" and _dryers(kb)):
        return (f"{atom} must become false: nothing removes saturation (bddl 3.6.0 has no drying rule; "
                "OmniGibson's DryerRule dries water only, in a clothes dryer the activity does not declare)")
    return None


def _placed_together(kb: ActivityKB, goal, start) -> str | None:
    """``nextto`` and ``ontop`` literals the goal needs that no placement can make together: ``nextto`` between
    two fixtures (neither can be carried); one object on top of two (every placement puts the held object on one
    thing); two objects next to each other on top of different things (PLACE_NEXT_TO and PLACE_NEXT_TO_GROUP put
    the held object on what its target stands on, so objects next to each other stand on the same things).

    The last two rest on each object being on top of one thing at most, which holds when no object starts on two
    (only ``:init`` can give two), and, for ``nextto``, on no ``nextto`` at the start: then every ``nextto`` was
    made by a placement that put its two objects on the same things, and only picking one of them up (which drops
    the ``nextto``) or using up a support (which both lose) changes what they stand on."""
    need = sorted({tuple(sorted(a[1:])) for c in goal.conditions for a, positive in c.necessary_literals()
                   if positive and a[0] == "nextto" and a[1] != a[2]})
    for x, y in need:
        if ("nextto", x, y) not in start.facts and is_fixture(kb, x) and is_fixture(kb, y):
            return (f"('nextto', '{x}', '{y}'): both are fixtures (scene objects bddl places with inroom), which "
                    "eai-gym keeps where they are")
    on: dict[str, set[str]] = {}
    for f in start.facts:
        if f[0] == "ontop":
            on.setdefault(f[1], set()).add(f[2])
    if any(len(v) > 1 for v in on.values()):
        return None
    wanted: dict[str, list[str]] = {}
    for a in sorted({a for c in goal.conditions for a, positive in c.necessary_literals() if positive}):
        if a[0] == "ontop" and a[1] != a[2]:
            wanted.setdefault(a[1], []).append(a[2])
    for x, below in sorted(wanted.items()):
        if len(below) > 1:
            return (f"{x} must be on top of both {below[0]} and {below[1]}: every placement puts the held object "
                    "on top of one thing (OmniGibson's OnTop(a, b) needs b hit by the one downward ray from a's "
                    "bounding-box centre, so an object lying across two side by side is on top of one of them; only "
                    "across a stack, one partly on the other, could it be on both, which eai-gym does not model)")
    if any(f[0] == "nextto" for f in start.facts):
        return None
    for x, y in need:
        if x in wanted and y in wanted and wanted[x] != wanted[y]:
            return (f"{x} and {y} must be next to each other, {x} on top of {wanted[x][0]} and {y} on top of "
                    f"{wanted[y][0]}: PLACE_NEXT_TO and PLACE_NEXT_TO_GROUP put the held object on what its "
                    "target stands on, and only picking an object up (which drops its nextto) moves it, so objects "
                    "next to each other stand on the same thing")
    return None


#: at most this many free atoms in a conjunct are enumerated by :func:`_fixed_out`
MAX_ENUMERATED = 14


def _fixed_out(kb: ActivityKB, goal, start) -> str | None:
    """A conjunct that cannot hold once the atoms no action can make are false: a fixture placed on, in, under,
    over or next to something it is not at the start (fixtures never move; next to: when the other is one too).
    Decided by enumerating the conjunct's other atoms when there are few (a sufficient check)."""
    for i, cond in enumerate(goal.conditions):
        if cond.holds(start.facts):
            continue
        fixed = [a for a in cond.atoms if a not in start.facts and len(a) == 3 and (
            (a[0] in PLACING and is_fixture(kb, a[1]))
            or (a[0] == "nextto" and is_fixture(kb, a[1]) and is_fixture(kb, a[2])))]
        free = [a for a in cond.atoms if a not in fixed]
        if not fixed or len(free) > MAX_ENUMERATED:
            continue
        if not any(cond.holds({a for a, bit in zip(free, bits) if bit})
                   for bits in itertools.product((False, True), repeat=len(free))):
            return (f"goal conjunct {i} cannot hold: it needs {fixed[0]} or the like, and {fixed[0][1]} is a "
                    "fixture (a scene object bddl places with inroom), which eai-gym keeps where it is")
    return None


def _scoops(kb: ActivityKB, substance: str) -> bool:
    """A physical substance can be scooped off what it covers by a fillable object the agent can carry."""
    return kb.has(substance, "physicalSubstance") and any(
        kb.has(i, "fillable") and kb.is_object(i) and not is_fixture(kb, i) for i in kb.instances)


def _dryers(kb: ActivityKB) -> list[str]:
    return [i for i in kb.instances if kb.synset[i].split(".")[0] == DRYER_CATEGORY]


def _cut_makes(kb: ActivityKB, synset: str) -> bool:
    from ...envs.behavior1k.data import raw

    return any(synset in r["output_synsets"] for kind in ("slicing", "dicing") for r in raw()["rules"][kind]) \
        and any(kb.has(i, "slicer") for i in kb.instances)


def _rinses(kb: ActivityKB, substance: str) -> bool:
    """RINSE under a water source or a washer cycle can remove it (its solvent, if any, declared)."""
    solvents = kb.washer_solvents(kb.synset[substance])
    if solvents is None or (solvents and not any(kb.substance_instance(s) for s in solvents)):
        return False
    washer = bool(kb.rules["washer_nonparticleremover"] or kb.rules["washer_particleremover"])
    water = kb.substance_instance("water.n.06")
    tap = water is not None and (any("water.n.06" in kb.param(i, "particleSource").get("conditions", {})
                                     for i in kb.instances)
                                 or any(f[0] == "insource" and f[2] == water for f in initial_state(kb.activity).facts))
    return washer or tap

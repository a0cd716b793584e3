"""The planner's distance estimate: for every goal literal that does not hold, the actions it still needs.

Each top-level conjunct costs :meth:`~eai_gym.logic.bddl_eval.CompiledCondition.cost`: nothing if it holds,
else the sum over ``and``/``forall`` and the cheapest of ``or``/``exists`` (the cheapest missing children of
``forn`` and ``forpairs``) of its literals' costs. A literal that does not hold costs an estimate of the actions
it needs in this state, regressed from the literal to the world's preconditions: grasp the object unless held,
open the closed container it is in or goes into, detach it, saturate the remover, ... Not admissible; it guides
a greedy search.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ...envs.behavior1k.dynamics import closed_around, conditions_met
from ...envs.behavior1k.goals import activity_goal, goal_forced_literals, joint_goal_literals
from ...envs.behavior1k.kb import ActivityKB, activity_kb
from ...envs.behavior1k.rules import DRYER_CATEGORY
from ...envs.behavior1k.state import B1KState
from ...envs.behavior1k.world import initial_state
from ...logic.bddl_eval import Fact

#: relations made by placing the held object on/in/next to a target
PLACED = frozenset({"inside", "ontop", "nextto", "under", "draped", "overlaid", "attached", "touching"})
#: the cost of a literal the estimate has no closer rule for
TYPICAL = 3.0
#: the cost of a rule whose inputs can no longer meet its input states
DEAD_END = 50.0


def distance(s: B1KState, only: Sequence[int] | None = None) -> float:
    """The estimated number of actions left to the goal from ``s`` (to its conjuncts ``only``, if given; the
    whole goal also counts the literals its conjuncts force only together)."""
    kb = activity_kb(s.activity)

    def leaf(atom: Fact | None, positive: bool) -> float:
        return TYPICAL if atom is None else literal_cost(kb, s, atom, positive)

    conditions = activity_goal(s.activity).conditions
    if only is not None:
        return sum(conditions[i].cost(s.facts, leaf) for i in only)
    joint = sum(literal_cost(kb, s, atom, positive) for atom, positive in joint_goal_literals(s.activity)
                if (atom in s.facts) != positive)  # what the conjuncts force only together (none sees it alone)
    return sum(c.cost(s.facts, leaf) for c in conditions) + joint


def _reach(kb: ActivityKB, s: B1KState, o: str) -> float:
    """Actions to get ``o`` in hand: grasp, opening what closes it in, detaching it (freeing the hand is left
    out: one action for all the literals)."""
    if s.held == o:
        return 0.0
    cost = 1.0
    if closed_around(kb, s, o) is not None:
        cost += 1.0
    if s.targets("attached", o):
        cost += 1.0
    return cost


def literal_cost(kb: ActivityKB, s: B1KState, atom: Fact, positive: bool) -> float:
    pred, args = atom[0], atom[1:]
    if pred in PLACED and len(args) == 2:
        o, t = args
        if not positive:
            return _reach(kb, s, o) + 1.0
        if pred in ("nextto", "touching"):  # placing either next to (on) the other makes it
            return min(_reach(kb, s, o), _reach(kb, s, t)) + 1.0
        cost = _reach(kb, s, o) + 1.0
        if pred == "inside" and kb.has(t, "openable") and not s.has("open", t):
            cost += 1.0
        if closed_around(kb, s, t) is not None:
            cost += 1.0
        return cost
    if pred in ("open", "toggled_on", "folded", "unfolded"):
        return 1.0
    if pred in ("covered", "saturated") and not positive and kb.synset[args[1]] == "water.n.06" \
            and (dryers := _dryers(kb.activity)):
        dry = min(_dry_cost(kb, s, args[0], d) for d in dryers) / max(1, _kept_dry(kb.activity).count(args[0]))
        return dry if pred == "saturated" else min(_clean_cost(kb, s, args[0], args[1]), dry)
    if pred == "covered" and not positive:
        return _clean_cost(kb, s, args[0], args[1])
    if pred in ("covered", "contains", "filled", "saturated") and positive:
        return _give_cost(kb, s, args[0], args[1], pred)
    if pred == "cooked" and not positive:  # nothing uncooks: only using it up in a rule and making it again
        return DEAD_END
    if pred in ("cooked", "hot", "frozen") and positive:
        return _expose_cost(kb, s, args[0], "coldSource" if pred == "frozen" else "heatSource")
    if pred == "real" and positive:
        return make_cost(kb, s, args[0]) if s.has("future", args[0]) else TYPICAL
    return TYPICAL


def _clean_cost(kb: ActivityKB, s: B1KState, target: str, dirt: str) -> float:
    """The cheapest way to take ``dirt`` off ``target`` (a remover, a washer cycle, rinsing at a water source),
    or a typical cost when the activity shows none."""
    best = _clean_paths(kb, s, target, dirt)
    return best if best < float("inf") else TYPICAL + 1.0


def _clean_paths(kb: ActivityKB, s: B1KState, target: str, dirt: str) -> float:
    best = float("inf")
    for tool in kb.instances:
        conds = kb.remover_conditions(tool, dirt)
        if conds is None or not s.real(tool) or tool == target:  # WIPE needs another object than the held tool
            continue
        if conditions_met(kb, s, tool, conds):
            best = min(best, _reach(kb, s, tool) + 1.0)
        elif any(c[0] != "saturated" or kb.substance_instance(c[1]) for c in conds):  # a solvent it can soak up
            best = min(best, _reach(kb, s, tool) + 3.0)
    solvents = kb.washer_solvents(kb.synset[dirt])
    if solvents is None or target in kb.room:  # the washer table cannot, or a fixture cannot be carried
        return best
    solvent = [x for v in solvents if (x := kb.substance_instance(v))]
    if solvents and not solvent:
        return best
    for w in _washers(kb.activity):  # a washer cycle: the solvent in it, the item inside, closed, switched on
        if not s.real(w):
            continue
        closed = kb.has(w, "openable") and not s.has("open", w)
        cost = 0.0 if s.has("inside", target, w) else _reach(kb, s, target) + 1.0 + (1.0 if closed else 0.0)
        if solvent and not any(s.has("contains", w, x) for x in solvent):
            cost += min((_give_cost(kb, s, w, x, "contains") for x in solvent), default=TYPICAL)
        cost += (1.0 if s.has("open", w) else 0.0) + (0.0 if s.has("toggled_on", w) else 1.0)
        if _wetted_against_goal(kb, target):  # the cycle wets it: a dryer cycle must follow (take it out, in,
            dryers = _dryers(kb.activity)       # close, switch on)
            cost += 4.0 + (0.0 if any(s.has("open", d) for d in dryers) else 1.0) if dryers else DEAD_END
        best = min(best, cost)
    if _water_sources(kb.activity):  # RINSE under a water source, the solvent on the item
        cost = _reach(kb, s, target) + 1.0
        if solvent and not any(s.has("covered", target, x) for x in solvent):
            cost += min((_give_cost(kb, s, target, x, "covered") for x in solvent), default=TYPICAL)
        best = min(best, cost)
    return best


@lru_cache(maxsize=64)
def _washers(activity: str) -> tuple[str, ...]:
    """The activity's instances of a washer rule's machine."""
    kb = activity_kb(activity)
    machines = {m for kind in ("washer_particleremover", "washer_nonparticleremover") for rule in kb.rules[kind]
                for m in rule["machine"]}
    return tuple(i for i in kb.instances if kb.synset[i] in machines)


@lru_cache(maxsize=64)
def _water_sources(activity: str) -> tuple[str, ...]:
    """Instances that can give water to RINSE under: a knowledge-base particle source of water, or a source of
    the activity's water (``insource``)."""
    kb = activity_kb(activity)
    water = kb.substance_instance("water.n.06")
    if water is None:
        return ()
    start = initial_state(activity)
    return tuple(i for i in kb.instances if "water.n.06" in (kb.param(i, "particleSource").get("conditions") or {})
                 or ("insource", i, water) in start.facts)


@lru_cache(maxsize=64)
def _dryers(activity: str) -> tuple[str, ...]:
    kb = activity_kb(activity)
    return tuple(i for i in kb.instances if kb.synset[i].split(".")[0] == DRYER_CATEGORY)


@lru_cache(maxsize=64)
def _kept_dry(activity: str) -> tuple[str, ...]:
    """Objects the goal needs not saturated with or not covered by water, whatever choice it leaves, once per
    such literal (one dryer cycle serves them all: each costs its share)."""
    kb = activity_kb(activity)
    return tuple(a[1] for a, positive in _forced_occurrences(activity)
                 if not positive and a[0] in ("saturated", "covered") and kb.synset.get(a[2]) == "water.n.06")


@lru_cache(maxsize=64)
def _forced_occurrences(activity: str) -> tuple[tuple[Fact, bool], ...]:
    """The literals the goal forces (:func:`~.goals.goal_forced_literals`: also through a choice, ``forpairs``
    included), once per conjunct whose necessary literals list it, once if none does."""
    listed = [lit for c in activity_goal(activity).conditions for lit in c.necessary_literals()]
    return tuple(listed + [lit for lit in goal_forced_literals(activity) if lit not in set(listed)])


def _wetted_against_goal(kb: ActivityKB, target: str) -> bool:
    """A washer cycle leaves ``target`` in a state the goal negates: covered by water (every item), or saturated
    with it (the items of ``washer_particleremover``)."""
    water = kb.substance_instance("water.n.06")
    if water is None:
        return False
    negated = {a for a, positive in goal_forced_literals(kb.activity) if not positive}
    saturating = {syn for rule in kb.rules["washer_particleremover"] for syn in rule["washed_item"]}
    return ("covered", target, water) in negated or (
        ("saturated", target, water) in negated and kb.synset[target] in saturating)


def _dry_cost(kb: ActivityKB, s: B1KState, o: str, dryer: str) -> float:
    """A dryer cycle: ``o`` inside the dryer (opening it first), closed, switched on."""
    cost = 0.0 if s.has("inside", o, dryer) else _reach(kb, s, o) + 1.0 + (0.0 if s.has("open", dryer) else 1.0)
    return cost + (1.0 if s.has("open", dryer) or not s.has("inside", o, dryer) else 0.0) \
        + (0.0 if s.has("toggled_on", dryer) else 1.0)


#: rule files whose rules gather their inputs in a container or machine
GATHERING = ("heat_cook", "single_toggleable_machine", "mixing_stick", "substance_cooking", "substance_watercooking")


def make_cost(kb: ActivityKB, s: B1KState, inst: str, depth: int = 2, avoid: frozenset = frozenset()) -> float:
    """Actions to make the ``future`` instance ``inst`` real: the cheapest rule that makes its synset, with each
    input gathered where the rule needs it (an input that does not exist yet made first, ``depth`` levels deep),
    the station heated or switched on, the cutting tool or mixing tool in hand; not in a place of ``avoid``."""
    syn = kb.synset[inst]
    best = float("inf")  # no rule known: a typical cost (a cap would hide the progress of a long recipe)
    for kind, rules in kb.rules.items():
        for rule in rules:
            if syn not in (rule.get("output_synsets") or {}):
                continue
            share = max(1, int(rule["output_synsets"][syn]))  # one firing makes them all: each bears its share
            if kind in ("slicing", "dicing"):
                best = min(best, _cut_cost(kb, s, rule, depth) / share)
            elif kind in GATHERING:
                best = min(best, _gather_cost(kb, s, kind, rule, depth, avoid) / share)
            elif kind == "melting":
                best = min(best, _melt_cost(kb, s, rule, depth, avoid) / share)
    return best if best < float("inf") else 4 * TYPICAL


def _melt_cost(kb: ActivityKB, s: B1KState, rule: dict, depth: int, avoid: frozenset) -> float:
    """A melting rule: its meltable object put where an active heat source heats it, or its meltable substance
    contained in a container so heated (as a substance cooks); an input that does not exist yet made first."""
    names = kb.objects.get(next(iter(rule["input_synsets"])), [])
    if not names:
        return 4 * TYPICAL
    if names[0] in kb.substances:
        return _gather_cost(kb, s, "substance_cooking", rule, depth, avoid)
    have = [o for o in names if s.real(o)]
    if have:
        return min(_expose_cost(kb, s, o, "heatSource") for o in have)
    return 1.0 + make_cost(kb, s, names[0], depth - 1) + 2.0 if depth else 4 * TYPICAL


def _cut_cost(kb: ActivityKB, s: B1KState, rule: dict, depth: int) -> float:
    slicers = [i for i in kb.instances if kb.has(i, "slicer") and s.real(i)]
    if not slicers:
        return 4 * TYPICAL
    tool = min(_reach(kb, s, i) for i in slicers)
    wholes = [i for syn in rule["input_synsets"] for i in kb.objects.get(syn, ())]
    have = [i for i in wholes if s.real(i)]
    if have:  # the input in the state the rule reads (cooked halves dice into cooked dice): heat it first
        states = next(iter((rule.get("input_states") or {}).values()), None) or []
        costs = [_state_cost(kb, s, i, states) for i in have]
        return tool + 1.0 + min(costs)
    if depth and wholes:  # make it first, then bring it into the state the rule reads
        states = next(iter((rule.get("input_states") or {}).values()), None) or []
        return tool + 1.0 + make_cost(kb, s, wholes[0], depth - 1) + _state_cost(kb, s, wholes[0], states)
    return 4 * TYPICAL


def _state_cost(kb: ActivityKB, s: B1KState, o: str, states: list) -> float:
    """Actions to bring ``o`` into the unary ``states`` a rule reads: heat it for ``cooked`` (or ``hot``); a
    state it cannot lose again (cooked) is a dead end."""
    cost = 0.0
    for pred, value in states:
        if s.has(pred, o) == bool(value):
            continue
        if value and pred in ("cooked", "hot"):
            cost += _expose_cost(kb, s, o, "heatSource")
        elif value and pred == "frozen":
            cost += _expose_cost(kb, s, o, "coldSource")
        elif pred == "cooked":
            cost += DEAD_END
        else:
            cost += 1.0
    return cost


def _gather_cost(kb: ActivityKB, s: B1KState, kind: str, rule: dict, depth: int,
                 avoid: frozenset = frozenset()) -> float:
    places = [i for key in ("container", "machine") for syn in (rule.get(key) or {}) for i in kb.objects.get(syn, ())]
    if kind.startswith("substance") or kind == "mixing_stick":
        first = kb.substance_instance(next(iter(rule.get("input_synsets") or {}), ""))
        holding = sorted(set(s.sources("contains", first) + s.sources("filled", first))) if first else []
        places = places or holding + [i for i in kb.instances if kb.has(i, "fillable") and i not in holding]
    best = float("inf")
    for place in [p for p in places if p not in avoid][:3]:
        if not s.real(place):
            continue
        cost = 0.0
        # an input made by heat is not made in this place when the goal needs the output uncooked: the heat
        # would cook what the rule then makes there
        inner = avoid | {place} if _kept_uncooked(kb, rule) else avoid
        for syn, count in (rule.get("input_synsets") or {}).items():
            names = kb.objects.get(syn, [])
            if not names:
                cost += TYPICAL
                continue
            if names[0] in kb.substances:
                x = names[0]
                if not (s.has("contains", place, x) or s.has("filled", place, x)):
                    givers = [g for g in _givers(kb, s, x) if g != place]
                    if givers:  # fetch it (opening what closes it in) and pour it in
                        cost += min(_reach(kb, s, g) for g in givers) + 1.0
                    else:
                        cost += 2.0 if s.real(x) or not depth else 2.0 + make_cost(kb, s, x, depth - 1, inner)
                continue
            wanted = (rule.get("input_states") or {}).get(syn) or ()
            names = [o for o in names if all(s.has(pred, o) == bool(v) for pred, v in wanted)]
            if len(names) < count:  # e.g. apples cooked too early: this rule cannot fire any more
                cost += DEAD_END
                continue
            placed = [o for o in names if s.has("inside", o, place) or s.has("ontop", o, place)]
            for o in [o for o in names if o not in placed][:max(0, count - len(placed))]:
                cost += _reach(kb, s, o) + 1.0 if s.real(o) or not depth else 1.0 + make_cost(kb, s, o, depth - 1, inner)
        if cost and closed_around(kb, s, place) is not None:  # open what closes the station in to fill it
            cost += 1.0
        if kind in ("heat_cook", "substance_cooking", "substance_watercooking"):
            sources = [h for h in kb.sources["heatSource"] + kb.sources["coldSource"] if kb.synset[h] in rule["heat_source"]] \
                if rule.get("heat_source") else kb.sources["heatSource"]  # named: may be a cold source (ice cubes)
            if sources:
                cost += min(_source_cost(kb, s, place, h, "heatSource" if h in kb.sources["heatSource"]
                                         else "coldSource") for h in sources)
        elif kind == "single_toggleable_machine":
            cost += 0.0 if s.has("toggled_on", place) else 1.0
        elif kind == "mixing_stick":
            tools = [i for i in kb.instances if kb.has(i, "mixingTool") and s.real(i)]
            cost += (min(_reach(kb, s, i) for i in tools) if tools else TYPICAL) + 1.0
        best = min(best, cost)
    return best


def _kept_uncooked(kb: ActivityKB, rule: dict) -> bool:
    """The goal needs an output of ``rule`` not cooked."""
    forced = goal_forced_literals(kb.activity)
    return any((("cooked", i), False) in forced for syn in rule.get("output_synsets") or {}
               for i in kb.objects.get(syn, ()))


def _givers(kb: ActivityKB, s: B1KState, x: str) -> list[str]:
    """Objects that give substance ``x``: containing it, a source of it, or a knowledge-base source or applier
    of it."""
    syn = kb.synset[x]
    out = s.sources("contains", x) + s.sources("filled", x) + s.sources("insource", x)
    out += [i for i in kb.instances for prop in ("particleSource", "particleApplier")
            if syn in (kb.param(i, prop).get("conditions") or {})]
    return sorted(set(o for o in out if s.real(o)))


def _give_cost(kb: ActivityKB, s: B1KState, o: str, x: str, pred: str) -> float:
    """covered/contains/filled/saturated(o, x): hold a giver of ``x`` and pour or apply it on ``o``, or hold
    ``o`` and fill or soak it at the giver."""
    givers = [g for g in _givers(kb, s, x) if g != o]
    if not givers:
        return 2 * TYPICAL if s.has("future", x) else TYPICAL + 1.0
    best = min(_reach(kb, s, g) for g in givers) + 1.0
    carried = (pred in ("contains", "filled") and kb.has(o, "fillable")) \
        or (pred == "saturated" and kb.has(o, "particleRemover")) \
        or (pred == "covered" and any(s.has("filled", g, x) and kb.has(x, "liquid") for g in givers))
    if carried:  # hold o and fill or soak it at the giver, or dip it into the liquid
        best = min(best, _reach(kb, s, o) + 1.0 + (0.0 if pred != "saturated" else 0.5))
    return best


def _expose_cost(kb: ActivityKB, s: B1KState, o: str, prop: str) -> float:
    """cooked/hot/frozen(o): put ``o`` on or in a source of the kind and switch it on."""
    sources = [h for h in kb.sources[prop] if s.real(h)]
    if not sources:
        return 2 * TYPICAL
    return max(min(_source_cost(kb, s, o, h, prop) for h in sources), 1.0)


def _source_cost(kb: ActivityKB, s: B1KState, o: str, h: str, prop: str) -> float:
    """Actions until source ``h`` acts on ``o``: put ``o`` where it acts (opening the source first when it must
    go inside, closing it after when the source ``requires_closed``), switch it on, close it."""
    params = kb.param(h, prop)
    placed = _at_source(kb, s, o, h, prop)
    cost = 0.0 if placed else _reach(kb, s, o) + 1.0
    if not placed and params.get("requires_inside") and kb.has(h, "openable") and not s.has("open", h):
        cost += 2.0 if params.get("requires_closed") else 1.0  # open it to put o inside (and close it)
    if params.get("requires_toggled_on") and not s.has("toggled_on", h):
        cost += 1.0
    if params.get("requires_closed") and s.has("open", h):
        cost += 1.0
    return cost


def _at_source(kb: ActivityKB, s: B1KState, o: str, h: str, prop: str) -> bool:
    """``o`` stands where source ``h`` acts on it (as :func:`~.rules.exposure`): inside it, or on top unless the
    source ``requires_inside``, or inside or on top of something that stands so (a pan on the stove)."""
    return _on_source(kb, s, o, h, prop) or any(
        _on_source(kb, s, c, h, prop) for c in s.targets("inside", o) + s.targets("ontop", o) if c != h)


def _on_source(kb: ActivityKB, s: B1KState, o: str, h: str, prop: str) -> bool:
    return s.has("inside", o, h) or (s.has("ontop", o, h) and not kb.param(h, prop).get("requires_inside"))

"""A planner over the symbolic world: greedy best-first width search (BFWS) over the legal actions.

States are expanded novel-first (a state is novel when it makes a feature true for the first time among the
states with the same estimate; features are the true atoms, the atoms of the initial state that became false,
the held object and each of those paired with the held object), then by the estimate of the actions left
(:func:`_h`: each goal literal that does not hold regressed to the actions it needs, see :mod:`.heuristic`),
then by depth. If that gives up: a goal agenda (:func:`_agenda`: the same search for the first conjunct, the
first two, ..., then for the ground literals the goal needs, the plans concatenated); a greedy pass (the estimate
first, novelty breaking ties); and the search under the graded closeness of the goal's conjuncts
(:func:`_h_closeness`). Only actions on goal-relevant objects are tried (see :func:`relevant_objects`); the goal
test is bddl's verdict, never the estimate.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...envs.behavior1k.dynamics import Failure, dice_through_halves
from ...envs.behavior1k.goals import activity_goal
from ...envs.behavior1k.kb import ActivityKB, activity_kb
from ...envs.behavior1k.rules import settle
from ...envs.behavior1k.state import B1KState
from ...envs.behavior1k.world import ACTIONS, ALL_HANDLERS, NO_TARGET, initial_state, to_text
from .heuristic import distance, literal_cost

#: abilities that make an object a possible tool or station in a plan
TOOL_PROPS = ("slicer", "particleRemover", "particleSource", "particleApplier", "heatSource", "coldSource",
              "mixingTool", "fillable", "toggleable", "openable")
#: actions whose target is where the held object or its substance goes (tried on every relevant object)
TARGETS_PLACES = frozenset({"PLACE_ON_TOP", "PLACE_INSIDE", "PLACE_NEXT_TO", "PLACE_UNDER", "DRAPE", "OVERLAY",
                            "ATTACH", "POUR", "APPLY", "FILL", "SOAK_UNDER", "SOAK_INSIDE", "WIPE", "CUT", "MIX",
                            "RINSE", "PLACE_NEAR_HEATING_ELEMENT", "PLACE_NEXT_TO_GROUP"})
#: actions tried only when the goal reads one of these predicates
SERVES = {"PLACE_NEXT_TO": {"nextto", "touching"}, "PLACE_UNDER": {"under"}, "DRAPE": {"draped"},
          "OVERLAY": {"overlaid"}, "ATTACH": {"attached"}, "DETACH": {"attached"}, "FOLD": {"folded", "unfolded"},
          "UNFOLD": {"folded", "unfolded"}, "IGNITE": {"on_fire"}, "WAIT": {"hot", "frozen"},
          "APPLY": {"covered"}, "WIPE": {"covered"}, "RINSE": {"covered"}, "SOAK_UNDER": {"saturated", "covered"},
          "SOAK_INSIDE": {"saturated", "covered"}, "PLACE_NEXT_TO_GROUP": {"nextto"}}


def useful_actions(kb: ActivityKB) -> set[str]:
    """The actions the planner tries: not NAVIGATE_TO (it only moves the agent), those of :data:`SERVES` only
    when the goal reads what they serve (DETACH also when something starts attached), CUT and MIX only when the activity has such rules."""
    preds = {a[0] for c in activity_goal(kb.activity).conditions for a in c.atoms}
    preds |= {"attached"} & {f[0] for f in initial_state(kb.activity).facts}  # DETACH frees what must move
    out = set()
    for name in ACTIONS:
        if name == "NAVIGATE_TO" or (name in SERVES and not SERVES[name] & preds):
            continue
        if name == "CUT" and not (kb.rules["slicing"] or kb.rules["dicing"]
                                  or any(dice_through_halves(kb, i) for i in kb.instances)):
            continue
        if name == "MIX" and not kb.rules["mixing_stick"]:
            continue
        out.add(name)
    return out


@dataclass(frozen=True)
class PlanResult:
    activity: str
    plan: tuple[str, ...] | None
    reason: str
    expanded: int


def relevant_objects(kb: ActivityKB) -> tuple[list[str], list[str]]:
    """(objects the planner may act on, objects it may place things on/in): the goal's objects and, as tools or
    stations, the objects with one of :data:`TOOL_PROPS` and the containers the goal's objects start in."""
    goal = activity_goal(kb.activity)
    named = {a for c in goal.conditions for atom in c.atoms for a in atom[1:]}
    wanted = {kb.synset[a] for a in named}
    grew = True
    while grew:  # the inputs, containers and machines of the rules that make what the goal names
        grew = False
        for rules in kb.rules.values():
            for rule in rules:
                if set(rule.get("output_synsets") or {}) & wanted:
                    more = set(rule.get("input_synsets") or {})
                    for key in ("container", "heat_source", "machine", "washed_item"):
                        more |= set(rule.get(key) or {})
                    if not more <= wanted:
                        wanted |= more
                        grew = True
    named |= {i for i in kb.instances if kb.synset[i] in wanted}
    named |= {i for i in kb.instances if any(set(r["output_synsets"]) & wanted for r in dice_through_halves(kb, i))}
    objs = [i for i in kb.instances if kb.is_object(i)]
    start = initial_state(kb.activity)
    holders = {f[2] for f in start.facts if len(f) == 3 and f[0] in ("inside", "ontop") and f[1] in named}
    act = [o for o in objs if o in named or o in holders or any(kb.has(o, p) for p in TOOL_PROPS)]
    place = [o for o in objs if o in named or any(kb.has(o, p) for p in TOOL_PROPS[4:])]
    return act, place


def plan(activity: str, max_nodes: int = 60_000) -> PlanResult:
    kb = activity_kb(activity)
    goal = activity_goal(activity)
    act_on, place_on = relevant_objects(kb)
    wanted = useful_actions(kb)
    moves = [(n, None) for n in ACTIONS if n in NO_TARGET and n in wanted]
    moves += [(n, t) for n in ACTIONS if n not in NO_TARGET and n in wanted
              for t in (sorted(set(act_on) | set(place_on)) if n in TARGETS_PLACES else act_on)]
    start = initial_state(activity)
    found, nodes = _bfws(kb, goal, start, moves, max_nodes, _h)
    if found is None:
        found, more = _agenda(kb, goal, start, moves, max_nodes)
        nodes += more
    if found is None:  # greedy: the estimate first, novelty only breaking ties (short plateaus near the goal)
        found, more = _bfws(kb, goal, start, moves, max_nodes // 2, _h, greedy=True)
        nodes += more
    if found is None:
        found, more = _bfws(kb, goal, start, moves, max_nodes // 2, _h_closeness)
        nodes += more
    if found is None:
        unsat = [i for i, ok in enumerate(goal.evaluate(start.facts)) if not ok]
        return PlanResult(activity, None, f"search exhausted after {nodes} states; goal conjuncts {unsat} of the "
                                          "initial state never all held", nodes)
    return PlanResult(activity, tuple(found), "", nodes)


def _agenda(kb, goal, start: B1KState, moves, budget: int):
    """A goal agenda (serialised subgoals): reach the first conjunct not holding, then the first two, ... each by
    its own search (the estimate and the test restricted to the subgoals so far, those reached kept), in the
    goal's order and then in the order of the estimated cost of each conjunct alone; then the same over the ground
    literals the conjuncts need (:func:`_literal_order`), the whole goal last. The plans are concatenated."""
    total = len(goal.conditions)
    agendas = []
    if total > 1:
        orders = [list(range(total))]
        by_cost = sorted(range(total), key=lambda i: (distance(start, (i,)), i))
        if by_cost != orders[0]:
            orders.append(by_cost)
        for order in orders:
            agendas.append([(_conjuncts_hold(goal, tuple(order[:k])), _h_only(tuple(order[:k])))
                            for k in range(1, total + 1)])
    literals = _literal_order(goal, start)
    if len(literals) > 1:
        agendas.append([(_literals_hold(literals[:k]), _h_literals(literals[:k])) for k in range(1, len(literals) + 1)]
                       + [(lambda facts: all(goal.evaluate(facts)), _h)])
    used = 0
    for stages in agendas:
        state, steps = start, []
        for test, h in stages:
            if test(state.facts):
                continue
            found, nodes, state = _bfws(kb, goal, state, moves, max(4000, budget // (2 * len(stages))), h, test)
            used += nodes
            if found is None:
                break
            steps += found
        else:
            if all(goal.evaluate(state.facts)):
                return steps, used
    return None, used


#: the order in which the literal agenda makes literals: things exist, then their temperature, substances, where
#: they are, then the rest (open, toggled on: switching an oven off or closing a door last)
LITERAL_ORDER = {"real": 0, "future": 0, "cooked": 1, "hot": 1, "frozen": 1, "covered": 2, "filled": 2,
                 "contains": 2, "saturated": 2}


def _literal_order(goal, start: B1KState) -> list:
    """The ground literals the conjuncts not holding at the start need, in :data:`LITERAL_ORDER`."""
    lits = {lit for c in goal.conditions if not c.holds(start.facts) for lit in c.necessary_literals()}
    return sorted(lits, key=lambda lit: (LITERAL_ORDER.get(lit[0][0], 3 if lit[0][0] not in ("open", "toggled_on")
                                                            else 4), lit))


def _conjuncts_hold(goal, subset: tuple[int, ...]):
    return lambda facts: all(goal.conditions[i].holds(facts) for i in subset)


def _literals_hold(literals: list):
    return lambda facts: all((atom in facts) == positive for atom, positive in literals)


def _h_literals(literals: list):
    def h(goal, s: B1KState, total: int) -> int:
        kb = activity_kb(s.activity)
        return round(100 * sum(literal_cost(kb, s, atom, positive) for atom, positive in literals
                               if (atom in s.facts) != positive)) - round(300 * _recipe_progress(goal, s))
    return h


def _h_only(subset: tuple[int, ...]):
    def h(goal, s: B1KState, total: int) -> int:
        return round(100 * distance(s, subset)) - round(300 * _recipe_progress(goal, s)) + 200 * _premature(goal, s)
    return h


def _bfws(kb, goal, start: B1KState, moves, budget: int, h=None, test=None, greedy: bool = False):
    """Best-first width search: expand first the states novel among those as close to the goal, then the
    closest, then the shortest. With ``test`` (facts -> bool), that is the goal and the reached state is returned
    too."""
    import heapq

    total = len(goal.conditions)
    seen: dict[int, set] = {}
    parents: dict[B1KState, tuple[B1KState | None, str]] = {start: (None, "")}
    h = h or _h
    h0 = h(goal, start, total)
    heap = [_key(_novelty(start, start, h0, seen), h0, greedy) + (0, 0, start)]
    nodes = tick = 0
    while heap and nodes < budget:
        _, _, g, _, s = heapq.heappop(heap)
        for name, target in moves:
            try:
                e = ALL_HANDLERS[name](kb, s, target)
            except Failure:
                continue
            settle(kb, e)
            nxt = e.freeze()
            if nxt in parents:
                continue
            nodes += 1
            parents[nxt] = (s, to_text(name, target))
            if test is not None:
                if test(nxt.facts):
                    return _path(parents, nxt), nodes, nxt
            elif all(goal.evaluate(nxt.facts)):  # not from the heuristic: its bonuses and penalties may offset
                return _path(parents, nxt), nodes
            hn = h(goal, nxt, total)
            tick += 1
            heapq.heappush(heap, _key(_novelty(start, nxt, hn, seen), hn, greedy) + (g + 1, tick, nxt))
    return (None, nodes) if test is None else (None, nodes, start)


def _key(novelty: int, h: int, greedy: bool) -> tuple[int, int]:
    return (h, novelty) if greedy else (novelty, h)


def estimate(s: B1KState) -> int:
    """The planner's main estimate of ``s`` (:func:`_h`), in hundredths of an action."""
    goal = activity_goal(s.activity)
    return _h(goal, s, len(goal.conditions))


def _h(goal, s: B1KState, total: int) -> int:
    """The actions left (:func:`~.heuristic.distance`, regressed from the goal's literals), less the share of a
    recipe's inputs gathered, plus goal relations made too early."""
    return round(100 * distance(s)) - round(300 * _recipe_progress(goal, s)) + 200 * _premature(goal, s)


def _h_closeness(goal, s: B1KState, total: int) -> int:
    """The earlier estimate, tried when :func:`_h` gives up: the conjuncts' graded scores, less a bonus for
    holding an object an unmet conjunct names."""
    scores = [c.score(s.facts) for c in goal.conditions]
    bonus = 0
    if s.held is not None and any(sc < 1 and any(s.held in a[1:] for a in c.atoms)
                                  for c, sc in zip(goal.conditions, scores)):
        bonus = 300
    return round((total - sum(scores)) * 1000) - bonus - round(600 * _recipe_progress(goal, s)) \
        + 1000 * _premature(goal, s)


PLACEMENTS = ("ontop", "inside", "nextto", "under", "overlaid", "draped", "attached", "touching")


def _premature(goal, s: B1KState) -> int:
    """Goal relations that hold now but whose second object still has to move (a goal places it and that does
    not hold yet): moving it will undo them, so they should wait."""
    atoms = _necessary_placements(goal.activity)
    movers = {a[1] for a in atoms if a not in s.facts}
    return sum(1 for a in atoms if a[2] in movers and a in s.facts)


@lru_cache(maxsize=256)
def _necessary_placements(activity: str) -> list:
    """The placement atoms the goal needs whatever choice it leaves (through and/forall only)."""
    return [a for c in activity_goal(activity).conditions for a, positive in c.necessary_literals() if positive and a[0] in PLACEMENTS]


def _recipe_progress(goal, s: B1KState) -> float:
    """For goals that name things a rule makes (``future`` at the start): 1 for each made (real now: making it
    never lowers the bonus), else the best share of a rule's inputs already gathered in one of its containers or
    machines, or of a cut's readiness (summed over those things)."""
    kb = activity_kb(s.activity)
    total = 0.0
    for x in _goal_products(goal.activity):
        if ("real", x) in s.facts:
            total += 1.0
            continue
        best = 0.0
        for kind in ("heat_cook", "single_toggleable_machine", "mixing_stick", "substance_cooking",
                     "substance_watercooking"):
            for rule in kb.rules[kind]:
                if kb.synset[x] not in rule["output_synsets"]:
                    continue
                places = [i for key in ("container", "machine") for syn in (rule.get(key) or {})
                          for i in kb.objects.get(syn, [])]
                inputs = rule["input_synsets"]
                for p in places or sorted({f[1] for f in s.facts if f[0] in ("contains", "filled")}):
                    have = sum(1 for syn in inputs for i in kb.objects.get(syn, [])[:1]
                               if ("contains", p, i) in s.facts or ("inside", i, p) in s.facts
                               or ("ontop", i, p) in s.facts)
                    best = max(best, have / len(inputs))
        best = max(best, _cut_progress(kb, s, x))
        total += best
    return total


@lru_cache(maxsize=256)
def _goal_products(activity: str) -> tuple[str, ...]:
    """The entities the goal names that do not exist at the start (a rule or a cut makes them)."""
    start = initial_state(activity)
    return tuple(sorted({a for c in activity_goal(activity).conditions for atom in c.atoms for a in atom[1:]
                         if ("future", a) in start.facts}))


def _cut_progress(kb: ActivityKB, s: B1KState, x: str) -> float:
    """For a future ``x`` a cut makes: 0.5 when something cutting would turn into it is in the state the rule
    needs (e.g. cooked), plus 0.25 when a slicer is held."""
    best = 0.0
    for t in kb.instances:
        if not s.real(t):
            continue
        rules = [r for kind in ("slicing", "dicing") for r in kb.rules[kind] if kb.synset[t] in r["input_synsets"]]
        rules += dice_through_halves(kb, t)
        for rule in rules:
            if kb.synset[x] not in rule["output_synsets"]:
                continue
            states = next(iter((rule.get("input_states") or {}).values()), None) or []
            if all(s.has(pred, t) == bool(v) for pred, v in states):
                best = max(best, 0.5 + (0.25 if s.held and kb.has(s.held, "slicer") else 0.0))
    return best


def _path(parents, s: B1KState) -> list[str]:
    out = []
    while parents[s][0] is not None:
        prev, step = parents[s]
        out.append(step)
        s = prev
    return out[::-1]


def _novelty(start: B1KState, s: B1KState, h: int, seen: dict[int, set]) -> int:
    return 1 if _novel(start, s, seen.setdefault(h, set())) else 2


def _novel(start: B1KState, s: B1KState, seen: set) -> bool:
    """Whether ``s`` makes a feature true for the first time: an atom, an initial atom's removal, a goal atom's
    absence (a blouse dry again after the washer wetted it), or an atom or initial atom's removal together with
    the held object (a restricted width 2: "open the fridge, then hold the pot")."""
    atoms = set(s.facts) | {("-",) + f for f in start.facts - s.facts}
    held = s.held or ""
    feats = atoms | {(held,) + f for f in atoms} | {("held", held)}
    feats |= {("-",) + a for a in _goal_atoms(s.activity) if a not in s.facts}
    new = feats - seen
    seen |= new
    return bool(new)


@lru_cache(maxsize=256)
def _goal_atoms(activity: str) -> tuple:
    return tuple(sorted({a for c in activity_goal(activity).conditions for a in c.atoms}))

"""The planner's distance estimate: for every goal literal that does not hold, the actions it still needs.

Each top-level conjunct costs :meth:`~eai_gym.logic.bddl_eval.CompiledCondition.cost`: nothing if it holds,
else the sum over ``and``/``forall`` and the cheapest of ``or``/``exists`` (the cheapest missing children of
``forn`` and ``forpairs``) of its literals' costs. A literal that does not hold costs an estimate of the actions
it needs in this state, regressed from the literal to the world's preconditions: grasp the object unless held,
open the closed container it is in or goes into, detach it, saturate the remover, ... Not admissible; it guides
a greedy search.
"""

from __future__ import annotations

from ...logic.bddl_eval import Fact
from .dynamics import closed_around, conditions_met
from .goals import activity_goal
from .kb import ActivityKB, activity_kb
from .state import B1KState

#: relations made by placing the held object on/in/next to a target
PLACED = frozenset({"inside", "ontop", "nextto", "under", "draped", "overlaid", "attached", "touching"})
#: the cost of a literal the estimate has no closer rule for
TYPICAL = 3.0


def distance(s: B1KState) -> float:
    """The estimated number of actions left to the goal from ``s``."""
    kb = activity_kb(s.activity)

    def leaf(atom: Fact | None, positive: bool) -> float:
        return TYPICAL if atom is None else literal_cost(kb, s, atom, positive)

    return sum(c.cost(s.facts, leaf) for c in activity_goal(s.activity).conditions)


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
    if pred == "covered" and not positive:
        return _clean_cost(kb, s, args[0], args[1])
    if pred == "real" and positive:
        return 2 * TYPICAL
    return TYPICAL


def _clean_cost(kb: ActivityKB, s: B1KState, target: str, dirt: str) -> float:
    best = TYPICAL + 1.0
    for tool in kb.instances:
        conds = kb.remover_conditions(tool, dirt)
        if conds is None or not s.real(tool):
            continue
        cost = _reach(kb, s, tool) + 1.0 + (0.0 if conditions_met(kb, s, tool, conds) else 2.0)
        best = min(best, cost)
    return best

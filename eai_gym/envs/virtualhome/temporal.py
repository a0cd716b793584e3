"""Missing step or wrong order: did a missing precondition hold in an earlier state?

eai-eval re-classifies a missing-step failure as a wrong temporal order when its missing
preconditions (combined by the failure's connective) were satisfied in some state of the history
(the initial state and the state after every successful action, the current one included).
Edge facts match on ids (``-1`` = any object) and on the relation name containing the fact's
relation (``HOLDS`` matches ``HOLDS_RH`` and ``HOLDS_LH``); node facts on id and state.
"""

from __future__ import annotations

from typing import Sequence

from ...core import WorldState
from .dynamics import Failure

RELATIONS = ("ON", "INSIDE", "BETWEEN", "CLOSE", "FACING", "HOLDS_RH", "HOLDS_LH", "SITTING")


def fact_holds(state: WorldState, fact: tuple) -> bool:
    if fact[0] == "node":
        _, oid, st = fact
        return oid in state.scene.objects and st in state.states(oid)
    _, a, rel, b = fact
    rels = [r for r in RELATIONS if rel in r]
    if a != -1:
        return any((b == -1 and state.targets(a, r)) or (b != -1 and b in state.targets(a, r)) for r in rels)
    if b != -1:
        return any(state.sources(b, r) for r in rels)
    return any(True for x, r, _ in state.edges() if r in rels)


def held_before(history: Sequence[WorldState], failure: Failure) -> bool:
    """True if the failure's missing preconditions held in some state of ``history``."""
    found = []
    for negated, fact in failure.preconds:
        found.append(any(fact_holds(s, fact) != negated for s in history))
    if failure.connective == "and":
        return all(found)
    if failure.connective == "or":
        return any(found)
    return found[0] if found else False

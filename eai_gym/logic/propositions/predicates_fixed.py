"""Predicates with the documented intent (protocol ``fixed``).

Differences from :mod:`.predicates_partnr` (each is listed with an example in docs/rearrange.md):

* ``number`` counts distinct objects (with ``is_same_*``: distinct objects on one receptacle,
  room or entity b), however many handles are listed;
* a proposition is satisfied only when the count is reached;
* every handle (objects, receptacles, rooms) must exist, else a clear error;
* ``is_clustered`` defaults ``number`` to one per group;
* an object not registered for a state has the documented default (not clean, not filled,
  powered off), so ``is_dirty``/``is_empty``/``is_powered_off`` hold for it.

The spec was validated with ``protocol="fixed"`` (argument names and types, ``number`` within the
candidates), so the arguments here are well formed.
"""

from __future__ import annotations

from typing import Callable

from ...core.safe_repr import bounded_repr
from .facts import Facts
from .results import PropositionResult
from .spec import PREDICATES, STATE_PREDICATES, EvaluationProposition


class UnknownHandleError(ValueError):
    """A proposition names an entity or room the world does not have."""


def _entities(facts: Facts, handles: list[str], what: str = "entity") -> list[str]:
    out = list(dict.fromkeys(handles))
    for h in out:
        if not facts.has_entity(h):
            raise UnknownHandleError(f"unknown {what} {bounded_repr(h)}")
    return out


def _rooms(facts: Facts, rooms: list[str]) -> list[str]:
    out = list(dict.fromkeys(rooms))
    for r in out:
        if not facts.has_room(r):
            raise UnknownHandleError(f"unknown room {bounded_repr(r)}")
    return out


def _count_pairs(test: Callable[[str, str], bool], a_list: list[str], b_list: list[str], number: int,
                 same_b: bool, key_a: str, key_b: str) -> PropositionResult:
    if same_b:
        for b in b_list:
            count = 0
            for a in a_list:
                if test(a, b):
                    count += 1
                    if count >= number:
                        return PropositionResult(True, {key_a: a, key_b: b})
    else:
        count = 0
        for a in a_list:
            for b in b_list:
                if test(a, b):
                    count += 1  # each object counts once, with its first satisfying b
                    if count >= number:
                        return PropositionResult(True, {key_a: a, key_b: b})
                    break
    return PropositionResult(False, {key_a: "", key_b: ""})


def _pair_predicate(name: str) -> Callable[[Facts, dict], PropositionResult]:
    (key_a, key_b), same_flag = PREDICATES[name]
    relation = {"is_on_top": "on_top", "is_inside": "inside", "is_in_room": "in_room", "is_next_to": "next_to"}[name]

    def predicate(facts: Facts, args: dict) -> PropositionResult:
        a_list = _entities(facts, args[key_a])
        b_list = _rooms(facts, args[key_b]) if name == "is_in_room" else _entities(facts, args[key_b])
        test = getattr(facts, relation)
        if name == "is_next_to":
            inner = test
            test = lambda a, b: a != b and inner(a, b)  # noqa: E731 - an entity is not next to itself
        return _count_pairs(test, a_list, b_list, args.get("number", 1), bool(args.get(same_flag, False)),
                            key_a, key_b)
    return predicate


def is_on_floor(facts: Facts, args: dict) -> PropositionResult:
    return _count_single(facts.on_floor, _entities(facts, args["object_handles"]), args.get("number", 1))


def _count_single(test: Callable[[str], bool], handles: list[str], number: int) -> PropositionResult:
    count = 0
    for h in handles:
        if test(h):
            count += 1
            if count >= number:
                return PropositionResult(True, {"object_handles": h})
    return PropositionResult(False, {"object_handles": ""})


def _state_predicate(state: str, negate: bool) -> Callable[[Facts, dict], PropositionResult]:
    def value(facts: Facts, handle: str) -> bool:
        try:
            v = bool(facts.state(state, handle))
        except KeyError:
            v = False  # the documented default of every state
        return v != negate

    def predicate(facts: Facts, args: dict) -> PropositionResult:
        return _count_single(lambda h: value(facts, h), _entities(facts, args["object_handles"]),
                             args.get("number", 1))
    return predicate


def is_clustered(facts: Facts, args: dict) -> PropositionResult:
    groups = args["*args"]
    number = args.get("number") or [1] * len(groups)
    handles = _entities(facts, [h for g in groups for h in g])
    parent = list(range(len(handles)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, h1 in enumerate(handles):
        for j in range(i + 1, len(handles)):
            if facts.next_to(h1, handles[j]):
                ri, rj = root(i), root(j)
                if ri != rj:
                    parent[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[str]] = {}
    for i, h in enumerate(handles):
        members.setdefault(root(i), []).append(h)
    for cc in sorted(members.values(), key=len, reverse=True):
        cc_set = set(cc)
        if all(len(set(g) & cc_set) >= n for g, n in zip(groups, number)):
            return PropositionResult(True, {"*args": [[h for h in dict.fromkeys(g) if h in cc_set] for g in groups]})
    return PropositionResult(False, {"*args": ""})


PREDICATE_FUNCTIONS: dict[str, Callable[[Facts, dict], PropositionResult]] = {
    **{name: _pair_predicate(name) for name in ("is_on_top", "is_inside", "is_in_room", "is_next_to")},
    "is_on_floor": is_on_floor,
    "is_clustered": is_clustered,
    **{name: _state_predicate(state, neg) for name, (state, neg) in STATE_PREDICATES.items()},
}


def bind(prop: EvaluationProposition) -> Callable[[Facts], PropositionResult]:
    """The proposition as a function of the facts."""
    fn, args = PREDICATE_FUNCTIONS[prop.function_name], prop.args
    return lambda facts: fn(facts, args)


def evaluate(prop: EvaluationProposition, facts: Facts) -> PropositionResult:
    return bind(prop)(facts)

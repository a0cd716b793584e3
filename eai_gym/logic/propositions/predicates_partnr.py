"""Predicates as the reference evaluates them (protocol ``partnr``).

Behaviour of habitat-llm's ``SimBasedPredicates`` at partnr-planner ddfff19, reimplemented over
:class:`~.facts.Facts`, including what ``reference/notes/partnr.md`` §1.2 lists as quirks:

* a handle list longer than one goes through the set evaluation, which counts satisfied
  (object, receptacle) *pairs* towards ``number``, and returns the result of the last pair it
  evaluated when the count is not reached (so the last pair alone can satisfy ``number=2``);
* with single-handle lists ``number`` is ignored;
* only the object of ``is_on_top``/``is_inside`` is checked to exist, not the receptacle;
* ``is_clustered`` needs ``number`` (None raises TypeError);
* a state the object is not registered for raises KeyError.

Errors are ordinary Python exceptions with the reference's messages; the tracker reports them.
Components of ``is_clustered`` that tie in size are visited in the order their first handle is
listed (the reference visits them in hash-set order, which varies between runs).
"""

from __future__ import annotations

from typing import Any, Callable

from .facts import Facts
from .results import PropositionResult
from .spec import STATE_PREDICATES, EvaluationProposition


def _require(facts: Facts, handle: Any) -> None:
    if not facts.has_entity(handle):
        raise ValueError(f"`{handle}` not found in {{articulated | rigid}} object managers.")


def _set_predicate(test: Callable[[Any, Any], bool], info: Callable[[Any, Any, bool], dict], handles_a: list,
                   handles_b: list | None, number: Any, same_b: Any, default_info: dict) -> PropositionResult:
    """``test(a, b)`` is the single-handle predicate (raising as it does), ``info(a, b, ok)`` its info.
    Returns the ``number``-th satisfied pair's result, else the last evaluated pair's (even if that
    pair was satisfied: the count is not rechecked), else ``default_info``."""
    if handles_b is None:
        handles_b = [None]
    if number < 1:
        raise ValueError("At least one relation must be queried.")
    if len(handles_b) == 0:
        raise ValueError("Empty `entity_handles_b` encountered.")
    if same_b and handles_b[0] is None:
        raise ValueError("`is_same_entity_b` incompatible with NoneType entity b.")
    # with is_same the count restarts for each b; otherwise it runs over every (a, b) pair
    runs = ([(a, b) for a in handles_a] for b in handles_b) if same_b else [[(a, b) for a in handles_a
                                                                              for b in handles_b]]
    last = None
    for pairs in runs:
        count = 0
        for a, b in pairs:
            ok = test(a, b)
            last = (a, b, ok)
            if ok:
                count += 1
                if count >= number:
                    return PropositionResult(True, info(a, b, True))
    if last is None:
        return PropositionResult(False, default_info)
    return PropositionResult(last[2], info(*last))


def _pair_info(key_a: str, key_b: str) -> Callable[[Any, Any, bool], dict]:
    return lambda a, b, ok: {key_a: a, key_b: b} if ok else {key_a: "", key_b: ""}


_PLACEMENT_INFO = _pair_info("object_handles", "receptacle_handles")


def _two_entities(test: Callable[[Any, Any], bool], info: Callable[[Any, Any, bool], dict], handles_a: list,
                  handles_b: list, number: Any, same_b: Any, default_info: dict) -> PropositionResult:
    """A predicate of entity a and entity b: the set evaluation when either list has several handles,
    else the single test (which ignores ``number``)."""
    if len(handles_a) > 1 or len(handles_b) > 1:
        return _set_predicate(test, info, handles_a, handles_b, number, same_b, default_info)
    ok = test(handles_a[0], handles_b[0])
    return PropositionResult(ok, info(handles_a[0], handles_b[0], ok))


def _anything(facts: Facts, relation: str, obj: str) -> bool:
    """Whether the object is on (in) any entity: the reference only indexes the empty receptacle
    list once it has found one."""
    related = getattr(facts, "related", None)
    return True if related is None else bool(related(relation, obj))


def _placement(relation: str) -> Callable[..., PropositionResult]:
    def predicate(facts: Facts, object_handles, receptacle_handles, number=1, is_same_receptacle=False,
                  *args, **kwargs) -> PropositionResult:
        holds = getattr(facts, relation)

        def test(obj, receptacle) -> bool:
            _require(facts, obj)
            return holds(obj, receptacle)

        if len(object_handles) <= 1 and not receptacle_handles:
            obj = object_handles[0]
            _require(facts, obj)
            if not _anything(facts, relation, obj):
                return PropositionResult(False, _PLACEMENT_INFO(obj, None, False))  # nothing to compare against
        default = ({"object_handles": [], "receptacle_handles": []} if relation == "on_top"
                   else {"object_handles": "", "receptacle_handles": ""})
        return _two_entities(test, _PLACEMENT_INFO, object_handles, receptacle_handles, number, is_same_receptacle,
                             default)
    return predicate


is_on_top = _placement("on_top")
is_inside = _placement("inside")


_ROOM_INFO = _pair_info("object_handles", "room_ids")
_NEXT_TO_INFO = _pair_info("entity_handles_a", "entity_handles_b")


def _object_info(a: Any, b: Any, ok: bool) -> dict:
    return {"object_handles": a if ok else ""}


def is_in_room(facts: Facts, object_handles, room_ids, number=1, is_same_room=False, *args, **kwargs):
    def test(obj, room) -> bool:
        _require(facts, obj)
        if not facts.has_room(room):
            raise ValueError(f"Region `{room}` not found in the scene.")
        return facts.in_room(obj, room)

    # the reference's default info names the wrong key; it shows when object_handles is empty
    return _two_entities(test, _ROOM_INFO, object_handles, room_ids, number, is_same_room,
                         {"object_handles": "", "receptacle_handles": ""})


def _single_object(test: Callable[[Any, Any], bool], object_handles: list, number: Any) -> PropositionResult:
    """A predicate of one object (no entity b)."""
    if len(object_handles) > 1:
        return _set_predicate(test, _object_info, object_handles, None, number, False, {"object_handles": ""})
    ok = test(object_handles[0], None)
    return PropositionResult(ok, _object_info(object_handles[0], None, ok))


def is_on_floor(facts: Facts, object_handles, number=1, *args, **kwargs):
    def test(obj, _) -> bool:
        _require(facts, obj)
        return facts.on_floor(obj)

    return _single_object(test, object_handles, number)


def is_next_to(facts: Facts, entity_handles_a, entity_handles_b, number=1, is_same_b=False, l2_threshold=0.5,
               *args, **kwargs):
    def test(a, b) -> bool:
        _require(facts, a)
        _require(facts, b)
        return facts.next_to(a, b)

    return _two_entities(test, _NEXT_TO_INFO, entity_handles_a, entity_handles_b, number, is_same_b,
                         {"entity_handles_a": "", "entity_handles_b": ""})


def is_clustered(facts: Facts, *groups, number=None, l2_threshold=0.5, **kwargs):
    handles = list(dict.fromkeys(h for g in groups for h in g))
    component = {h: i for i, h in enumerate(handles)}  # union-find parents, by position

    def root(i: int) -> int:
        while component[handles[i]] != i:
            i = component[handles[i]]
        return i

    if len(handles) > 1:  # the reference looks handles up pair by pair: the first unknown one raises
        for h in handles:
            _require(facts, h)
    for i, h1 in enumerate(handles):
        for h2 in handles[i + 1:]:
            if facts.next_to(h1, h2) or facts.next_to(h2, h1):
                r1, r2 = root(component[h1]), root(component[h2])
                if r1 != r2:
                    component[handles[max(r1, r2)]] = min(r1, r2)
    members: dict[int, list[str]] = {}
    for i, h in enumerate(handles):
        members.setdefault(root(i), []).append(h)
    for cc in sorted(members.values(), key=len, reverse=True):
        cc_set = set(cc)
        if all(len(set(g) & cc_set) >= number[i] for i, g in enumerate(groups)):
            return PropositionResult(True, {"*args": tuple([h for h in g if h in cc_set] for g in groups)})
    return PropositionResult(False)


def _state_predicate(state: str, negate: bool) -> Callable[..., PropositionResult]:
    def predicate(facts: Facts, object_handles, number=1, *args, **kwargs) -> PropositionResult:
        def test(handle, _) -> bool:
            _require(facts, handle)
            return bool(facts.state(state, handle)) != negate

        return _single_object(test, object_handles, number)
    return predicate


PREDICATE_FUNCTIONS: dict[str, Callable[..., PropositionResult]] = {
    "is_on_top": is_on_top, "is_inside": is_inside, "is_in_room": is_in_room, "is_on_floor": is_on_floor,
    "is_next_to": is_next_to, "is_clustered": is_clustered,
    **{name: _state_predicate(state, neg) for name, (state, neg) in STATE_PREDICATES.items()},
}


def bind(prop: EvaluationProposition) -> Callable[[Facts], PropositionResult]:
    """The proposition as a function of the facts (its arguments unpacked once)."""
    fn = PREDICATE_FUNCTIONS[prop.function_name]
    if "*args" in prop.args:
        groups = prop.args["*args"]
        rest = {k: v for k, v in prop.args.items() if k != "*args"}
        return lambda facts: fn(facts, *groups, **rest)
    args = prop.args
    return lambda facts: fn(facts, **args)


def evaluate(prop: EvaluationProposition, facts: Facts) -> PropositionResult:
    return bind(prop)(facts)

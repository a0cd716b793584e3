"""The actions of the BEHAVIOR-1K world: preconditions (with their failure classes) and effects.

One hand; the held object is implicit; every action names at most one target. OmniGibson's symbolic primitives
(``action_primitives/symbolic_semantic_action_primitives.py``) keep their checks; the added actions follow the
notes' proposal. What an object can do is read from the knowledge base (:class:`~.kb.ActivityKB`). See
``docs/behavior1k.md`` for the table.
"""

from __future__ import annotations

from typing import Callable

from ...core import ErrorType
from .data import raw
from .kb import ActivityKB
from .rules import produce, settle, states_ok
from .state import B1KState, Edit, begin

MISSING, AFF, ADD = ErrorType.MISSING_STEP, ErrorType.AFFORDANCE, ErrorType.ADDITIONAL_STEP


class Failure(Exception):
    """An action's precondition failed: its EAI error class and a message naming the object."""

    def __init__(self, error: ErrorType, message: str):
        super().__init__(message)
        self.error, self.message = error, message


Handler = Callable[[ActivityKB, B1KState, "str | None"], Edit]


def require_object(kb: ActivityKB, s: B1KState, t: str, what: str = "target") -> None:
    if t in kb.substances:
        raise Failure(AFF, f"{t} is a substance, not an object: it cannot be the {what}")
    if t == kb.agent:
        raise Failure(AFF, f"{t} is the agent")
    if not s.real(t):
        raise Failure(MISSING, f"{t} does not exist now (future or used up)")
    closed = closed_around(kb, s, t)
    if closed is not None:
        raise Failure(MISSING, f"{t} is inside {closed}, which is closed: OPEN it first")


def closed_around(kb: ActivityKB, s: B1KState, t: str) -> str | None:
    """The closed openable container ``t`` is in, directly or through other containers (None: reachable);
    remembered per state (a mask asks it for every action on ``t``)."""
    memo = s.memo()
    if t not in memo:
        memo[t] = _closed_around(kb, s, t)
    found: str | None = memo[t]
    return found


def _closed_around(kb: ActivityKB, s: B1KState, t: str) -> str | None:
    seen = {t}
    todo = s.targets("inside", t)
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        if kb.has(c, "openable") and not s.has("open", c):
            return c
        todo += s.targets("inside", c)
    return None


def holding(s: B1KState, t: str | None = None) -> str:
    held = s.held
    if held is None:
        raise Failure(MISSING, "nothing in hand: GRASP an object first")
    if t is not None and t == held:
        raise Failure(AFF, f"{t} is the held object itself")
    return held


def hand_free(s: B1KState, t: str) -> None:
    if s.held is not None:
        raise Failure(MISSING, f"the hand must be empty to use {t} (holding {s.held}): RELEASE or place it first")


def need(kb: ActivityKB, inst: str, prop: str, action: str) -> None:
    if not kb.has(inst, prop):
        raise Failure(AFF, f"{inst} cannot be used for {action}: its synset {kb.synset[inst]} is not {prop}")


# ---------------------------------------------------------------------------------------- primitives
def navigate_to(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    assert t is not None
    require_object(kb, s, t)
    e = begin(s)
    floor = _floor(kb, s, t)
    if kb.agent is not None and floor is not None:
        e.facts = {f for f in e.facts if not (f[0] == "ontop" and f[1] == kb.agent)}
        e.add("ontop", kb.agent, floor)
    return e


def _floor(kb: ActivityKB, s: B1KState, t: str) -> str | None:
    """The floor of the room ``t`` is in (following what it is on or in), or None when unknown."""
    seen = set()
    while t not in kb.room and t not in seen:
        seen.add(t)
        # the least (relation, t, x) of these relations (in sorted order), through the lookup index
        up = next((x[0] for rel in ("attached", "inside", "nextto", "ontop", "under") if (x := s.targets(rel, t))),
                  None)
        if up is None:
            return None
        t = up
    return kb.floor_of_room.get(kb.room.get(t, ""))


def is_fixture(kb: ActivityKB, t: str) -> bool:
    """A scene object bddl places in a room (``inroom``): floors, counters, sinks, appliances."""
    return t in kb.room and kb.has(t, "sceneObject")


def grasp(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    assert t is not None
    require_object(kb, s, t)
    if s.held == t:
        raise Failure(ADD, f"already holding {t}")
    if is_fixture(kb, t):
        raise Failure(AFF, f"{t} is a fixture of the {kb.room[t]} (a scene object placed by inroom): it cannot be "
                           "picked up")
    if s.held is not None:
        raise Failure(MISSING, f"the hand is already full (holding {s.held})")
    if s.targets("attached", t):
        raise Failure(MISSING, f"{t} is attached to {s.targets('attached', t)[0]}: DETACH it first")
    e = begin(s)
    e.unplace(t)
    e.held = t
    return e


def release(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    o = holding(s)
    if t is not None and t != o:
        raise Failure(MISSING, f"not holding {t} (holding {o})")
    e = begin(s)
    e.held = None
    floor = _floor(kb, s, kb.agent) if kb.agent else None
    if floor is not None:
        e.add("ontop", o, floor)
    return e


def _place(relation: str, symmetric: tuple[str, ...] = ()) -> Handler:
    def place(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        o = holding(s, t)
        require_object(kb, s, t)
        if relation == "inside":  # sizes are not modelled: any object may take another inside (OmniGibson samples)
            if kb.has(t, "openable") and not s.has("open", t):
                raise Failure(MISSING, f"{t} is closed: OPEN it first")
        e = begin(s)
        e.held = None
        e.add(relation, o, t)
        if relation == "inside":  # into a container filled with a liquid: submerged, its particles touch o
            for x in s.targets("filled", t):
                if kb.has(x, "liquid"):
                    e.add("covered", o, x)
                    if removable(kb, s, o, [x]):  # a remover soaks it up (as land_on)
                        e.add("saturated", o, x)
        if relation == "ontop":  # on top of something inside a container is inside it too (OmniGibson's Inside)
            for c in s.targets("inside", t):
                if c != o:
                    e.add("inside", o, c)
        for rel in symmetric:
            e.add(rel, o, t)
            e.add(rel, t, o)
        return e
    return place


def open_close(value: bool) -> Handler:
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        require_object(kb, s, t)
        need(kb, t, "openable", "OPEN/CLOSE")
        hand_free(s, t)
        if s.has("open", t) == value:
            raise Failure(ADD, f"{t} is already {'open' if value else 'closed'}")
        e = begin(s)
        (e.add if value else e.remove)("open", t)
        return e
    return act


def toggle(value: bool) -> Handler:
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        require_object(kb, s, t)
        need(kb, t, "toggleable", "TOGGLE_ON/OFF")
        hand_free(s, t)
        if s.has("toggled_on", t) == value:
            raise Failure(ADD, f"{t} is already {'on' if value else 'off'}")
        e = begin(s)
        (e.add if value else e.remove)("toggled_on", t)
        return e
    return act


def conditions_met(kb: ActivityKB, s: B1KState, owner: str, conditions: list) -> bool:
    """Knowledge-base conditions ``[[state, value], ...]`` on ``owner``: ``[[pred, bool]]`` all hold; a remover's
    ``[["saturated", substance], ...]`` needs any one (absent ``gravity`` and the like always hold)."""
    if conditions and all(c[0] == "saturated" for c in conditions):
        return any(s.has("saturated", owner, kb.substance_instance(c[1]) or "") for c in conditions)
    return all(s.has(pred, owner) == bool(v) for pred, v in conditions if pred in ("toggled_on", "open"))


def produced(kb: ActivityKB, s: B1KState, src: str) -> list[str]:
    """Substances ``src`` gives now: its particleSource whose conditions hold, and what it is a source of."""
    out = [i for syn, cond in sorted(kb.param(src, "particleSource").get("conditions", {}).items())
           if (i := kb.substance_instance(syn)) and conditions_met(kb, s, src, cond)]
    out += s.targets("insource", src)  # (sorted, as a scan of the sorted facts gives them)
    return sorted(set(out))


def removable(kb: ActivityKB, s: B1KState, tool: str, substances: list[str]) -> list[str]:
    return [x for x in substances if (conds := kb.remover_conditions(tool, x)) is not None
            and conditions_met(kb, s, tool, conds)]


def absorbable(kb: ActivityKB, s: B1KState, tool: str, substances: list[str]) -> list[str]:
    """What a remover soaks up: the substances it removes (OmniGibson's check) and those its removal conditions
    ask it to be saturated with (a rag that must be saturated with liquid soap to remove a stain can take soap;
    OmniGibson's SOAK refuses, which would make such conditions unreachable)."""
    params = kb.param(tool, "particleRemover")
    lists = list((params.get("conditions") or {}).values())
    lists += [params.get(k) for k in ("default_fluid_conditions", "default_non_fluid_conditions",
                                      "default_visual_conditions")]
    wanted = {c[1] for cs in lists for c in (cs or ()) if c and c[0] == "saturated"}
    return sorted(set(removable(kb, s, tool, substances)) | {x for x in substances if kb.synset[x] in wanted})


def _soak(under: bool) -> Handler:
    def act(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
        assert t is not None
        o = holding(s, t)
        require_object(kb, s, t)
        if under:
            need(kb, t, "particleSource", "SOAK_UNDER")
            systems = produced(kb, s, t)
            if not systems:
                raise Failure(MISSING, f"{t} produces nothing now (is it toggled on?)")
        else:
            systems = s.targets("contains", t)
            if not systems:
                raise Failure(MISSING, f"{t} contains no substance")
        need(kb, o, "particleRemover", "soaking")
        ok = absorbable(kb, s, o, systems)
        if not ok:
            raise Failure(AFF, f"{o} cannot absorb {', '.join(systems)}")
        if all(s.has("saturated", o, x) for x in ok):
            raise Failure(ADD, f"{o} is already saturated with {', '.join(ok)}")
        e = begin(s)
        for x in ok:
            e.add("saturated", o, x)
        return e
    return act


def wipe(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """Cleans the *target* (OmniGibson's source clears the held tool's Covered state; the intent is the target)."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    dirt = s.targets("covered", t)
    if not dirt:
        raise Failure(ADD, f"{t} is covered by nothing")
    need(kb, o, "particleRemover", "WIPE")
    conds = {x: kb.remover_conditions(o, x) for x in dirt}
    supported = [x for x in dirt if conds[x] is not None]  # null: it cannot remove it
    if not supported:
        raise Failure(AFF, f"{o} cannot remove {', '.join(dirt)}")
    ok = removable(kb, s, o, supported)
    if not ok:
        solvents = sorted({str(c[1]) for x in supported for c in conds[x] or ()})
        raise Failure(MISSING, f"{o} must be saturated with one of {', '.join(solvents)} to remove "
                               f"{', '.join(supported)}")
    e = begin(s)
    for x in ok:
        e.remove("covered", t, x)
    return e


def cut(kb: ActivityKB, s: B1KState, t: str | None) -> Edit:
    """The slicing or dicing rule of ``t``'s synset: ``t`` stops existing, the outputs appear where it was."""
    assert t is not None
    o = holding(s, t)
    require_object(kb, s, t)
    need(kb, o, "slicer", "CUT (the held tool)")
    if not (kb.has(t, "sliceable") or kb.has(t, "diceable")):
        raise Failure(AFF, f"{t} is neither sliceable nor diceable")
    holder = next(iter(s.targets("ontop", t) + s.targets("inside", t)), None)
    for kind in ("slicing", "dicing"):
        for rule in kb.rules[kind]:
            if kb.synset[t] in rule["input_synsets"] and states_ok(kb, s.facts, t, rule):
                e = Edit(s)
                made = produce(kb, e, rule, None, [t])
                if made:
                    if holder is not None:
                        for inst in made:
                            put_at(kb, e, inst, holder)
                    return e
    for rule in dice_through_halves(kb, t):  # the activity declares the diced form but not the halves
        if states_ok(kb, s.facts, t, {"input_states": {kb.synset[t]: (rule.get("input_states") or {}).get(
                next(iter(rule["input_synsets"])))}}):
            e = Edit(s)
            made = produce(kb, e, rule, None, [t])
            if made:
                for inst in made:
                    if holder is not None:
                        put_at(kb, e, inst, holder)
                return e
    raise Failure(MISSING, f"cutting {t} would make nothing this activity declares (no free output instance)")


def dice_through_halves(kb: ActivityKB, t: str) -> list[dict]:
    """Dicing rules of ``t``'s halves (its ``sliceable_derivative_synset``) when the activity declares no halves."""
    half = kb.param(t, "sliceable").get("sliceable_derivative_synset")
    if not half or half in kb.objects:
        return []
    return [r for r in raw()["rules"]["dicing"]
            if half in r["input_synsets"] and set(r["output_synsets"]) <= set(kb.objects)]


def put_at(kb: ActivityKB, e: Edit, inst: str, holder: str) -> None:
    """A new object goes on ``holder``; a new substance into it (fillable) or onto it."""
    if inst in kb.substances:
        e.add("contains" if kb.has(holder, "fillable") else "covered", holder, inst)
    else:
        e.add("ontop", inst, holder)


HANDLERS: dict[str, Handler] = {
    "NAVIGATE_TO": navigate_to, "GRASP": grasp, "RELEASE": release,
    "PLACE_ON_TOP": _place("ontop", ("touching",)), "PLACE_INSIDE": _place("inside"),
    "OPEN": open_close(True), "CLOSE": open_close(False), "TOGGLE_ON": toggle(True), "TOGGLE_OFF": toggle(False),
    "SOAK_UNDER": _soak(True), "SOAK_INSIDE": _soak(False), "WIPE": wipe, "CUT": cut,
}


def apply(kb: ActivityKB, s: B1KState, name: str, target: str | None, handlers: dict[str, Handler]) -> B1KState:
    """The state after ``name(target)`` and the rules' fixpoint; raises :class:`Failure`."""
    e = handlers[name](kb, s, target)
    settle(kb, e)
    return e.freeze()

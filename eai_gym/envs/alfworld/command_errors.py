"""Why an ALFWorld command did nothing, in the EAI error taxonomy.

ALFWorld answers every command that is not admissible with ``Nothing happens.``; for the metric
wrappers eai-gym classifies it:

* ``parsing``: not a string, or no command of the dialect has this shape (``put X in/on Y`` is 0.3
  only, ``move X to Y`` and ``help`` 0.4 only);
* ``hallucination``: it names something that is not in the game;
* ``affordance``: the verb can never apply to what it names (opening what cannot be opened, taking
  a receptacle or an object that cannot be picked up, heating with something that is not a microwave,
  going to an object...);
* ``missing_step``: the command is well formed and possible in principle, but a precondition does
  not hold now (not at the receptacle, it is closed, the hand is full or empty...).
"""

from __future__ import annotations

import re

from ...core.errors import ErrorType
from .engine import APPLIANCE, KNIVES, Engine

_SHAPES = {
    "0.4": [("goto", r"go to (.+)"), ("take", r"take (.+) from (.+)"), ("put", r"move (.+) to (.+)"),
            ("open", r"open (.+)"), ("close", r"close (.+)"), ("heat", r"heat (.+) with (.+)"),
            ("cool", r"cool (.+) with (.+)"), ("clean", r"clean (.+) with (.+)"), ("slice", r"slice (.+) with (.+)"),
            ("use", r"use (.+)"), ("examine", r"examine (.+)"), ("look", r"look"), ("inventory", r"inventory"),
            ("help", r"help")],
}
_SHAPES["0.3"] = [(v, "put (.+) in/on (.+)" if v == "put" else p) for v, p in _SHAPES["0.4"] if v != "help"]
_COMPILED = {d: [(v, re.compile(p + r"\Z")) for v, p in shapes] for d, shapes in _SHAPES.items()}


def classify(engine: Engine, command: object) -> tuple[ErrorType, str]:
    """The error type and a message for a command that is not admissible in the current state."""
    if not isinstance(command, str):
        return ErrorType.PARSING, f"a command is text, got {type(command).__name__}"
    text = command.strip()
    for verb, pattern in _COMPILED[engine.dialect]:
        m = pattern.match(text)
        if m:
            break
    else:
        return ErrorType.PARSING, f"{text!r} is not an ALFWorld {engine.dialect} command"
    g = engine.game
    ids = {name: i for i, name in engine.name.items()}
    args = m.groups()
    unknown = [a for a in args if a not in ids]
    if unknown:
        return ErrorType.HALLUCINATION, f"there is no {unknown[0]} here"
    ids_ = [ids[a] for a in args]
    objects, receps = set(g.objects), set(g.receptacles)
    bad = None
    if verb in ("goto", "open", "close") and (ids_[0] not in receps or (verb != "goto" and ids_[0] not in g.openable)):
        bad = f"cannot {verb.replace('goto', 'go to')} {args[0]}"
    elif verb == "take" and (ids_[0] not in objects or ids_[0] not in g.props["pickupable"] or ids_[1] not in receps):
        bad = f"cannot take {args[0]} from {args[1]}"
    elif verb == "put" and (ids_[0] not in objects or ids_[1] not in receps
                            or (g.rtype[ids_[1]], g.otype[ids_[0]]) not in g.can_contain):
        bad = f"{args[1]} cannot hold {args[0]}"
    elif verb in APPLIANCE and (ids_[0] not in g.props.get(verb + "able", ()) or ids_[1] not in receps
                                or g.rtype[ids_[1]] != APPLIANCE[verb]):
        bad = f"cannot {verb} {args[0]} with {args[1]}"
    elif verb == "slice" and (ids_[0] not in g.props["sliceable"] or ids_[1] not in objects
                              or g.otype[ids_[1]] not in KNIVES):
        bad = f"cannot slice {args[0]} with {args[1]}"
    elif verb == "use" and ids_[0] not in g.props["toggleable"]:
        bad = f"cannot use {args[0]}"
    if bad:
        return ErrorType.AFFORDANCE, bad
    return ErrorType.MISSING_STEP, f"{text!r} is not possible now (a precondition does not hold)"

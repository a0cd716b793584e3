"""The ``facts`` info as textworld gives it: propositions over the game's entities, by their ALFWorld names.

textworld's ``PddlEnv`` returns ``textworld.logic.Proposition`` objects whose arguments are
``Variable(name, type)`` with the demangled names (``apple 1``); :class:`Proposition` and :class:`Variable`
have the same attributes (``name``, ``arguments``, ``names``, ``types``; ``type``) and the same ``str``
(``inreceptacle(apple 1: object, fridge 1: receptacle)``; predicate and type names are lower-cased, as
fast-downward hands them to textworld: ``objecttype(apple 1: object, appletype: otype)``). The list holds the PDDL state's facts: first the
ones commands change, sorted, then the static ones (types, receptacle locations, properties, ``canContain``),
sorted (textworld lists them in its PDDL state's order).

Every fact object of a game is made once (:class:`FactNames`): a step's list holds shared objects, so building it
costs one list, and its pickle (what a Ray actor sends back each step) stores each distinct name and
proposition once (a few kB for a game's ~250 facts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...envs.alfworld.engine import AlfState
from ...envs.alfworld.game import Game

#: engine property/state keys -> predicate names (lower-cased, as fast-downward gives them to textworld)
_PREDICATE = {k: k for k in ("pickupable", "heatable", "coolable", "cleanable", "toggleable", "sliceable",
                                "isreceptacleobject", "ishot", "iscool", "isclean", "istoggled", "ison", "issliced")}


@dataclass(frozen=True)
class Variable:
    name: str
    type: str

    def __str__(self) -> str:
        return self.name if self.type == self.name else f"{self.name}: {self.type}"

    def __reduce__(self) -> tuple[Any, ...]:
        return Variable, (self.name, self.type)


@dataclass(frozen=True)
class Proposition:
    name: str
    arguments: tuple[Variable, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.arguments)

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(v.type for v in self.arguments)

    def __str__(self) -> str:
        return f"{self.name}({', '.join(map(str, self.arguments))})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Proposition, (self.name, self.arguments)


class FactNames:
    """The fact objects of one game, each made once: :meth:`fact` interns them."""

    def __init__(self, game: Game) -> None:
        self.game, self.names = game, game.names
        self._variables: dict[tuple[str, str], Variable] = {}
        self._facts: dict[tuple, Proposition] = {}
        self.order: dict[int, tuple] = {}  #: id of a fact -> its sort key (predicate, names)
        self.agent = self.variable("agent1", "agent")

    def variable(self, name: str, type_: str) -> Variable:
        key = (name, type_)
        v = self._variables.get(key)
        if v is None:
            v = self._variables[key] = Variable(name, type_)
        return v

    def fact(self, predicate: str, *args: tuple[str, str]) -> Proposition:
        """The proposition ``predicate(args)``, each argument (id or name, type); ids are shown by their names."""
        key = (predicate, *args)
        f = self._facts.get(key)
        if f is None:
            n = self.names
            f = self._facts[key] = Proposition(predicate, tuple(self.variable(n.get(a, a), t) for a, t in args))
            self.order[id(f)] = (f.name, f.names)
        return f


def static_facts(fn: FactNames) -> tuple[Proposition, ...]:
    """The facts no command changes (types, receptacle locations, properties, ``canContain``), sorted."""
    g = fn.game
    out = []
    for r in g.receptacles:
        out.append(fn.fact("receptacletype", (r, "receptacle"), (g.rtype[r].lower() + "type", "rtype")))
        out.append(fn.fact("receptacleatlocation", (r, "receptacle"), (g.rloc[r], "location")))
        if r in g.openable:
            out.append(fn.fact("openable", (r, "receptacle")))
    for o in g.objects:
        out.append(fn.fact("objecttype", (o, "object"), (g.otype[o].lower() + "type", "otype")))
        out += [fn.fact(_PREDICATE[key], (o, "object")) for key, members in g.props.items() if o in members]
    out += [fn.fact("cancontain", (rt.lower() + "type", "rtype"), (ot.lower() + "type", "otype"))
            for rt, ot in g.can_contain]
    return tuple(sorted(out, key=lambda f: (f.name, f.names)))


def state_facts(fn: FactNames, s: AlfState) -> list[Proposition]:
    """The facts of ``s`` that commands change (where the agent is, what it holds, what is where, open, hot,
    ...), sorted by (predicate, names)."""
    rloc = fn.game.rloc
    agent = ("agent1", "agent")
    out = [fn.fact("atlocation", agent, (s.loc, "location"))]
    if s.held is not None:
        out += [fn.fact("holds", agent, (s.held, "object")), fn.fact("holdsany", agent)]
    for r in s.opened:
        out.append(fn.fact("opened", (r, "receptacle")))
    for o, r in s.inside.items():
        out.append(fn.fact("inreceptacle", (o, "object"), (r, "receptacle")))
        out.append(fn.fact("objectatlocation", (o, "object"), (rloc[r], "location")))
    for key, members in s.states.items():
        out += [fn.fact(_PREDICATE[key], (o, "object")) for o in members]
    order = fn.order
    return sorted(out, key=lambda f: order[id(f)])

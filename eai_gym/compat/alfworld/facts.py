"""The ``facts`` info as textworld gives it: propositions over the game's entities, by their ALFWorld names.

textworld's ``PddlEnv`` returns ``textworld.logic.Proposition`` objects whose arguments are
``Variable(name, type)`` with the demangled names (``apple 1``); :class:`Proposition` and :class:`Variable`
have the same attributes (``name``, ``arguments``, ``names``, ``types``; ``type``) and the same ``str``
(``inreceptacle(apple 1: object, fridge 1: receptacle)``; predicate and type names are lower-cased, as
fast-downward hands them to textworld: ``objecttype(apple 1: object, appletype: otype)``). The list holds the PDDL state's facts: first the
ones commands change, sorted, then the static ones (types, receptacle locations, properties, ``canContain``),
sorted (textworld lists them in its PDDL state's order).

Every fact object is made once per process (:class:`FactNames` interns them by value, so games share theirs: 256
train games' ~170,000 facts are ~4,700 distinct objects): a step's list holds shared objects, so building it
costs one list, and its pickle (what a Ray actor sends back each step) stores each distinct name and
proposition once (a few kB for a game's ~700 facts). :class:`StateFacts` keeps a game run's state facts in
parts, rebuilding only the parts a command changed (a ``go to`` changes one fact).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...envs.alfworld.engine import AlfState
from ...envs.alfworld.game import Game

#: engine property/state keys -> predicate names (lower-cased, as fast-downward gives them to textworld)
_PREDICATE = {k: k for k in ("pickupable", "heatable", "coolable", "cleanable", "toggleable", "sliceable",
                                "isreceptacleobject", "ishot", "iscool", "isclean", "istoggled", "ison", "issliced")}


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    type: str

    def __str__(self) -> str:
        return self.name if self.type == self.name else f"{self.name}: {self.type}"

    def __reduce__(self) -> tuple[Any, ...]:
        return Variable, (self.name, self.type)


@dataclass(frozen=True, slots=True)
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


#: the fact objects and variables made so far, by value (shared by every game of the process)
_SHARED_FACTS: dict[tuple, Proposition] = {}
_SHARED_VARIABLES: dict[tuple[str, str], Variable] = {}
_MAX_SHARED = 500_000  #: entries kept before the tables are cleared (objects in use stay valid)



def _shared(table: dict, key: tuple, make: Any, *args: Any) -> Any:
    """``table[key]``, made as ``make(*args)`` when missing (the table is cleared when it holds ``_MAX_SHARED``)."""
    found = table.get(key)
    if found is None:
        if len(table) >= _MAX_SHARED:
            table.clear()
        found = table.setdefault(key, make(*args))
    return found

class FactNames:
    """The fact objects of one game: :meth:`fact` interns them (per game by ids, per process by value)."""

    def __init__(self, game: Game) -> None:
        self.game, self.names = game, game.names
        self._variables: dict[tuple[str, str], Variable] = {}
        self._facts: dict[tuple, Proposition] = {}
        self.agent = self.variable("agent1", "agent")

    def variable(self, name: str, type_: str) -> Variable:
        key = (name, type_)
        v = self._variables.get(key)
        if v is None:
            v = self._variables[key] = _shared(_SHARED_VARIABLES, key, Variable, name, type_)
        return v

    def fact(self, predicate: str, *args: tuple[str, str]) -> Proposition:
        """The proposition ``predicate(args)``, each argument (id or name, type); ids are shown by their names."""
        key = (predicate, *args)
        f = self._facts.get(key)
        if f is None:
            n = self.names
            arguments = tuple(self.variable(n.get(a, a), t) for a, t in args)
            f = self._facts[key] = _shared(_SHARED_FACTS, (predicate, arguments), Proposition, predicate, arguments)
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
    return sorted(out, key=lambda f: (f.name, f.names))


#: operation kind -> the parts of the state facts it changes (kinds not listed change none)
_CHANGES = {"goto": (), "open": ("opened",), "close": ("opened",), "take": ("inside",), "put": ("inside",),
            "heat": ("flags",), "cool": ("flags",), "clean": ("flags",), "use": ("flags",), "slice": ("flags",)}


class StateFacts:
    """The ``facts`` of one game run (:func:`state_facts`, then the static facts), kept in parts. (predicate,
    names) order puts ``atlocation`` first, then ``holds``/``holdsany``/``inreceptacle``, the flags,
    ``objectatlocation`` and ``opened``: so the list is the agent's location, then a tail (the other parts and
    the static facts) rebuilt only after a command that changes one of its parts (:meth:`changed`)."""

    def __init__(self, fn: FactNames, static: tuple[Proposition, ...]) -> None:
        self.fn, self.static = fn, static
        g = fn.game
        names = fn.names
        self._objects = sorted(g.objects, key=lambda o: names.get(o, o))
        self._receptacles = sorted(g.receptacles, key=lambda r: names.get(r, r))
        self._at: dict[str, Proposition] = {}
        self._parts: dict[str, tuple[list[Proposition], ...]] = {}
        self._tail: list[Proposition] | None = None

    def changed(self, kind: str) -> None:
        """Note that an operation of ``kind`` (:meth:`.engine.Engine.apply`) was performed."""
        for part in _CHANGES.get(kind, ()):
            self._parts.pop(part, None)
            self._tail = None

    def facts(self, s: AlfState) -> list[Proposition]:
        """``state_facts(fn, s) + static``, for the state of the run (every change noted with :meth:`changed`)."""
        at = self._at.get(s.loc)
        if at is None:
            at = self._at[s.loc] = self.fn.fact("atlocation", ("agent1", "agent"), (s.loc, "location"))
        tail = self._tail
        if tail is None:
            tail = self._tail = self._build_tail(s)
        out = [at]
        out += tail
        return out

    def _build_tail(self, s: AlfState) -> list[Proposition]:
        fn, parts = self.fn, self._parts
        if "inside" not in parts:
            parts["inside"] = self._inside(s)
        if "flags" not in parts:
            parts["flags"] = ([fn.fact(_PREDICATE[k], (o, "object")) for k in sorted(s.states)
                               for o in self._objects if o in s.states[k]],)
        if "opened" not in parts:
            parts["opened"] = ([fn.fact("opened", (r, "receptacle")) for r in self._receptacles if r in s.opened],)
        (held_inside, located), (flags,), (opened,) = parts["inside"], parts["flags"], parts["opened"]
        tail = held_inside + flags
        tail += located
        tail += opened
        tail += self.static
        return tail

    def _inside(self, s: AlfState) -> tuple[list[Proposition], list[Proposition]]:
        """(holds, holdsany and inreceptacle facts; objectatlocation facts)."""
        fn, rloc, where = self.fn, self.fn.game.rloc, s.inside
        agent = ("agent1", "agent")
        first = [fn.fact("holds", agent, (s.held, "object")), fn.fact("holdsany", agent)] if s.held is not None else []
        first += [fn.fact("inreceptacle", (o, "object"), (where[o], "receptacle")) for o in self._objects if o in where]
        located = [fn.fact("objectatlocation", (o, "object"), (rloc[where[o]], "location"))
                   for o in self._objects if o in where]
        return first, located

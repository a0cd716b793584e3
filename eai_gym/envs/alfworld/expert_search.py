"""The search expert: the canonical optimal next command from any state by an incremental search over the
engine's commands. :class:`.expert.Expert` uses it where the abstract cost model (:mod:`.expert_model`) does not
apply; :func:`reference_next` is the from-scratch definition both are tested against.

**What it answers** (a function of the state alone, whatever was asked before): with ``h*`` the cost of an
optimal plan (the oracle's costs and its useful commands, :mod:`.oracle`), the next command is the
alphabetically first useful command ``a`` with ``cost(a) + h*(after a) == h*(state)``; ``None`` when the game
is won or the goal is unreachable. :meth:`SearchExpert.plan` follows it to the goal (an optimal plan).
:func:`reference_next` computes the same answer from scratch with the oracle's own search, for tests.

**Why it is fast.** Three facts of the alfred domain, each exact:

- *Relevance.* Only the goal objects (the task's object type, and the lamps of ``look_at_obj_in_light``)
  matter: their receptacles, their properties, which receptacles they are in or could be put in (the goal's
  receptacle type) and whether those are open, what the agent holds, where it is. Two states that agree on
  these have the same optimal plans, so answers are cached under that key (:meth:`SearchExpert.key`; while the
  agent holds another object, where it can put it down matters too, and the key is the whole state).
- *Go to is a complete graph of cost 1.* An optimal plan never goes to a location where no useful command
  (other than ``go to``) can be sent and the goal does not hold there ("dead" locations): going straight on
  is cheaper. The search moves only between the useful locations of a configuration (cached per
  configuration: the key without the agent's location).
- *Exact costs and learned bounds are reusable.* Every search stores the exact cost of the states on its
  optimal path, and a lower bound ``C* - g`` for every state it expanded (Adaptive A*); a later search stops
  at the first state whose exact cost is known. A random walk mostly moves between states already solved.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator

from .engine import APPLIANCE, AlfState, Engine
from .oracle import COST, Oracle

#: entries kept per cache before it is cleared (bounded memory per game)
MAX_ENTRIES = 50_000


class SearchExpert:
    """The canonical optimal next command (see the module docstring), with caches kept across calls."""

    def __init__(self, engine: Engine, max_expansions: int = 200_000) -> None:
        self.engine = engine
        self.oracle = Oracle(engine)
        g = engine.game
        self.relevant = self.oracle.goal_objects | self.oracle.lamps
        self._relevant = sorted(self.relevant)
        self._flags = sorted(engine.initial_state().states)
        self.targets = frozenset(r for r in g.receptacles if g.rtype[r] == self.oracle.goal_rtype)
        self.places = sorted({g.rloc[r] for r in g.receptacles})
        #: location -> the alphabetically first ``go to`` command reaching it
        self.goto_text = {loc: min(f"go to {engine.name[r]}" for r in engine.by_loc[loc]) for loc in self.places}
        self.goto_op = {loc: ("goto", min(engine.by_loc[loc], key=lambda r: f"go to {engine.name[r]}"))
                        for loc in self.places}
        self.max_expansions = max_expansions
        self._exact: dict[tuple, int | None] = {}
        self._bound: dict[tuple, int] = {}
        self._next: dict[tuple, str | None] = {}
        self._live: dict[tuple, tuple[str, ...]] = {}
        self._can_hold: dict[str, frozenset[str]] = {}
        self._moves: dict[tuple, tuple[tuple[str, tuple, int], ...]] = {}

    # -- keys ----------------------------------------------------------------------------------------------
    def key(self, s: AlfState) -> tuple:
        """What the optimal plans from ``s`` depend on: where the agent is, what it holds, where the goal
        objects are, their properties, and which of the receptacles they are in or can go to are open (and
        while another object is held, which of the receptacles that can take it are open)."""
        where = s.inside
        inside = tuple((o, where[o]) for o in self._relevant if o in where)
        recs = self.targets.union(r for _, r in inside)
        if s.held is not None and s.held not in self.relevant:
            recs = recs | self._holders(s.held)
        states = s.states
        return (s.loc, s.held, inside, tuple(sorted(r for r in s.opened if r in recs)),
                tuple(tuple(o for o in self._relevant if o in states[k]) for k in self._flags))

    def _holders(self, o: str) -> frozenset[str]:
        """The receptacles object ``o`` can be put in (its type's ``canContain``)."""
        found = self._can_hold.get(o)
        if found is None:
            g = self.engine.game
            found = self._can_hold[o] = frozenset(r for r in g.receptacles if (g.rtype[r], g.otype[o]) in g.can_contain)
        return found

    def _candidate_places(self, s: AlfState) -> list[str]:
        """The locations where a useful command other than ``go to`` may exist, or the goal may hold: those of
        the receptacles holding goal objects, of the goal's receptacles, of the appliances, and of the
        receptacles that can take the object held."""
        g = self.engine.game
        recs = set(self.targets)
        recs.update(r for o, r in s.inside.items() if o in self.relevant)
        if s.held is not None:
            recs.update(self._holders(s.held))
            recs.update(r for r in g.receptacles if g.rtype[r] in APPLIANCE.values())
        return sorted({g.rloc[r] for r in recs})

    @staticmethod
    def _config(key: tuple) -> tuple:
        return key[1:]

    # -- moves ---------------------------------------------------------------------------------------------
    def _here(self, s: AlfState) -> list[tuple[str, tuple, int]]:
        """The useful commands other than ``go to`` at the agent's location: (text, op, cost)."""
        useful = self.oracle._useful
        return [(text, op, COST[op[0]]) for text, op in sorted(self.engine.commands(s).items())
                if op[0] != "goto" and op[0] in COST and useful(s, op)]

    def live(self, s: AlfState, key: tuple) -> tuple[str, ...]:
        """The locations where a useful command other than ``go to`` can be sent, or the goal holds (cached
        per configuration)."""
        config = self._config(key)
        found = self._live.get(config)
        if found is None:
            t = s.copy()
            out = []
            for loc in self._candidate_places(s):
                t.loc = loc
                if self.engine.won(t) or self._here(t):
                    out.append(loc)
            found = self._live[config] = tuple(out)
        return found

    def moves(self, s: AlfState, key: tuple) -> tuple[tuple[str, tuple, int], ...]:
        """The commands an optimal plan can start with from ``s``: the useful ones here, and one ``go to``
        per other live location (the alphabetically first)."""
        found = self._moves.get(key)
        if found is None:
            gotos = [(self.goto_text[loc], self.goto_op[loc], 1) for loc in self.live(s, key) if loc != s.loc]
            found = self._moves[key] = tuple(self._here(s) + gotos)
        return found

    def candidates(self, s: AlfState, key: tuple) -> Iterator[tuple[str, tuple, int]]:
        """Every command an optimal plan can start with, alphabetically: the useful ones here and every
        ``go to`` towards a live location (all the receptacles there)."""
        names = self.engine.name
        gotos = [(f"go to {names[r]}", ("goto", r), 1) for loc in self.live(s, key) if loc != s.loc
                 for r in self.engine.by_loc[loc]]
        return iter(sorted(self._here(s) + gotos))

    # -- costs ---------------------------------------------------------------------------------------------
    def cost(self, s: AlfState, key: tuple | None = None, bound: int | None = None) -> int | None:
        """``h*(s)``; with ``bound``, any value above ``bound`` may be returned as ``bound + 1`` (a proof that
        no plan of cost ``<= bound`` exists). None: the goal is unreachable."""
        key = self.key(s) if key is None else key
        if key in self._exact:
            return self._exact[key]
        if bound is not None and self._bound.get(key, 0) > bound:
            return bound + 1
        if self.engine.won(s):
            self._store(self._exact, key, 0)
            return 0
        live = self.live(s, key)
        if s.loc not in live:  # a dead location: go to the best live one
            best = self._best_live(s, live)
            total = None if best is None else best[0] + 1
            self._store(self._exact, key, total)
            return total
        return self._search(s, key, bound)

    def _best_live(self, s: AlfState, live: tuple[str, ...]) -> tuple[int, list[str]] | None:
        """(h*, the live locations reaching it) over the live locations, from ``s``'s configuration."""
        t = s.copy()
        costs = {}
        for loc in live:
            t.loc = loc
            c = self.cost(t)
            if c is not None:
                costs[loc] = c
        if not costs:
            return None
        low = min(costs.values())
        return low, [loc for loc, c in costs.items() if c == low]

    def _h(self, s: AlfState, key: tuple) -> int:
        exact = self._exact.get(key, -1)
        if exact is not None and exact >= 0:
            return exact
        return max(self.oracle.lower_bound(s), self._bound.get(key, 0))

    def _search(self, start: AlfState, start_key: tuple, bound: int | None) -> int | None:
        """A* over :meth:`moves`; stops at the goal or at a state of known exact cost."""
        e = self.engine
        tie = itertools.count()
        frontier = [(self._h(start, start_key), next(tie), 0, start, start_key, None)]
        best = {start_key: 0}
        parents: dict[tuple, tuple | None] = {start_key: None}
        closed: list[tuple[tuple, int]] = []
        expansions = 0
        while frontier:
            f, _, g, s, k, _ = heapq.heappop(frontier)
            if best.get(k, g) < g:
                continue
            if bound is not None and f > bound:
                self._learn(closed, f)
                self._bound[start_key] = max(self._bound.get(start_key, 0), f)
                return bound + 1
            exact = self._exact.get(k, -1) if k in self._exact else (0 if e.won(s) else -1)
            if exact is None:
                continue  # a dead end: the goal is unreachable from there
            if exact >= 0:
                total = g + exact
                self._learn(closed, total)
                node: tuple | None = k
                while node is not None:  # the states on the optimal path: exact costs
                    self._store(self._exact, node, total - best[node])
                    node = parents[node]
                return total
            expansions += 1
            if expansions > self.max_expansions:
                return None
            closed.append((k, g))
            for _text, op, c in self.moves(s, k):
                nxt = s.copy()
                e.apply(nxt, op)
                nk = self.key(nxt)
                if self._exact.get(nk, 0) is None and nk in self._exact:
                    continue
                ng = g + c
                if ng < best.get(nk, ng + 1):
                    best[nk] = ng
                    parents[nk] = k
                    heapq.heappush(frontier, (ng + self._h(nxt, nk), next(tie), ng, nxt, nk, None))
        self._store(self._exact, start_key, None)
        return None

    def _learn(self, closed: list[tuple[tuple, int]], total: int) -> None:
        for k, g in closed:
            if total - g > self._bound.get(k, 0):
                self._store(self._bound, k, total - g)

    @staticmethod
    def _store(cache: dict, key: tuple, value: object) -> None:
        if len(cache) >= MAX_ENTRIES:
            cache.clear()
        cache[key] = value

    # -- answers -------------------------------------------------------------------------------------------
    def next_command(self, s: AlfState) -> str | None:
        """The canonical optimal next command from ``s`` (None once won, or when the goal is unreachable)."""
        key = self.key(s)
        if key in self._next:
            return self._next[key]
        total = self.cost(s, key)
        answer = None
        live = self.live(s, key)
        if total and s.loc not in live:  # from a dead location: the first go to towards a best live one
            best = self._best_live(s, live)
            names = self.engine.name
            answer = min(f"go to {names[r]}" for loc in (best[1] if best else ()) for r in self.engine.by_loc[loc])
        elif total:
            for text, op, c in self.candidates(s, key):
                nxt = s.copy()
                self.engine.apply(nxt, op)
                nk = self.key(nxt)
                if self._exact.get(nk, -1) == total - c or self.cost(nxt, nk, bound=total - c) == total - c:
                    answer = text
                    break
        self._store(self._next, key, answer)
        return answer

    def plan(self, s: AlfState) -> list[str] | None:
        """The canonical optimal plan from ``s`` ([] if won; None if the goal is unreachable)."""
        if self.cost(s) is None:
            return None
        s, out = s.copy(), []
        while (text := self.next_command(s)) is not None:
            op = self.engine.commands(s)[text]
            self.engine.apply(s, op)
            out.append(text)
        return out


def reference_next(engine: Engine, s: AlfState) -> str | None:
    """The canonical optimal next command from scratch: exact costs from the oracle's own search (no caches, no
    pruning), the alphabetically first useful command on an optimal plan."""
    def h(state: AlfState) -> int | None:
        steps = Oracle(engine)._search(state)
        return None if steps is None else sum(COST[op[0]] for _, op in steps)

    oracle = Oracle(engine)
    total = h(s)
    if not total:
        return None
    for text, op in sorted(engine.commands(s).items()):
        if op[0] not in COST or not oracle._useful(s, op):
            continue
        nxt = s.copy()
        engine.apply(nxt, op)
        rest = h(nxt)
        if rest is not None and COST[op[0]] + rest == total:
            return text
    raise AssertionError("no optimal first command: the oracle's costs are inconsistent")  # not reached

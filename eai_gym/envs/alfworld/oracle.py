"""The oracle: a cost-optimal plan from the true state, as ALFWorld's planner expert computes it.

Costs are the alfred domain's: go to, open, take, move/put 1; heat, cool, clean, use, slice 5;
look, examine, inventory and help 0 (never planned). The search is uniform-cost over the engine's
own commands, restricted to the ones that can matter for the task: every ``go to``; opening a
receptacle that holds a goal object or is of the goal receptacle type; taking a goal object (the
task's object type, or its lamp type for ``look_at_obj_in_light``); putting a goal object into a
goal-type receptacle, or putting down any other object held; the task's appliance command on a
goal object; switching the goal lamp. Every removed command is useless for the goal, so the plan
found is optimal over all commands. Plans include ``open`` but never ``close``, like ALFWorld's.
The search is A* with :meth:`Oracle.lower_bound` as its (admissible) heuristic, ties broken
towards deeper states.
"""

from __future__ import annotations

import heapq
import itertools

from .engine import AlfState, Engine

COST = {"goto": 1, "open": 1, "take": 1, "put": 1, "heat": 5, "cool": 5, "clean": 5, "use": 5, "slice": 5}
_VERB = {"pick_clean_then_place_in_recep": "clean", "pick_heat_then_place_in_recep": "heat",
         "pick_cool_then_place_in_recep": "cool"}


class Oracle:
    def __init__(self, engine: Engine, max_expansions: int = 200_000) -> None:
        self.engine = engine
        g = engine.game
        p = g.params
        self.verb = _VERB.get(g.task_type)
        self.goal_objects = frozenset(o for o in g.objects if g.otype[o] == p.get("object_target"))
        self.lamps = frozenset(o for o in g.objects if p.get("toggle_target") and g.otype[o] == p.get("toggle_target"))
        self.goal_rtype = p.get("parent_target") or None
        self.max_expansions = max_expansions
        self._memo: dict[tuple, tuple[str, ...]] = {}

    def _useful(self, s: AlfState, op: tuple) -> bool:
        g, kind = self.engine.game, op[0]
        if kind == "goto":
            return True
        if kind == "open":
            r = op[1]
            return g.rtype[r] == self.goal_rtype or any(
                s.inside.get(o) == r for o in self.goal_objects | self.lamps)
        if kind == "take":
            return op[1] in self.goal_objects
        if kind == "put":
            o, r = op[1], op[2]
            return o not in self.goal_objects or g.rtype[r] == self.goal_rtype
        if kind in ("heat", "cool", "clean"):
            return kind == self.verb and op[1] in self.goal_objects
        if kind == "use":
            return op[1] in self.lamps
        return False

    def _travel(self, s: AlfState, phases: list[set[str]]) -> int:
        """The fewest ``go to`` commands that visit one location of each phase in order."""
        cur = {s.loc: 0}
        for places in phases:
            best = min(cur.values()) + 1
            cur = {loc: min(cur.get(loc, best), best) for loc in places}
            if not cur:
                return 0
        return min(cur.values())

    def lower_bound(self, s: AlfState) -> int:
        """A cost no plan from ``s`` can beat (A*'s admissible heuristic): the puts, takes, appliance
        uses, lamp switching and openings the goal still needs, each counted once, plus the ``go to``
        commands needed to visit, in order, a goal object, an appliance and a goal receptacle (or the lamp)."""
        g = self.engine.game
        loc_of = g.rloc
        free = [o for o in self.goal_objects if o in s.inside]
        holding = s.held in self.goal_objects
        must_open = 1 if free and all(s.inside[o] in g.openable and s.inside[o] not in s.opened for o in free) else 0
        if g.task_type == "look_at_obj_in_light":
            lit = any(o in s.states["istoggled"] for o in self.lamps)
            lamp_locs = {loc_of[s.inside[o]] for o in self.lamps if o in s.inside}
            phases = ([] if holding else [{loc_of[s.inside[o]] for o in free}]) + [lamp_locs]
            return ((0 if holding else 1 + (s.held is not None) + must_open) + (0 if lit else 5)
                    + self._travel(s, phases))
        targets = [r for r in g.receptacles if g.rtype[r] == self.goal_rtype]
        flag = {"heat": "ishot", "cool": "iscool", "clean": "isclean"}.get(self.verb or "")
        done = max((sum(1 for o in self.goal_objects if s.inside.get(o) == r and (flag is None or o in s.states[flag]))
                    for r in targets), default=0)
        need = (2 if g.task_type == "pick_two_obj_and_place" else 1) - done
        if need <= 0:
            return 0
        takes = need - (1 if holding else 0) + (1 if s.held is not None and not holding else 0)
        heat = 0
        phases: list[set[str]] = []
        if not holding:
            phases.append({loc_of[s.inside[o]] for o in free})
        else:
            must_open = 0
        if flag is not None and not any(o in s.states[flag] for o in self.goal_objects):
            heat = 5  # no goal object has been heated/cooled/cleaned yet
            appliance = {"heat": "Microwave", "cool": "Fridge", "clean": "SinkBasin"}[self.verb or ""]
            phases.append({loc_of[r] for r in g.receptacles if g.rtype[r] == appliance})
        phases.append({loc_of[r] for r in targets})
        if need == 2 and free:  # pick-two: fetch another goal object and come back
            phases += [{loc_of[s.inside[o]] for o in free}, {loc_of[r] for r in targets}]
        closed_targets = 1 if targets and all(r in g.openable and r not in s.opened for r in targets) else 0
        return need + takes + heat + must_open + closed_targets + self._travel(s, phases)

    def plan(self, state: AlfState) -> list[str] | None:
        """The commands of a cost-optimal plan from ``state`` ([] if won; None if unreachable).

        Plans are remembered for every state along them (a suffix of an optimal plan is optimal from
        where it starts), so an agent that follows the plan, or sends commands that change nothing,
        gets its next plan without a search."""
        key = state.key()
        if key in self._memo:
            return list(self._memo[key])
        steps = self._search(state)
        if steps is None:
            return None
        found = [text for text, _ in steps]
        if len(self._memo) > 50_000:
            self._memo.clear()
        s = state.copy()
        self._memo[key] = tuple(found)
        for i, (_, op) in enumerate(steps):
            self.engine.apply(s, op)
            self._memo[s.key()] = tuple(found[i + 1:])
        return found

    def _search(self, state: AlfState) -> list[tuple[str, tuple]] | None:
        e = self.engine
        if e.won(state):
            return []
        tie = itertools.count()
        frontier = [(self.lower_bound(state), 0, next(tie), state, ())]  # (f, -g, ...): ties go deepest first
        best = {state.key(): 0}
        expansions = 0
        while frontier:
            _, neg_cost, _, s, path = heapq.heappop(frontier)
            cost = -neg_cost
            if best.get(s.key(), cost) < cost:
                continue
            if e.won(s):
                return list(path)
            expansions += 1
            if expansions > self.max_expansions:
                return None
            for text, op in sorted(e.commands(s).items()):
                if op[0] not in COST or not self._useful(s, op):
                    continue
                nxt = s.copy()
                e.apply(nxt, op)
                c = cost + COST[op[0]]
                k = nxt.key()
                if c < best.get(k, c + 1):
                    best[k] = c
                    heapq.heappush(frontier, (c + self.lower_bound(nxt), -c, next(tie), nxt, path + ((text, op),)))
        return None

"""An exact abstract model of the alfred domain's optimal costs: the canonical optimal next command without a search.

The canonical next command from a state (:mod:`.expert`) is the alphabetically first useful command ``a`` (the
oracle's, :mod:`.oracle`) with ``cost(a) + h*(after a) == h*(state)``. Here ``h*`` comes from a closed form over
an abstract configuration of the state (:mod:`.expert_costs`): ``h*(state) = a* + (loc not in S*)`` from the
configuration's summary ``(a*, S*)``. So the optimal ``go to`` commands are those towards ``S*`` (when the agent
is not in ``S*``), and the other useful commands here are checked one by one, in alphabetical order, against
the summaries of the configurations they lead to — a handful of closed forms, no command listing of the engine
and no state copies. Answers are remembered per (configuration, location): a training loop's random walk
mostly moves between locations of configurations already seen.

The model applies to the six ALFWorld task types whose goal is the formula ALFWorld's generator writes for the
task's ``pddl_params`` (:func:`why_not` says why not, for a game; :meth:`CostModel.config` is None then, and
while the agent holds a lamp, which the model does not move): :class:`.expert.Expert` falls back to the
search (:mod:`.expert_search`) there. On every shipped game the model applies.
"""

from __future__ import annotations

from .engine import APPLIANCE, AlfState, Engine
from .expert_costs import INF, Config, Domain, Summary, TaskCosts, after
from .game import Game
from .oracle import COST, Oracle

#: the flag each task verb sets
FLAGS = {"heat": "ishot", "cool": "iscool", "clean": "isclean"}
_PLACE_ONE = ("pick_and_place_simple", "pick_clean_then_place_in_recep", "pick_heat_then_place_in_recep",
              "pick_cool_then_place_in_recep")
_EMPTY: frozenset[str] = frozenset()
_UNKNOWN = object()


def _lower_heads(f: object) -> object:
    """A goal formula with its predicate names and keywords lower-cased (PDDL is case-insensitive there)."""
    if isinstance(f, tuple) and f:
        head = f[0].lower() if isinstance(f[0], str) and not f[0].startswith("?") else f[0]
        return (head,) + tuple(_lower_heads(x) for x in f[1:])
    return f


def expected_goal(task_type: str, params: dict) -> tuple | None:
    """The goal formula ALFWorld writes for a task type and its ``pddl_params`` (predicates lower-cased)."""
    ot = f"{params.get('object_target')}Type"
    rt = f"{params.get('parent_target')}Type"
    if task_type == "pick_and_place_simple":
        body = ("and", ("inreceptacle", "?o", "?r"), ("objecttype", "?o", ot), ("receptacletype", "?r", rt))
    elif task_type in _PLACE_ONE:
        verb = task_type.split("_")[1]
        body = ("and", (f"{verb}able", "?o"), ("objecttype", "?o", ot), ("receptacletype", "?r", rt),
                (FLAGS[verb], "?o"), ("inreceptacle", "?o", "?r"))
    elif task_type == "pick_two_obj_and_place":
        second = ("exists", ("?o2", "-", "object"), ("and", ("not", ("=", "?o1", "?o2")), ("objecttype", "?o2", ot),
                                                      ("inreceptacle", "?o2", "?r")))
        return ("exists", ("?r", "-", "receptacle"), ("exists", ("?o1", "-", "object"), (
            "and", ("objecttype", "?o1", ot), ("receptacletype", "?r", rt), ("inreceptacle", "?o1", "?r"), second)))
    elif task_type == "look_at_obj_in_light":
        lamp = ("exists", ("?ot", "-", "object", "?r", "-", "receptacle", "?a", "-", "agent", "?l", "-", "location"),
                ("and", ("objecttype", "?ot", f"{params.get('toggle_target')}Type"), ("toggleable", "?ot"),
                 ("istoggled", "?ot"), ("receptacleatlocation", "?r", "?l"), ("atlocation", "?a", "?l"),
                 ("inreceptacle", "?ot", "?r")))
        return ("and", lamp, ("exists", ("?o", "-", "object", "?a", "-", "agent"),
                              ("and", ("objecttype", "?o", ot), ("holds", "?a", "?o"))))
    else:
        return None
    return ("exists", ("?r", "-", "receptacle"), ("exists", ("?o", "-", "object"), body))


def why_not(game: Game) -> str | None:
    """Why the model does not apply to ``game`` (None: it applies)."""
    p = game.params
    if not p.get("object_target"):
        return "no object_target in the task's pddl_params"
    if game.task_type == "look_at_obj_in_light" and p.get("toggle_target") in ("", None, p.get("object_target")):
        return "the lamp type is missing or is the object type"
    expected = expected_goal(game.task_type, p)
    if expected is None or _lower_heads(game.goal) != expected:
        return f"the goal is not the formula ALFWorld writes for {game.task_type} and its pddl_params"
    return None


class CostModel:
    """The model for one engine (game and dialect): :meth:`config` of a state, :meth:`cost` and
    :meth:`next_command` of a configuration at a location."""

    def __init__(self, engine: Engine, max_entries: int = 50_000) -> None:
        self.engine = engine
        g = engine.game
        self.reason = why_not(g)
        oracle = Oracle(engine)
        kind = ("look" if g.task_type == "look_at_obj_in_light" else "two" if g.task_type == "pick_two_obj_and_place"
                else "place")
        goal, lamps = tuple(sorted(oracle.goal_objects)), tuple(sorted(oracle.lamps)) if kind == "look" else ()
        verb = oracle.verb
        self.flag = FLAGS[verb] if verb else "istoggled" if kind == "look" else None
        flaggable = (frozenset(o for o in goal if o in g.props[verb + "able"]) if verb else
                     frozenset(m for m in lamps if m in g.props["toggleable"]) if kind == "look" else _EMPTY)
        self.domain = Domain(
            kind=kind, goal=goal, lamps=lamps, pickable=frozenset(o for o in goal if o in g.props["pickupable"]),
            flaggable=flaggable,
            targets=tuple(r for r in g.receptacles if kind != "look" and g.rtype[r] == oracle.goal_rtype),
            can_put=(oracle.goal_rtype, g.params.get("object_target")) in g.can_contain,
            appliances=frozenset(g.rloc[r] for r in g.receptacles if verb and g.rtype[r] == APPLIANCE[verb]),
            verb=verb, rloc=g.rloc, openable=g.openable, receptacles=tuple(g.receptacles), rtype=g.rtype,
            otype=g.otype, can_contain=g.can_contain)
        self.costs = TaskCosts(self.domain, max_entries)
        self.tracked = goal + lamps
        self._index = {o: i for i, o in enumerate(self.tracked)}
        self._flag_order = tuple(o for o in self.tracked if o in flaggable)
        self._lamps = frozenset(lamps)
        names = engine.name
        self._put_text = ("move {} to {}" if engine.dialect == "0.4" else "put {} in/on {}").format
        self.goto_text = {loc: min(f"go to {names[r]}" for r in rs) for loc, rs in engine.by_loc.items()}
        self.max_entries = max_entries
        self._answers: dict[tuple[Config, str], str | None] = {}
        self._gotos: dict[frozenset[str], str] = {}
        self._last_config: Config | None = None
        self._last_summary: Summary = (INF, frozenset())
        self._last_goto: str | None = None
        #: the kinds of command whose texts sort before every "go to ..." (the task verb if it is clean or cool)
        self._verb_first = frozenset(k for k in ([verb] if verb else []) if f"{k} " < "go to ")

    # -- configurations ------------------------------------------------------------------------------------
    def config(self, s: AlfState) -> Config | None:
        """The configuration of ``s`` (None where the model does not apply: the game, or a lamp in hand)."""
        if self.reason is not None or s.held in self._lamps:
            return None
        inside = s.inside
        pos = tuple(inside.get(o) for o in self.tracked)
        if self.flag is None:
            flags = _EMPTY
        else:
            on = s.states[self.flag]
            flags = frozenset(o for o in self._flag_order if o in on)
        rel = self.costs.relevant(s.held, pos)
        return s.held, pos, flags, frozenset(r for r in s.opened if r in rel)

    def summary(self, c: Config) -> Summary:
        return self.costs.summary(c)

    def cost(self, c: Config, loc: str) -> int | None:
        """``h*``: the cost of an optimal plan (None: the goal is unreachable)."""
        h = after(self.costs.summary(c), loc)
        return None if h >= INF else h

    # -- answers -------------------------------------------------------------------------------------------
    def next_command(self, c: Config, loc: str) -> str | None:
        """The canonical optimal next command (None once won, or when the goal is unreachable)."""
        if c is not self._last_config:  # a training loop asks about one configuration at many locations
            self._last_summary = summary = self.costs.summary(c)
            self._last_goto = None if summary[1] is None or summary[0] >= INF else self._goto(summary[1])
            self._last_config = c
        m, starts = self._last_summary
        if m >= INF or starts is None:  # unreachable, or won everywhere
            return None
        if loc not in starts:
            # h = a* + 1: the go to commands towards S* are optimal, and only commands sorting before them
            # ("clean ...", "cool ..." at an appliance) can come first
            answer = self._last_goto
            if self._verb_first and loc in self.domain.appliances and c[0] is not None:
                for text, nxt, cost in self._commands(c, loc, self._verb_first):
                    if text < answer and cost + after(self.costs.summary(nxt), loc) == m + 1:
                        return text
            return answer
        h = m
        if h == 0:  # won here
            return None
        key = (c, loc)
        answer = self._answers.get(key, _UNKNOWN)
        if answer is _UNKNOWN:
            answer = None
            for text, nxt, cost in self._commands(c, loc):
                if cost + after(self.costs.summary(nxt), loc) == h:
                    answer = text
                    break
            if len(self._answers) >= self.max_entries:
                self._answers.clear()
            self._answers[key] = answer
        return answer  # type: ignore[return-value]

    def _goto(self, starts: frozenset[str]) -> str:
        found = self._gotos.get(starts)
        if found is None:
            if len(self._gotos) >= self.max_entries:
                self._gotos.clear()
            found = self._gotos[starts] = min(self.goto_text[loc] for loc in starts)
        return found

    def _commands(self, c: Config, loc: str, only: frozenset[str] | None = None) -> list[tuple[str, Config, int]]:
        """The useful commands other than ``go to`` at ``loc`` (the oracle's), alphabetically: (text, the
        configuration it leads to, its cost); with ``only``, the heat/cool/clean commands of those kinds only."""
        held, pos, flags, opened = c
        g, names, costs, d = self.engine.game, self.engine.name, self.costs, self.domain
        make = costs.config
        out: list[tuple[str, Config, int]] = []
        index = self._index
        held_i = index.get(held) if held is not None else None
        goal_held = held_i is not None and held_i < len(d.goal)
        if only is not None:
            if goal_held and d.verb in only and held in g.props[d.verb + "able"]:
                for r in self.engine.by_loc.get(loc, ()):
                    if g.rtype[r] == APPLIANCE[d.verb]:
                        out.append((f"{d.verb} {names[held]} with {names[r]}",
                                    (held, pos, flags | {held} if held in d.flaggable else flags, opened), COST[d.verb]))
            return sorted(out, key=lambda command: command[0])
        for r in self.engine.by_loc.get(loc, ()):
            shut = r in d.openable and r not in opened
            here = [i for i, p in enumerate(pos) if p == r]
            if shut and (here or r in costs.target_set):
                out.append((f"open {names[r]}", (held, pos, flags, opened | {r}), COST["open"]))
            for i in here:
                o = self.tracked[i]
                if i < len(d.goal):
                    if held is None and not shut and o in d.pickable:
                        out.append((f"take {names[o]} from {names[r]}",
                                    make(o, pos[:i] + (None,) + pos[i + 1:], flags, opened), COST["take"]))
                elif o in g.props["toggleable"]:
                    lit = flags | {o} if o in d.flaggable else flags
                    out.append((f"use {names[o]}", (held, pos, lit, opened), COST["use"]))
            if held is not None and not shut and (g.rtype[r], g.otype[held]) in g.can_contain:
                if not goal_held:
                    out.append((self._put_text(names[held], names[r]), make(None, pos, flags, opened), COST["put"]))
                elif r in costs.target_set:
                    out.append((self._put_text(names[held], names[r]),
                                make(None, pos[:held_i] + (r,) + pos[held_i + 1:], flags, opened), COST["put"]))
            if goal_held and d.verb and g.rtype[r] == APPLIANCE[d.verb] and held in g.props[d.verb + "able"]:
                out.append((f"{d.verb} {names[held]} with {names[r]}",
                            (held, pos, flags | {held} if held in d.flaggable else flags, opened), COST[d.verb]))
        out.sort(key=lambda command: command[0])
        return out

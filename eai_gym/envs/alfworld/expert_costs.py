"""The optimal cost of an ALFWorld task from an abstract configuration, in closed form, per task type.

**Configurations.** What optimal plans depend on (see :mod:`.expert_model`): ``(held, pos, flags, opened)`` —
the object held (or None), the receptacle of every tracked object (the goal objects, then the lamps; None while
held), the tracked objects whose task flag holds (``ishot`` / ``iscool`` / ``isclean`` for the goal objects that
can take it, ``istoggled`` for the toggleable lamps), and the opened receptacles among those whose state matters
(the goal's receptacles, those holding tracked objects, and while another object is held, those that can take it).

**Summaries.** ``go to`` costs 1 between any two locations, so from a configuration ``C`` the optimal cost at
location ``L`` is ``a* + (L not in S*)``: ``a*`` is the cheapest plan from the best location, and ``S*`` the
locations where such plans do their first non-``go to`` command. A summary is that pair (``S*`` None: every
location, i.e. the goal holds). Plans are sequences of events at locations — put down the other object held
(``drop``), take a goal object, heat/cool/clean it, put it in a goal receptacle, switch a lamp — and the cost of a
sequence is its commands plus one per change of location, plus one ``open`` per closed receptacle used (opened
where it is first used: opening earlier never pays). A summary is computed backwards over the events of the
plan shapes that can be optimal:

- place one object (``pick_and_place_simple``, ``pick_{clean,heat,cool}_then_place_in_recep``): [drop] take
  [heat/cool/clean] put; holding an object that is not ready: heat it, or put it in a goal receptacle and start
  again with another;
- ``pick_two_obj_and_place``: for each goal receptacle ``r``, the one or two objects it still needs, each taken and
  put in ``r`` (``r`` and a shared source opened once);
- ``look_at_obj_in_light``: [drop] take, then stand at a switched-on lamp (switching it on first if none is).

Every plan shape left out is strictly worse than one kept (it adds a take and a put that undo each other, or a
visit where nothing is used), so ``a*`` and ``S*`` are exact; :mod:`tests.compat.test_alfworld_expert` checks
them against the oracle's search on every shipped game.
"""

from __future__ import annotations

from dataclasses import dataclass

INF = 1 << 30
#: (a*, S*): the optimal cost from the best location, and the locations where its plans start (None: all)
Summary = tuple[int, "frozenset[str] | None"]
UNREACHABLE: Summary = (INF, frozenset())
WON: Summary = (0, None)
Config = tuple  #: (held, pos, flags, opened), see the module docstring


def after(summary: Summary, loc: str) -> int:
    """The optimal cost at ``loc`` of a configuration with this summary."""
    m, where = summary
    if m >= INF:
        return INF
    return m if where is None or loc in where else m + 1


def summarize(costs: dict[str, int]) -> Summary:
    """The summary of ``costs``: location -> the cheapest plan doing its first command there."""
    if not costs:
        return UNREACHABLE
    m = min(costs.values())
    if m >= INF:
        return UNREACHABLE
    return m, frozenset(loc for loc, c in costs.items() if c == m)


def merge(a: Summary, b: Summary) -> Summary:
    """The summary of the cheaper of two sets of plans."""
    if a[0] != b[0]:
        return a if a[0] < b[0] else b
    if a[0] >= INF:
        return UNREACHABLE
    if a[1] is None or b[1] is None:
        return a[0], None
    return a[0], a[1] | b[1]


def _low(costs: dict[str, int], loc: str, cost: int) -> None:
    if cost < costs.get(loc, INF):
        costs[loc] = cost


@dataclass(frozen=True)
class Domain:
    """The static facts the costs depend on (from :class:`.expert_model.CostModel`)."""

    kind: str  #: "place" (one object), "two", "look"
    goal: tuple[str, ...]  #: the goal objects, sorted
    lamps: tuple[str, ...]  #: the lamps (``look``), sorted
    pickable: frozenset[str]  #: goal objects that can be taken
    flaggable: frozenset[str]  #: tracked objects whose flag counts (verb-able goal objects, toggleable lamps)
    targets: tuple[str, ...]  #: the goal's receptacles
    can_put: bool  #: whether the goal receptacles can take the goal objects
    appliances: frozenset[str]  #: locations of the appliances of the task's verb (empty: none, or no verb)
    verb: str | None  #: heat / cool / clean, or None
    rloc: dict[str, str]  #: receptacle -> location
    openable: frozenset[str]
    receptacles: tuple[str, ...]
    rtype: dict[str, str]  #: receptacle -> type
    otype: dict[str, str]  #: object -> type
    can_contain: frozenset[tuple[str, str]]  #: (receptacle type, object type)


class TaskCosts:
    """The summary of every configuration (:meth:`summary`), remembered."""

    def __init__(self, d: Domain, max_entries: int = 50_000) -> None:
        self.d = d
        self.n_goal = len(d.goal)
        self.target_set = frozenset(d.targets)
        self.max_entries = max_entries
        self._memo: dict[Config, Summary] = {}
        self._put_memo: dict[frozenset[str], Summary] = {}
        self._fix_memo: dict[frozenset[str], Summary] = {}
        self.tracked = frozenset(d.goal + d.lamps)
        self._holders: dict[str, frozenset[str]] = {}

    def summary(self, c: Config) -> Summary:
        found = self._memo.get(c)
        if found is None:
            d = self.d
            if d.kind == "place":
                found = self._place(c)
            elif d.kind == "two":
                found = self._two(c)
            else:
                found = self._look(c)
            if len(self._memo) >= self.max_entries:
                self._memo.clear()
            self._memo[c] = found
        return found

    # -- helpers -------------------------------------------------------------------------------------------
    def closed(self, r: str, opened: frozenset[str]) -> int:
        """1 if ``r`` must be opened before use, else 0."""
        return 1 if r in self.d.openable and r not in opened else 0

    def holders(self, o: str) -> frozenset[str]:
        """The receptacles object ``o`` can be put in (its type's ``canContain``)."""
        found = self._holders.get(o)
        if found is None:
            d = self.d
            ot = d.otype[o]
            found = self._holders[o] = frozenset(r for r in d.receptacles if (d.rtype[r], ot) in d.can_contain)
        return found

    def relevant(self, held: str | None, pos: tuple) -> frozenset[str]:
        """The receptacles whose open state a configuration keeps."""
        rel = self.target_set.union(p for p in pos if p is not None)
        if held is not None and held not in self.tracked:
            rel = rel | self.holders(held)
        return rel

    def config(self, held: str | None, pos: tuple, flags: frozenset[str], opened: frozenset[str]) -> Config:
        """A configuration, its ``opened`` narrowed to the receptacles it keeps."""
        rel = self.relevant(held, pos)
        return held, pos, flags, frozenset(r for r in opened if r in rel)

    def _sources(self, pos: tuple) -> list[tuple[str, str]]:
        """(goal object, its receptacle) for the goal objects that can be taken."""
        d = self.d
        return [(o, pos[i]) for i, o in enumerate(d.goal) if pos[i] is not None and o in d.pickable]

    def _drop(self, c: Config) -> Summary:
        """Holding another object: put it down where it can go (opening a closed receptacle there if opening
        it is useful), then the plan with empty hands."""
        held, pos, flags, opened = c
        d = self.d
        base = self.config(None, pos, flags, opened)
        base_summary = self.summary(base)
        costs: dict[str, int] = {}
        usable = self.target_set.union(p for p in pos if p is not None)
        for p in self.holders(held):
            lp = d.rloc[p]
            if p not in d.openable or p in opened:
                _low(costs, lp, 1 + after(base_summary, lp))
            elif p in usable:
                _low(costs, lp, 2 + after(self.summary(self.config(None, pos, flags, base[3] | {p})), lp))
        return summarize(costs)

    # -- place one object ----------------------------------------------------------------------------------
    def _ready(self, o: str, flags: frozenset[str]) -> bool:
        return self.d.verb is None or o in flags

    def _fixable(self, o: str, flags: frozenset[str]) -> bool:
        d = self.d
        return d.verb is not None and o in d.flaggable and o not in flags and bool(d.appliances)

    def _put(self, opened: frozenset[str]) -> Summary:
        """Holding a ready goal object: put it in a goal receptacle (``opened``: the open ones)."""
        found = self._put_memo.get(opened)
        if found is None:
            costs: dict[str, int] = {}
            if self.d.can_put:
                for r in self.d.targets:
                    _low(costs, self.d.rloc[r], self.closed(r, opened) + 1)
            found = self._put_memo[opened] = summarize(costs)
        return found

    def _fix(self, opened: frozenset[str]) -> Summary:
        """Holding a goal object that is not ready: heat/cool/clean it, then put it in a goal receptacle."""
        found = self._fix_memo.get(opened)
        if found is None:
            put = self._put(opened)
            found = self._fix_memo[opened] = summarize({a: 5 + after(put, a) for a in self.d.appliances})
        return found

    def _place(self, c: Config) -> Summary:
        held, pos, flags, opened = c
        d = self.d
        targets = self.target_set
        if any(pos[i] in targets and self._ready(o, flags) for i, o in enumerate(d.goal)):
            return WON
        open_targets = opened & targets
        if held is None:
            costs: dict[str, int] = {}
            for o, q in self._sources(pos):
                after_take = open_targets | {q} if q in targets else open_targets
                if self._ready(o, flags):
                    rest = self._put(after_take)
                elif self._fixable(o, flags):
                    rest = self._fix(after_take)
                else:
                    continue
                lq = d.rloc[q]
                _low(costs, lq, self.closed(q, opened) + 1 + after(rest, lq))
            return summarize(costs)
        if held not in d.goal:
            return self._drop(c)
        if self._ready(held, flags):
            return self._put(open_targets)
        best = self._fix(open_targets) if self._fixable(held, flags) else UNREACHABLE
        if d.can_put:  # put it in a goal receptacle as it is, and place another object
            i = d.goal.index(held)
            costs = {}
            for r in d.targets:
                lr = d.rloc[r]
                parked = self.config(None, pos[:i] + (r,) + pos[i + 1:], flags, opened | {r})
                _low(costs, lr, self.closed(r, opened) + 1 + after(self.summary(parked), lr))
            best = merge(best, summarize(costs))
        return best

    # -- place two objects in one receptacle ---------------------------------------------------------------
    def _two(self, c: Config) -> Summary:
        held, pos, _flags, opened = c
        d = self.d
        counts = {r: 0 for r in d.targets}
        for p in pos[:self.n_goal]:
            if p in counts:
                counts[p] += 1
        if any(n >= 2 for n in counts.values()):
            return WON
        if held is not None and held not in d.goal:
            return self._drop(c)
        if not d.can_put:
            return UNREACHABLE
        rloc, closed = d.rloc, self.closed
        sources = self._sources(pos)
        costs: dict[str, int] = {}
        for r in d.targets:
            lr, a = rloc[r], closed(r, opened)
            # the objects that can be fetched into r: (object, its receptacle, location, fetch cost from r)
            fetch = [(o, q, rloc[q], 2 * (rloc[q] != lr) + 2) for o, q in sources if q != r]
            if held is not None:  # put it in r, then fetch one more if r holds no goal object yet
                more = 0 if counts[r] == 1 else min((c + closed(q, opened) for _, q, _, c in fetch), default=INF)
                _low(costs, lr, a + 1 + more)
                continue
            for o, q, lq, _ in fetch:  # take o, put it in r, then fetch one more if needed (q opened by now)
                first = closed(q, opened) + 1 + (lq != lr) + a + 1
                more = 0 if counts[r] == 1 else min(
                    (c + (0 if q2 == q else closed(q2, opened)) for o2, q2, _, c in fetch if o2 != o), default=INF)
                _low(costs, lq, first + more)
        return summarize(costs)

    # -- look at an object under a lamp --------------------------------------------------------------------
    def _look(self, c: Config) -> Summary:
        held, pos, lit, opened = c
        d = self.d
        end: dict[str, int] = {}
        for i, m in enumerate(d.lamps):
            r = pos[self.n_goal + i]
            if r is not None and m in d.flaggable:
                _low(end, d.rloc[r], 0 if m in lit else 5)
        finish = summarize(end)
        if held is None:
            costs: dict[str, int] = {}
            for _o, q in self._sources(pos):
                lq = d.rloc[q]
                _low(costs, lq, self.closed(q, opened) + 1 + after(finish, lq))
            return summarize(costs)
        if held in d.goal:
            return finish
        return self._drop(c)

"""A pure-Python planner for the transition-modeling scorer (``--planner builtin``): it answers the question
the scorer asks Fast Downward — is there a plan? — for the small EAI domains, with eai-gym's core only.

It reads the files as Fast Downward's translator does (:mod:`eai_gym.logic.pddl_task`: a file Fast Downward
would not read has no plan), grounds the task (:mod:`eai_gym.logic.pddl_ground`), answers ``unsolved`` when
the goal is unreachable even with delete effects ignored, and otherwise runs a greedy best-first search
with the additive heuristic over the reachable states: a plan is ``solved``, an exhausted state space
``unsolved``, the timeout ``timeout``. Its agreement with Fast Downward on the published replies is
measured (docs/transition_modeling.md), never assumed.
"""

from __future__ import annotations

import heapq
import itertools
import time

from ..logic.pddl_ground import GroundTask, dnf, ground, holds, successor
from ..logic.pddl_task import PddlError, read_task


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _fact_dnf(c: object, n: int) -> list[list[int]]:
    """The relaxed ways to meet ``c``, each a list of facts: atom ``i`` true is fact ``i``, false is fact
    ``n + i`` (as in Fast Downward's finite-domain encoding, a false atom is a fact a relaxed plan must
    reach). A condition with too many alternatives is relaxed to none, which keeps dead-end detection sound."""
    d = dnf(c)
    return [[]] if d is None else [_bits(pos) + [n + b for b in _bits(neg)] for pos, neg in d]


class _Heuristic:
    """h_FF: the size of a relaxed plan built from h_add's best supporters (a Dijkstra-like sweep over the
    relaxed rules, true and false atoms both facts), its h_add value, and the relaxed plan's actions (the
    preferred ones); None: the goal is unreachable even in the relaxation (a dead end)."""

    def __init__(self, task: GroundTask) -> None:
        n = self.n = len(task.atoms)
        rules: list[tuple[list[int], list[int], int]] = []
        for k, a in enumerate(task.actions):
            pres = _fact_dnf(a.pre, n)
            effects = [([[]], a.add, a.delete)] + [(_fact_dnf(c, n), ad, de) for c, ad, de in a.conditional]
            for ways, add, delete in effects:
                facts = _bits(add) + [n + b for b in _bits(delete)]
                if facts:
                    rules += [(sorted(set(p + w)), facts, k) for p in pres for w in ways]
        self.goal = _fact_dnf(task.goal, n)
        self.rules = rules
        self.watch: dict[int, list[int]] = {}
        for i, (pre, _, _) in enumerate(rules):
            for b in pre:
                self.watch.setdefault(b, []).append(i)
        self.free = [i for i, (pre, _, _) in enumerate(rules) if not pre]
        self.everything = (1 << n) - 1

    def __call__(self, state: int, deadline: float) -> tuple[int, int, set[int]] | None:
        if time.monotonic() > deadline:
            raise TimeoutError
        rules, watch = self.rules, self.watch
        waiting = [len(pre) for pre, _, _ in rules]
        total = [0] * len(rules)
        cost: dict[int, int] = {}
        support: dict[int, int] = {}
        queue = [(0, b, -1) for b in _bits(state)] + [(0, self.n + b, -1) for b in _bits(self.everything & ~state)]
        for i in self.free:
            queue += [(1, b, i) for b in rules[i][1]]
        heapq.heapify(queue)
        while queue:
            c, b, via = heapq.heappop(queue)
            if b in cost:
                continue
            cost[b] = c
            support[b] = via
            for i in watch.get(b, ()):
                waiting[i] -= 1
                total[i] += c
                if waiting[i] == 0:
                    for nb in rules[i][1]:
                        if nb not in cost:
                            heapq.heappush(queue, (total[i] + 1, nb, i))
        ways = [w for w in self.goal if all(b in cost for b in w)]
        if not ways:
            return None
        h_add = min(sum(cost[b] for b in w) for w in ways)
        todo = list(next(w for w in ways if sum(cost[b] for b in w) == h_add))
        used: set[int] = set()
        seen: set[int] = set()
        while todo:
            b = todo.pop()
            if b in seen:
                continue
            seen.add(b)
            i = support[b]
            if i >= 0 and rules[i][2] not in used:
                used.add(rules[i][2])
                todo += rules[i][0]
            elif i >= 0:
                todo += rules[i][0]
        return len(used), h_add, used


def find_plan(task: GroundTask, deadline: float) -> list[str] | None:
    """A plan (action labels) or None when no state reachable from the initial state meets the goal.
    Raises TimeoutError past ``deadline`` (a ``time.monotonic()`` value).

    Lazy greedy best-first search with h_FF and preferred actions (the relaxed plan's), two queues taken
    in turn, the preferred one favoured after progress, as Fast Downward's lama-first does (without its
    landmarks): a state enters a queue with its parent's value and is evaluated when taken out; states the
    relaxation shows to be dead ends are not expanded. Complete: every reachable state is expanded at most
    once, so an exhausted search means no plan."""
    if holds(task.goal, task.init):
        return []
    h = _Heuristic(task)
    if h(task.init, deadline) is None:
        return None
    actions = [(a, dnf(a.pre)) for a in task.actions]
    parent: dict[int, tuple[int, str] | None] = {task.init: None}
    expanded: set[int] = set()
    tie = itertools.count()
    # four queues taken in turn: by h_FF, by h_FF among preferred successors, by h_add, by h_add among preferred
    queues: list[list] = [[(0, next(tie), task.init)], [], [], []]
    best, boost, turn = None, 0, 0
    while any(queues):
        if boost > 0 and (queues[1] or queues[3]):
            order = [1, 3] if turn % 2 else [3, 1]
        else:
            order = [(turn + i) % 4 for i in range(4)]
        pick = next(q for q in order if queues[q])
        turn += 1
        boost = max(boost - 1, 0)
        _, _, state = heapq.heappop(queues[pick])
        if state in expanded:
            continue
        expanded.add(state)
        result = h(state, deadline)
        if result is None:
            continue
        hv, hadd, preferred = result
        if best is None or hv < best:
            best, boost = hv, boost + 1000
        for k, (a, pre) in enumerate(actions):
            if pre is None:
                if not holds(a.pre, state):
                    continue
            elif not any(state & pos == pos and not state & neg for pos, neg in pre):
                continue
            nxt = successor(a, state)
            if nxt in expanded:
                continue
            if nxt not in parent:
                parent[nxt] = (state, a.name)
                if holds(task.goal, nxt):
                    return _path(parent, nxt)
                heapq.heappush(queues[0], (hv, next(tie), nxt))
                heapq.heappush(queues[2], (hadd, next(tie), nxt))
            if k in preferred:
                heapq.heappush(queues[1], (hv, next(tie), nxt))
                heapq.heappush(queues[3], (hadd, next(tie), nxt))
    return None


def _path(parent: dict[int, tuple[int, str] | None], state: int) -> list[str]:
    plan = []
    while parent[state] is not None:
        state, label = parent[state]  # type: ignore[misc]
        plan.append(label)
    return plan[::-1]


class BuiltinPlanner:
    """The :class:`eai_gym.scoring.planner.Planner` interface over :func:`find_plan`."""

    name = "builtin"

    def version(self) -> str:
        return "eai-gym builtin planner (lazy greedy best-first search, h_FF, preferred actions)"

    def solve(self, domain: str, problem: str, timeout: float) -> dict:
        start = time.monotonic()
        try:
            task = ground(read_task(domain, problem), start + timeout)
            plan = find_plan(task, start + timeout)
        except RecursionError:
            return {"verdict": "unsolved", "seconds": round(time.monotonic() - start, 3),
                    "message": "cannot read the task: formulas nested too deeply"}
        except PddlError as e:
            return {"verdict": "unsolved", "seconds": round(time.monotonic() - start, 3),
                    "message": f"cannot read the task: {e}"}
        except TimeoutError:
            return {"verdict": "timeout", "seconds": round(time.monotonic() - start, 3),
                    "message": f"no answer within {timeout:g} s"}
        seconds = round(time.monotonic() - start, 3)
        if plan is None:
            return {"verdict": "unsolved", "seconds": seconds, "message": "no plan exists"}
        return {"verdict": "solved", "seconds": seconds, "message": f"plan of {len(plan)} steps"}

"""A pure-Python planner for the transition-modeling scorer (``--planner builtin``): it answers the question
the scorer asks Fast Downward — is there a plan? — for the small EAI domains, with eai-gym's core only.

It reads the files as Fast Downward's translator does (:mod:`eai_gym.logic.pddl_task`: a file Fast Downward
would not read has no plan), grounds the task (:mod:`eai_gym.logic.pddl_ground`), answers ``unsolved`` when
the goal is unreachable even in the delete relaxation, and otherwise runs a lazy greedy best-first search
(h_FF and preferred actions, as Fast Downward's lama-first without its landmarks) over the reachable
states: a plan is ``solved``, an exhausted state space ``unsolved``, the timeout ``timeout``. Its
agreement with Fast Downward on the published replies is measured (benchmarks/bench_builtin_planner.py,
docs/transition_modeling.md), never assumed: every VirtualHome verdict; on BEHAVIOR, some state spaces
Fast Downward's landmark pruning keeps small are too large for it within the timeout.
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


class _Heuristic:
    """h_FF over an AND/OR graph of the grounded conditions: atom ``i`` true is fact ``i``, false is fact
    ``n + i`` (as in Fast Downward's finite-domain encoding, a relaxed plan must reach a false atom too).
    A Dijkstra-like sweep gives every node its h_add cost and best supporter; the relaxed plan is read back
    from the goal. A call gives (h_FF, h_add, the relaxed plan's actions = the preferred ones), or None when
    the goal is unreachable even in the relaxation (a dead end)."""

    def __init__(self, task: GroundTask) -> None:
        self.n = n = len(task.atoms)
        self.kind: list[int] = [0] * (2 * n)  # 0 fact, 1 or, 2 and
        self.children: list[list[int]] = [[] for _ in range(2 * n)]
        self.memo: dict[object, int | None] = {}
        self.rules: list[tuple[int, list[int], int]] = []  # (condition node, facts it makes true, action)
        for k, a in enumerate(task.actions):
            pre = self.node(a.pre)
            if pre is None:
                continue
            effects = [(pre, a.add, a.delete)]
            effects += [(self.node(("and", (a.pre, c))), ad, de) for c, ad, de in a.conditional]
            for node, add, delete in effects:
                facts = _bits(add) + [n + b for b in _bits(delete)]
                if node is not None and facts:
                    self.rules.append((node, facts, k))
        self.goal = self.node(task.goal)
        self.parents: list[list[int]] = [[] for _ in self.kind]
        for x, kids in enumerate(self.children):
            for c in kids:
                self.parents[c].append(x)
        self.by_node: dict[int, list[int]] = {}
        for i, (node, _, _) in enumerate(self.rules):
            self.by_node.setdefault(node, []).append(i)
        self.empty_ands = [x for x, k in enumerate(self.kind) if k == 2 and not self.children[x]]
        self.everything = (1 << n) - 1

    def node(self, c: object) -> int | None:
        """The graph node of a grounded condition (None: never true)."""
        if c is False:
            return None
        if c is not True and c[0] == "lit":  # type: ignore[index]
            return c[1] if c[2] else self.n + c[1]  # type: ignore[index]
        if c in self.memo:
            return self.memo[c]
        if c is True:
            kind, kids = 2, []
        else:
            parts = [self.node(p) for p in c[1]]  # type: ignore[index]
            kind = 2 if c[0] == "and" else 1  # type: ignore[index]
            if kind == 2 and None in parts:
                self.memo[c] = None
                return None
            kids = sorted({p for p in parts if p is not None})
            if kind == 1 and not kids:
                self.memo[c] = None
                return None
        self.kind.append(kind)
        self.children.append(kids)
        self.memo[c] = len(self.kind) - 1
        return len(self.kind) - 1

    def __call__(self, state: int, deadline: float) -> tuple[int, int, set[int]] | None:
        if time.monotonic() > deadline:
            raise TimeoutError
        if self.goal is None:
            return None
        kind, children, parents, rules, by_node = self.kind, self.children, self.parents, self.rules, self.by_node
        waiting = [len(k) for k in children]
        total = [0] * len(kind)
        cost: dict[int, int] = {}
        support: dict[int, int] = {}
        queue = [(0, b, -1) for b in _bits(state)] + [(0, self.n + b, -1) for b in _bits(self.everything & ~state)]
        queue += [(0, x, -1) for x in self.empty_ands]
        heapq.heapify(queue)
        while queue:
            c, x, via = heapq.heappop(queue)
            if x in cost:
                continue
            cost[x] = c
            support[x] = via
            for p in parents[x]:
                if p in cost:
                    continue
                if kind[p] == 1:
                    heapq.heappush(queue, (c, p, x))
                else:
                    waiting[p] -= 1
                    total[p] += c
                    if waiting[p] == 0:
                        heapq.heappush(queue, (total[p], p, -1))
            for i in by_node.get(x, ()):
                for f in rules[i][1]:
                    if f not in cost:
                        heapq.heappush(queue, (c + 1, f, i))
        if self.goal not in cost:
            return None
        used: set[int] = set()
        seen: set[int] = set()
        todo = [self.goal]
        while todo:
            x = todo.pop()
            if x in seen:
                continue
            seen.add(x)
            if kind[x] == 0:
                i = support[x]
                if i >= 0:
                    used.add(rules[i][2])
                    todo.append(rules[i][0])
            elif kind[x] == 1:
                todo.append(support[x])
            else:
                todo += children[x]
        return len(used), cost[self.goal], used


def find_plan(task: GroundTask, deadline: float) -> list[str] | None:
    """A plan (action labels) or None when no state reachable from the initial state meets the goal.
    Raises TimeoutError past ``deadline`` (a ``time.monotonic()`` value).

    Lazy greedy best-first search with h_FF and h_add, each with a queue of all successors and one of the
    preferred actions' (the relaxed plan's), taken in turn, the preferred ones favoured after progress (as
    Fast Downward's lama-first, without its landmarks): a state enters a queue with its parent's value and
    is evaluated when taken out; states the relaxation shows to be dead ends are not expanded. Complete: every reachable state is expanded at most
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
    """The :class:`eai_gym.eai.planner.Planner` interface over :func:`find_plan`."""

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

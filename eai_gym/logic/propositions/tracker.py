"""Per-step evaluation of an episode's propositions: the PARTNR measures, incrementally.

One :class:`PropositionTracker` plays the part of habitat-llm's AutoEvalPropositionTracker,
TaskConstraintValidation, TaskPercentComplete, TaskStateSuccess and TaskEvaluationLog together:
``reset(facts)`` evaluates the state right after reset (step 0), ``update(facts)`` each later
step, ``final_update()`` the extra update the reference's runner makes when an episode ends.

Work per step is proportional to the number of propositions, dependencies and constraints, never
to the length of the history: dependency conditions read per-proposition summaries of the past
(last value, ever satisfied, ever undone), and constraints are recomputed only when a first
satisfaction changes (TerminalSatisfaction, which reads the last state, every step). Facts that
offer ``evaluation_reads(function_name, args)`` (a function giving everything of the state the
predicate reads, as a value) have each proposition's answer kept while its key is unchanged, so a tick that moves nothing a
proposition names does not evaluate it again.

Protocols (docs/rearrange.md has a worked example of each difference):

``partnr``
    the reference at partnr-planner ddfff19: a dependency is judged on past states only (a
    proposition gated by ``while_satisfied`` is queried one step after its dependency holds);
    number-unrolling appends the loop counter to the dependencies instead of the copy's index.
``fixed`` (default)
    dependencies are judged on the states up to and including the current one (so propositions
    are evaluated in dependency order); unrolled copies are gated like their original.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from . import predicates_fixed, predicates_partnr
from .constraints import Constraint
from .facts import Facts, TruthFacts
from .results import PropositionResult
from .spec import PROTOCOLS, TRACKED_ARGS, EvaluationProposition, EvaluationPropositionDependency, EvaluationSpec


@dataclass(frozen=True, slots=True)
class StepMetrics:
    """The per-step measures (after reset, after each update)."""

    task_percent_complete: float
    task_state_success: float
    proposition_satisfied_at: tuple[int, ...]

    def to_json(self) -> dict:
        return {"task_percent_complete": self.task_percent_complete, "task_state_success": self.task_state_success,
                "proposition_satisfied_at": list(self.proposition_satisfied_at)}


def unroll_propositions(props: list[EvaluationProposition], deps: list[EvaluationPropositionDependency],
                        constraints: list[Constraint], protocol: str) -> list[int]:
    """Copy each proposition with ``number=n > 1`` n-1 times, with number 1..n-1, so that percent
    complete gives partial credit; update dependencies and constraints in place. Returns the
    original index of every (unrolled) proposition."""
    origin = list(range(len(props)))
    for k in range(len(props)):
        prop = props[k]
        if "number" not in prop.args or isinstance(prop.args["number"], list):
            continue  # is_clustered's per-group numbers are not unrolled (as in the reference)
        for i in range(1, prop.args["number"]):
            copy = deepcopy(prop)
            copy.args["number"] = i
            props.append(copy)
            origin.append(origin[k])
            new = len(props) - 1
            for j in range(len(constraints)):  # constraints created here are visited from the next copy on
                constraints.extend(constraints[j].on_unroll(len(props), k, new))
            for dep in deps:
                if k in dep.proposition_indices:
                    dep.proposition_indices.append(i if protocol == "partnr" else new)
    for c in constraints:
        c.finalize()
    return origin


@dataclass(frozen=True)
class EpisodeTemplate:
    """What every episode of one spec starts from: the unrolled propositions, dependencies and constraints,
    each proposition's evaluator, default result arguments and gating dependencies, and (``fixed``) the
    evaluation order. Shared by the trackers of the spec, which only read it."""

    propositions: list[EvaluationProposition]
    dependencies: list[EvaluationPropositionDependency]
    constraints: list[Constraint]
    origin: list[int]
    defaults: list[dict[str, str]]
    calls: list[Any]
    gates: list[list[int]]
    order: list[int] | None


#: id of a spec -> (the spec, protocol -> its template); a spec is a value, so its template is built once
_TEMPLATES: dict[int, tuple[EvaluationSpec, dict[str, EpisodeTemplate]]] = {}


def episode_template(spec: EvaluationSpec, protocol: str) -> EpisodeTemplate:
    """The spec's :class:`EpisodeTemplate` under ``protocol``, built the first time it is asked for."""
    hit = _TEMPLATES.get(id(spec))
    if hit is None or hit[0] is not spec:
        if len(_TEMPLATES) >= 512:
            _TEMPLATES.clear()
        hit = _TEMPLATES[id(spec)] = (spec, {})
    t = hit[1].get(protocol)
    if t is None:
        t = hit[1][protocol] = _build_template(spec, protocol)
    return t


def _build_template(spec: EvaluationSpec, protocol: str) -> EpisodeTemplate:
    propositions = deepcopy(spec.propositions)
    dependencies = deepcopy(spec.dependencies)
    constraints = [c.copy_for(protocol) for c in spec.constraints]
    origin = unroll_propositions(propositions, dependencies, constraints, protocol)
    n = len(propositions)
    evaluate = predicates_partnr.bind if protocol == "partnr" else predicates_fixed.bind
    gates: list[list[int]] = [[] for _ in range(n)]  # dependency indices gating each proposition
    for j, dep in enumerate(dependencies):
        for i in dep.proposition_indices:
            if 0 <= i < n and j not in gates[i]:
                gates[i].append(j)
    order = None
    if protocol == "fixed":
        import networkx as nx  # (imported where used: listing episodes does not pay for it)

        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from((q, p) for d in dependencies for q in d.depends_on for p in d.proposition_indices)
        order = list(nx.lexicographical_topological_sort(g))
    return EpisodeTemplate(propositions, dependencies, constraints, origin,
                           [{k: "" for k in p.args if k in TRACKED_ARGS} for p in propositions],
                           [evaluate(p) for p in propositions], gates, order)


class PropositionTracker:
    """Tracks one episode's evaluation spec over a sequence of :class:`~.facts.Facts`."""

    def __init__(self, spec: EvaluationSpec, protocol: str = "fixed") -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}; expected one of {PROTOCOLS}")
        self.spec = spec
        self.protocol = protocol
        self._last_facts: Any = None
        self._started = False
        self.propositions: list[EvaluationProposition] = []

    # -- lifecycle -------------------------------------------------------------------------
    def reset(self, facts: Facts | TruthFacts) -> StepMetrics:
        """Start an episode; ``facts`` describe the state right after reset (step 0)."""
        t = episode_template(self.spec, self.protocol)
        self.propositions, self.dependencies, self.constraints, self.origin = t.propositions, t.dependencies, \
            t.constraints, t.origin
        self._started = True
        n = len(self.propositions)
        self.satisfied_at = [-1] * n
        self.state_sequence: list[list[PropositionResult]] = []
        self.constraint_satisfaction: list[list[bool]] = [[True] * n for _ in self.constraints]
        self._defaults, self._calls, self._gates, self._order = t.defaults, t.calls, t.gates, t.order
        self._percent = 0.0
        self._kept: list[tuple[Any, Any, PropositionResult] | None] = [None] * n  # (facts, what it read, answer)
        self._readers: list[tuple[Any, Any] | None] = [None] * n  # (facts, its evaluation_reads function)
        # summaries of the past, per proposition
        self._last = [False] * n
        self._ever = [False] * n
        self._undone = [False] * n  # satisfied at some step and unsatisfied at a later one
        self.ever_checked = [False] * n  # evaluated (not gated by a dependency) at some step
        return self.update(facts)

    def update(self, facts: Facts | TruthFacts) -> StepMetrics:
        """Evaluate one more step."""
        if not self._started:
            raise RuntimeError("call reset() before update()")
        self._last_facts = facts
        state = self._evaluate_partnr(facts) if self.protocol == "partnr" else self._evaluate_fixed(facts)
        t = len(self.state_sequence)
        changed = t == 0
        for i, res in enumerate(state):
            if res.is_satisfied and self.satisfied_at[i] == -1:
                self.satisfied_at[i] = t
                changed = True
        self.state_sequence.append(state)
        for i, res in enumerate(state):
            now = bool(res.is_satisfied)
            self._undone[i] = self._undone[i] or (self._ever[i] and not now)
            self._ever[i] = self._ever[i] or now
            self._last[i] = now
        for row, c in enumerate(self.constraints):
            if changed or c.reads_last_state:
                new = c.check(self.state_sequence, self.satisfied_at)
                changed = changed or new != self.constraint_satisfaction[row]
                self.constraint_satisfaction[row] = new
        if changed:
            self._percent = self._compute_percent_complete()
        return self.metrics()

    def final_update(self) -> StepMetrics:
        """The reference runner's extra update when an episode ends: the last state once more."""
        if not self._started:
            raise RuntimeError("call reset() before final_update()")
        return self.update(self._last_facts)

    # -- evaluation --------------------------------------------------------------------------
    def _result(self, i: int, facts: Facts | TruthFacts) -> PropositionResult:
        self.ever_checked[i] = True
        if isinstance(facts, TruthFacts):
            return facts.result(self.origin[i])
        reader = self._readers[i]
        if reader is None or reader[0] is not facts:
            reads_of = getattr(facts, "evaluation_reads", None)
            if reads_of is None:
                return self._calls[i](facts)
            p = self.propositions[i]
            reader = self._readers[i] = (facts, reads_of(p.function_name, p.args))
        if reader[1] is None:
            return self._calls[i](facts)
        key = reader[1]()
        kept = self._kept[i]
        if kept is not None and kept[0] is facts and kept[1] == key:
            res = kept[2]  # nothing the predicate reads changed: its answer is the same
        else:
            res = self._calls[i](facts)
            self._kept[i] = (facts, key, res)
        return PropositionResult(res.is_satisfied, dict(res.info))

    def _default(self, i: int) -> PropositionResult:
        return PropositionResult(False, dict(self._defaults[i]))

    def _evaluate_partnr(self, facts: Facts | TruthFacts) -> list[PropositionResult]:
        past = len(self.state_sequence)
        closed: set[int] = set()
        for dep in self.dependencies:
            mode = all if dep.dependency_mode == "all" else any
            rel = dep.relation_type
            if rel == "while_satisfied":
                ok = mode(past > 0 and self._last[p] for p in dep.depends_on)
            elif rel == "after_satisfied":
                ok = mode(self._ever[p] for p in dep.depends_on)
            elif rel == "after_unsatisfied":
                ok = mode(self._undone[p] for p in dep.depends_on)
            else:
                ok = mode(not self._ever[p] for p in dep.depends_on)
            if not ok:
                closed.update(dep.proposition_indices)
        return [self._default(i) if i in closed else self._result(i, facts) for i in range(len(self.propositions))]

    def _evaluate_fixed(self, facts: Facts | TruthFacts) -> list[PropositionResult]:
        state: list[Any] = [None] * len(self.propositions)
        opened: dict[int, bool] = {}
        for i in self._order:
            gated = False
            for j in self._gates[i]:
                if j not in opened:
                    opened[j] = self._dependency_open_now(self.dependencies[j], state)
                if not opened[j]:
                    gated = True
                    break
            state[i] = self._default(i) if gated else self._result(i, facts)
        return state

    def _dependency_open_now(self, dep: EvaluationPropositionDependency, state: list) -> bool:
        mode = all if dep.dependency_mode == "all" else any
        now = [bool(state[p].is_satisfied) for p in dep.depends_on]
        rel = dep.relation_type
        if rel == "while_satisfied":
            return mode(now)
        if rel == "after_satisfied":
            return mode(self._ever[p] or c for p, c in zip(dep.depends_on, now))
        if rel == "after_unsatisfied":
            return mode(self._undone[p] or (self._ever[p] and not c) for p, c in zip(dep.depends_on, now))
        return mode(not (self._ever[p] or c) for p, c in zip(dep.depends_on, now))

    # -- measures ----------------------------------------------------------------------------
    def _compute_percent_complete(self) -> float:
        """Share of (unrolled) propositions satisfied at some step and valid under every constraint."""
        n = len(self.satisfied_at)
        if n == 0:
            return 0.0
        valid = [all(col) for col in zip(*self.constraint_satisfaction)] if self.constraints else [True] * n
        return sum(1 for i in range(n) if self.satisfied_at[i] != -1 and valid[i]) / n

    @property
    def task_percent_complete(self) -> float:
        return self._percent

    @property
    def task_state_success(self) -> float:
        return float(self.task_percent_complete == 1.0)

    def metrics(self) -> StepMetrics:
        pc = self.task_percent_complete
        return StepMetrics(pc, float(pc == 1.0), tuple(self.satisfied_at))

    def proposition_records(self) -> list[dict]:
        """Every (unrolled) proposition now: id, predicate, arguments as text, whether it holds at the last
        step, the propositions it waits on (its dependencies) and whether every constraint accepts it."""
        out = []
        for i, p in enumerate(self.propositions):
            waits = sorted({q for j in self._gates[i] for q in self.dependencies[j].depends_on})
            args = ", ".join(f"{k}={v}" for k, v in p.args.items())
            out.append({"id": f"p{i}", "kind": p.function_name, "text": f"{p.function_name}({args})",
                        "holds": self._last[i], "depends_on": [f"p{q}" for q in waits],
                        "constraints_valid": all(row[i] for row in self.constraint_satisfaction),
                        "satisfied_at": self.satisfied_at[i], "spec_index": self.origin[i]})
        return out

    def evaluation_log(self) -> dict:
        """TaskEvaluationLog, as JSON-ready data."""
        return {
            "propositions": [p.to_json() for p in self.propositions],
            "dependencies": [d.to_json() for d in self.dependencies],
            "constraints": [c.to_json() for c in self.constraints],
            "proposition_satisfied_at": list(self.satisfied_at),
            "constraint_satisfaction": [list(row) for row in self.constraint_satisfaction],
            "state_sequence": [[r.to_json() for r in state] for state in self.state_sequence],
        }

    def explain(self) -> str:
        """Why the episode is not (yet) a success, in plain language ("" on success)."""
        from .explain import explain_failure

        return explain_failure(self)

"""Constraints over when and how propositions were satisfied.

Each constraint returns one bool per (unrolled) proposition, False where it invalidates the
proposition; the tracker stacks them into the constraint-satisfaction matrix. Protocol
differences (docs/rearrange.md):

* ``partnr`` compares satisfying argument values as the reference does: any two iterables
  "match" when they share an element, so two handle strings match when they share a character;
  an ``*args_i`` argument name (``is_clustered``) always raises ValueError; a temporal copy made by
  number-unrolling is not required to precede its original's successors.
* ``fixed`` compares handles exactly (a list matches a handle it contains, two lists match when
  they share a handle), resolves ``*args_i`` to the i-th handle group, and recomputes the
  temporal ancestors after unrolling.
"""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy
from typing import Any

from .results import PropositionResult, jsonable

State = list[PropositionResult]


class Constraint:
    """Base class. Constructed with PARTNR's keyword arguments (``TemporalConstraint(dag_edges=[(0, 1)])``);
    ``protocol`` selects the reference's or the fixed semantics."""

    type_name = ""
    #: True if the result can change without any proposition's first satisfaction changing
    reads_last_state = False

    def __init__(self, args: dict, protocol: str) -> None:
        self.args = deepcopy(args)  # the constructor arguments, as serialised by the reference
        self.protocol = protocol

    def copy_for(self, protocol: str) -> "Constraint":
        """A fresh constraint with the same constructor arguments (unrolling mutates constraints)."""
        return type(self)(**deepcopy(self.args), protocol=protocol)

    def on_unroll(self, n_props: int, idx_orig: int, idx_new: int) -> list["Constraint"]:
        """Proposition ``idx_orig`` was copied to ``idx_new`` with a lower ``number``: update
        this constraint, and return any new constraints."""
        return []

    def finalize(self) -> None:
        """Called once unrolling is done."""

    def check(self, states: list[State], satisfied_at: list[int]) -> list[bool]:
        raise NotImplementedError

    def to_json(self) -> dict:
        return {"type": self.type_name, "args": jsonable(self.args)}


class TemporalConstraint(Constraint):
    """(a, b) in ``dag_edges``: proposition a must be first satisfied strictly before b."""

    type_name = "TemporalConstraint"

    def __init__(self, dag_edges: list, n_propositions: int | None = None, *, protocol: str = "fixed") -> None:
        super().__init__({"dag_edges": dag_edges, "n_propositions": n_propositions}, protocol)
        import networkx as nx  # (imported where used: listing episodes does not pay for it)

        self.dag = nx.DiGraph([tuple(e) for e in dag_edges])
        self.ancestors = {node: nx.ancestors(self.dag, node) for node in self.dag}

    def on_unroll(self, n_props: int, idx_orig: int, idx_new: int) -> list[Constraint]:
        if idx_orig not in self.dag:
            return []
        for succ in list(self.dag.successors(idx_orig)):
            self.dag.add_edge(idx_new, succ)
        for pred in list(self.dag.predecessors(idx_orig)):
            self.dag.add_edge(pred, idx_new)
        # partnr: the copy inherits the original's ancestors, and its successors' ancestor sets
        # (computed at construction) do not learn about it; fixed recomputes them in finalize()
        self.ancestors[idx_new] = set(self.ancestors[idx_orig])
        return []

    def finalize(self) -> None:
        if self.protocol == "fixed":
            import networkx as nx

            self.ancestors = {node: nx.ancestors(self.dag, node) for node in self.dag}

    def check(self, states: list[State], satisfied_at: list[int]) -> list[bool]:
        valid = [True] * len(satisfied_at)
        for node, ancestors in self.ancestors.items():
            if not ancestors:
                continue
            times = [satisfied_at[a] for a in ancestors]
            if -1 in times or satisfied_at[node] <= max(times):
                valid[node] = False
        return valid

    def to_json(self) -> dict:
        return {**super().to_json(), "dag_edges_now": sorted([list(e) for e in self.dag.edges]),
                "dependencies_now": {str(k): sorted(v) for k, v in sorted(self.ancestors.items())}}


class _ArgConstraint(Constraint):
    def __init__(self, proposition_indices: list[int], arg_names: list[str], n_propositions: int | None = None,
                 *, protocol: str = "fixed") -> None:
        super().__init__({"proposition_indices": proposition_indices, "arg_names": arg_names,
                          "n_propositions": n_propositions}, protocol)
        self.proposition_indices = list(proposition_indices)
        self.arg_names = dict(zip(self.proposition_indices, arg_names))

    def check(self, states: list[State], satisfied_at: list[int]) -> list[bool]:
        """Walk the satisfied propositions in order of first satisfaction (ties in list order); the
        first one's value is the pivot. Values are read lazily, so errors come in the reference's order."""
        valid = [True] * len(satisfied_at)
        done = [(i, satisfied_at[i], self.arg_names[i]) for i in self.proposition_indices if satisfied_at[i] != -1]
        if len(done) < 2:
            return valid
        done.sort(key=lambda x: x[1])
        first, at, name = done[0]
        pivot = self._value(states, first, at, name)
        self._judge(pivot, ((idx, lambda i=idx, a=at, n=name: self._value(states, i, a, n)) for idx, at, name in done[1:]),
                    valid)
        return valid

    def _judge(self, pivot: Any, later: Iterable, valid: list[bool]) -> None:
        raise NotImplementedError

    def _value(self, states: list[State], idx: int, at: int, name: str) -> Any:
        info = states[at][idx].info
        star = name.startswith("*args")
        if self.protocol == "partnr":
            if (star and "*args" not in info) or name not in info:
                raise ValueError(f"Arg `{name}` missing from proposition {idx} info dict.")
            return info["*args"][int(name.split("_")[-1])] if star else info[name]
        if star:
            groups = info.get("*args")
            k = int(name.rsplit("_", 1)[-1])
            if not isinstance(groups, (list, tuple)) or k >= len(groups):
                raise ValueError(f"proposition {idx} was satisfied without a value for {name!r} (info {info!r})")
            return groups[k]
        if name not in info:
            raise ValueError(f"proposition {idx} was satisfied without a value for {name!r} (info {info!r})")
        return info[name]

    def _match(self, v1: Any, v2: Any) -> bool:
        if self.protocol == "partnr":
            it1, it2 = isinstance(v1, Iterable), isinstance(v2, Iterable)
            if it1 and it2:
                return bool(len(set(v1) & set(v2)))
            if it1:
                return v2 in v1
            if it2:
                return v1 in v2
            return v1 == v2
        return bool(_atoms(v1) & _atoms(v2))

    def to_json(self) -> dict:
        return {**super().to_json(), "proposition_indices_now": list(self.proposition_indices),
                "arg_names_now": {str(k): v for k, v in self.arg_names.items()}}


def _atoms(v: Any) -> set:
    if isinstance(v, (list, tuple, set, frozenset)):
        return {x if not isinstance(x, (list, dict)) else repr(x) for x in v}
    return {v if not isinstance(v, dict) else repr(v)}


class SameArgConstraint(_ArgConstraint):
    """The first-satisfied proposition's argument value is the pivot; later ones must match it."""

    type_name = "SameArgConstraint"

    def on_unroll(self, n_props: int, idx_orig: int, idx_new: int) -> list[Constraint]:
        if idx_orig in self.proposition_indices:
            self.proposition_indices.append(idx_new)
            self.arg_names[idx_new] = self.arg_names[idx_orig]
        return []

    def _judge(self, pivot: Any, later: Iterable, valid: list[bool]) -> None:
        for idx, value in later:
            if not self._match(value(), pivot):
                valid[idx] = False


class DifferentArgConstraint(_ArgConstraint):
    """Each proposition's argument value must differ from every earlier-satisfied one's."""

    type_name = "DifferentArgConstraint"

    def on_unroll(self, n_props: int, idx_orig: int, idx_new: int) -> list[Constraint]:
        if idx_orig not in self.proposition_indices:
            return []
        indices = [idx_new] + [i for i in self.proposition_indices if i != idx_orig]
        names = [self.arg_names[idx_orig]] + [self.arg_names[i] for i in self.proposition_indices if i != idx_orig]
        return [DifferentArgConstraint(indices, names, n_props, protocol=self.protocol)]

    def _judge(self, pivot: Any, later: Iterable, valid: list[bool]) -> None:
        # partnr keeps the values in a set (unhashable values raise TypeError, as in the reference)
        seen: Any = {pivot} if self.protocol == "partnr" else [pivot]
        for idx, get in later:
            value = get()
            if any(self._match(value, v) for v in seen):
                valid[idx] = False
            seen.add(value) if self.protocol == "partnr" else seen.append(value)


class TerminalSatisfactionConstraint(Constraint):
    """A satisfied proposition must also hold in the last state."""

    type_name = "TerminalSatisfactionConstraint"
    reads_last_state = True

    def __init__(self, proposition_indices: list[int], n_propositions: int | None = None, *,
                 protocol: str = "fixed") -> None:
        super().__init__({"proposition_indices": proposition_indices, "n_propositions": n_propositions}, protocol)
        self.proposition_indices = list(proposition_indices)

    def on_unroll(self, n_props: int, idx_orig: int, idx_new: int) -> list[Constraint]:
        if idx_orig in self.proposition_indices:
            self.proposition_indices.append(idx_new)
        return []

    def check(self, states: list[State], satisfied_at: list[int]) -> list[bool]:
        valid = [True] * len(satisfied_at)
        last = states[-1]
        for idx in self.proposition_indices:
            if satisfied_at[idx] != -1:
                valid[idx] = bool(last[idx].is_satisfied)
        return valid

    def to_json(self) -> dict:
        return {**super().to_json(), "proposition_indices_now": list(self.proposition_indices)}


CONSTRAINT_CLASSES = {c.type_name: c for c in (TemporalConstraint, SameArgConstraint, DifferentArgConstraint,
                                               TerminalSatisfactionConstraint)}


"""The evaluation spec of a collaboration episode: propositions, dependencies and constraints.

Loaded from PARTNR's episode JSON fields (``evaluation_propositions``,
``evaluation_proposition_dependencies``, ``evaluation_constraints``, ``object_states``) or from the
shorter names of the fact-replay case format (``propositions``, ``dependencies``, ``constraints``).
Malformed specs raise :class:`SpecError` naming the offending entry. The structural checks
(indices, relation types, a cyclic temporal graph, unknown predicates or constraint types) apply
to both protocols; the ``fixed`` protocol also checks argument names and types, which the
reference only discovers (or ignores) while evaluating.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any, Mapping

from ...core.safe_repr import bounded_repr
from .constraints import CONSTRAINT_CLASSES, Constraint

PROTOCOLS = ("fixed", "partnr")

#: predicate name -> (the handle-list argument names, in call order; the is_same flag's name or None)
PREDICATES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "is_on_top": (("object_handles", "receptacle_handles"), "is_same_receptacle"),
    "is_inside": (("object_handles", "receptacle_handles"), "is_same_receptacle"),
    "is_in_room": (("object_handles", "room_ids"), "is_same_room"),
    "is_on_floor": (("object_handles",), None),
    "is_next_to": (("entity_handles_a", "entity_handles_b"), "is_same_b"),
    "is_clustered": (("*args",), None),
    "is_clean": (("object_handles",), None),
    "is_dirty": (("object_handles",), None),
    "is_filled": (("object_handles",), None),
    "is_empty": (("object_handles",), None),
    "is_powered_on": (("object_handles",), None),
    "is_powered_off": (("object_handles",), None),
}
#: object-state predicates: name -> (the state it reads, negated)
STATE_PREDICATES: dict[str, tuple[str, bool]] = {
    "is_clean": ("is_clean", False), "is_dirty": ("is_clean", True),
    "is_filled": ("is_filled", False), "is_empty": ("is_filled", True),
    "is_powered_on": ("is_powered_on", False), "is_powered_off": ("is_powered_on", True),
}
#: the argument keys whose satisfying value a PropositionResult reports (AutoEvalPropositionTracker)
TRACKED_ARGS = ("object_handles", "receptacle_handles", "entity_handles_a", "entity_handles_b", "room_ids", "*args")
#: the largest ``number`` a proposition may have: it is unrolled into that many propositions (PARTNR's episodes
#: ask for a few)
MAX_NUMBER = 1000
RELATION_TYPES = ("while_satisfied", "after_satisfied", "after_unsatisfied", "before_satisfied")
DEPENDENCY_MODES = ("all", "any")
CONSTRAINT_TYPES = ("TemporalConstraint", "SameArgConstraint", "DifferentArgConstraint",
                    "TerminalSatisfactionConstraint")


class SpecError(ValueError):
    """A malformed evaluation spec (bad index, cyclic DAG, unknown predicate, ...)."""


@dataclass
class EvaluationProposition:
    """A predicate applied to arguments; ``args`` are the predicate's keyword arguments
    (``"*args"`` holds the positional handle groups of ``is_clustered``)."""

    function_name: str
    args: dict[str, Any]

    def to_json(self) -> dict:
        return {"function_name": self.function_name, "args": deepcopy(self.args)}


@dataclass
class EvaluationPropositionDependency:
    """``proposition_indices`` are only queried while the relation to ``depends_on`` holds."""

    proposition_indices: list[int]
    depends_on: list[int]
    relation_type: str
    dependency_mode: str = "all"

    def to_json(self) -> dict:
        return {"proposition_indices": list(self.proposition_indices), "depends_on": list(self.depends_on),
                "relation_type": self.relation_type, "dependency_mode": self.dependency_mode}


@dataclass
class EvaluationSpec:
    propositions: list[EvaluationProposition]
    dependencies: list[EvaluationPropositionDependency] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    #: initial object states, ``{state_name: {handle: value}}``
    object_states: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], protocol: str = "fixed") -> "EvaluationSpec":
        """Build and validate a spec from an episode or case dict (see the module docstring)."""
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}; expected one of {PROTOCOLS}")
        if not isinstance(data, Mapping):
            raise SpecError(f"an evaluation spec must be a JSON object, got {type(data).__name__}")
        props = _field(data, "evaluation_propositions", "propositions", required=True)
        deps = _field(data, "evaluation_proposition_dependencies", "dependencies")
        cons = _field(data, "evaluation_constraints", "constraints")
        states = data.get("object_states") or {}
        spec = cls([_proposition(i, p) for i, p in enumerate(props)],
                   [_dependency(i, d) for i, d in enumerate(deps)],
                   [_constraint(i, c, protocol) for i, c in enumerate(cons)],
                   _object_states(states))
        spec.validate(protocol)
        return spec

    def to_json(self) -> dict:
        """The spec under PARTNR's episode field names."""
        return {"evaluation_propositions": [p.to_json() for p in self.propositions],
                "evaluation_proposition_dependencies": [d.to_json() for d in self.dependencies],
                "evaluation_constraints": [{"type": c.type_name, "args": deepcopy(c.args)} for c in self.constraints],
                "object_states": deepcopy(self.object_states)}

    def validate(self, protocol: str = "fixed") -> None:
        n = len(self.propositions)
        for i, p in enumerate(self.propositions):
            _check_proposition(i, p, protocol)
        for i, d in enumerate(self.dependencies):
            where = f"evaluation_proposition_dependencies[{i}]"
            _check_indices(where, "proposition_indices", d.proposition_indices, n)
            _check_indices(where, "depends_on", d.depends_on, n)
            if d.relation_type not in RELATION_TYPES:
                raise SpecError(f"{where}: unknown relation_type {bounded_repr(d.relation_type)}; expected one "
                                f"of {', '.join(RELATION_TYPES)}")
            if d.dependency_mode not in DEPENDENCY_MODES:
                raise SpecError(f"{where}: unknown dependency_mode {bounded_repr(d.dependency_mode)}; expected all "
                                "or any")
        if protocol == "fixed":
            _check_dependency_cycles(self.dependencies, n)
        for i, c in enumerate(self.constraints):
            _check_constraint(i, c, self.propositions, protocol)


def _field(data: Mapping[str, Any], long: str, short: str, required: bool = False) -> list:
    if long in data and short in data:
        raise SpecError(f"give either {long!r} or {short!r}, not both")
    value = data.get(long, data.get(short))
    if value is None:
        if required:
            raise SpecError(f"missing {long!r} (or {short!r})")
        return []
    if not isinstance(value, list):
        raise SpecError(f"{long}: expected a list, got {type(value).__name__}")
    return value


def _proposition(i: int, p: Any) -> EvaluationProposition:
    where = f"evaluation_propositions[{i}]"
    if not isinstance(p, Mapping) or not isinstance(p.get("function_name"), str):
        raise SpecError(f"{where}: expected {{\"function_name\": str, \"args\": {{...}}}}, got {bounded_repr(p)}")
    args = p.get("args", {})
    if not isinstance(args, Mapping):
        raise SpecError(f"{where}: args must be an object, got {type(args).__name__}")
    return EvaluationProposition(p["function_name"], deepcopy(dict(args)))


def _dependency(i: int, d: Any) -> EvaluationPropositionDependency:
    where = f"evaluation_proposition_dependencies[{i}]"
    if not isinstance(d, Mapping):
        raise SpecError(f"{where}: expected an object, got {bounded_repr(d)}")
    missing = [k for k in ("proposition_indices", "depends_on", "relation_type") if k not in d]
    if missing:
        raise SpecError(f"{where}: missing {', '.join(missing)}")
    unknown = sorted(set(d) - {"proposition_indices", "depends_on", "relation_type", "dependency_mode"})
    if unknown:
        raise SpecError(f"{where}: unknown field(s) {', '.join(unknown)}")
    return EvaluationPropositionDependency(deepcopy(d["proposition_indices"]), deepcopy(d["depends_on"]),
                                           d["relation_type"], d.get("dependency_mode", "all"))


_CONSTRAINT_ARGS = {
    "TemporalConstraint": (("dag_edges",), ("n_propositions",)),
    "SameArgConstraint": (("proposition_indices", "arg_names"), ("n_propositions",)),
    "DifferentArgConstraint": (("proposition_indices", "arg_names"), ("n_propositions",)),
    "TerminalSatisfactionConstraint": (("proposition_indices",), ("n_propositions",)),
}


def _constraint(i: int, c: Any, protocol: str) -> Constraint:
    where = f"evaluation_constraints[{i}]"
    if not isinstance(c, Mapping) or not isinstance(c.get("type"), str):
        raise SpecError(f"{where}: expected {{\"type\": str, \"args\": {{...}}}}, got {bounded_repr(c)}")
    if c["type"] not in CONSTRAINT_TYPES:
        raise SpecError(f"{where}: unknown constraint type {bounded_repr(c['type'])}; expected one of "
                        f"{', '.join(CONSTRAINT_TYPES)}")
    args = c.get("args", {})
    if not isinstance(args, Mapping):
        raise SpecError(f"{where}: args must be an object")
    required, optional = _CONSTRAINT_ARGS[c["type"]]
    missing = [k for k in required if k not in args]
    if missing:
        raise SpecError(f"{where} ({c['type']}): missing {', '.join(missing)}")
    unknown = sorted(set(args) - set(required) - set(optional))
    if unknown and protocol == "fixed":  # the reference's constructors swallow extra arguments
        raise SpecError(f"{where} ({c['type']}): unknown argument(s) {', '.join(unknown)}")
    kwargs = {k: deepcopy(args[k]) for k in (*required, *optional) if k in args}
    try:
        return CONSTRAINT_CLASSES[c["type"]](**kwargs, protocol=protocol)
    except Exception as e:  # noqa: BLE001 - malformed arguments of any kind
        raise SpecError(f"{where} ({c['type']}): malformed arguments ({type(e).__name__}: {e})") from None


def _object_states(states: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(states, Mapping) or not all(isinstance(v, Mapping) for v in states.values()):
        raise SpecError("object_states: expected {state_name: {handle: value}}")
    return {str(k): dict(v) for k, v in states.items()}


def _is_index_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in x)


def _check_indices(where: str, name: str, idxs: Any, n: int) -> None:
    if not _is_index_list(idxs):
        raise SpecError(f"{where}: {name} must be a list of integers, got {bounded_repr(idxs)}")
    bad = [i for i in idxs if not 0 <= i < n]
    if bad:
        raise SpecError(f"{where}: {name} {bounded_repr(bad)} out of range for {n} propositions")


def _is_handle_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(h, str) for h in x)


def _check_proposition(i: int, p: EvaluationProposition, protocol: str) -> None:
    where = f"evaluation_propositions[{i}] ({p.function_name})"
    if p.function_name not in PREDICATES:
        raise SpecError(f"evaluation_propositions[{i}]: unknown predicate {bounded_repr(p.function_name)}; "
                        f"expected one of {', '.join(PREDICATES)}")
    number = p.args.get("number")
    if isinstance(number, int) and number > MAX_NUMBER:  # each is unrolled into number - 1 copies
        raise SpecError(f"{where}: number {bounded_repr(number)} is more than {MAX_NUMBER}, the most eai-gym "
                        "unrolls a proposition to")
    if protocol != "fixed":
        return  # the reference discovers everything else while evaluating (see predicates_partnr)
    handle_args, same_flag = PREDICATES[p.function_name]
    allowed = set(handle_args) | {"number"} | ({same_flag} if same_flag else set())
    if p.function_name in ("is_next_to", "is_clustered"):
        allowed.add("l2_threshold")
    unknown = sorted(set(p.args) - allowed)
    if unknown:
        raise SpecError(f"{where}: unknown argument(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    for name in handle_args:
        if name not in p.args:
            raise SpecError(f"{where}: missing argument {bounded_repr(name)}")
    if p.function_name == "is_clustered":
        groups = p.args["*args"]
        if not isinstance(groups, list) or len(groups) < 1 or not all(_is_handle_list(g) and g for g in groups):
            raise SpecError(f"{where}: '*args' must be a non-empty list of non-empty handle lists")
        number = p.args.get("number")
        if number is not None:
            if not _is_index_list(number) or len(number) != len(groups) or min(number) < 1:
                raise SpecError(f"{where}: number must list one positive integer per handle group, got "
                                f"{bounded_repr(number)}")
            short = [k for k, (g, m) in enumerate(zip(groups, number)) if m > len(set(g))]
            if short:
                raise SpecError(f"{where}: number asks for more handles than group(s) {short} list")
    else:
        for name in handle_args:
            if not _is_handle_list(p.args[name]) or not p.args[name]:
                raise SpecError(f"{where}: {name} must be a non-empty list of handles, got "
                                f"{bounded_repr(p.args[name])}")
        number = p.args.get("number", 1)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise SpecError(f"{where}: number must be a positive integer, got {bounded_repr(number)}")
        if number > len(set(p.args[handle_args[0]])):
            raise SpecError(f"{where}: number={bounded_repr(number)} but only {len(set(p.args[handle_args[0]]))} "
                            f"distinct {handle_args[0]} can satisfy it")
    if same_flag and not isinstance(p.args.get(same_flag, False), bool):
        raise SpecError(f"{where}: {same_flag} must be true or false")
    thr = p.args.get("l2_threshold", 0.5)
    if not isinstance(thr, (int, float)) or isinstance(thr, bool) or thr < 0:
        raise SpecError(f"{where}: l2_threshold must be a non-negative number, got {bounded_repr(thr)}")


def _check_dependency_cycles(deps: list[EvaluationPropositionDependency], n: int) -> None:
    """Under ``fixed`` gating reads the current state, so a proposition cannot (transitively)
    gate itself."""
    import networkx as nx  # (imported where used: listing episodes does not pay for it)

    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for d in deps:
        g.add_edges_from((q, p) for q in d.depends_on for p in d.proposition_indices)
    if not nx.is_directed_acyclic_graph(g):
        cycle = [e[0] for e in nx.find_cycle(g)]
        raise SpecError(f"evaluation_proposition_dependencies: propositions {cycle} gate each other in a cycle; "
                        "under protocol='fixed' a dependency reads the current state, so gating cannot be circular "
                        "(protocol='partnr' judges dependencies on past states and accepts it)")


def _check_constraint(i: int, c: Constraint, props: list[EvaluationProposition], protocol: str) -> None:
    where = f"evaluation_constraints[{i}] ({c.type_name})"
    n = len(props)
    declared = c.args.get("n_propositions")
    if declared is not None:
        if not isinstance(declared, int) or isinstance(declared, bool):
            raise SpecError(f"{where}: n_propositions must be an integer, got {bounded_repr(declared)}")
        n = min(n, declared)  # the reference asserts every index is below n_propositions
    if c.type_name == "TemporalConstraint":
        edges = c.args["dag_edges"]
        if not isinstance(edges, list) or not all(_is_index_list(e) and len(e) == 2 for e in edges):
            raise SpecError(f"{where}: dag_edges must be a list of [before, after] index pairs, got "
                            f"{bounded_repr(edges)}")
        _check_indices(where, "dag_edges", [x for e in edges for x in e], n)
        import networkx as nx

        g = nx.DiGraph([tuple(e) for e in edges])
        if not nx.is_directed_acyclic_graph(g):
            raise SpecError(f"{where}: dag_edges contain a cycle: {[list(e) for e in nx.find_cycle(g)]}")
        return
    _check_indices(where, "proposition_indices", c.args["proposition_indices"], n)
    if c.type_name == "TerminalSatisfactionConstraint":
        return
    names = c.args["arg_names"]
    if not isinstance(names, list) or not all(isinstance(a, str) for a in names):
        raise SpecError(f"{where}: arg_names must be a list of argument names")
    if len(names) != len(c.args["proposition_indices"]):
        raise SpecError(f"{where}: {len(c.args['proposition_indices'])} proposition_indices but {len(names)} arg_names")
    if protocol != "fixed":
        return
    for idx, name in zip(c.args["proposition_indices"], names):
        p = props[idx]
        if name.startswith("*args"):
            k = name[len("*args_"):]
            ok = (p.function_name == "is_clustered" and name.startswith("*args_") and k.isdigit()
                  and int(k) < len(p.args.get("*args", [])))
        else:
            ok = name in TRACKED_ARGS and name in p.args
        if not ok:
            raise SpecError(f"{where}: proposition {idx} ({p.function_name}) reports no argument {bounded_repr(name)}")

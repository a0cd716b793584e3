"""Goal checking for BEHAVIOR tasks, as eai-eval's evolving graph does it, plus the partial counts.

A goal is a list of conditions (one per top-level conjunct of the BDDL ``:goal``); each condition
has alternative groundings (options); a condition holds if all literals of some option hold.
Literals are checked on a *state dict*: node states (true unary states, lower case) and edges
(physical relations plus, for every object with a parent in the tree, ``ontop``/``inside`` to its
parent). ``protocol="eai-1.0.5"`` reproduces the reference: only the direct parent counts, and
:class:`GoalCrash` is raised where the reference raises (a state with no physical edge and a tree two
levels deep; a literal about a state its object lacks). ``protocol="fixed"`` also counts every
ancestor for ``inside``, treats a missing state as false, and decides a condition whose options bddl's
caps truncated on the formula itself (:mod:`.goal_formula`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...logic.bddl import GoalCondition
from ...logic.grounding import Scope
from .goal_formula import formula_holds
from .state import INSIDE, ONTOP, BehaviorState

EDGE_WORDS = ("nextto", "ontop", "inside", "onfloor", "under")
NODE_WORDS = ("cooked", "dusty", "frozen", "open", "sliced", "soaked", "stained", "toggled_on", "burnt")
_RENAME = {"toggled_on": "toggledon"}


class GoalCrash(Exception):
    """The reference evaluator raises while checking this goal."""


def flatten(literal: Any) -> list[str]:
    out: list[str] = []
    for x in literal:
        if isinstance(x, (list, tuple)):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


def state_dict(s: BehaviorState, protocol: str, memo: dict | None = None
               ) -> tuple[dict[str, tuple[set, set]], set[tuple[str, str, str]]]:
    """``nodes[name] = (states, properties)`` and the set of ``(from, relation, to)`` edges. ``memo``: a dict
    the caller keeps, where each object's node is kept with the values and hand it was computed from (a
    state's per-object values are replaced, never changed in place; the nodes are then shared: read only).
    :class:`GoalView` reads the same nodes and edges one at a time."""
    nodes = {name: _node(s, name, memo) for name in s.scene.order}
    edges = tree_edges(s, protocol)
    for name in sliceable(s):  # a sliced whole object: what both its parts have
        states, props = nodes[name]
        if "sliced" in states:
            p0, p1 = f"{name}_part_0", f"{name}_part_1"
            if p0 not in nodes or p1 not in nodes:
                raise GoalCrash(f"{name} is sliced but has no parts")
            nodes[name] = (nodes[p0][0] & nodes[p1][0], props)
            e0 = {(r, t) for f, r, t in edges if f == p0}
            e1 = {(r, t) for f, r, t in edges if f == p1}
            edges = {e for e in edges if e[0] != name} | {(name, r, t) for r, t in e0 & e1}
    return nodes, edges


class GoalView:
    """:func:`state_dict`'s nodes and edges of one state, each worked out when it is read: ``view[name]`` is
    ``nodes[name]`` and ``(a, rel, b) in view`` is ``(a, rel, b) in edges`` (the view stands for both in
    :func:`literal_holds`). :meth:`crash` raises where building them raises; that depends on the whole state,
    not on what is read."""

    __slots__ = ("s", "protocol", "memo", "sliced")

    def __init__(self, s: BehaviorState, protocol: str, memo: dict | None = None) -> None:
        self.s, self.protocol, self.memo = s, protocol, memo
        values = s.values
        #: the sliced whole objects (their node's states are what both parts have, their edges what both parts
        #: have), with their parts
        self.sliced = {whole: (p0, p1) for whole, p0, p1 in sliceable_parts(s)
                       if (values.get(whole) or {}).get("Sliced")}

    def crash(self) -> None:
        """Raise :class:`GoalCrash` where :func:`state_dict` does (in its order)."""
        s = self.s
        if self.protocol == "eai-1.0.5" and not s.edges:
            parent = s.parent
            if any(par in parent for par, _ in parent.values()):
                raise GoalCrash(_NO_EDGE_CRASH)
        objects = s.scene.objects
        for whole, (p0, p1) in self.sliced.items():
            if p0 not in objects or p1 not in objects:
                raise GoalCrash(f"{whole} is sliced but has no parts")

    def __getitem__(self, name: str) -> tuple[set, set]:
        node = _node(self.s, name, self.memo)
        parts = self.sliced.get(name)
        if parts is None:
            return node
        return _node(self.s, parts[0], self.memo)[0] & _node(self.s, parts[1], self.memo)[0], node[1]

    def __contains__(self, edge: tuple[str, str, str]) -> bool:
        a, rel, b = edge
        parts = self.sliced.get(a)
        if parts is None:
            return self._tree_edge(a, rel, b)
        return self._tree_edge(parts[0], rel, b) and self._tree_edge(parts[1], rel, b)

    def _tree_edge(self, a: str, rel: str, b: str) -> bool:
        """``(a, rel, b)`` in :func:`tree_edges`."""
        s = self.s
        physical = s.edges.get((a, b))
        if physical is not None and physical.lower() == rel:
            return True
        link = s.parent.get(a)
        if link is None:
            return False
        par, kind = link
        if par == b and (ONTOP if kind == ONTOP else INSIDE) == rel:
            return True
        if rel == INSIDE and kind == INSIDE and self.protocol != "eai-1.0.5":
            return any(anc == b for _, anc, _ in s.ancestors(par))
        return False


def _node(s: BehaviorState, name: str, memo: dict | None) -> tuple[set, set]:
    """``name``'s node before the sliced objects' step (see :func:`state_dict`)."""
    obj = s.scene.objects[name]
    vals = s.values.get(name)
    hand = 1 if s.hands[0] == name else 2 if s.hands[1] == name else 0
    if memo is not None:
        hit = memo.get(name)
        if hit is not None and hit[0] is obj and hit[1] is vals and hit[2] == hand:
            return hit[3]
    props = {k.lower() for k in obj.keys if k in _GRAPH_KEYS}
    states = {k.lower() for k in obj.keys if k in _GRAPH_KEYS and (vals or {}).get(k)}
    if not obj.room_floor:
        props |= {"inhandofrobot", "inlefthandofrobot", "inrighthandofrobot"}
    if hand == 1:
        states |= {"inlefthandofrobot", "inhandofrobot"}
    elif hand == 2:
        states |= {"inrighthandofrobot", "inhandofrobot"}
    node = (states, props)
    if memo is not None:
        memo[name] = (obj, vals, hand, node)
    return node


def sliceable(s: BehaviorState) -> list[str]:
    """The scene's objects whose node can hold ``sliced`` and that are no part (``_part_``), in scene order:
    the only ones the sliced objects' step of :func:`state_dict` changes (kept in the scene's memo)."""
    hit = s.scene.memo.get(_SLICEABLE)
    if hit is None:
        hit = s.scene.memo[_SLICEABLE] = [n for n in s.scene.order
                                          if "_part_" not in n and "Sliced" in s.scene.objects[n].keys]
    return hit


def sliceable_parts(s: BehaviorState) -> list[tuple[str, str, str]]:
    """:func:`sliceable` objects with the names of their two parts (kept in the scene's memo)."""
    hit = s.scene.memo.get(_SLICEABLE_PARTS)
    if hit is None:
        hit = s.scene.memo[_SLICEABLE_PARTS] = [(n, f"{n}_part_0", f"{n}_part_1") for n in sliceable(s)]
    return hit


def tree_edges(s: BehaviorState, protocol: str) -> set[tuple[str, str, str]]:
    """The state dict's edges before the sliced objects' step: the physical relations, and ``ontop``/``inside``
    to each object's parent (``fixed``: ``inside`` to every ancestor along an inside link)."""
    edges = {(a, rel.lower(), b) for (a, b), rel in s.edges.items()}
    for name, (par, link) in s.parent.items():
        edges.add((name, ONTOP if link == ONTOP else INSIDE, par))
        if par in s.parent:  # a grandparent exists
            if protocol == "eai-1.0.5":
                if not s.edges:
                    raise GoalCrash(_NO_EDGE_CRASH)
            elif link == INSIDE:
                for _, anc, up in s.ancestors(par):
                    edges.add((name, INSIDE, anc))
    return edges


_NO_EDGE_CRASH = ("UnboundLocalError: the reference reads an unset variable when the graph has no physical edge "
                  "and an object sits two levels deep")
#: the keys of :func:`sliceable`'s and :func:`sliceable_parts`' lists in the scene's memo (object names are strings)
_SLICEABLE = ("<sliceable>",)
_SLICEABLE_PARTS = ("<sliceable parts>",)
_GRAPH_KEYS = frozenset({"Cooked", "Dusty", "Frozen", "Open", "Sliced", "Soaked", "Stained", "ToggledOn",
                         "Slicer", "CleaningTool"})


#: a literal (by value when hashable, else by id, with the literal kept) -> (literal, tokens, negated, body)
_TOKENS: dict[Any, tuple] = {}


def literal_tokens(lit: Any) -> tuple[list[str], bool, list[str]]:
    """(``flatten(lit)``, whether it is negated, its tokens without ``not``), kept per literal."""
    try:
        hash(lit)
        key: Any = lit
    except TypeError:
        key = ("<id>", id(lit))
    hit = _TOKENS.get(key)
    if hit is None or (key is not lit and hit[0] is not lit):
        if len(_TOKENS) >= 65536:
            _TOKENS.clear()
        toks = flatten(lit)
        negated = "not" in toks
        hit = _TOKENS[key] = (lit, toks, negated, [t for t in toks if t != "not"] if negated else toks)
    return hit[1], hit[2], hit[3]


def literal_holds(lit: Any, nodes, edges, names: dict[str, str], protocol: str) -> bool:
    toks, negated, body = literal_tokens(lit)
    try:
        if len(body) == 2:
            state = _RENAME.get(body[0], body[0])
            obj = names[body[1]]
            states, props = nodes[obj]
            if state not in props:
                if protocol == "eai-1.0.5":
                    raise GoalCrash(f"AssertionError: {obj} has no state {state!r}")
                return negated
            return (state in states) != negated
        if len(body) == 3:
            rel = _RENAME.get(body[0], body[0])
            found = (names[body[1]], rel, names[body[2]]) in edges
            return found != negated
    except KeyError as e:
        raise GoalCrash(f"KeyError: {e} in goal literal {toks}") from None
    raise GoalCrash(f"AssertionError: malformed goal literal {toks}")


def check_conditions(s: BehaviorState, conditions: Sequence[GoalCondition], names: dict[str, str],
                     protocol: str, memo: dict | None = None) -> list[bool]:
    """Per condition: does some option hold entirely? (``fixed``: a truncated condition is decided on
    its formula.) ``memo``: see :func:`state_dict`."""
    nodes, edges = state_dict(s, protocol, memo)
    return [_condition_holds(s, c, names, protocol, lambda lit: literal_holds(lit, nodes, edges, names, protocol))
            for c in conditions]


class KeptGoalCheck:
    """:func:`check_conditions` that keeps each condition's result with what it read: the objects whose node
    (states, properties) a literal looked up and the sources of the edges whose presence it asked. When the state
    is a copy (of a copy ...) of the last one checked, a condition is decided again only if its log names one of
    those nodes or sources (:meth:`_affected`) and one of the nodes or edges it read differs from what it read
    (its options and formula are decided by the literals alone, each read in an order that depends only on the
    values read before); otherwise every condition is. Literals are read through a :class:`GoalView`, so only
    what a condition decided again reads is worked out. A check that raises
    starts the kept results over. ``tests/envs/test_behavior_goal_check.py`` compares it with
    :func:`check_conditions` along random walks."""

    def __init__(self) -> None:
        self._key: tuple | None = None
        #: per condition: (its value, the nodes it read by object, the sources of the edges it read, those edges
        #: with whether each was there)
        self._kept: list = []
        self._state: BehaviorState | None = None  # the state of the last check

    def check(self, s: BehaviorState, conditions: Sequence[GoalCondition], names: dict[str, str],
              protocol: str, memo: dict | None = None) -> list[bool]:
        view = GoalView(s, protocol, memo)
        key = self._key
        try:
            view.crash()
            affected = None
            if key is not None and key[0] is conditions and key[1] is names and key[2] is s.scene \
                    and key[3] == protocol and self._state is not None:
                affected = self._affected(s)
            if affected is None:
                key = (conditions, names, s.scene, protocol)
                self._key, kept = None, [None] * len(conditions)
                self._kept = kept
                changed_nodes = changed_sources = frozenset()
            else:
                kept = self._kept
                changed_nodes, changed_sources = affected
            out = []
            for i, c in enumerate(conditions):
                hit = kept[i]
                if hit is not None and (changed_nodes.isdisjoint(hit[1]) or _same_nodes(view, changed_nodes, hit[1])) \
                        and (changed_sources.isdisjoint(hit[2]) or _same_edges(view, changed_sources, hit[3])):
                    out.append(hit[0])
                    continue
                read_nodes: dict = {}
                read_edges: dict = {}
                test = _reading_literal_test(view, names, protocol, read_nodes, read_edges)
                v = _condition_holds(s, c, names, protocol, test)
                kept[i] = (v, read_nodes, {e[0] for e in read_edges}, read_edges)
                out.append(v)
        except BaseException:
            self._key = None  # (some conditions may have been decided on a state the others were not)
            raise
        self._key, self._state = key, s
        return out

    def _affected(self, s: BehaviorState) -> tuple[set, set] | None:
        """By the log from the state of the last check: the objects whose node may differ (logged values, what
        either state's hands hold, a sliced whole object with its parts) and the objects whose edges may differ
        (a logged relation's source, every object under a logged parent change, in either state; a sliced whole
        object with its parts, or when its own values changed); None when ``s`` is no copy of that state."""
        last = self._state
        logged = s.changes_since(last)
        if logged is None:
            return None
        names: set = set()
        sources: set = set()
        moved = []
        for tag, k in logged:
            if tag == "v":
                names.add(k)
            elif tag == "e":
                sources.add(k[0])
            elif tag == "p":
                moved.append(k)
        if s.hands != last.hands:
            names.update(h for h in s.hands + last.hands if h is not None)
        for m in moved:
            sources |= s.subtree(m)
            sources |= last.subtree(m)
        for whole, p0, p1 in sliceable_parts(s):
            if whole in names or p0 in sources or p1 in sources:
                sources.add(whole)
            if p0 in names or p1 in names:
                names.add(whole)
        return names, sources


def _reading_literal_test(view: GoalView, names: dict[str, str], protocol: str, read_nodes: dict,
                          read_edges: dict):
    """:func:`literal_holds` on ``view`` that records the node each literal read (object -> node) or the edge it
    asked about (edge -> whether it is there)."""
    def test(lit: Any) -> bool:
        v = literal_holds(lit, view, view, names, protocol)
        _, negated, body = literal_tokens(lit)
        if len(body) == 2:
            obj = names[body[1]]
            read_nodes[obj] = view[obj]
        else:
            read_edges[(names[body[1]], _RENAME.get(body[0], body[0]), names[body[2]])] = v != negated
        return v
    return test


def _same_nodes(view: GoalView, changed: set, read: dict) -> bool:
    """Whether each node in ``read`` whose object is in ``changed`` is the same in ``view``."""
    return all(view[n] == read[n] for n in changed.intersection(read))


def _same_edges(view: GoalView, sources: set, read: dict) -> bool:
    """Whether each edge in ``read`` from an object in ``sources`` is (or is not) there in ``view`` as it was."""
    return all((e in view) == there for e, there in read.items() if e[0] in sources)


def _condition_holds(s: BehaviorState, c: GoalCondition, names: dict[str, str], protocol: str, test) -> bool:
    """One condition of :func:`check_conditions`, its literals decided by ``test``."""
    if c.truncated and protocol != "eai-1.0.5":
        return formula_holds(c.expr, Scope(s.scene.object_map or _object_map(names)), test)
    return any(all(test(lit) for lit in opt) for opt in c.options)


def _object_map(names: dict[str, str]) -> dict[str, list[str]]:
    """Category -> instances from BDDL instance names (``carrot.n.03_2`` is a ``carrot.n.03``)."""
    out: dict[str, list[str]] = {}
    for inst in names:
        out.setdefault(inst.rsplit("_", 1)[0], []).append(inst)
    return out


def partial_counts(conditions: Sequence[GoalCondition], satisfied: Sequence[bool]) -> dict[str, float | int]:
    """The reference's predicate counts: a condition mentioning both relation and state words counts
    half as an edge and half as a node predicate; one mentioning neither counts as nothing."""
    r: dict[str, float | int] = {k: 0.0 for k in ("tot_edge_predicates", "tot_node_predicates",
                                                  "satisfied_edge_predicates", "satisfied_node_predicates")}
    for k in ("pure_edge_predicates", "pure_node_predicates", "mixed_predicates", "satisfied_pure_edge_predicates",
              "satisfied_pure_node_predicates", "satisfied_mixed_predicates"):
        r[k] = 0
    for cond, ok in zip(conditions, satisfied):
        e = any(w in cond.terms for w in EDGE_WORDS)
        n = any(w in cond.terms for w in NODE_WORDS)
        if e or n:
            r["tot_edge_predicates"] += int(e) / (int(e) + int(n))
            r["tot_node_predicates"] += int(n) / (int(e) + int(n))
            if ok:
                r["satisfied_edge_predicates"] += int(e) / (int(e) + int(n))
                r["satisfied_node_predicates"] += int(n) / (int(e) + int(n))
        kind = "pure_edge_predicates" if e and not n else "pure_node_predicates" if n and not e else \
            "mixed_predicates" if e and n else None
        if kind:
            r[kind] += 1
            if ok:
                r["satisfied_" + kind] += 1
    r["tot_predicates"] = r["tot_edge_predicates"] + r["tot_node_predicates"]
    r["satisfied_predicates"] = r["satisfied_edge_predicates"] + r["satisfied_node_predicates"]
    return r

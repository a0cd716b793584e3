"""The simple temporal logic of EAI subgoal plans and task goals (grammar in ``tl.lark``).

A formula is built from primitives — state propositions such as ``ONTOP(plate.1, table.2)`` and
actions such as ``TYPE(keyboard.415)`` — with ``and``, ``or``, ``not``, ``then`` (temporal order) and
the quantifiers ``forall x. (...)``, ``exists x. (...)``, ``forn N. x. (...)``.

Semantics (as eai-eval's ``tl_formula/simple_tl.py`` defines them): a *state goal* (no ``then``
inside) holds on a trajectory if it holds on some state–action pair; ``A then B`` holds if ``A``
holds on a prefix and ``B`` on what follows; a conjunction of temporal goals holds if every part holds
(each on its own); quantifiers range over the objects of the first state.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from .tl_reader import build_tree, plain_error, read_plain


class TLError(ValueError):
    """A formula that cannot be read; ``unknown_primitive`` tells the hallucination case apart."""

    def __init__(self, message: str, unknown_primitive: bool = False) -> None:
        super().__init__(message)
        self.unknown_primitive = unknown_primitive


# ------------------------------------------------------------------ syntax tree
@dataclass(frozen=True)
class Primitive:
    name: str
    args: tuple[str, ...]
    is_action: bool
    state_goal = True

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"

    def ground(self, mapping: dict[str, str]) -> "Primitive":
        return Primitive(self.name, tuple(mapping.get(a, a) for a in self.args), self.is_action)


@dataclass(frozen=True)
class And:
    parts: tuple[Any, ...]

    def __str__(self) -> str:
        return f"And({', '.join(map(str, self.parts))})"

    @property
    def state_goal(self) -> bool:
        return self.parts[0].state_goal


@dataclass(frozen=True)
class Or:
    parts: tuple[Any, ...]

    def __str__(self) -> str:
        return f"Or({', '.join(map(str, self.parts))})"

    @property
    def state_goal(self) -> bool:
        return all(p.state_goal for p in self.parts)


@dataclass(frozen=True)
class Not:
    part: Any

    def __str__(self) -> str:
        return f"Not({self.part})"

    @property
    def state_goal(self) -> bool:
        return self.part.state_goal


@dataclass(frozen=True)
class Then:
    parts: tuple[Any, ...]
    state_goal = False

    def __str__(self) -> str:
        return f"Then({', '.join(map(str, self.parts))})"


@dataclass(frozen=True)
class Quantified:
    kind: str  # "forall" | "exists" | "forn"
    var: str
    body: Any
    n: int = 0

    @property
    def state_goal(self) -> bool:
        return self.body.state_goal


Formula = Primitive | And | Or | Not | Then | Quantified


class _Build:
    """A :data:`Formula` from ``tl.lark``'s rules (for lark's transformer, :func:`_lark_build`, and ``build_tree``)."""

    def __init__(self, predicates: Sequence[str], actions: Sequence[str]) -> None:
        self.predicates, self.actions = set(predicates), set(actions)

    def call(self, name, *terms):
        args = tuple(str(t) for t in terms if t is not None)
        if name in self.predicates:
            return Primitive(str(name), args, False)
        if name in self.actions:
            return Primitive(str(name), args, True)
        raise ValueError(f"Unknown primitive: {name}")

    def and_(self, *parts):
        if len(parts) == 1:
            return parts[0]
        if len({p.state_goal for p in parts}) > 1:
            raise ValueError("Mixed state and temporal goals are not allowed in a conjunction.")
        return And(parts)

    def or_(self, *parts):
        return parts[0] if len(parts) == 1 else Or(parts)

    def then_(self, *parts):
        return parts[0] if len(parts) == 1 else Then(parts)

    def not_(self, part):
        return Not(part)

    def forall_(self, var, body):
        return Quantified("forall", str(var), body)

    def exists_(self, var, body):
        return Quantified("exists", str(var), body)

    def forn_(self, n, var, body):
        return Quantified("forn", str(var), body, int(n))


@functools.lru_cache(maxsize=1)
def _parser() -> Any:  # lark.Lark: lark is imported when a text first needs it
    from lark import Lark
    return Lark.open("tl.lark", rel_to=__file__, start="formula")


@functools.lru_cache(maxsize=1)
def _lark_build() -> type:
    """:class:`_Build` as a lark transformer (children inline; v_args wraps only a class's own callbacks)."""
    from lark import Transformer, v_args

    def __init__(self: Any, predicates: Sequence[str], actions: Sequence[str]) -> None:
        Transformer.__init__(self)
        _Build.__init__(self, predicates, actions)

    callbacks = {k: v for k, v in vars(_Build).items() if not k.startswith("__")}
    return v_args(inline=True)(type("LarkBuild", (Transformer,), {**callbacks, "__init__": __init__}))


_EXPECTED = re.compile(r"(Expected one of: \n)((?:\t\* [^\n]*\n)+)")


def _stable(message: str) -> str:
    """Lark lists the expected terminals in set order (it depends on the hash seed): sort them, so a
    message is the same in every process."""
    return _EXPECTED.sub(lambda m: m.group(1) + "".join(sorted(m.group(2).splitlines(keepends=True))), message)


#: what lark's Earley parser is given: texts of at most this many characters (its time grows faster than the
#: text), nested at most this many parentheses deep and with at most this many ``not`` and quantifier words (it
#: and the functions that walk a formula recurse once per level)
MAX_GENERAL_CHARS = 20_000
MAX_GENERAL_DEPTH = 50
MAX_GENERAL_UNITS = 100
_NESTING = re.compile(r"[()]|\b(?:not|forall|exists|forn)\b")


def _too_large(text: str) -> str | None:
    """Why lark's parser is not given ``text`` (see :data:`MAX_GENERAL_CHARS`), or None."""
    if len(text) > MAX_GENERAL_CHARS:
        return (f"the formula is not a plain one and too long to read: {len(text):,} characters (at most "
                f"{MAX_GENERAL_CHARS:,})")
    depth = deepest = units = 0
    for m in _NESTING.finditer(text):
        c = text[m.start()]
        if c == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif c == ")":
            depth -= 1
        else:
            units += 1
    if deepest > MAX_GENERAL_DEPTH:
        return f"the formula nests more than {MAX_GENERAL_DEPTH} parentheses deep"
    if units > MAX_GENERAL_UNITS:
        return f"the formula has more than {MAX_GENERAL_UNITS} 'not' and quantifiers"
    return None


def parse(text: str, predicates: Sequence[str], actions: Sequence[str]) -> Formula:
    """Parse ``text``; a name outside ``predicates`` and ``actions`` is an unknown primitive. Plain formulas
    are read directly (:mod:`.tl_reader`, the same result), and so are the two common syntax errors after a
    plain formula (an extra ``)``, an unclosed group: lark's message); the others by lark's Earley parser,
    within bounds (:data:`MAX_GENERAL_CHARS`: a text beyond them is a :class:`TLError`)."""
    tree = read_plain(text) if isinstance(text, str) else None
    if tree is None:
        message = plain_error(text) if isinstance(text, str) else None
        if message is None and isinstance(text, str):
            message = _too_large(text)
        if message is not None:
            raise TLError(message)
        return parse_with_lark(text, predicates, actions)
    try:
        return build_tree(tree, _Build(predicates, actions))
    except Exception as e:  # noqa: BLE001 - as lark's transformer wraps any error (below)
        msg = _stable(str(e))
        raise TLError(msg, unknown_primitive="Unknown primitive" in msg) from None


def parse_with_lark(text: str, predicates: Sequence[str], actions: Sequence[str]) -> Formula:
    """:func:`parse` by lark's Earley parser alone (every text, and the errors' messages)."""
    from lark.exceptions import LarkError, VisitError
    try:
        tree = _parser().parse(text)
        return _lark_build()(predicates, actions).transform(tree)
    except VisitError as e:
        msg = _stable(str(e.orig_exc))
        raise TLError(msg, unknown_primitive="Unknown primitive" in msg) from None
    except LarkError as e:
        raise TLError(_stable(str(e))) from None


def primitives(f: Formula, bound: tuple[str, ...] = ()) -> Iterator[Primitive]:
    """Every primitive, left to right; variables bound by a quantifier read ``<wildcard>``."""
    if isinstance(f, Primitive):
        yield Primitive(f.name, tuple("<wildcard>" if a in bound else a for a in f.args), f.is_action)
    elif isinstance(f, (And, Or, Then)):
        for p in f.parts:
            yield from primitives(p, bound)
    elif isinstance(f, Not):
        yield from primitives(f.part, bound)
    elif isinstance(f, Quantified):
        yield from primitives(f.body, bound + (f.var,))


# ------------------------------------------------------------------ evaluation
#: ``holds(state_index, primitive) -> bool`` for a grounded proposition in the given state
HoldsFn = Callable[[int, Primitive], bool]


@dataclass
class Trajectory:
    """``n_states`` states (looked up through ``holds``), ``actions[i]`` taken in state i (as grounded
    action primitives), ``objects`` the names quantifiers range over."""

    n_states: int
    actions: Sequence[Primitive]
    objects: Sequence[str]
    holds: HoldsFn


class _View:
    """A suffix of a trajectory: state indices and the actions taken in them."""

    __slots__ = ("t", "states", "actions")

    def __init__(self, t: Trajectory, states: list[int], actions: list[Primitive | None]) -> None:
        self.t, self.states, self.actions = t, states, actions

    def pairs(self) -> Iterator[tuple[int, Primitive | None]]:
        yield from zip(self.states, self.actions)
        if self.states:
            yield self.states[-1], None

    def drop(self, k: int) -> "_View":
        if k >= len(self.states):
            return _View(self.t, [], [])
        return _View(self.t, self.states[k:], self.actions[k:])  # (a negative k slices, as in eai-eval)


def _state_holds(f: Formula, t: Trajectory, i: int, action: Primitive | None, env: dict[str, str]) -> bool:
    if isinstance(f, Primitive):
        g = f.ground(env)
        if g.is_action:
            return action is not None and action.name == g.name and action.args == g.args
        return t.holds(i, g)
    if isinstance(f, And):
        return all(_state_holds(p, t, i, action, env) for p in f.parts)
    if isinstance(f, Or):
        return any(_state_holds(p, t, i, action, env) for p in f.parts)
    if isinstance(f, Not):
        return not _state_holds(f.part, t, i, action, env)
    if isinstance(f, Quantified):
        hits = (_state_holds(f.body, t, i, action, {**env, f.var: o}) for o in t.objects)
        if f.kind == "forall":
            return all(hits)
        if f.kind == "exists":
            return any(hits)
        return sum(hits) == f.n
    raise ValueError("a temporal goal has no value in a single state")


_NEVER = 10 ** 9


def _eval(f: Formula, v: _View, env: dict[str, str]) -> tuple[bool, int]:
    """``(holds, length of the shortest satisfying prefix)`` with eai-eval's conventions."""
    if f.state_goal:
        for k, (i, a) in enumerate(v.pairs()):
            if _state_holds(f, v.t, i, a, env):
                return True, k + 1
        return False, -1
    if isinstance(f, Then):
        used = 0
        for p in f.parts:
            ok, k = _eval(p, v.drop(used), env)
            if not ok:
                return False, -1
            used += k
        return True, len(v.states)
    if isinstance(f, And):
        best = -1
        for p in f.parts:
            ok, k = _eval(p, v, env)
            if not ok:
                return False, -1
            best = max(best, k)
        return True, best
    if isinstance(f, Or):
        best = _NEVER
        for p in f.parts:
            ok, k = _eval(p, v, env)
            if ok:
                best = min(best, k)
        return best < _NEVER, best
    if isinstance(f, Not):
        ok, _ = _eval(f.part, v, env)
        return (not ok), (len(v.states) if ok else -1)
    if isinstance(f, Quantified):
        objects = v.t.objects
        if f.kind == "forall":
            best = -1
            for o in objects:
                ok, k = _eval(f.body, v, {**env, f.var: o})
                if not ok:
                    return False, -1
                best = max(best, k)
            return True, best
        best, count = _NEVER, 0
        for o in objects:
            ok, k = _eval(f.body, v, {**env, f.var: o})
            if ok:
                best, count = min(best, k), count + 1
        if f.kind == "exists":
            return best < _NEVER, best
        return count == f.n, best
    raise ValueError(f"unknown formula {f!r}")


def holds_on(f: Formula, t: Trajectory) -> bool:
    """Does the trajectory satisfy ``f``?"""
    view = _View(t, list(range(t.n_states)), list(t.actions))
    return _eval(f, view, {})[0]

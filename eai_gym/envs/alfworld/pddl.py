"""ALFWorld's PDDL problem files (``initial_state.pddl``), parsed with lark (``pddl.lark``).

A problem file is one s-expression. Texts made only of printable ASCII other than ``;`` (so without comments)
and lark's whitespace -- every ALFWorld problem -- are read by :func:`read_simple_sexp`, a direct reader that
gives the same tree as the lark grammar (tests/envs/alfworld/test_pddl_reader.py); any other text, and any
malformed one (so that its error message is lark's), goes through lark.

:func:`parse_problem` returns the typed objects, the ``:init`` facts (lower-cased predicate names,
arguments as written) and the ``:goal`` formula as nested tuples. :func:`holds` evaluates a goal
formula (``and``, ``or``, ``not``, ``=``, ``exists`` / ``forall`` over typed variables, predicates)
against a set of facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from lark import Lark

Formula = Any


class PddlError(ValueError):
    """A PDDL problem eai-gym cannot read; the message says where."""


#: the texts :func:`read_simple_sexp` reads: printable ASCII except ``;``, and lark's ``common.WS`` characters
_SIMPLE_TEXT = re.compile(r"[\x21-\x3a\x3c-\x7e \t\f\r\n]*")
_TOKEN = re.compile(r"[()]|[^\s()]+")


def read_simple_sexp(text: str) -> Any | None:
    """The tree ``pddl.lark`` gives for ``text`` (nested tuples of strings, or a lone atom string), or None
    when ``text`` has characters outside the simple set (comments, non-ASCII, other whitespace) or is not
    exactly one s-expression: then lark must decide (and word any error)."""
    if not _SIMPLE_TEXT.fullmatch(text):
        return None
    stack: list[list] = []
    result: Any = None
    for tok in _TOKEN.findall(text):
        if not stack and result is not None:
            return None  # a second top-level s-expression
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if not stack:
                return None
            done = tuple(stack.pop())
            if stack:
                stack[-1].append(done)
            else:
                result = done
        elif stack:
            stack[-1].append(tok)
        else:
            result = tok
    return None if stack else result


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark, Transformer

    class _ToTuples(Transformer):
        def list(self, items):  # noqa: A003 - lark rule name
            return tuple(items)

        def atom(self, items):
            return str(items[0])

        def start(self, items):
            return items[0]

    return Lark((Path(__file__).with_name("pddl.lark")).read_text(), parser="lalr", transformer=_ToTuples())


@dataclass
class Problem:
    name: str
    objects: dict[str, str]  #: name -> type
    init: list[tuple[str, ...]]  #: facts, predicate lower-cased
    goal: Formula


def _typed(items: Iterable[str], where: str) -> list[tuple[str, str]]:
    out, pending = [], []
    it = iter(items)
    for tok in it:
        if tok == "-":
            try:
                typ = next(it)
            except StopIteration:
                raise PddlError(f"{where}: '-' without a type") from None
            out += [(n, typ) for n in pending]
            pending = []
        else:
            pending.append(tok)
    return out + [(n, "object") for n in pending]


def parse_with_lark(text: str) -> Any:
    """The tree of ``text`` by the lark grammar ``pddl.lark`` (lark's exceptions on malformed text)."""
    return _parser().parse(text)


@lru_cache(maxsize=64)
def _tree(text: str) -> Any:
    """The parsed s-expression (nested tuples of strings: immutable, so shared), kept for the last 64 texts
    (an env resetting the same game folders parses each once). Failures are not kept."""
    simple = read_simple_sexp(text)
    if simple is not None:
        return simple
    try:
        return parse_with_lark(text)
    except Exception as e:  # lark's UnexpectedInput family, with position
        raise PddlError(f"not a PDDL s-expression: {str(e).splitlines()[0]}") from None


def parse_problem(text: str) -> Problem:
    tree = _tree(text)
    if not (isinstance(tree, tuple) and tree and str(tree[0]).lower() == "define"):
        raise PddlError("a PDDL problem starts with (define ...)")
    name, objects, init, goal = "", {}, [], None
    for sec in tree[1:]:
        if not isinstance(sec, tuple) or not sec:
            raise PddlError(f"unexpected {sec!r} in (define ...)")
        head = str(sec[0]).lower()
        if head == "problem":
            name = sec[1] if len(sec) > 1 else ""
        elif head == ":objects":
            objects = dict(_typed(sec[1:], ":objects"))
        elif head == ":init":
            for f in sec[1:]:
                if not isinstance(f, tuple) or not f or isinstance(f[0], tuple):
                    raise PddlError(f":init: expected a fact, got {f!r}")
                if str(f[0]).lower() == "=":
                    continue  # numeric fluents such as (= (total-cost) 0)
                init.append((f[0].lower(), *f[1:]))
        elif head == ":goal":
            goal = sec[1] if len(sec) > 1 else ("and",)
    if goal is None:
        raise PddlError("the problem has no :goal")
    return Problem(name, objects, init, goal)


def _type_tests(formula: Formula, var: str, out: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The ``(objectType var T)`` / ``(receptacleType var T)`` conjuncts that must hold wherever ``var``
    makes ``formula`` true (looked for through ``and`` and nested ``exists``)."""
    if isinstance(formula, tuple) and formula:
        head = str(formula[0]).lower()
        if head == "and":
            for f in formula[1:]:
                _type_tests(f, var, out)
        elif head == "exists":
            _type_tests(formula[2], var, out)
        elif head in ("objecttype", "receptacletype") and len(formula) == 3 and formula[1] == var:
            out.append((head, formula[2]))
    return out


def holds(formula: Formula, facts: Callable[[tuple[str, ...]], bool], domain: dict[str, list[str]],
          env: dict[str, str] | None = None,
          by_type: Callable[[str, str], list[str] | None] | None = None) -> bool:
    """Truth of ``formula``; ``facts(fact)`` answers ground facts, ``domain[type]`` lists objects.
    ``by_type(predicate, T)``, when given, lists the objects ``(predicate x T)`` holds for; an
    ``exists`` then only tries those for a variable its body requires to have type ``T``."""
    env = env or {}
    if not isinstance(formula, tuple) or not formula:
        raise PddlError(f"not a formula: {formula!r}")
    head = str(formula[0]).lower()
    if head == "and":
        return all(holds(f, facts, domain, env, by_type) for f in formula[1:])
    if head == "or":
        return any(holds(f, facts, domain, env, by_type) for f in formula[1:])
    if head == "not":
        return not holds(formula[1], facts, domain, env, by_type)
    if head in ("exists", "forall"):
        variables = _typed(formula[1], head)
        body = formula[2]

        def candidates(var: str, typ: str) -> list[str]:
            if head == "exists" and by_type is not None:
                for pred, t in _type_tests(body, var, []):
                    narrowed = by_type(pred, t)
                    if narrowed is not None:
                        return [o for o in narrowed if o in set(domain.get(typ, []))]
            return domain.get(typ, [])

        def assignments(i: int, bound: dict[str, str]):
            if i == len(variables):
                yield bound
                return
            var, typ = variables[i]
            for obj in candidates(var, typ):
                yield from assignments(i + 1, {**bound, var: obj})
        test = (holds(body, facts, domain, {**env, **b}, by_type) for b in assignments(0, {}))
        return any(test) if head == "exists" else all(test)
    args = tuple(env.get(a, a) for a in formula[1:])
    if head == "=":
        return args[0] == args[1]
    return facts((head, *args))


def compile_formula(formula: Formula, domain: dict[str, list[str]],
                    by_type: Callable[[str, str], list[str] | None] | None = None
                    ) -> Callable[[Callable[[tuple[str, ...]], bool]], bool]:
    """``formula`` as a function of ``facts``, with the same meaning as :func:`holds`: quantifier
    domains (narrowed by type conjuncts) and predicate names are worked out once."""
    def build(f: Formula) -> Callable[[Callable, dict], bool]:
        if not isinstance(f, tuple) or not f:
            raise PddlError(f"not a formula: {f!r}")
        head = str(f[0]).lower()
        if head in ("and", "or"):
            subs = [build(g) for g in f[1:]]
            if head == "and":
                return lambda facts, env: all(s(facts, env) for s in subs)
            return lambda facts, env: any(s(facts, env) for s in subs)
        if head == "not":
            sub = build(f[1])
            return lambda facts, env: not sub(facts, env)
        if head in ("exists", "forall"):
            variables = _typed(f[1], head)
            body = build(f[2])
            doms = []
            for var, typ in variables:
                dom = domain.get(typ, [])
                if head == "exists" and by_type is not None:
                    for pred, t in _type_tests(f[2], var, []):
                        narrowed = by_type(pred, t)
                        if narrowed is not None:
                            allowed = set(dom)
                            dom = [o for o in narrowed if o in allowed]
                            break
                doms.append((var, dom))

            def assignments(i: int, env: dict):
                if i == len(doms):
                    yield env
                    return
                var, dom = doms[i]
                for obj in dom:
                    yield from assignments(i + 1, {**env, var: obj})
            if head == "exists":
                return lambda facts, env: any(body(facts, e) for e in assignments(0, env))
            return lambda facts, env: all(body(facts, e) for e in assignments(0, env))
        args = tuple(f[1:])
        if head == "=":
            return lambda facts, env: env.get(args[0], args[0]) == env.get(args[1], args[1])
        return lambda facts, env: facts((head, *(env.get(a, a) for a in args)))
    compiled = build(formula)
    return lambda facts: compiled(facts, {})

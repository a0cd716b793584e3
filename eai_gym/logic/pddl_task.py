"""Read a PDDL domain and problem (STRIPS with typing, negative, disjunctive and quantified conditions,
equality, conditional and universal effects) into a :class:`Task`, accepting and rejecting what Fast
Downward's translator accepts and rejects.

The builtin planner (:mod:`eai_gym.eai.builtin_planner`) must give Fast Downward's verdict, and Fast
Downward answers "no plan" for a file it cannot read; so the lexical and structural rules here are
Fast Downward's (its translator 24.x/26.x, ``pddl_parser``), written afresh: ``;`` comments, tokens
lowercased, ``?`` starts a token, only ASCII outside comments; every predicate declared and used with its
arity, every term a parameter, a quantified variable or a constant/object in scope; an action block is
``:action NAME [:parameters (..)] [:precondition (..)] :effect (..)`` in that order; an action whose
effect is empty is dropped; a positive and a negative effect on the same atom under the same condition
keep the positive one. Anything else raises :class:`PddlError`.

Formulas are tuples in negation normal form: ``("and", parts)``, ``("or", parts)``, ``("atom", pred,
args, positive)``, ``("forall"|"exists", params, body)`` with ``params`` a tuple of ``(name, type)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

REQUIREMENTS = frozenset({
    ":strips", ":adl", ":typing", ":negation", ":equality", ":negative-preconditions",
    ":disjunctive-preconditions", ":existential-preconditions", ":universal-preconditions",
    ":quantified-preconditions", ":conditional-effects", ":derived-predicates", ":action-costs"})
DOMAIN_FIELDS = (":requirements", ":types", ":constants", ":predicates", ":functions")
TRUE: tuple = ("and", ())


class PddlError(ValueError):
    """A domain or problem Fast Downward's translator would not read."""


@dataclass
class Action:
    name: str
    params: tuple[tuple[str, str], ...]
    precondition: tuple
    #: (quantified params, condition, (pred, args, positive)) per simple effect
    effects: list[tuple[tuple[tuple[str, str], ...], tuple, tuple[str, tuple[str, ...], bool]]]


@dataclass
class Task:
    types: dict[str, str | None]                 # type -> parent type
    predicates: dict[str, int]                   # name -> arity ("=" included)
    objects: dict[str, str]                      # name -> type (domain constants and problem objects)
    init: set[tuple[str, tuple[str, ...]]]
    goal: tuple
    actions: list[Action] = field(default_factory=list)

    def objects_of(self, type_name: str) -> list[str]:
        """The objects of ``type_name`` or one of its subtypes, sorted (an undeclared type has none)."""
        out = []
        for obj, t in self.objects.items():
            seen = set()
            while t is not None and t != type_name and t not in seen:  # "object - object" is a cycle
                seen.add(t)
                t = self.types.get(t)
            if t == type_name or type_name == "object":
                out.append(obj)
        return sorted(out)


def tokens(text: str) -> list[str]:
    out = []
    for line in text.split("\n"):
        line = line.split(";", 1)[0]
        if not line.isascii():
            raise PddlError(f"non-ASCII character outside a comment: {line.strip()[:60]!r}")
        out += line.replace("(", " ( ").replace(")", " ) ").replace("?", " ?").lower().split()
    return out


def nested_list(text: str) -> list:
    """The outermost block of ``text`` as nested lists of words."""
    toks = tokens(text)
    if not toks or toks[0] != "(":
        raise PddlError(f"expected '(' at the start, got {toks[0] if toks else 'nothing'!r}")
    stack: list[list] = [[]]
    for i, tok in enumerate(toks[1:], 1):
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                if i != len(toks) - 1:
                    raise PddlError("tokens remaining after the closing parenthesis")
                return stack[0]
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    raise PddlError("missing ')'")


def _word(x: object, what: str) -> str:
    if not isinstance(x, str):
        raise PddlError(f"{what}: expected a word, got a block")
    return x


def _block(x: object, what: str) -> list:
    if not isinstance(x, list):
        raise PddlError(f"{what}: expected a block, got {x!r}")
    return x


def _named(x: object, names: tuple[str, ...]) -> list:
    if not isinstance(x, list) or not x or x[0] not in names:
        raise PddlError(f"expected a block starting with one of {', '.join(names)}, got {str(x)[:60]}")
    return x


def typed_list(items: list, only_variables: bool = False, either: bool = False,
               default: str = "object") -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    while items:
        if "-" in items:
            i = items.index("-")
            if i == len(items) - 1:
                raise PddlError("type missing after '-'")
            group, typ, items = items[:i], items[i + 1], items[i + 2:]
            if not isinstance(typ, str) and not (either and typ and typ[0] == "either"):
                raise PddlError(f"a type must be one word: {typ}")
        else:
            group, typ, items = items, default, []
        for name in group:
            _word(name, "typed name")
            if only_variables and not name.startswith("?"):
                raise PddlError(f"expected a variable, got {name!r}")
            out.append((name, typ))
    return out


class _Reader:
    def __init__(self, predicates: dict[str, int], constants: set[str]) -> None:
        self.predicates = predicates
        self.constants = constants

    def literal(self, alist: list, terms: set[str], negated: bool = False) -> tuple:
        if not alist:
            raise PddlError("a literal must be a non-empty block")
        if alist[0] == "not":
            if len(alist) != 2 or not isinstance(alist[1], list) or not alist[1]:
                raise PddlError(f"bad negated literal {alist}")
            alist, negated = alist[1], not negated
        pred = _word(alist[0], "predicate name")
        if pred not in self.predicates:
            raise PddlError(f"undefined predicate {pred!r}")
        args = alist[1:]
        for t in args:
            if not isinstance(t, str) or t not in terms:
                raise PddlError(f"undefined {'variable' if str(t).startswith('?') else 'object'} {t!r}")
        if self.predicates[pred] != len(args):
            raise PddlError(f"predicate {pred!r} of arity {self.predicates[pred]} used with {len(args)} arguments")
        return ("atom", pred, tuple(args), not negated)

    def condition(self, alist: list, terms: set[str], negated: bool = False) -> tuple:
        if not alist:
            return TRUE
        tag = alist[0]
        if tag in ("and", "or", "not", "imply"):
            args = alist[1:]
            if tag == "imply" and len(args) != 2:
                raise PddlError("'imply' expects two arguments")
            if tag == "not":
                if len(args) != 1:
                    raise PddlError("'not' expects one argument")
                negated = not negated
            params: list = []
        elif tag in ("forall", "exists"):
            if len(alist) != 3 or not isinstance(alist[1], list) or not alist[1]:
                raise PddlError(f"'{tag}' expects a non-empty variable block and a condition")
            params = typed_list(alist[1])
            if any(not isinstance(t, str) for _, t in params):
                raise PddlError(f"'{tag}': a type must be one word")
            args = [alist[2]]
        elif isinstance(tag, str) and tag in self.predicates:
            return self.literal(alist, terms, negated)
        else:
            raise PddlError(f"expected a logical operator or a predicate name, got {str(tag)[:40]}")
        for arg in args:
            if not isinstance(arg, list) or not arg:
                raise PddlError(f"'{tag}' expects non-empty blocks as arguments")
        if tag == "imply":
            return ("and" if negated else "or",
                    (self.condition(args[0], terms, not negated), self.condition(args[1], terms, negated)))
        inner = terms | {p for p, _ in params}
        parts = tuple(self.condition(a, inner, negated) for a in args)
        if tag == "not":
            return parts[0]
        if tag in ("forall", "exists"):
            kind = tag if not negated else ("exists" if tag == "forall" else "forall")
            return (kind, tuple(params), parts[0])
        return ("and" if (tag == "and") != negated else "or", parts)

    def effect(self, alist: list, terms: set[str]) -> tuple:
        if not alist:
            raise PddlError("every (sub-)effect must be a non-empty block")
        tag = alist[0]
        if tag == "and":
            return ("and", tuple(self.effect(_block(e, "sub-effect"), terms) for e in alist[1:]))
        if tag == "forall":
            if len(alist) != 3:
                raise PddlError("'forall' effect expects two arguments")
            params = typed_list(_block(alist[1], "forall variables"))
            if any(not isinstance(t, str) for _, t in params):
                raise PddlError("'forall': a type must be one word")
            return ("forall", tuple(params), self.effect(_block(alist[2], "forall effect"),
                                                          terms | {p for p, _ in params}))
        if tag == "when":
            if len(alist) != 3:
                raise PddlError("'when' effect expects two arguments")
            cond = self.condition(_block(alist[1], "when condition"), terms)
            return ("when", cond, self.effect(_block(alist[2], "when effect"), terms))
        if tag == "increase":
            raise PddlError("action costs are not supported by the builtin planner")
        return self.literal(alist, terms)

    def action(self, alist: list) -> Action | None:
        if len(alist) < 4:
            raise PddlError("an action block needs at least three fields")
        name = _word(alist[1], "action name")
        rest = alist[2:]
        params: list = []
        if rest and rest[0] == ":parameters":
            if len(rest) < 2:
                raise PddlError(f"action {name}: missing fields")
            params = typed_list(_block(rest[1], "parameters"), only_variables=True)
            rest = rest[2:]
        terms = self.constants | {p for p, _ in params}
        pre = TRUE
        if rest and rest[0] == ":precondition":
            if len(rest) < 2:
                raise PddlError(f"action {name}: missing fields")
            pre = self.condition(_block(rest[1], "precondition"), terms)
            rest = rest[2:]
        if not rest or rest[0] != ":effect" or len(rest) < 2:
            raise PddlError(f"action {name}: expected ':effect' and an effect")
        if len(rest) > 2:
            raise PddlError(f"action {name}: too many fields")
        eff_list = _block(rest[1], "effect")
        effects: list = []
        if eff_list:
            for e in flatten_effect(self.effect(eff_list, terms)):
                opposite = (e[0], e[1], (e[2][0], e[2][1], not e[2][2]))
                if opposite not in effects:
                    effects.append(e)
                elif e[2][2]:  # add-after-delete: the positive effect is kept
                    effects.remove(opposite)
                    effects.append(e)
        if not effects:
            return None
        return Action(name, tuple(params), pre, effects)  # type: ignore[arg-type]


def flatten_effect(eff: tuple, params: tuple = (), cond: tuple = TRUE) -> list:
    """Simple effects ``(params, condition, (pred, args, positive))`` of a nested effect."""
    if eff[0] == "and":
        return [x for e in eff[1] for x in flatten_effect(e, params, cond)]
    if eff[0] == "forall":
        return flatten_effect(eff[2], params + eff[1], cond)
    if eff[0] == "when":
        return flatten_effect(eff[2], params, eff[1] if cond == TRUE else ("and", (cond, eff[1])))
    return [(params, cond, (eff[1], eff[2], eff[3]))]


def read_task(domain: str, problem: str) -> Task:
    """The task of a domain and problem text; raises :class:`PddlError` where Fast Downward's translator stops."""
    d = nested_list(domain)
    p = nested_list(problem)
    if len(d) < 2 or d[0] != "define":
        raise PddlError("the domain must start with '(define'")
    dname = _named(d[1], ("domain",))
    if len(dname) != 2 or not isinstance(dname[1], str):
        raise PddlError("bad domain name")
    types: dict[str, str | None] = {"object": None}
    predicates: dict[str, int] = {}
    constants: list = []
    seen: list[str] = []
    entries = d[2:]
    while entries and isinstance(entries[0], list) and entries[0] and entries[0][0] in DOMAIN_FIELDS:
        opt = entries.pop(0)
        if opt[0] in seen:
            raise PddlError(f"two '{opt[0]}' blocks")
        seen.append(opt[0])
        if opt[0] == ":requirements":
            bad = [r for r in opt[1:] if not isinstance(r, str) or r not in REQUIREMENTS]
            if bad:
                raise PddlError(f"invalid requirement {bad[0]}")
        elif opt[0] == ":types":
            for name, parent in typed_list(opt[1:]):
                if name == "number":
                    raise PddlError("'number' is a reserved type")
                types[name] = str(parent)
        elif opt[0] == ":constants":
            constants = typed_list(opt[1:])
        elif opt[0] == ":predicates":
            for entry in opt[1:]:
                entry = _block(entry, "predicate")
                if not entry:
                    raise PddlError("predicate name missing")
                predicates[_word(entry[0], "predicate name")] = len(
                    typed_list(entry[1:], only_variables=True, either=True))
            predicates["="] = 2
        else:
            raise PddlError("numeric functions are not supported by the builtin planner")
    reader = _Reader(predicates, {c for c, _ in constants})
    actions = []
    for entry in entries:
        entry = _named(entry, (":derived", ":action"))
        if entry[0] == ":derived":
            raise PddlError("derived predicates are not supported by the builtin planner")
        act = reader.action(entry)
        if act is not None:
            actions.append(act)
    objects, init, goal = _problem(p, reader, types)
    if p[2][1] != dname[1]:
        raise PddlError(f"the problem's domain {p[2][1]!r} is not {dname[1]!r}")
    names = [c for c, _ in constants] + list(objects)
    if len(set(names)) != len(names):
        raise PddlError("duplicate objects")
    all_objects = {c: str(t) for c, t in constants}
    all_objects.update(objects)
    return Task(types, predicates, all_objects, init, goal, actions)


def _problem(p: list, reader: _Reader, types: dict) -> tuple[dict[str, str], set, tuple]:
    if len(p) < 5 or p[0] != "define":
        raise PddlError("the problem needs define, its name, its domain, :init and :goal")
    pname = _named(p[1], ("problem",))
    dname = _named(p[2], (":domain",))
    if len(pname) != 2 or len(dname) != 2 or not isinstance(dname[1], str):
        raise PddlError("bad problem or domain name")
    rest = p[3:]
    if rest and isinstance(rest[0], list) and rest[0][:1] == [":requirements"]:
        rest = rest[1:]
    objects: dict[str, str] = {}
    if rest and isinstance(rest[0], list) and rest[0][:1] == [":objects"]:
        objects = {o: str(t) for o, t in typed_list(rest[0][1:])}
        rest = rest[1:]
    if len(rest) != 2:
        raise PddlError("the builtin planner reads problems with :init, :goal and nothing after")
    init_block, goal_block = _named(rest[0], (":init",)), _named(rest[1], (":goal",))
    terms = reader.constants | set(objects)
    init = set()
    for fact in init_block[1:]:
        lit = reader.literal(_block(fact, "init fact"), terms)
        if lit[3]:
            init.add((lit[1], lit[2]))
    if len(goal_block) != 2 or not isinstance(goal_block[1], list) or not goal_block[1]:
        raise PddlError("the goal must be one non-empty block")
    return objects, init, reader.condition(goal_block[1], terms)

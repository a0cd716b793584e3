"""BDDL parser, AST and goal grounding (eai_gym.logic.bddl, eai_gym.logic.grounding)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym.logic import grounding as G
from eai_gym.logic.bddl import (
    And,
    Atom,
    BDDLError,
    Exists,
    ForAll,
    ForN,
    ForNPairs,
    ForPairs,
    Imply,
    Not,
    Or,
    Param,
    Problem,
    compile_goal,
    flatten_literal,
    goal_conjuncts,
    literal_parts,
    literal_to_list,
    parse_expression,
    parse_problem,
    unparse,
)

PROBLEM = """; a comment
(define (problem Stock_Fridge_0)
    (:domain igibson)
    (:objects
        apple.n.01_1 apple.n.01_2 - apple.n.01   ; trailing comment
        fridge.n.01_1 - fridge.n.01
        floor.n.01_1 - floor.n.01
        agent.n.01_1 - agent.n.01
    )
    (:init (ontop apple.n.01_1 floor.n.01_1) (not (open fridge.n.01_1)) (inroom floor.n.01_1 kitchen))
    (:goal (and (forall (?apple.n.01 - apple.n.01) (inside ?apple.n.01 ?fridge.n.01_1))
                (not (Open ?fridge.n.01_1))))
)
"""
OBJECTS = {"jar": ["jar_1", "jar_2", "jar_3"], "lid": ["lid_1", "lid_2"], "table": ["table_1"]}


def test_parse_problem_sections() -> None:
    p = parse_problem(PROBLEM)
    assert (p.name, p.domain) == ("stock_fridge_0", "igibson")
    assert list(p.objects.items()) == [("apple.n.01", ["apple.n.01_1", "apple.n.01_2"]),
                                       ("fridge.n.01", ["fridge.n.01_1"]), ("floor.n.01", ["floor.n.01_1"]),
                                       ("agent.n.01", ["agent.n.01_1"])]
    assert p.init == (Atom("ontop", ("apple.n.01_1", "floor.n.01_1")), Not(Atom("open", ("fridge.n.01_1",))),
                      Atom("inroom", ("floor.n.01_1", "kitchen")))
    param = Param("?apple.n.01", "apple.n.01")
    assert p.goal == And((ForAll(param, Atom("inside", ("?apple.n.01", "?fridge.n.01_1"))),
                          Not(Atom("open", ("?fridge.n.01_1",)))))
    assert len(goal_conjuncts(p.goal)) == 2
    assert p.goal is not None and (p.goal.line, p.goal.column) == (11, 13)  # its keyword


def test_objects_follow_bddl() -> None:
    p = parse_problem("(define (:objects a_1 - a b_1 - b a_2 a_3 - a c d))")
    assert list(p.objects.items()) == [("a", ["a_2", "a_3"]), ("b", ["b_1"]), ("object", ["c", "d"])]
    assert parse_problem("(define)") == Problem()


@pytest.mark.parametrize("text, node", [
    ("(open ?x)", Atom("open", ("?x",))),
    ("(ontop a_1 ?y)", Atom("ontop", ("a_1", "?y"))),
    ("(and)", And(())),
    ("(and (a x) (b y))", And((Atom("a", ("x",)), Atom("b", ("y",))))),
    ("(or (a x) (b y) (c z))", Or((Atom("a", ("x",)), Atom("b", ("y",)), Atom("c", ("z",))))),
    ("(not (not (a x)))", Not(Not(Atom("a", ("x",))))),
    ("(imply (a x) (b y))", Imply(Atom("a", ("x",)), Atom("b", ("y",)))),
    ("(forall (?x - jar) (a ?x))", ForAll(Param("?x", "jar"), Atom("a", ("?x",)))),
    ("(exists (?x - jar) (a ?x))", Exists(Param("?x", "jar"), Atom("a", ("?x",)))),
    ("(forn (2) (?x - jar) (a ?x))", ForN(2, Param("?x", "jar"), Atom("a", ("?x",)))),
    ("(forpairs (?x - jar) (?y - lid) (on ?y ?x))",
     ForPairs(Param("?x", "jar"), Param("?y", "lid"), Atom("on", ("?y", "?x")))),
    ("(fornpairs (1) (?x - jar) (?y - lid) (on ?y ?x))",
     ForNPairs(1, Param("?x", "jar"), Param("?y", "lid"), Atom("on", ("?y", "?x")))),
])
def test_every_construct_parses_and_round_trips(text: str, node: object) -> None:
    parsed = parse_expression(text)
    assert parsed == node
    assert unparse(parsed) == text
    assert parse_expression(text.upper()) == node  # bddl lower-cases everything


def test_to_list_is_bddl_token_lists() -> None:
    e = parse_expression("(fornpairs (2) (?x - jar) (?y - lid) (not (on ?y ?x)))")
    assert e.to_list() == ["fornpairs", ["2"], ["?x", "-", "jar"], ["?y", "-", "lid"], ["not", ["on", "?y", "?x"]]]


def test_keywords_are_plain_names_where_no_keyword_fits() -> None:
    assert parse_expression("(near and -x)") == Atom("near", ("and", "-x"))
    assert parse_expression("(problem define)") == Atom("problem", ("define",))
    assert parse_problem("(define (:objects and or - not))").objects == {"not": ["and", "or"]}


@pytest.mark.parametrize("text, line, column, words", [
    ("(define (problem x) (:goal (and (a ?x)))", 1, 41, ["end of input", "')'"]),
    ("(define (problem x)\n  (:goal (a ?x b c)))", 2, 18, ["'c'", "')'"]),
    ("(define\n (:goal (forall (?x cat) (a ?x))))", 2, 21, ["'cat'", "'-'"]),
    ("(define (:goal (forn (two) (?x - c) (a ?x))))", 1, 23, ["'two'", "integer"]),
    ("(define (:goal (forn (02) (?x - c) (a ?x))))", 1, 23, ["'02'", "leading zeros"]),
    ("(define (:goal (a ?)))", 1, 19, ["character '?'"]),
    ("(define (:objects a -))", 1, 22, ["')'", "a name"]),
    ("(define (:goal (a b)) (:goal (a b)))", 1, 24, ["duplicate", ":goal"]),
    ("(define (:goal (a b))) trailing", 1, 24, ["'trailing'", "end of input"]),
    ("(define (:goal))", 1, 15, ["')'", "'('"]),
    ("(define (:goals (a b)))", 1, 10, ["':goals'"]),
    ("(define (:goal (a)))", 1, 18, ["')'"]),
    ("(define (:goal (and (a x) ()))", 1, 28, ["')'", "'and'"]),
    ("", 1, 1, ["end of input"]),
    ("(define (:goal (not (a x) (b y))))", 1, 27, ["'('"]),
])
def test_syntax_errors_name_the_position(text: str, line: int, column: int, words: list[str]) -> None:
    with pytest.raises(BDDLError) as info:
        parse_problem(text)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert str(err).startswith(f"line {line}, column {column}: ")
    for w in words:
        assert w in str(err)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        parse_problem(b"(define)")  # type: ignore[arg-type]


def _opts(text: str, object_map: dict[str, list[str]] = OBJECTS) -> list[list[tuple]]:
    [cond] = compile_goal(parse_expression(f"(or {text})"), object_map)  # one condition, same options
    return [list(o) for o in cond.options]


def test_grounding_semantics() -> None:
    assert _opts("(open jar_1)") == [[("open", "jar_1")]]
    assert _opts("(and (or (a jar_1) (b jar_1)) (or (c jar_2) (d jar_2)))") == [
        [("a", "jar_1"), ("c", "jar_2")], [("a", "jar_1"), ("d", "jar_2")],
        [("b", "jar_1"), ("c", "jar_2")], [("b", "jar_1"), ("d", "jar_2")]]
    assert _opts("(forall (?x - lid) (on ?x table_1))") == [[("on", "lid_1", "table_1"), ("on", "lid_2", "table_1")]]
    assert _opts("(exists (?x - lid) (on ?x table_1))") == [[("on", "lid_1", "table_1")], [("on", "lid_2", "table_1")]]
    assert _opts("(forn (1) (?x - lid) (open ?x))") == [[("open", "lid_1")], [("open", "lid_2")]]
    assert _opts("(not (or (a jar_1) (and (b jar_1) (c jar_2))))") == [
        [("not", ("a", "jar_1")), ("not", ("b", "jar_1"))], [("not", ("a", "jar_1")), ("not", ("c", "jar_2"))]]
    assert _opts("(imply (a jar_1) (b jar_1))") == [[("not", ("a", "jar_1"))], [("b", "jar_1")]]
    assert _opts("(forpairs (?x - lid) (?y - jar) (on ?x ?y))")[:2] == [
        [("on", "lid_1", "jar_1"), ("on", "lid_2", "jar_2")], [("on", "lid_1", "jar_1"), ("on", "lid_2", "jar_3")]]
    assert len(_opts("(forpairs (?x - lid) (?y - jar) (on ?x ?y))")) == 6
    # fornpairs: only the first n objects of the first category are ever paired (bddl reuses a generator)
    assert _opts("(fornpairs (1) (?x - jar) (?y - lid) (on ?y ?x))") == [
        [("on", "lid_1", "jar_1")], [("on", "lid_2", "jar_1")]]
    assert _opts("(or)") == [] and _opts("(and)") == [[]] and _opts("(not (and))") == []


def test_terms_and_conditions() -> None:
    conds = compile_goal(PROBLEM)
    assert [c.terms for c in conds] == [
        ("forall", "apple.n.01", "-", "apple.n.01", "inside", "apple.n.01", "fridge.n.01_1"),
        ("not", "open", "fridge.n.01_1")]
    assert conds[0].options == ((("inside", "apple.n.01_1", "fridge.n.01_1"),
                                 ("inside", "apple.n.01_2", "fridge.n.01_1")),)
    assert conds[1].options_as_lists() == [[["not", ["open", "fridge.n.01_1"]]]]
    assert [c.terms for c in compile_goal(parse_expression("(forn (2) (?x - lid) (a ?x))"), OBJECTS)] == [
        ("forn", "2", "x", "-", "lid", "a", "x")]
    assert compile_goal(parse_problem("(define (:objects a - b))")) == []


def test_truncation_matches_bddl_caps() -> None:
    [cond] = compile_goal(parse_expression("(forall (?x - jar) (or (a ?x) (b ?x)))"), OBJECTS)
    assert len(cond.options) == 8 and not cond.truncated
    [cond] = compile_goal(parse_expression("(forall (?x - jar) (or (a ?x) (b ?x)))"), OBJECTS, max_options=5)
    # 5 tries: sum 0 (1), sum 1 (3), then (0, 0, 2) is out of range but still uses up the fifth try
    assert [[lit[0] for lit in o] for o in cond.options] == [
        ["a", "a", "a"], ["a", "a", "b"], ["a", "b", "a"], ["b", "a", "a"]]
    assert cond.truncated


def test_grounding_helpers() -> None:
    limits = G.Limits(max_options=20)
    assert G.truncated_product([], limits) == [()]
    assert G.truncated_product([[1, 2], [3]], limits) == [(1, 3), (2, 3)]
    with pytest.raises(G.GroundingError):
        G.truncated_product([[1, 2], []], limits)
    assert G.truncated_permutations(2, 3, limits) == []
    assert len(G.truncated_permutations(4, 2, limits)) == 10 and limits.truncated


def test_literal_helpers() -> None:
    assert literal_parts(("open", "a")) == (False, "open", ("a",))
    assert literal_parts(("not", ("ontop", "a", "b"))) == (True, "ontop", ("a", "b"))
    assert literal_parts(("not", ("not", ("open", "a")))) == (False, "open", ("a",))
    assert flatten_literal(("not", ("ontop", "a", "b"))) == ("not", "ontop", "a", "b")
    assert literal_to_list(("not", ("open", "a"))) == ["not", ["open", "a"]]


@pytest.mark.parametrize("goal, line, column, words", [
    ("(and (open ?jar_9))", 1, 7, ["'?jar_9'", "neither an object"]),
    ("(and (forall (?x - jar) (on ?y ?x)))", 1, 26, ["'?y'"]),
    ("(and (forall (?x - cup) (open ?x)))", 1, 7, ["unknown category 'cup'"]),
    ("(and (fornpairs (3) (?x - lid) (?y - jar) (on ?x ?y)))", 1, 7, ["3 pairs", "only 2"]),
    ("(and (forall (?x - jar) (or)))", 1, 7, ["no grounding"]),
])
def test_compile_errors_name_the_position(goal: str, line: int, column: int, words: list[str]) -> None:
    with pytest.raises(BDDLError) as info:
        compile_goal(parse_expression(goal), OBJECTS)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    for w in words:
        assert w in str(info.value)


def test_expansion_guard_refuses_what_bddl_would_blow_up_on() -> None:
    with pytest.raises(BDDLError, match="over the limit of 3 literals"):
        compile_goal(parse_expression("(or (and (or (a x) (b x)) (or (c x) (d x))))"), {"t": ["x"]}, max_expansion=3)
    many = {"ball": [f"ball_{i}" for i in range(8)]}
    # forall -> 20 capped options of 8 literals; not -> 8**20 options in bddl
    with pytest.raises(BDDLError, match="over the limit"):
        compile_goal(parse_expression("(not (forall (?b - ball) (or (a ?b) (b ?b) (c ?b))))"), many)


def test_compile_needs_objects_for_bare_goal() -> None:
    with pytest.raises(BDDLError, match="object_map"):
        compile_goal(parse_expression("(open a)"))


def test_deep_nesting_is_a_bddl_error() -> None:
    deep = "(not " * 3000 + "(open jar_1)" + ")" * 3000
    expr = parse_expression(deep)  # the LALR parser does not recurse
    with pytest.raises(BDDLError, match="too deeply"):
        compile_goal(expr, OBJECTS)


# ------------------------------------------------------------------------------ properties

VOCAB = ["(", ")", "(", ")", "define", "problem", ":domain", ":objects", ":init", ":goal", "and", "or", "not",
         "imply", "forall", "exists", "forn", "forpairs", "fornpairs", "-", "?x", "?", "jar_1", "2", "02", ";c\n",
         "\n", " ", "İ", "\x00", "é"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(VOCAB), max_size=60).map(" ".join)))
def test_random_text_raises_only_bddl_error(text: str) -> None:
    for parse in (parse_problem, parse_expression):
        try:
            parse(text)
        except BDDLError as e:
            assert e.line is None or e.line >= 1
    try:
        compile_goal(parse_expression(text), OBJECTS)
    except BDDLError:
        pass


NAMES = st.sampled_from(["?x", "?y", "jar_1", "lid_2", "table_1"])
PARAMS = st.builds(Param, st.sampled_from(["?x", "?y"]), st.sampled_from(["jar", "lid", "table"]))
ATOMS = st.builds(Atom, st.sampled_from(["open", "ontop", "inside"]),
                  st.lists(NAMES, min_size=1, max_size=2).map(tuple))


def _extend(inner: st.SearchStrategy) -> st.SearchStrategy:
    kids = st.lists(inner, max_size=3).map(tuple)
    return st.one_of(
        st.builds(And, kids), st.builds(Or, kids), st.builds(Not, inner), st.builds(Imply, inner, inner),
        st.builds(ForAll, PARAMS, inner), st.builds(Exists, PARAMS, inner),
        st.builds(ForN, st.integers(0, 3), PARAMS, inner), st.builds(ForPairs, PARAMS, PARAMS, inner),
        st.builds(ForNPairs, st.integers(0, 2), PARAMS, PARAMS, inner))


EXPRS = st.recursive(ATOMS, _extend, max_leaves=6)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRS)
def test_unparse_round_trips_and_compile_raises_only_bddl_error(expr: object) -> None:
    assert parse_expression(unparse(expr)) == expr  # type: ignore[arg-type]
    try:
        conds = compile_goal(expr, OBJECTS)  # type: ignore[arg-type]
    except BDDLError:
        return
    for cond in conds:
        for option in cond.options:
            for lit in option:
                negated, pred, args = literal_parts(lit)
                assert pred in {"open", "ontop", "inside"} and 1 <= len(args) <= 2
                assert all(a in {"jar_1", "jar_2", "jar_3", "lid_1", "lid_2", "table_1"} for a in args)


def test_uncapped_product_is_the_capped_order_in_full():
    from itertools import product

    from eai_gym.logic import grounding as G

    for sizes in [(1,), (3,), (2, 3), (3, 1, 2), (2, 2, 2, 2)]:
        seqs = [[f"{i}{j}" for j in range(n)] for i, n in enumerate(sizes)]
        full = G.truncated_product(seqs, G.Limits(max_options=None))
        huge = G.Limits(max_options=10 ** 6)
        assert full == G.truncated_product(seqs, huge) and not huge.truncated
        assert sorted(full) == sorted(product(*seqs))
    assert G.truncated_permutations(4, 2, G.Limits(max_permutations=None)) == \
        G.truncated_permutations(4, 2, G.Limits(max_permutations=10 ** 6))
    with pytest.raises(G.GroundingError):
        G.truncated_product([list(range(50))] * 4, G.Limits(max_options=None, max_expansion=1000))
    with pytest.raises(G.GroundingError):
        G.truncated_product([[1], []], G.Limits(max_options=None))

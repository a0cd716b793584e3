"""The PDDL reader and grounder behind the builtin planner: Fast Downward's acceptance rules and the
semantics of conditions and effects."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.eai.planner import FastDownward, fast_downward_script
from eai_gym.logic.pddl_ground import dnf, ground, holds, successor
from eai_gym.logic.pddl_task import PddlError, read_task

DOMAIN = """(define (domain d) (:requirements :strips :typing :adl)
  (:types box - object tool)
  (:predicates (at ?x - object ?y - object) (open ?x) (held ?x) (red ?x))
  {actions})"""
PROBLEM = """(define (problem p) (:domain d)
  (:objects b1 b2 - box t1 - tool)
  (:init (red b1) (at b1 b2))
  (:goal {goal}))"""


def task(actions: str, goal: str = "(open b1)"):
    return read_task(DOMAIN.format(actions=actions), PROBLEM.format(goal=goal))


OPEN = "(:action open :parameters (?b - box) :precondition (red ?b) :effect (open ?b))"


def test_reads_types_objects_init_goal_and_actions():
    t = task(OPEN)
    assert t.objects_of("box") == ["b1", "b2"] and t.objects_of("object") == ["b1", "b2", "t1"]
    assert t.init == {("red", ("b1",)), ("at", ("b1", "b2"))}
    assert t.goal == ("atom", "open", ("b1",), True)
    assert [a.name for a in t.actions] == ["open"]


@pytest.mark.parametrize("action,message", [
    ("(:action a :parameters (?b) :precondition (blue ?b) :effect (open ?b))", "predicate name, got blue"),
    ("(:action a :parameters (?b) :effect (blue ?b))", "undefined predicate"),
    ("(:action a :parameters (?b) :precondition (open ?b ?b) :effect (open ?b))", "arity"),
    ("(:action a :parameters (?b) :precondition (open ?c) :effect (open ?b))", "undefined variable"),
    ("(:action a :parameters (?b) :precondition (open b1) :effect (open ?b))", "undefined object"),
    ("(:action a :parameters (b) :effect (open b))", "expected a variable"),
    ("(:action a :parameters (?b) :effect (open ?b) :precondition (red ?b))", "too many fields"),
    ("(:action a :parameters (?b) :precondition (red ?b))", "expected ':effect'"),
    ("(:action a :parameters (?b) :precondition (and (red ?b) ()) :effect (open ?b))", "non-empty blocks"),
    ("(:action a :parameters (?b) :precondition (when (red ?b) (open ?b)) :effect (open ?b))", "logical operator"),
    ("(:action a :parameters (?b) :effect (or (open ?b)))", "undefined predicate"),
    ("(:action a :parameters (?b) :effect (open ?b)) (:action)", "at least three"),
])
def test_rejects_what_fast_downward_rejects(action, message):
    with pytest.raises(PddlError, match=message):
        task(action)
    if fast_downward_script() is not None:  # Fast Downward finds no plan either (it stops reading)
        verdict = FastDownward().solve(DOMAIN.format(actions=action + OPEN), PROBLEM.format(goal="(open b1)"), 60)
        assert verdict["verdict"] == "unsolved", verdict
        assert FastDownward().solve(DOMAIN.format(actions=OPEN), PROBLEM.format(goal="(open b1)"), 60)["verdict"] == "solved"


def test_lexical_rules_comments_case_and_ascii():
    t = task("(:action OPEN ; comment with é\n :parameters (?B - BOX) :effect (Open ?b))")
    assert t.actions[0].name == "open" and t.actions[0].params == (("?b", "box"),)
    with pytest.raises(PddlError, match="non-ASCII"):
        task("(:action open :parameters (?b) :effect (open ?b)) ; ok\n (:action é :effect (open b1))")
    with pytest.raises(PddlError, match="closing parenthesis"):
        read_task(DOMAIN.format(actions=OPEN) + ")", PROBLEM.format(goal="(open b1)"))


def test_empty_effect_drops_the_action_and_add_wins_over_delete():
    t = task(OPEN + "(:action noop :parameters (?b) :effect ()) "
             "(:action flip :parameters (?b) :effect (and (not (open ?b)) (open ?b)))")
    assert [a.name for a in t.actions] == ["open", "flip"]
    assert t.actions[1].effects == [((), ("and", ()), ("open", ("?b",), True))]


def test_conditions_forall_exists_imply_equality():
    acts = ("(:action a :parameters (?x ?y) :precondition (and (not (= ?x ?y)) (imply (red ?x) (at ?x ?y)) "
            "(exists (?z - box) (red ?z)) (forall (?z - tool) (not (held ?z)))) :effect (held ?x))")
    g = ground(task(acts, "(held b1)"))
    ok = sorted(a.name for a in g.actions if holds(a.pre, g.init))
    # x != y; red x implies (at x y): b1 only with b2; b2 and t1 (not red) with any other object
    assert ok == ["(a b1 b2)", "(a b2 b1)", "(a b2 t1)", "(a t1 b1)", "(a t1 b2)"]


def test_conditional_and_universal_effects_read_the_state_before():
    acts = ("(:action paint :parameters (?x) :effect (and (forall (?y - box) (when (red ?y) (not (red ?y)))) "
            "(forall (?y - box) (when (not (red ?y)) (red ?y)))))")
    g = ground(task(acts, "(red b2)"))
    s = successor(g.actions[0], g.init)
    on = {g.atoms[i] for i in range(len(g.atoms)) if s >> i & 1}
    assert ("red", ("b2",)) in on and ("red", ("b1",)) not in on


def test_dnf_of_a_condition():
    assert dnf(("or", (("lit", 0, True), ("and", (("lit", 1, True), ("lit", 2, False)))))) == [(1, 0), (2, 4)]
    assert dnf(("and", (("lit", 0, True), ("lit", 0, False)))) == []
    wide = ("and", tuple(("or", (("lit", 2 * i, True), ("lit", 2 * i + 1, True))) for i in range(10)))
    assert dnf(wide, cap=256) is None


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="()?- abxyz:;\n" + "éq", max_size=120))
def test_no_text_crashes_the_reader(text):
    try:
        read_task(DOMAIN.format(actions=text), PROBLEM.format(goal="(open b1)"))
    except PddlError:
        pass

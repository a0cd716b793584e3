"""Three-valued goal evaluation and the literals a goal forces (eai_gym.logic.bddl_backbone) on small goals,
checked against exhaustive enumeration of their atoms."""

from __future__ import annotations

import itertools
import random

import pytest

from eai_gym.logic.bddl import parse_expression
from eai_gym.logic.bddl_backbone import forced_literals
from eai_gym.logic.bddl_eval import compile_conditions

ARITY = {"ontop": 2, "inside": 2, "cooked": 1, "real": 1, "open": 1}
OBJECTS = {"apple.n.01": ["apple.n.01_1", "apple.n.01_2", "apple.n.01_3"], "plate.n.04": ["plate.n.04_1", "plate.n.04_2"]}

GOALS = {
    "exists_needs_it_in_every_case": [
        "(exists (?plate.n.04 - plate.n.04) (and (cooked ?apple.n.01_1) (ontop ?apple.n.01_1 ?plate.n.04)))"],
    "imply_and_exists_together": [  # buying_groceries' shape
        "(forall (?plate.n.04 - plate.n.04) (imply (ontop ?apple.n.01_1 ?plate.n.04_1) "
        "(not (ontop ?apple.n.01_2 ?plate.n.04))))",
        "(exists (?plate.n.04 - plate.n.04) (ontop ?apple.n.01_2 ?plate.n.04))",
        "(exists (?plate.n.04 - plate.n.04) (ontop ?apple.n.01_1 ?plate.n.04))"],
    "forn_with_one_excluded": ["(forn (2) (?apple.n.01 - apple.n.01) (cooked ?apple.n.01))",
                               "(not (cooked ?apple.n.01_1))"],
    "forpairs_row_needs_it": [  # doing_laundry's shape: one apple, its row needs the common literal
        "(forpairs (?apple.n.01 - apple.n.01) (?plate.n.04 - plate.n.04) "
        "(and (not (open ?apple.n.01)) (ontop ?apple.n.01 ?plate.n.04)))"],
    "or_of_two": ["(or (cooked ?apple.n.01_1) (cooked ?apple.n.01_2))", "(not (cooked ?apple.n.01_2))"],
}


def compiled(goals: list[str], objects: dict = OBJECTS):
    return compile_conditions([parse_expression(g).to_list() for g in goals], objects, ARITY)


def backbone_by_enumeration(conds) -> set:
    atoms = sorted({a for c in conds for a in c.atoms})
    models = [dict(zip(atoms, bits)) for bits in itertools.product((False, True), repeat=len(atoms))
              if all(c.holds(frozenset(a for a, b in zip(atoms, bits) if b)) for c in conds)]
    return {(a, models[0][a]) for a in atoms if models and all(m[a] == models[0][a] for m in models)}


@pytest.mark.parametrize("name", sorted(GOALS))
def test_three_valued_value_agrees_with_holds_and_is_undecided_only_while_it_depends(name: str) -> None:
    rng = random.Random(0)
    for cond in compiled(GOALS[name]):
        for _ in range(200):
            full = {a: rng.random() < 0.5 for a in cond.atoms}
            assert cond.value(full) == cond.holds(frozenset(a for a, v in full.items() if v))
            part = {a: v for a, v in full.items() if rng.random() < 0.5}
            verdict = cond.value(part)
            if verdict is not None:  # decided: every completion agrees
                rest = [a for a in cond.atoms if a not in part]
                for bits in itertools.product((False, True), repeat=len(rest)):
                    facts = frozenset([a for a, v in part.items() if v] + [a for a, b in zip(rest, bits) if b])
                    assert cond.holds(facts) == verdict


@pytest.mark.parametrize("name", sorted(GOALS))
def test_forced_literals_are_exactly_the_backbone_on_small_goals(name: str) -> None:
    conds = compiled(GOALS[name])
    assert set(forced_literals(conds)) == backbone_by_enumeration(conds)


def test_forced_literals_go_beyond_the_syntax() -> None:
    conds = compiled(GOALS["imply_and_exists_together"])
    forced = set(forced_literals(conds))
    assert (("ontop", "apple.n.01_1", "plate.n.04_1"), False) in forced  # only the two conditions together say so
    assert (("ontop", "apple.n.01_1", "plate.n.04_2"), True) in forced
    assert not any(c.necessary_literals() for c in conds)
    [every_case] = compiled(GOALS["exists_needs_it_in_every_case"])
    assert forced_literals([every_case]) == [(("cooked", "apple.n.01_1"), True)]


def test_an_unsatisfiable_goal_or_no_budget_gives_the_necessary_literals_only() -> None:
    conds = compiled(["(cooked ?apple.n.01_1)", "(not (cooked ?apple.n.01_1))"])
    assert forced_literals(conds) == [(("cooked", "apple.n.01_1"), False), (("cooked", "apple.n.01_1"), True)]
    conds = compiled(GOALS["forn_with_one_excluded"])
    assert forced_literals(conds, budget=0) == [(("cooked", "apple.n.01_1"), False)]
    assert (("cooked", "apple.n.01_3"), True) in forced_literals(conds)

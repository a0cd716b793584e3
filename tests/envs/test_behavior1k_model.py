"""BEHAVIOR-1K world semantics read from the knowledge base: removers' default conditions, entities outside the
activity's scope that rules pass through, rules whose source is a cold source, removers soaking up what lands on
them, stacking inside a container; and the planner's estimate."""

from __future__ import annotations

import pytest

from eai_gym.builders.behavior1k.heuristic import distance
from eai_gym.core import Episode
from eai_gym.envs.behavior1k.goals import activity_goal
from eai_gym.envs.behavior1k.gold import gold_data
from eai_gym.envs.behavior1k.kb import activity_kb
from eai_gym.envs.behavior1k.world import Behavior1KWorld, initial_state, load_task


def play(activity: str, steps: list[str]):
    """The episode after ``steps`` and their step records."""
    ep = Episode(Behavior1KWorld(), activity, load_task(activity).initial_state)
    return ep, [ep.step_text(s) for s in steps]


def test_remover_conditions_fall_back_to_the_defaults_of_the_substance_kind() -> None:
    kb = activity_kb("clean_an_office_chair")
    params = kb.param("hand_towel.n.01_1", "particleRemover")
    assert "lint.n.01" not in params["conditions"]  # not listed: the visual-substance default applies
    assert kb.remover_conditions("hand_towel.n.01_1", "lint.n.01_1") == params["default_visual_conditions"]
    assert kb.remover_conditions("hand_towel.n.01_1", "dust.n.01_1") == params["conditions"]["dust.n.01"]
    assert kb.remover_conditions("swivel_chair.n.01_1", "lint.n.01_1") is None  # no remover at all
    kb = activity_kb("clean_gourds")  # a remover the knowledge base gives no parameters removes nothing
    assert kb.has("napkin.n.01_1", "particleRemover") and kb.param("napkin.n.01_1", "particleRemover") == {}
    assert kb.remover_conditions("napkin.n.01_1", "dust.n.01_1") is None
    kb = activity_kb("cleaning_driveway")  # brooms list bunchgrass with null: never, whatever the defaults
    assert kb.param("broom.n.01_1", "particleRemover")["conditions"]["bunchgrass.n.01"] is None
    assert kb.remover_conditions("broom.n.01_1", "bunchgrass.n.01_1") is None


def test_wipe_removes_a_substance_through_the_default_conditions() -> None:
    ep, recs = play("clean_an_office_chair", ["GRASP(hand_towel.n.01_1)", "WIPE(swivel_chair.n.01_1)"])
    assert all(r.ok for r in recs), [r.message for r in recs]
    assert not ep.state.has("covered", "swivel_chair.n.01_1", "lint.n.01_1")


def test_undeclared_intermediates_start_future_and_a_cut_chain_makes_the_diced_form() -> None:
    kb = activity_kb("chop_an_onion")
    assert kb.hidden == {"half__vidalia_onion.n.01": ["half__vidalia_onion.n.01_1", "half__vidalia_onion.n.01_2"]}
    start = initial_state("chop_an_onion")
    assert start.has("future", "half__vidalia_onion.n.01_1") and not start.real("half__vidalia_onion.n.01_1")
    assert "half__vidalia_onion.n.01_1" not in activity_goal("chop_an_onion").declared  # bddl never reads it
    ep, recs = play("chop_an_onion", [
        "GRASP(bowl.n.01_1)", "PLACE_ON_TOP(countertop.n.01_1)", "GRASP(vidalia_onion.n.01_1)",
        "PLACE_INSIDE(bowl.n.01_1)", "GRASP(parer.n.02_1)", "CUT(vidalia_onion.n.01_1)",
        "CUT(half__vidalia_onion.n.01_1)"])
    assert all(r.ok for r in recs), [r.message for r in recs]
    s = ep.state
    assert not s.real("vidalia_onion.n.01_1") and s.real("half__vidalia_onion.n.01_2")
    assert not s.real("half__vidalia_onion.n.01_1") and s.real("diced__vidalia_onion.n.01_1")
    assert s.has("contains", "bowl.n.01_1", "diced__vidalia_onion.n.01_1")


def test_intermediates_are_only_what_a_goal_chain_needs() -> None:
    assert activity_kb("loading_the_car").hidden == {}
    assert "sugar_cookie_dough.n.01" in activity_kb("baking_sugar_cookies").hidden


def test_a_rule_whose_source_is_a_cold_source_fires_in_it() -> None:
    task = load_task("make_ice")
    ep, recs = play("make_ice", [
        "GRASP(icetray.n.02_1)", "FILL(sink.n.01_1)", "PLACE_INSIDE(deep-freeze.n.02_1)"])
    assert all(r.ok for r in recs), [r.message for r in recs]
    assert all(ep.state.real(f"ice_cube.n.01_{k}") for k in range(1, 7))  # the water in the tray froze
    assert not ep.state.has("contains", "icetray.n.02_1", "water.n.06_1")
    assert all(task.goal.evaluate(ep.state.facts))


def test_a_remover_soaks_up_what_is_poured_or_sprayed_on_it() -> None:
    ep, recs = play("watering_outdoor_flowers", ["GRASP(watering_can.n.01_1)", "APPLY(pot_plant.n.01_1)"])
    assert all(r.ok for r in recs)
    assert ep.state.has("saturated", "pot_plant.n.01_1", "water.n.06_1")
    assert ep.state.has("covered", "pot_plant.n.01_1", "water.n.06_1")


def test_placing_on_top_of_something_inside_a_container_is_inside_it() -> None:
    ep, recs = play("sorting_books_on_shelf", [
        "GRASP(notebook.n.01_1)", "PLACE_INSIDE(bookcase.n.01_1)", "GRASP(notebook.n.01_2)",
        "PLACE_ON_TOP(notebook.n.01_1)"])
    assert all(r.ok for r in recs), [r.message for r in recs]
    assert ep.state.has("inside", "notebook.n.01_2", "bookcase.n.01_1")
    assert ep.state.has("ontop", "notebook.n.01_2", "notebook.n.01_1")


@pytest.mark.parametrize("activity", ["clearing_table_after_supper", "moving_boxes_to_storage", "make_ice",
                                      "sorting_books_on_shelf", "prepare_a_breakfast_bar"])
def test_planner_estimate_is_zero_exactly_at_the_goal(activity: str) -> None:
    plans = gold_data()["plans"]
    if activity not in plans:
        pytest.skip("no packaged plan")
    world = Behavior1KWorld()
    task = load_task(activity)
    ep = Episode(world, activity, task.initial_state)
    assert distance(ep.state) > 0
    for step in plans[activity]:
        assert ep.step_text(step).ok
        assert (distance(ep.state) == 0) == all(task.goal.evaluate(ep.state.facts))
    assert distance(ep.state) == 0


def _after(activity: str, steps: list[str]):
    ep, recs = play(activity, steps)
    assert all(r.ok for r in recs), [r.message for r in recs]
    return ep.state


def test_estimate_of_a_melted_substance_falls_step_by_step_as_its_object_goes_into_a_closed_heat_source() -> None:
    from eai_gym.builders.behavior1k.heuristic import make_cost

    kb = activity_kb("make_cookie_dough")
    steps = ["OPEN(microwave.n.02_1)", "GRASP(butter.n.01_1)", "PLACE_INSIDE(microwave.n.02_1)",
             "CLOSE(microwave.n.02_1)"]
    costs = [make_cost(kb, _after("make_cookie_dough", steps[:k]), "melted__butter.n.01_1") for k in range(5)]
    assert costs == sorted(costs, reverse=True) and len(set(costs)) == 5, costs
    assert costs[-1] == 1.0  # only switching the microwave on is left
    assert costs[0] < 12.0  # not the flat cost of a synset no rule is known to make


def test_a_cold_source_is_no_place_to_cook_or_melt_a_substance() -> None:
    from eai_gym.builders.behavior1k.heuristic import make_cost

    # the grated cheese starts in a tupperware inside the refrigerator (a cold source)
    kb = activity_kb("making_a_snack")
    s = initial_state("making_a_snack")
    assert s.has("inside", "tupperware.n.01_2", "electric_refrigerator.n.01_1")
    assert make_cost(kb, s, "melted__grated_cheese.n.01_1") >= 4.0  # take it out, into the microwave, close, on


def test_heat_reaches_what_is_in_a_pan_on_the_stove_in_the_estimate_too() -> None:
    from eai_gym.builders.behavior1k.heuristic import literal_cost

    kb = activity_kb("make_garlic_mushrooms")
    cooked = ("cooked", "mushroom.n.05_1")
    apart = _after("make_garlic_mushrooms", ["OPEN(cabinet.n.01_1)", "OPEN(electric_refrigerator.n.01_1)"])
    in_pan = _after("make_garlic_mushrooms", [
        "OPEN(cabinet.n.01_1)", "OPEN(electric_refrigerator.n.01_1)", "GRASP(frying_pan.n.01_1)",
        "PLACE_ON_TOP(stove.n.01_1)", "GRASP(mushroom.n.05_1)", "PLACE_INSIDE(frying_pan.n.01_1)"])
    assert literal_cost(kb, apart, cooked, True) == 3.0  # grasp, place on the stove, switch it on
    assert literal_cost(kb, in_pan, cooked, True) == 1.0  # switch the stove on


def test_making_a_thing_the_goal_names_never_raises_the_estimate() -> None:
    from eai_gym.builders.behavior1k.planner import estimate

    steps = ["OPEN(electric_refrigerator.n.01_1)", "OPEN(cabinet.n.01_1)", "GRASP(carving_knife.n.01_1)"]
    steps += [f"CUT(mushroom.n.05_{i})" for i in range(1, 6)]
    values = [estimate(_after("make_garlic_mushrooms", steps[:k])) for k in range(3, len(steps) + 1)]
    assert all(b < a for a, b in zip(values, values[1:])), values  # each cut makes two of the goal's halves


@pytest.mark.parametrize("activity", [
    "make_cookie_dough", "making_a_snack",  # an input melted in a closed heat source
    "buying_groceries",  # a literal two conjuncts force together (the milk not in the first sack)
    "doing_laundry",  # a literal a forpairs forces (the blouse dry), a goal atom false again as a novelty
    "make_edible_chocolate_chip_cookie_dough",  # an input cooked outside the mixer whose dough must stay raw
])
def test_planner_finds_plans_the_search_once_gave_up_on(activity: str) -> None:
    from eai_gym.builders.behavior1k.planner import plan

    result = plan(activity, max_nodes=15_000)
    assert result.plan is not None, result.reason
    ep, recs = play(activity, list(result.plan))
    assert all(r.ok for r in recs)
    assert all(load_task(activity).goal.evaluate(ep.state.facts))


def test_goal_literals_forced_through_choices_and_by_conjuncts_together() -> None:
    from eai_gym.envs.behavior1k.goals import goal_forced_literals, joint_goal_literals

    assert (("inside", "carton__of__milk.n.01_1", "sack.n.01_1"), False) in joint_goal_literals("buying_groceries")
    # forpairs over one blouse and two hangers: its row needs the blouse dry whichever hanger
    assert (("saturated", "blouse.n.01_1", "water.n.06_1"), False) in goal_forced_literals("doing_laundry")
    assert joint_goal_literals("doing_laundry") == ()


def test_a_literal_every_case_of_a_choice_needs_gets_a_static_reason() -> None:
    from eai_gym.builders.behavior1k.diagnose import unreachable

    # each casserole the exists may pick needs both chicken legs hot; the activity declares no heat source
    assert unreachable("set_up_a_buffet") == "('hot', 'chicken_leg.n.01_1'): the activity declares no heat source"

"""BEHAVIOR-1K dynamics taken from OmniGibson's behaviour: the clothes dryer (DryerRule), scooping physical
substances, standing beside a fixture, recipe outputs on their container."""

from __future__ import annotations

from eai_gym.builders.behavior1k.diagnose import unreachable
from eai_gym.core import Episode
from eai_gym.envs.behavior1k.kb import activity_kb
from eai_gym.envs.behavior1k.world import Behavior1KWorld, load_task

WASH = ["OPEN(washer.n.03_1)", "OPEN(clothes_dryer.n.01_1)", "GRASP(necktie.n.01_1)", "PLACE_INSIDE(washer.n.03_1)",
        "GRASP(detergent__bottle.n.01_1)", "POUR(washer.n.03_1)", "RELEASE()", "CLOSE(washer.n.03_1)",
        "TOGGLE_ON(washer.n.03_1)", "OPEN(washer.n.03_1)", "GRASP(necktie.n.01_1)",
        "PLACE_INSIDE(clothes_dryer.n.01_1)", "CLOSE(clothes_dryer.n.01_1)"]


def play(activity: str, steps: list[str]):
    world = Behavior1KWorld()
    task = load_task(activity)
    ep = Episode(world, activity, task.initial_state)
    recs = [ep.step_text(s) for s in steps]
    assert all(r.ok for r in recs), [(r.action, r.message) for r in recs if not r.ok]
    return ep, world.goal_status(ep.trajectory, task.goal).success


def test_the_washer_wets_and_a_closed_dryer_switched_on_dries() -> None:
    ep, done = play("clean_a_tie", WASH)
    s = ep.state
    assert not s.has("covered", "necktie.n.01_1", "stain.n.01_1")  # the detergent in the washer took it off
    assert s.real("water.n.06_1") and s.has("covered", "necktie.n.01_1", "water.n.06_1")  # the washer made water
    assert not done
    ep, done = play("clean_a_tie", WASH + ["TOGGLE_ON(clothes_dryer.n.01_1)"])
    assert not ep.state.has("covered", "necktie.n.01_1", "water.n.06_1") and done


def test_an_open_dryer_does_not_dry() -> None:
    steps = WASH[:-1] + ["TOGGLE_ON(clothes_dryer.n.01_1)"]
    ep, done = play("clean_a_tie", steps)
    assert ep.state.has("covered", "necktie.n.01_1", "water.n.06_1") and not done


def test_saturation_with_water_is_no_static_dead_end_with_a_dryer() -> None:
    assert unreachable("clean_a_sauna_suit") is None


def test_fill_scoops_a_physical_substance_but_not_a_visual_one() -> None:
    ep, done = play("disposing_of_lawn_clippings", ["GRASP(compost_bin.n.01_1)", "FILL(lawn.n.01_1)"])
    s = ep.state
    assert not s.has("covered", "lawn.n.01_1", "bunchgrass.n.01_1")
    assert s.has("contains", "compost_bin.n.01_1", "bunchgrass.n.01_1") and done
    world, task = Behavior1KWorld(), load_task("clean_a_tie")  # a stain is visual: it cannot be scooped up
    assert not activity_kb("clean_a_tie").has("stain.n.01_1", "physicalSubstance")
    ep = Episode(world, "clean_a_tie", task.initial_state)
    assert ep.step_text("GRASP(detergent__bottle.n.01_1)").ok
    step = ep.step_text("FILL(necktie.n.01_1)")
    assert not step.ok and step.error.value == "missing_step"
    assert ep.state.has("covered", "necktie.n.01_1", "stain.n.01_1")

def test_placed_next_to_a_fixture_stands_on_its_room_floor_and_touches_it() -> None:
    ep, done = play("bringing_in_kindling", [
        f"{a}(firewood.n.01_{k})" if a == "GRASP" else "PLACE_NEXT_TO(wood_fireplace.n.01_1)"
        for k in (1, 2, 3) for a in ("GRASP", "PLACE")])
    s = ep.state
    assert s.has("ontop", "firewood.n.01_1", "floor.n.01_2") and s.has("touching", "firewood.n.01_1", "floor.n.01_2")
    assert done


def test_a_room_without_a_floor_synset_has_the_agents_ground_as_floor() -> None:
    assert activity_kb("hiding_Easter_eggs").floor_of_room == {"garden": "lawn.n.01_1"}


def test_recipe_outputs_stand_on_the_container_their_inputs_stood_on() -> None:
    from eai_gym.builders.behavior1k.planner import plan

    found = plan("baking_cookies_for_the_PTA_bake_sale", max_nodes=4000).plan
    assert found is not None
    ep, done = play("baking_cookies_for_the_PTA_bake_sale", list(found))
    assert done and ep.state.has("ontop", "sugar_cookie.n.01_1", "cookie_sheet.n.01_1")
    assert not ep.state.has("inside", "sugar_cookie.n.01_1", "cookie_sheet.n.01_1")



def test_next_to_goals_no_placement_can_make_have_a_static_reason() -> None:
    assert "both are fixtures" in (unreachable("getting_organized_for_work") or "")  # a desk and a swivel chair
    # the napkin on the table next to the upper of two stacked plates
    reason = unreachable("set_a_dinner_table") or ""
    assert "napkin.n.01_1 and plate.n.04_2 must be next to each other" in reason and "same thing" in reason
    assert "on top of both half__eggplant.n.01_1 and half__eggplant.n.01_2" in (unreachable("cook_eggplant") or "")
    for activity in ("bringing_in_kindling", "organizing_school_stuff", "setting_up_garden_furniture"):
        assert unreachable(activity) is None, activity  # a triangle of nextto is no longer a static reason


def test_place_next_to_group_joins_the_targets_neighbours() -> None:
    ep, done = play("organizing_school_stuff", ["GRASP(backpack.n.01_1)", "PLACE_NEXT_TO(book.n.02_1)",
                                                "GRASP(folder.n.02_1)", "PLACE_NEXT_TO_GROUP(backpack.n.01_1)"])
    s = ep.state
    for x, y in (("folder.n.02_1", "book.n.02_1"), ("folder.n.02_1", "backpack.n.01_1"),
                 ("book.n.02_1", "backpack.n.01_1")):
        assert s.has("nextto", x, y) and s.has("nextto", y, x), (x, y)
    assert s.has("ontop", "folder.n.02_1", "bed.n.01_1") and s.held is None  # where the backpack stands
    assert ep.step_text("GRASP(book.n.02_1)").ok  # picking one up drops its nextto, the others keep theirs
    assert not ep.state.has("nextto", "folder.n.02_1", "book.n.02_1")
    assert ep.state.has("nextto", "folder.n.02_1", "backpack.n.01_1")


def test_place_next_to_group_needs_a_target_next_to_something() -> None:
    world, task = Behavior1KWorld(), load_task("organizing_school_stuff")
    ep = Episode(world, "organizing_school_stuff", task.initial_state)
    assert ep.step_text("GRASP(pen.n.01_1)").ok
    step = ep.step_text("PLACE_NEXT_TO_GROUP(calculator.n.02_1)")
    assert not step.ok and step.error.value == "missing_step" and ep.state.held == "pen.n.01_1"


def test_plain_place_next_to_is_next_to_its_target_only() -> None:
    # set_a_fancy_table's goal forbids the fork next to the tablespoon, both next to the plate
    ep, _ = play("set_a_fancy_table", ["GRASP(tablespoon.n.02_1)", "PLACE_NEXT_TO(plate.n.04_1)",
                                       "GRASP(tablefork.n.01_1)", "PLACE_NEXT_TO(plate.n.04_1)"])
    s = ep.state
    assert s.has("nextto", "tablefork.n.01_1", "plate.n.04_1") and s.has("nextto", "tablespoon.n.02_1", "plate.n.04_1")
    assert not s.has("nextto", "tablefork.n.01_1", "tablespoon.n.02_1")


def test_an_object_put_into_a_container_filled_with_a_liquid_is_covered_by_it() -> None:
    ep, _ = play("buy_and_clean_mussels", ["GRASP(mussel.n.01_1)", "PLACE_INSIDE(mixing_bowl.n.01_1)"])
    assert ep.state.has("covered", "mussel.n.01_1", "water.n.06_1")
    ep, _ = play("buy_and_clean_mussels", ["GRASP(mussel.n.01_1)", "PLACE_ON_TOP(mixing_bowl.n.01_1)"])
    assert not ep.state.has("covered", "mussel.n.01_1", "water.n.06_1")


def test_a_conjunct_that_only_a_moved_fixture_could_satisfy_has_a_static_reason() -> None:
    # exactly one plate must have the refrigerator inside it (bddl's goal swaps the arguments): a fixture never moves
    assert "goal conjunct 1 cannot hold" in (unreachable("clearing_table_after_breakfast") or "")


def test_a_meltable_substance_melts_in_a_heated_container() -> None:
    ep, _ = play("making_a_snack", ["OPEN(electric_refrigerator.n.01_1)", "OPEN(microwave.n.02_1)",
                                    "GRASP(tupperware.n.01_2)", "PLACE_INSIDE(microwave.n.02_1)",
                                    "CLOSE(microwave.n.02_1)", "TOGGLE_ON(microwave.n.02_1)"])
    s = ep.state
    assert s.real("melted__grated_cheese.n.01_1") and s.has("contains", "tupperware.n.01_2",
                                                            "melted__grated_cheese.n.01_1")
    assert not s.has("contains", "tupperware.n.01_2", "grated_cheese.n.01_1")


def test_a_source_that_requires_inside_acts_only_on_what_is_inside_it() -> None:
    """OmniGibson's HeatSourceOrSink with ``requires_inside`` (oven, microwave, refrigerator) affects only the
    objects inside it: a ham on top of a switched-on oven stays uncooked; inside the closed oven it cooks."""
    on_top = ["OPEN(electric_refrigerator.n.01_1)", "TOGGLE_ON(oven.n.01_1)", "GRASP(virginia_ham.n.01_1)", "PLACE_ON_TOP(oven.n.01_1)"]
    ep, _ = play("cook_a_ham", on_top)
    assert not ep.state.has("cooked", "virginia_ham.n.01_1") and not ep.state.has("hot", "virginia_ham.n.01_1")
    inside = ["OPEN(electric_refrigerator.n.01_1)", "OPEN(oven.n.01_1)", "GRASP(virginia_ham.n.01_1)", "PLACE_INSIDE(oven.n.01_1)", "CLOSE(oven.n.01_1)",
              "TOGGLE_ON(oven.n.01_1)"]
    ep, _ = play("cook_a_ham", inside)
    assert ep.state.has("cooked", "virginia_ham.n.01_1")
    ep, _ = play("cook_a_ham", inside[:4] + ["TOGGLE_ON(oven.n.01_1)"])  # left open: requires_closed
    assert not ep.state.has("cooked", "virginia_ham.n.01_1")

"""The BEHAVIOR-1K world and env: actions, the error taxonomy, the rules, the exact legal mask, the metric hooks."""

from __future__ import annotations

import random

import gymnasium as gym
import numpy as np
import pytest

import eai_gym  # noqa: F401  (registers the ids)
from eai_gym.core import Episode, UnknownTaskError
from eai_gym.envs.behavior1k import check_goal
from eai_gym.envs.behavior1k.env import Behavior1KEnv
from eai_gym.envs.behavior1k.gold import gold_data
from eai_gym.envs.behavior1k.world import Behavior1KWorld, initial_state, load_task
from eai_gym.wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors


def run(activity: str, steps: list[str]):
    world = Behavior1KWorld()
    task = load_task(activity)
    ep = Episode(world, activity, task.initial_state)
    records = [ep.step_text(s) for s in steps]
    return world, task, ep, records


def test_loading_the_car_plan_and_error_classes() -> None:
    world, task, ep, recs = run("loading_the_car", [
        "GRASP(digital_camera.n.01_1)", "PLACE_INSIDE(container.n.01_1)", "GRASP(container.n.01_1)",
        "PLACE_INSIDE(car.n.01_1)",  # the car is closed
        "OPEN(car.n.01_1)",  # the hand is full
        "RELEASE()", "OPEN(car.n.01_1)", "OPEN(car.n.01_1)", "GRASP(container.n.01_1)",
        "PLACE_INSIDE(car.n.01_1)", '{"action": "GRASP", "object": "tennis_racket.n.01_1"}',
        "PLACE_INSIDE(car.n.01_1)", "FLY(car.n.01_1)", "GRASP(car.n.01_9)", "GRASP(car.n.01_1, table.n.02_1)",
        "grasp the car", "TOGGLE_ON(car.n.01_1)", "GRASP(water.n.06_1)",
    ])
    errors = [None if r.ok else r.error.value for r in recs]
    assert errors == [None, None, None, "missing_step", "missing_step", None, None, "additional_step", None, None,
                      None, None, "hallucination", "hallucination", "arguments", "parsing", "affordance",
                      "hallucination"]
    assert "closed" in recs[3].message and "must be empty" in recs[4].message
    assert world.goal_status(ep.trajectory, task.goal).success
    assert check_goal("loading_the_car", ep.state.to_list())["satisfied"]


def test_cut_makes_the_declared_halves_and_consumes_the_whole() -> None:
    _, task, ep, recs = run("halve_an_egg", ["CUT(hard-boiled_egg.n.01_1)", "GRASP(countertop.n.01_1)",
                                             "GRASP(carving_knife.n.01_1)", "CUT(hard-boiled_egg.n.01_1)"])
    assert [r.ok for r in recs] == [False, False, True, True]
    assert recs[0].error.value == "missing_step"
    assert recs[1].error.value == "affordance" and "fixture" in recs[1].message
    facts = ep.state.facts
    assert ("future", "hard-boiled_egg.n.01_1") in facts and ("real", "hard-boiled_egg.n.01_1") not in facts
    assert {("real", "half__hard-boiled_egg.n.01_1"), ("real", "half__hard-boiled_egg.n.01_2")} <= facts
    assert check_goal("halve_an_egg", ep.state.to_list())["satisfied"]


def test_wipe_cleans_the_target_with_a_saturated_tool() -> None:
    # rag + water removes mud; stain needs a solvent the activity must declare
    world, task, ep, recs = run("clean_rubber", [
        "GRASP(rag.n.01_1)", "WIPE(hose.n.03_1)", "SOAK_INSIDE(bucket.n.01_1)", "WIPE(hose.n.03_1)",
        "SOAK_INSIDE(liquid_soap__bottle.n.01_1)", "WIPE(hose.n.03_1)"])
    assert [r.ok for r in recs] == [True, False, True, True, True, True]
    assert "saturated" in recs[1].message
    assert not ep.state.has("covered", "hose.n.03_1", "mud.n.03_1")
    assert not ep.state.has("covered", "hose.n.03_1", "stain.n.01_1")
    assert ep.state.has("saturated", "rag.n.01_1", "water.n.06_1")  # the tool stays saturated
    assert world.goal_status(ep.trajectory, task.goal).success


def test_a_toggled_on_machine_fires_its_recipe() -> None:
    steps = ["OPEN(cabinet.n.01_1)", "OPEN(electric_refrigerator.n.01_1)", "OPEN(blender.n.01_1)"]
    for src in ("cinnamon__shaker.n.01_1", "milk__carton.n.01_1", "nutmeg__shaker.n.01_1", "rum__bottle.n.01_1",
                "sugar__sack.n.01_1", "vanilla__bottle.n.01_1"):
        steps += [f"GRASP({src})", "POUR(blender.n.01_1)", "RELEASE()"]
    steps += ["GRASP(raw_egg.n.01_1)", "PLACE_INSIDE(blender.n.01_1)"]
    _, _, ep, recs = run("make_eggnog", steps)
    assert all(r.ok for r in recs), [(r.raw, r.message) for r in recs if not r.ok]
    assert ("future", "eggnog.n.01_1") in ep.state.facts
    _, _, ep2, recs2 = run("make_eggnog", steps + ["TOGGLE_ON(blender.n.01_1)"])
    facts = ep2.state.facts
    assert ("real", "eggnog.n.01_1") in facts and ("contains", "blender.n.01_1", "eggnog.n.01_1") in facts
    assert ("future", "raw_egg.n.01_1") in facts  # used up
    assert ("contains", "blender.n.01_1", "rum.n.01_1") not in facts


def test_heat_source_cooks_what_is_inside_when_on_and_closed() -> None:
    steps = ["OPEN(oven.n.01_1)", "GRASP(cookie_sheet.n.01_1)", "PLACE_INSIDE(oven.n.01_1)",
             "TOGGLE_ON(oven.n.01_1)"]
    _, _, ep, recs = run("cook_broccolini", steps)
    assert all(r.ok for r in recs)
    assert ("cooked", "broccolini.n.01_1") not in ep.state.facts  # open oven: not active
    _, task, ep, recs = run("cook_broccolini", steps + ["CLOSE(oven.n.01_1)"])
    assert ("cooked", "broccolini.n.01_1") in ep.state.facts and ("hot", "broccolini.n.01_1") in ep.state.facts
    assert check_goal("cook_broccolini", ep.state.to_list())["satisfied"]
    _, _, ep, recs = run("cook_broccolini", steps + ["CLOSE(oven.n.01_1)", "TOGGLE_OFF(oven.n.01_1)", "WAIT()"])
    assert ("hot", "broccolini.n.01_1") not in ep.state.facts and ("cooked", "broccolini.n.01_1") in ep.state.facts


def test_unknown_activity_and_bad_options() -> None:
    with pytest.raises(UnknownTaskError, match="no_such_activity"):
        Behavior1KEnv(activity="no_such_activity")
    env = Behavior1KEnv()
    with pytest.raises(UnknownTaskError, match="nope"):
        env.reset(options={"activity": "nope"})
    with pytest.raises(ValueError, match="protocol"):
        Behavior1KEnv(protocol="fixed")


@pytest.mark.parametrize("activity", ["loading_the_car", "make_eggnog", "clean_rubber", "cook_broccolini",
                                      "chop_an_onion", "make_ice"])
def test_index_mask_is_exact_along_a_random_walk(activity: str) -> None:
    env = gym.make("eai_gym/Behavior1K-v0", action_mode="index", terminate_on_success=False)
    _, info = env.reset(seed=0, options={"activity": activity})
    base = env.unwrapped
    rng = random.Random(0)
    for _ in range(15):
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (base.action_space.n,)
        for i, action in enumerate(base.actions):  # every entry: legal iff stepping it succeeds
            out = base.world.try_action(base.episode.state, action)
            assert bool(mask[i]) == (not hasattr(out, "error")), (action, out)
        assert not mask[len(base.actions):].any()
        _, _, term, trunc, info = env.step(rng.choice(np.flatnonzero(mask)))
        assert info["step"]["ok"]


def test_reset_picks_by_seed_and_by_option() -> None:
    env = gym.make("eai_gym/Behavior1K-v0")
    _, a = env.reset(seed=5)
    _, b = env.reset(seed=5)
    assert a["task_id"] == b["task_id"]
    _, c = env.reset(options={"activity": "halve_an_egg"})
    assert c["task_id"] == "halve_an_egg" and c["goal"] == {"success": False, "conditions": [0, 2]}


def test_metric_wrappers_follow_the_goal_conjuncts() -> None:
    env = GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(gym.make("eai_gym/Behavior1K-v0")))))
    _, info = env.reset(options={"activity": "halve_an_egg"})
    assert info["progress_rate"]["value"] == 0.0
    for step in ["GRASP(carving_knife.n.01_1)", "OPEN(carving_knife.n.01_1)", "CUT(hard-boiled_egg.n.01_1)"]:
        _, reward, terminated, _, info = env.step(step)
    assert terminated and reward == 1.0
    assert info["goal_success"]["success"] is True
    assert info["progress_rate"]["value"] == 1.0
    assert info["trajectory_errors"]["summary"]["counts"]["affordance"] == 1
    assert all(p["holds"] for p in info["proposition_log"]["propositions"])


def test_initial_state_is_the_init_with_existence() -> None:
    s = initial_state("halve_an_egg")
    assert ("real", "hard-boiled_egg.n.01_1") in s.facts and ("real", "half__hard-boiled_egg.n.01_1") not in s.facts
    assert not any(f[0] == "inroom" for f in s.facts)
    assert check_goal("halve_an_egg", s.to_list()) == {"satisfied": False, "conditions": [False, False]}


def test_every_packaged_gold_plan_reaches_its_goal() -> None:
    plans = gold_data()["plans"]
    if not plans:
        pytest.skip("no packaged gold plans")
    world = Behavior1KWorld()
    for activity, steps in sorted(plans.items()):
        task = load_task(activity)
        ep = Episode(world, activity, task.initial_state)
        for text in steps:
            assert ep.step_text(text).ok, (activity, text)
        assert world.goal_status(ep.trajectory, task.goal).success, activity


@pytest.mark.parametrize("activity, words", [
    ("cleaning_freezer", "no declared object removes stain.n.01"),
    ("make_waffles", "no transition rule or cut makes waffle.n.01"),
    ("baking_sugar_cookies", "no transition rule or cut makes sugar_cookie.n.01"),  # the dough needs 2 eggs, 1 declared
    ("fixing_broken_chair", "no action or rule repairs a broken object"),
    ("vacuuming_vehicles", "car.n.01_1 is a fixture"),
    ("mowing_the_lawn", "no container the agent can carry to scoop it up"),
])
def test_static_reasons_for_unsolvable_activities(activity: str, words: str) -> None:
    from eai_gym.builders.behavior1k.diagnose import unreachable

    assert words in (unreachable(activity) or "")


@pytest.mark.parametrize("activity", ["loading_the_car", "halve_an_egg", "make_eggnog", "cook_chickpeas",
                                      "disposing_of_lawn_clippings",  # a container scoops up the clippings
                                      "organizing_school_stuff", "setting_up_for_an_event",  # PLACE_NEXT_TO_GROUP
                                      "stacking_wood"])  # its goal is unsatisfiable, but no check names it
def test_solvable_activities_have_no_static_reason(activity: str) -> None:
    from eai_gym.builders.behavior1k.diagnose import unreachable

    assert unreachable(activity) is None


def test_no_activity_with_a_packaged_plan_has_a_static_reason() -> None:
    from eai_gym.builders.behavior1k.diagnose import unreachable

    plans = gold_data()["plans"]
    if not plans:
        pytest.skip("no packaged gold plans")
    assert [a for a in sorted(plans) if unreachable(a)] == []

"""Semantics of the VirtualHome transition model on real tasks."""

from __future__ import annotations

import pytest

from eai_gym.core import Episode, ErrorType
from eai_gym.envs.virtualhome import VirtualHomeWorld, load_task
from eai_gym.envs.virtualhome.dynamics import int_set_order


def run(task_id, lines, protocol="fixed"):
    world = VirtualHomeWorld(protocol)
    task = load_task(task_id)
    ep = Episode(world, task_id, task.initial_state)
    steps = [ep.step_text(line) for line in lines]
    return ep, steps


def test_walk_moves_character_and_held_objects():
    ep, steps = run("27_2", ["[WALK] <dining_room> (201)", "[FIND] <soap> (1002)", "[GRAB] <soap> (1002)",
                             "[WALK] <bathroom> (1)"])
    assert all(s.ok for s in steps)
    s = ep.state
    assert s.targets(65, "INSIDE") == {1}
    assert 1002 in s.targets(65, "HOLDS_RH")
    assert 1002 in s.targets(65, "CLOSE") and 65 in s.targets(1002, "CLOSE")
    # held objects are placed in the room the character left (the simulator's behaviour)
    assert s.targets(1002, "INSIDE") == {201}


def test_states_are_values():
    ep, _ = run("27_2", ["[WALK] <dining_room> (201)"])
    first, second = ep.trajectory.states
    assert first is not second
    assert first.targets(65, "INSIDE") != second.targets(65, "INSIDE")
    assert first == load_task("27_2").initial_state


def test_sitting_blocks_walk_and_wrong_order_is_detected():
    # in 180_2 the character starts sitting: walking first is a missing step (it never stood)
    _, steps = run("180_2", ["[WALK] <dining_room> (201)"])
    assert steps[0].error is ErrorType.MISSING_STEP
    assert steps[0].details["connective"] == "and"
    # after standing up and sitting down again, "not sitting" held earlier: wrong order
    _, steps = run("180_2", ["[STANDUP]", "[WALK] <bench> (227)", "[SIT] <bench> (227)",
                             "[WALK] <dining_room> (201)"])
    assert [s.ok for s in steps[:3]] == [True, True, True]
    assert steps[-1].error is ErrorType.WRONG_ORDER


def test_missing_step_without_history_is_missing():
    _, steps = run("11_1", ["[SWITCHON] <floor_lamp> (1000)"])
    assert steps[0].error is ErrorType.MISSING_STEP
    _, steps = run("11_1", ["[WALK] <floor_lamp> (1000)", "[WALK] <bedroom> (67)", "[SWITCHON] <floor_lamp> (1000)"])
    assert steps[-1].error is ErrorType.WRONG_ORDER


def test_additional_step_is_skipped():
    ep, steps = run("11_1", ["[WALK] <floor_lamp> (1000)", "[SWITCHON] <floor_lamp> (1000)",
                             "[SWITCHON] <floor_lamp> (1000)"])
    assert steps[-1].error is ErrorType.ADDITIONAL_STEP and not steps[-1].fatal
    assert ep.trajectory.states[-1] is ep.trajectory.states[-2]


def test_putobjback_protocols():
    lines = ["[WALK] <floor_lamp> (1000)", "[PUTOBJBACK] <floor_lamp> (1000)"]
    _, steps = run("11_1", lines, "eai-1.0.5")
    assert "reference_abort" in steps[-1].details
    _, steps = run("11_1", lines, "fixed")
    assert steps[-1].error is ErrorType.MISSING_STEP and "reference_abort" not in steps[-1].details


def test_lookat_variants():
    lines = ["[WALK] <floor_lamp> (1000)", "[TURNTO] <floor_lamp> (1000)", "[LOOKAT_SHORT] <floor_lamp> (1000)"]
    assert run("11_1", lines, "fixed")[1][-1].ok
    assert "reference_abort" in run("11_1", lines, "eai-1.0.5")[1][-1].details


def test_goal_status_counts_parts():
    world = VirtualHomeWorld()
    task = load_task("11_1")
    ep, _ = run("11_1", list(task.gold_plan))
    status = world.goal_status(ep.trajectory, task.goal)
    assert status.success and status.parts["node"] == (1, 1)


@pytest.mark.parametrize("ids", [[], [5], [65, 37], [1000, 65], [1, 9, 17, 25, 33, 41, 49, 57, 65, 73]])
def test_int_set_order_matches_cpython(ids):
    s = set()
    for i in ids:
        s.add(i)
    assert int_set_order(ids) == list(s)


def test_legal_actions_all_execute():
    world = VirtualHomeWorld()
    task = load_task("27_2")
    state = task.initial_state
    objs = [1, 67, 201, 319, 1000, 1001, 1002, 1003]
    legal = world.legal_actions(state, objs)
    assert legal
    assert all(world.try_action_ok(state, a) for a in legal)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from eai_gym.envs.virtualhome.actions import ARITY  # noqa: E402
from eai_gym.envs.virtualhome.env import task_objects  # noqa: E402

TASK = load_task("27_2")
OBJS = task_objects(TASK)
NAMES = sorted(ARITY)


@settings(max_examples=150, deadline=None)
@given(plan=st.lists(st.tuples(st.sampled_from(NAMES), st.lists(st.sampled_from(OBJS), min_size=2, max_size=2)),
                     max_size=25),
       protocol=st.sampled_from(["fixed", "eai-1.0.5"]))
def test_random_plans_never_raise_and_failures_change_nothing(plan, protocol):
    world = VirtualHomeWorld(protocol)
    scene = TASK.initial_state.scene
    ep = Episode(world, TASK.id, TASK.initial_state)
    for name, objs in plan:
        args = objs[:ARITY[name]]
        line = f"[{name}]" + "".join(f" <{scene.objects[o].name}> ({o})" for o in args)
        before = ep.state
        step = ep.step_text(line)
        if not step.ok:
            assert ep.state is before
            assert step.error is not None and step.message
        else:
            assert step.error is None
    world.goal_status(ep.trajectory, TASK.goal)

"""A task's initial state may be given deferred: made the first time it is read, once, and picklable before and
after."""

from __future__ import annotations

import copy
import functools
import pickle

import pytest

from eai_gym.core import ObjectInfo, Scene, Task, WorldState
from eai_gym.core.task import Deferred

MADE: list[int] = []


def _make_state(n: int) -> WorldState:
    MADE.append(n)
    return WorldState(Scene([ObjectInfo(i, f"o{i}") for i in range(n)], {}, [(0, "ON", 1)]))


def _task(initial) -> Task:
    return Task(id="t", name="n", instruction="do it", initial_state=initial, goal=("goal",), gold_plan=("a",),
                metadata={"k": 1})


def test_a_deferred_initial_state_is_made_on_first_read_and_once():
    MADE.clear()
    deferred = Deferred(functools.partial(_make_state, 3))
    task = _task(deferred)
    assert MADE == [] and not deferred.made  # loading the task builds nothing
    state = task.initial_state
    assert MADE == [3] and deferred.made and task.initial_state is state and deferred.value is state
    assert set(state.scene.objects) == {0, 1, 2} and state.has_edge(0, "ON", 1)


def test_a_given_initial_state_is_the_one_read():
    state = _make_state(2)
    task = _task(state)
    assert task.initial_state is state and (task.id, task.goal, task.gold_plan, task.metadata) == (
        "t", ("goal",), ("a",), {"k": 1})
    assert _task(state) == task and _task(_make_state(2)) != task  # (states of two scenes differ)


@pytest.mark.parametrize("read_first", [False, True])
def test_a_task_pickles_and_copies_before_and_after_its_state_is_made(read_first):
    MADE.clear()
    task = _task(Deferred(functools.partial(_make_state, 4)))
    if read_first:
        task.initial_state
    for twin in (pickle.loads(pickle.dumps(task)), copy.deepcopy(task)):
        assert (twin.id, twin.name, twin.instruction, twin.goal, twin.metadata) == (
            task.id, task.name, task.instruction, task.goal, task.metadata)
        assert twin.initial_state.to_dict() == task.initial_state.to_dict()
    assert MADE.count(4) == (1 if read_first else 3)  # a copy made before the state makes its own


def test_a_task_is_immutable():
    task = _task(_make_state(1))
    with pytest.raises(AttributeError):
        task.goal = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del task.id

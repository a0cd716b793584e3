"""What the VirtualHome subgoal scorer works out without building or replaying: a task's object labels and names
from its record equal its scene's, and the goal counts of a branch's last state equal those of the replay."""

from __future__ import annotations

import json
import random

from eai_gym.envs.virtualhome import subgoals, tasks
from eai_gym.envs.virtualhome.world import VirtualHomeWorld
from eai_gym.logic import tl, tl_paths
from eai_gym.scoring.virtualhome import subgoal_decomposition as sd


def test_object_labels_from_the_record_are_the_scene_s() -> None:
    for t in tasks.task_ids():
        scene = tasks.load_task(t).initial_state.scene
        assert tasks.object_labels(t) == subgoals.object_labels(scene), t


def test_goal_counts_of_the_branch_state_equal_the_replay_s() -> None:
    world = VirtualHomeWorld("eai-1.0.5")
    rng = random.Random(0)
    checked = 0
    for t in tasks.task_ids():
        gold = sd.gold_subgoals(t)
        if gold is None:
            continue
        task = tasks.load_task(t)
        try:
            formula = sd._parse(" then ".join(sd.read_subgoals(json.dumps({"output": gold}), rng)))
            paths = tl_paths.subgoal_paths(formula, rng.choice)
        except (tl.TLError, ValueError):
            continue
        goal = sd._parse(task.goal.tl_goal)
        for path in paths:
            try:
                _, feasible, failed = subgoals.search(world, task.initial_state, path, goal, reference_crash=True)
            except subgoals.SubgoalCrash:
                continue
            for branch in (feasible + failed)[:3]:
                assert branch.state is not None
                assert sd.goal_counts(task, branch.actions, branch.state) == sd.goal_counts(task, branch.actions), t
                checked += 1
    assert checked > 200


def test_unwrap_removes_the_enclosing_parentheses_as_a_walk_over_every_character_does() -> None:
    from tools.reference.behavior_subgoal import strip_outer as unwrap_char_by_char  # the same loop, in tools/

    goals = [tasks.task_record(t)["tl_goal"] for t in tasks.task_ids() if tasks.task_record(t)["tl_goal"]]
    rng = random.Random(0)
    soup = ["".join(rng.choice("() a\n") for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    for text in goals + [f"({g})" for g in goals] + [f"(( {g} ) )" for g in goals] + soup:
        assert subgoals._unwrap(text) == unwrap_char_by_char(text), text

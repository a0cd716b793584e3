"""What the RL adapter tests share: a script that wins a task of each world, through the adapters' text actions."""

from __future__ import annotations

from typing import Callable

import pytest

from eai_gym import registry


def _card_plan(world: str) -> tuple[str, list[str]]:
    """The first task of the world's task set whose card has a gold plan, and that plan."""
    from eai_gym.tasksets import task_sets

    ts = task_sets()[world]
    for t in ts.ids()[:50]:
        plan = ts.show(t)["gold_plan"]
        if plan:
            return t, list(plan)
    raise AssertionError(f"no gold plan among the first 50 tasks of {world}")


def _robot_alone(world: str) -> tuple[str, list[str]]:
    """The rearrange world plays its robot alone: the single-agent oracle's script for the first episode."""
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.envs.rearrange.oracle import oracle_scripts

    episode = shipped_episodes("val")[0]
    return episode.episode_id, [a for a in oracle_scripts(episode, ("agent_0",))["agent_0"] if a != "Wait[]"]


#: how a test wins a task of each world (every world with an agent prompt must be here: a new world fails the test
#: that checks it until it has one)
WINNING_SCRIPTS: dict[str, Callable[[str], tuple[str, list[str]]]] = {
    "virtualhome": _card_plan, "behavior": _card_plan, "alfworld": _card_plan, "behavior1k": _card_plan,
    "rearrange": _robot_alone,
}

PLAYABLE = [w.name for w in registry.worlds() if w.agent_prompt]


@pytest.fixture(scope="session")
def winning_script() -> Callable[[str], tuple[str, list[str]]]:
    def get(world: str) -> tuple[str, list[str]]:
        assert world in WINNING_SCRIPTS, f"tests/rl/conftest.py: add how to win a task of {world}"
        return WINNING_SCRIPTS[world](world)
    return get

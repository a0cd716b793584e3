"""A task's gold plan (``eai-gym show WORLD TASK``) as the actions an OpenEnv client sends, step by step: for
tests, benchmarks and examples (no OpenEnv import).

One agent: each command in turn, then None (the plan is used up). Several agents (the task card lists
``agent: command`` lines): a joint action every step, with each agent's next command whenever its last skill has
ended and null while it runs or once its plan is used up (the world goes on ticking until the episode ends).
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import registry
from .episode import world_facts


def gold_tasks(world: str) -> list[str]:
    """The world's tasks that have a gold plan, in task-set order (the task set: its first split)."""
    from ..tasksets import task_sets

    s = task_sets()[world]
    return [t for t in s.ids() if s.show(t)["gold_plan"]]


class GoldPlayer:
    """The actions of ``task``'s gold plan; :meth:`next` is given the last observation (a ``View``, an
    ``EaiObservation`` or its dict) and returns the next action (see the module docstring)."""

    def __init__(self, world: str, task: str) -> None:
        from ..tasksets import task_sets

        self.facts = world_facts(world)
        plan = task_sets()[world].show(task)["gold_plan"]
        if self.facts.team_env:
            self.queues: dict[str, list[str]] = {a: [] for a in self.facts.agents}
            for line in plan:
                agent, _, command = line.partition(": ")
                if agent not in self.queues:
                    raise ValueError(f"{world} task {task}: gold plan line {line!r} names no agent")
                self.queues[agent].append(command)
        else:
            self.commands = list(plan)

    def next(self, observation: Any) -> Any:
        if not self.facts.team_env:
            return self.commands.pop(0) if self.commands else None
        agents = _field(observation, "agents") or {}
        return {a: (q.pop(0) if q and not _field(agents.get(a), "busy") else None) for a, q in self.queues.items()}


def _field(obj: Any, name: str) -> Any:
    if obj is None:
        return None
    return obj.get(name) if isinstance(obj, Mapping) else getattr(obj, name)


def gold_reply(messages: list[dict[str, Any]]) -> str:
    """A scripted model for clients that send the OpenEnv observation as JSON in the last user message (verifiers'
    OpenEnv bridge: ``{"observation": {...}, "action_schema": {...}}``): the gold plan's command for the task and
    step the observation names (a JSON joint action with several agents). For
    :class:`eai_gym.evaluate.fake_server.FakeChatServer` (``FakeChatServer(gold_reply)``); raises ``ValueError``
    for a message that holds no such observation."""
    import json

    text = next((str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), "")
    try:
        observation = json.loads(text)["observation"]
        world, task, step = observation["world"], observation["task"], int(observation["step"])
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"the last user message holds no OpenEnv observation: {text[:200]!r}") from e
    task_set = registry.world(world).split().name
    if observation.get("split", task_set) != task_set:
        raise ValueError(f"gold plans are known for {world}'s task set ({task_set}) only, not for split "
                         f"{observation.get('split')!r}")
    player = GoldPlayer(world, task)
    action: Any = None
    for _ in range(step + 1):
        action = player.next(observation)
    if action is None:
        return "look"
    return action if isinstance(action, str) else json.dumps(action)

"""Replay per-agent action scripts in a :class:`~.world.RearrangeWorld`.

Each agent runs its list in order, sending the next action whenever it is idle; an agent whose list
is used up says ``Done[]`` (once). The rollout stops when the task succeeds, when every agent has
said ``Done[]`` (after the extra final evaluation update PARTNR's runner makes), or at ``max_steps``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .episode import AGENTS, RearrangeEpisode
from .world import RearrangeWorld


@dataclass
class Rollout:
    success: bool
    percent_complete: float
    percent_at_start: float
    steps: int
    failures: list[tuple[str, str, str]] = field(default_factory=list)  #: (agent, action, feedback)
    error_types: list[str] = field(default_factory=list)  #: the EAI error type of each failure
    actions: dict[str, list[str]] = field(default_factory=dict)  #: what each agent started, in order
    world: RearrangeWorld | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"success": self.success, "percent_complete": self.percent_complete,
                "percent_at_start": self.percent_at_start, "steps": self.steps,
                "failures": [list(f) for f in self.failures], "error_types": self.error_types, "actions": self.actions}


def run_scripts(episode: RearrangeEpisode, scripts: Mapping[str, Sequence[str]], max_steps: int = 1000,
                protocol: str = "fixed", observability: str = "full", stop_on_success: bool = True) -> Rollout:
    agents = tuple(a for a in AGENTS if a in scripts)
    if not agents:
        raise ValueError(f"scripts must give actions for some of {AGENTS}, got {sorted(scripts)}")
    world = RearrangeWorld(episode, protocol, observability, agents)
    start = world.metrics.task_percent_complete
    queues = {a: list(scripts[a]) + ["Done[]"] for a in agents}
    out = Rollout(False, start, start, 0, actions={a: [] for a in agents}, world=world)
    while world.ticks < max_steps:
        actions = {}
        for a in agents:
            if world.idle(a) and queues[a]:
                actions[a] = queues[a].pop(0)
                out.actions[a].append(actions[a])
        if not actions and not world.running:
            break
        fb = world.step(actions)
        for a, f in fb.items():
            if f.finished and not f.ok:
                out.failures.append((a, f.action, f.message))
                out.error_types.append(f.error.value if f.error is not None else "unknown")
        if (stop_on_success and world.success) or all(world.said_done.values()):
            break
    if all(world.said_done.values()) and not world.success:
        world.metrics = world.tracker.final_update()
    out.steps = world.ticks
    out.success = world.success
    out.percent_complete = world.metrics.task_percent_complete
    return out

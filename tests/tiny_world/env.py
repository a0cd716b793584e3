"""The tiny world's Gymnasium env."""

from __future__ import annotations

import string

import gymnasium as gym
from gymnasium import spaces

from .world import data, step_facts, task_ids


class TinyEnv(gym.Env):
    """Open a door: text actions (``open box``, ``take key``, ``unlock door``, ``open door``), reward 1 when the
    task's goal fact holds."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", render_mode: str | None = None):
        chars = frozenset(string.printable)
        self.observation_space = spaces.Text(max_length=400, min_length=0, charset=chars)
        self.action_space = spaces.Text(max_length=200, min_length=0, charset=chars)
        self.task_id, self.protocol, self.render_mode = task_id, protocol, render_mode
        self.facts: frozenset = frozenset()
        self.current = task_id or "open_the_door"

    def _obs(self, note: str = "") -> str:
        seen = ", ".join(sorted(self.facts)) or "a closed box, a locked door"
        return f"{data()['tasks'][self.current]['instruction']} You see: {seen}." + note

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        ids = task_ids()
        self.current = (options or {}).get("task_id") or self.task_id or ids[int(self.np_random.integers(len(ids)))]
        self.facts = frozenset()
        return self._obs(), {"task_id": self.current}

    def step(self, action: str):
        self.facts, error = step_facts(self.facts, action)
        done = data()["tasks"][self.current]["goal"] in self.facts
        return self._obs(f" ({error})" if error else ""), float(done), done, False, {"error": error}

    def render(self) -> str | None:
        return self._obs() if self.render_mode == "ansi" else None

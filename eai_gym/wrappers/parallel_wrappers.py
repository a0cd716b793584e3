"""PettingZoo (parallel API) metric wrappers for the multi-agent rearrange env.

Goal propositions, progress and goal success belong to the team: every live agent's info gets its own
copy. Trajectory errors are per agent (each agent's info has its own counts); the summary has every
agent's counts and the team total.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from pettingzoo.utils.wrappers import BaseParallelWrapper

from ..metrics.episode_metrics import ERROR_TYPES, ErrorCounter, GoalHistory, ProgressHistory, PropositionHistory
from .gymnasium_wrappers import metric_source


class _ParallelMetricWrapper(BaseParallelWrapper):
    key = ""

    def __init__(self, env: Any, buffer_length: int = 100) -> None:
        super().__init__(env)
        metric_source(env)
        self.summaries: deque = deque(maxlen=buffer_length)
        self.acc: Any = None

    def _start(self, infos: dict) -> Any:
        return None

    def _current(self, agent: str) -> dict:
        return self.acc.current()

    def _update(self, infos: dict) -> None:
        raise NotImplementedError

    def _summary(self) -> dict:
        return self.acc.summary()

    def reset(self, seed: int | None = None, options: dict | None = None):
        obs, infos = self.env.reset(seed=seed, options=options)
        self.acc = self._start(infos)
        infos = {a: {**i, self.key: self._current(a)} for a, i in infos.items()}
        return obs, infos

    def step(self, actions: dict):
        obs, rewards, terms, truncs, infos = self.env.step(actions)
        self._update(infos)
        ended = bool(terms) and all(terms[a] or truncs[a] for a in terms)
        summary = None
        if ended:
            summary = self._summary()
            self.summaries.append(summary)
        out = {}
        for a, i in infos.items():
            d = self._current(a)
            if summary is not None:
                d["summary"] = self._summary()
            out[a] = {**i, self.key: d}
        return obs, rewards, terms, truncs, out


class ParallelTrajectoryErrors(_ParallelMetricWrapper):
    key = "trajectory_errors"

    def _start(self, infos: dict) -> dict[str, ErrorCounter]:
        return {a: ErrorCounter() for a in self.env.possible_agents}

    def _current(self, agent: str) -> dict:
        return self.acc[agent].current()

    def _update(self, infos: dict) -> None:
        for a, counter in self.acc.items():
            counter.update(infos[a].get("step") if a in infos else None)

    def _summary(self) -> dict:
        per = {a: c.summary() for a, c in self.acc.items()}
        actions = sum(s["actions"] for s in per.values())
        executed = sum(s["executed"] for s in per.values())
        fatal = [s["first_fatal"] | {"agent": a} for a, s in per.items() if s["first_fatal"]]
        fatal.sort(key=lambda f: (f["step"], f["agent"]))
        return {"agents": per, "counts": {e: sum(s["counts"][e] for s in per.values()) for e in ERROR_TYPES},
                "actions": actions, "executed": executed,
                "execution_success_rate": executed / actions if actions else None,
                "first_fatal": fatal[0] if fatal else None,
                "steps": max((s["steps"] for s in per.values()), default=0)}


class ParallelPropositionLog(_ParallelMetricWrapper):
    key = "proposition_log"

    def _start(self, infos: dict) -> PropositionHistory:
        return PropositionHistory(metric_source(self.env).goal_propositions())

    def _update(self, infos: dict) -> None:
        self.acc.update(metric_source(self.env).goal_propositions())


class ParallelProgressRate(_ParallelMetricWrapper):
    key = "progress_rate"

    def _start(self, infos: dict) -> ProgressHistory:
        return ProgressHistory(metric_source(self.env).progress_report())

    def _update(self, infos: dict) -> None:
        self.acc.update(metric_source(self.env).progress_report())


class ParallelGoalSuccess(_ParallelMetricWrapper):
    key = "goal_success"

    def _start(self, infos: dict) -> GoalHistory:
        return GoalHistory(metric_source(self.env).goal_report())

    def _update(self, infos: dict) -> None:
        self.acc.update(metric_source(self.env).goal_report())

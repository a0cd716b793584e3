"""Episode metrics, one step at a time: the accumulators behind the metric wrappers.

Each accumulator is fed the same records online (a wrapper, after every ``step``) and offline (a
scorer replaying a plan), so both paths produce identical numbers. Everything returned is a fresh,
JSON-serialisable dict.

The records come from the env (see :mod:`eai_gym.wrappers`):

* a **step record** (``info["step"]``, :meth:`eai_gym.core.Step.to_dict`) for the action that finished
  this step, or None when no action finished (a multi-tick skill still running);
* **goal propositions**: ``[{"id", "kind", "text", "holds", ...}]`` (``goal_propositions()``);
* a **progress report**: ``{"definition", "value", ...}`` (``progress_report()``);
* a **goal report**: ``{"success", "partial", "partial_definition"}`` (``goal_report()``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..core.errors import ErrorType

ERROR_TYPES = tuple(e.value for e in ErrorType)


def counts_action(record: Mapping[str, Any] | None) -> bool:
    """Whether a step record is one whole action (multi-tick skills report once, when they finish); None or
    an empty record means no action finished this step."""
    return bool(record) and bool((record.get("details") or {}).get("finished", True))


class ErrorCounter:
    """Per-step and cumulative counts of the EAI error taxonomy, execution success rate, first fatal error."""

    def __init__(self) -> None:
        self.counts = {e: 0 for e in ERROR_TYPES}
        self.actions = self.executed = self.steps = 0
        self.first_fatal: dict[str, Any] | None = None
        self.last_error: str | None = None

    def update(self, record: Mapping[str, Any] | None) -> dict[str, Any]:
        self.steps += 1
        self.last_error = None
        if counts_action(record):
            assert record
            self.actions += 1
            err = record.get("error")
            if record.get("ok"):
                self.executed += 1
            if err is not None:
                if err not in self.counts:
                    raise ValueError(f"step record error {err!r} is not an EAI error type ({', '.join(ERROR_TYPES)})")
                self.counts[err] += 1
                self.last_error = err
                if err != ErrorType.ADDITIONAL_STEP.value and self.first_fatal is None:
                    self.first_fatal = {"step": self.steps, "action_index": self.actions - 1, "error": err,
                                        "action": record.get("raw"), "message": record.get("message", "")}
        return self.current()

    def current(self) -> dict[str, Any]:
        return {"error": self.last_error, **self.summary()}

    def summary(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "actions": self.actions, "executed": self.executed,
                "execution_success_rate": self.executed / self.actions if self.actions else None,
                "first_fatal": None if self.first_fatal is None else dict(self.first_fatal), "steps": self.steps}


class PropositionHistory:
    """The truth of every goal proposition at every step (step 0 = after reset)."""

    def __init__(self, propositions: Sequence[Mapping[str, Any]]) -> None:
        self.latest: list[dict[str, Any]] = []
        self.history: dict[str, list[bool]] = {}
        self.first: dict[str, int | None] = {}
        self.order: list[str] = []
        self.steps = -1
        self.update(propositions)

    def update(self, propositions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        self.steps += 1
        self.latest = [dict(p) for p in propositions]
        for p in self.latest:
            pid = p["id"]
            if pid not in self.history:
                self.order.append(pid)
                self.history[pid] = [False] * self.steps
                self.first[pid] = None
            self.history[pid].append(bool(p["holds"]))
            if p["holds"] and self.first[pid] is None:
                self.first[pid] = self.steps
        seen = {p["id"] for p in self.latest}
        for pid in self.order:
            if pid not in seen:  # a proposition the world stopped listing counts as false
                self.history[pid].append(False)
        return self.current()

    def current(self) -> dict[str, Any]:
        props = [{**p, "holds": bool(p["holds"]), "first_satisfied": self.first[p["id"]]} for p in self.latest]
        return {"step": self.steps, "propositions": props, "satisfied": sum(p["holds"] for p in props),
                "total": len(props)}

    def summary(self) -> dict[str, Any]:
        by_id = {p["id"]: p for p in self.latest}
        props = []
        for pid in self.order:
            p = by_id.get(pid, {"id": pid})
            props.append({**{k: v for k, v in p.items() if k != "holds"}, "first_satisfied": self.first[pid],
                          "satisfied_at_end": self.history[pid][-1], "history": list(self.history[pid])})
        n_end = sum(p["satisfied_at_end"] for p in props)
        return {"steps": self.steps, "propositions": props, "satisfied_at_end": n_end, "total": len(props),
                "all_satisfied_at_end": n_end == len(props)}


class ProgressHistory:
    """Graded progress at every step, with the definition the world uses."""

    def __init__(self, report: Mapping[str, Any]) -> None:
        self.values: list[float] = []
        self.latest: dict[str, Any] = {}
        self.best = 0.0  # max(self.values), kept as values come
        self.update(report)

    def update(self, report: Mapping[str, Any]) -> dict[str, Any]:
        self.latest = dict(report)
        value = float(report["value"])
        self.best = max(self.best, value) if self.values else value  # (as max(list) compares, NaN included)
        self.values.append(value)
        return self.current()

    def current(self) -> dict[str, Any]:
        return {**self.latest, "max": self.best, "step": len(self.values) - 1}

    def summary(self) -> dict[str, Any]:
        return {**self.latest, "final": self.values[-1], "max": self.best, "history": list(self.values),
                "steps": len(self.values) - 1}


class GoalHistory:
    """Success, partial success and the step at which the goal was first reached."""

    def __init__(self, report: Mapping[str, Any]) -> None:
        self.steps = -1
        self.steps_to_success: int | None = None
        self.latest: dict[str, Any] = {}
        self.update(report)

    def update(self, report: Mapping[str, Any]) -> dict[str, Any]:
        self.steps += 1
        self.latest = dict(report)
        if report["success"] and self.steps_to_success is None:
            self.steps_to_success = self.steps
        return self.current()

    def current(self) -> dict[str, Any]:
        return {**self.latest, "steps_to_success": self.steps_to_success, "step": self.steps}

    def summary(self) -> dict[str, Any]:
        return {**self.latest, "steps_to_success": self.steps_to_success, "steps": self.steps}

"""ALFWorld trajectory metrics beside progress: AgentQuest's repetition rate and AgentBoard's grounding accuracy.
Pure functions over a trajectory of steps. The progress measures themselves (AgentQuest's oracle progress and FSM
progress, AgentBoard's subgoal progress, ``progress_series``) live with the world,
:mod:`eai_gym.envs.alfworld.progress`, because the env's metric hook computes them online (the worlds sit below
``metrics/``); they take the same steps.

A step is ``{"action": str, "obs": str, "won": bool, "admissible": [...], "plan_length": int}`` where
``admissible`` and ``plan_length`` describe the state *after* the action (step 0: ``action`` None,
the state after reset). See ``reference/docs/agentquest_alfworld_progress.md`` and the reference
notes on AgentQuest (@63e91a1) and AgentBoard (@bb7255e).
"""

from __future__ import annotations

from typing import Any, Sequence

from .plan_similarity import lcs_length

__all__ = ["grounding_accuracy", "levenshtein_ratio", "repetition_rate"]


def levenshtein_ratio(a: str, b: str) -> float:
    """python-Levenshtein's ``ratio``: ``1 - indel_distance / (len(a) + len(b))`` (1.0 for two empty strings)."""
    if not a and not b:
        return 1.0
    return 2 * lcs_length(a, b) / (len(a) + len(b))


def repetition_rate(actions: Sequence[str], num_execution_steps: int, theta: float = 1.0) -> float | None:
    """AgentQuest's repetition rate: actions whose similarity to some earlier unique action reaches ``theta``
    are repetitions; ``repetitions / (num_execution_steps - 1)`` (None when that is 0).

    AgentQuest compares each action with every unique one before it. The result is the same here, found in
    time linear in the actions for ``theta`` of 1 (only an equal action is similar enough: a set lookup), or
    at most 0 or above 1 (every pair is, or none); in between, only the pairs whose lengths allow a ratio of
    ``theta`` are compared."""
    unique: list[str] = []
    seen: set[str] = set()
    repeated = 0
    for a in actions:
        if _repeats(a, unique, seen, theta):
            repeated += 1
        else:
            unique.append(a)
            seen.add(a)
    return repeated / (num_execution_steps - 1) if num_execution_steps > 1 else None


def _repeats(a: str, unique: list[str], seen: set[str], theta: float) -> bool:
    """``not all(levenshtein_ratio(a, u) < theta for u in unique)``."""
    if not unique:
        return False
    if not 0 < theta:  # a ratio is never below 0 (nor below NaN)
        return True
    if theta > 1:  # nor above 1
        return False
    if a in seen:  # the ratio of equal texts is 1
        return True
    if theta == 1:  # and of different texts below 1
        return False
    n = len(a)
    return any(2 * min(n, len(u)) / (n + len(u)) >= theta and levenshtein_ratio(a, u) >= theta for u in unique)


def grounding_accuracy(steps: Sequence[dict[str, Any]]) -> float | None:
    """AgentBoard's grounding accuracy: the share of actions (``put ... in``/``on`` read as ``in/on``,
    a trailing ``.`` dropped) that were in the admissible commands (plus ``look`` and ``check valid
    actions``) of the state they were sent in."""
    hits = n = 0
    for before, s in zip(steps, steps[1:]):
        a = (s["action"] or "").strip()
        if a.endswith("."):
            a = a[:-1]
        if "put" in a:
            a = a.replace(" in ", " in/on ").replace(" on ", " in/on ")
        n += 1
        hits += a in set(before["admissible"]) | {"look", "check valid actions"}
    return hits / n if n else None

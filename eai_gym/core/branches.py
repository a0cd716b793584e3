"""Picking the branch an EAI subgoal evaluator reports, out of the subgoal-to-action search."""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

B = TypeVar("B")


def choose_branch(feasible: Sequence[B], failed: Sequence[B], length: Callable[[B], int]) -> tuple[B | None, bool]:
    """The reported branch and whether it is a success: the feasible branch with the fewest errors
    (the first on ties); else, among the failed branches that reached the goal check (all failed
    branches if none did), the one with the fewest errors, then the most steps (``length``), then
    the first. Branches have ``errors`` and ``reached_goal_check`` attributes."""
    if feasible:
        best = feasible[0]
        for b in feasible[1:]:
            if len(b.errors) < len(best.errors):  # type: ignore[attr-defined]
                best = b
        return best, True
    pool = [b for b in failed if b.reached_goal_check] or list(failed)  # type: ignore[attr-defined]
    chosen: B | None = None
    for b in pool:
        if chosen is None or len(b.errors) < len(chosen.errors) or (  # type: ignore[attr-defined]
                len(b.errors) == len(chosen.errors) and length(b) > length(chosen)):  # type: ignore[attr-defined]
            chosen = b
    return chosen, False

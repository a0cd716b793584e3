"""Metric wrappers for every eai-gym world.

Gymnasium (single-agent): :class:`TrajectoryErrors`, :class:`PropositionLog`, :class:`ProgressRate`,
:class:`GoalSuccess`. PettingZoo (the multi-agent rearrange env, parallel API):
:class:`ParallelTrajectoryErrors`, :class:`ParallelPropositionLog`, :class:`ParallelProgressRate`,
:class:`ParallelGoalSuccess`. Each adds a fresh dict under its own ``info`` key after ``reset`` and
every ``step`` and, at termination or truncation, the episode summary under ``info[key]["summary"]``
(also appended to ``wrapper.summaries``). They stack in any order and never change what the wrapped
env returns otherwise.
"""

from .gymnasium_wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors
from .parallel_wrappers import (
                                ParallelGoalSuccess,
                                ParallelProgressRate,
                                ParallelPropositionLog,
                                ParallelTrajectoryErrors,
)

__all__ = ["TrajectoryErrors", "PropositionLog", "ProgressRate", "GoalSuccess", "ParallelTrajectoryErrors",
           "ParallelPropositionLog", "ParallelProgressRate", "ParallelGoalSuccess"]

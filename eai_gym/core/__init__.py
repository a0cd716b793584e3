"""World-independent kernel: state, actions, the EAI error taxonomy, step records, trajectories, tasks."""

from .action import Action
from .episode import Episode
from .errors import ActionError, ErrorType, UnknownTaskError
from .state import EMPTY, ObjectInfo, Scene, WorldState
from .step import Step
from .task import Task
from .trajectory import Trajectory
from .world import GoalStatus, Outcome, World

__all__ = [
    "Action", "ActionError", "EMPTY", "Episode", "ErrorType", "GoalStatus", "ObjectInfo", "Outcome", "Scene",
    "Step", "Task", "Trajectory", "UnknownTaskError", "World", "WorldState",
]

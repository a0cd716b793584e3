"""VirtualHome (the EAI task set, scene_1) as an evolving-graph world and a Gymnasium env."""

from .env import VirtualHomeEnv
from .tasks import VirtualHomeGoal, gold_plan_json, load_task, task_ids
from .world import PROTOCOLS, VirtualHomeWorld

__all__ = ["PROTOCOLS", "VirtualHomeEnv", "VirtualHomeGoal", "VirtualHomeWorld", "gold_plan_json",
           "load_task", "task_ids"]

"""The tiny world in the registry: its env, task set and mode (entry points by name, as a package world's)."""

from eai_gym.registry import EnvSpec, ModeSpec, SummaryKey, WorldSpec

from .taskset import ENV_ID

WORLD = WorldSpec(
    name="tiny", title="a box, a key and a door (2 tasks)",
    envs=(EnvSpec(ENV_ID, "tiny_world.env:TinyEnv", max_episode_steps=20),),
    task_set="tiny_world.taskset",
    modes=(ModeSpec("plans", "replay each plan's actions", ("fixed",), "tiny_world.scoring:plans_jobs",
                    gold="tiny_world.scoring:plans_gold", inputs="one JSON file of {identifier, actions} items",
                    summary_keys=(SummaryKey("success_rate"),)),),
)

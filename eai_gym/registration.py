"""Every environment id eai-gym registers, in one place."""

from __future__ import annotations

import gymnasium

#: id -> (entry point, default episode step limit)
GYMNASIUM_ENVS = {
    "eai_gym/VirtualHome-v0": ("eai_gym.envs.virtualhome.env:VirtualHomeEnv", 100),
    "eai_gym/Behavior-v0": ("eai_gym.envs.behavior.env:BehaviorEnv", 200),
}


def register_envs() -> None:
    """Register the Gymnasium ids (idempotent: ids already registered are left alone)."""
    for env_id, (entry_point, max_steps) in GYMNASIUM_ENVS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, max_episode_steps=max_steps)

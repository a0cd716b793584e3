"""eai-gym: the symbolic transition models behind embodied-planning benchmarks as standard environments.

Importing the package registers its environments with Gymnasium::

    import gymnasium, eai_gym
    env = gymnasium.make("eai_gym/VirtualHome-v0")
"""

from .registration import register_envs

__version__ = "0.1.0"

register_envs()

__all__ = ["register_envs", "__version__"]

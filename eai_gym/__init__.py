"""eai-gym: the symbolic transition models behind embodied-planning benchmarks as standard environments.

Importing the package registers its environment ids with Gymnasium and PettingZoo (it imports both)::

    import eai_gym, gymnasium, pettingzoo
    env = gymnasium.make("eai_gym/VirtualHome-v0")
    team = pettingzoo.make("parallel", "eai_gym/rearrange-v0")

in whatever order the three are imported; ``gymnasium.make("eai_gym:eai_gym/VirtualHome-v0")`` imports the
package itself. Neither Gymnasium (1.x) nor PettingZoo loads third-party ids on its own import, so the ids exist
once ``eai_gym`` has been imported.

The ``eai-gym`` command is the one exception: its console script, the top-level module :mod:`eai_gym_command`,
imports the package without registering (``eai-gym --help`` and ``eai-gym list`` import no Gymnasium), and the
commands that make envs call :func:`register_envs` first.
"""

from __future__ import annotations

import sys

__version__ = "0.1.0"

#: the ``eai-gym`` console script's module: when the package is first imported through it, nothing is registered
COMMAND_MODULE = "eai_gym_command"


def register_envs() -> None:
    """Register every world's Gymnasium and PettingZoo ids (idempotent; imports Gymnasium and PettingZoo)."""
    from .registration import register_envs as register

    register()


if COMMAND_MODULE not in sys.modules:
    register_envs()

__all__ = ["COMMAND_MODULE", "register_envs", "__version__"]

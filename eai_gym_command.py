"""The ``eai-gym`` console script: :func:`eai_gym.cli.main`, with the package imported without registering envs.

``import eai_gym`` registers the env ids with Gymnasium and PettingZoo, which imports both (a few hundred ms).
The command line lists worlds, modes and tasks from the light registry (:mod:`eai_gym.registry`), so when the
package is first imported through this module it registers nothing (see :data:`eai_gym.COMMAND_MODULE`); the
commands that make envs (``play``, ``evaluate --mode episodes``) call :func:`eai_gym.register_envs`.
"""

from __future__ import annotations

from eai_gym.cli import main

__all__ = ["main"]

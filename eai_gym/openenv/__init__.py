"""Every world as an OpenEnv environment (``eai-gym serve WORLD --protocol openenv``; ``pip install
'eai-gym[openenv]'``).

- :mod:`.episode`: one world's env for one session, read from the registry (no OpenEnv import);
- :mod:`.models`: the typed Action / Observation / State (pydantic, OpenEnv's base classes);
- :mod:`.environment`: the OpenEnv ``Environment`` over :mod:`.episode`;
- :mod:`.server`: the app from OpenEnv's ``create_app`` and the ``serve`` command;
- :mod:`.client`: :class:`~.client.EaiGymEnv`, the typed client (OpenEnv's ``EnvClient``).

Importing this package imports nothing else: OpenEnv itself (which imports gradio, seconds) is imported only by
the modules that need it.
"""

"""Env servers speaking other projects' HTTP protocols (optional extra ``eai-gym[server]``: FastAPI + uvicorn).

- :mod:`eai_gym.serve.alfworld`: AgentGym's ``agentenv-alfworld`` protocol over :mod:`eai_gym.compat.alfworld`.
- :mod:`eai_gym.serve.limits`: what a server checks of a request before its app reads it (body size, NaN/Infinity).
- :mod:`eai_gym.serve.sockets`: what every ``eai-gym serve`` server shares (its listening socket and base URL).

Every world is also served as an OpenEnv environment (:mod:`eai_gym.openenv`); ``eai-gym serve WORLD`` picks the
server through the registry (:func:`eai_gym.registry.serve`).
"""

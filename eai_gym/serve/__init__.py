"""Env servers speaking other projects' HTTP protocols (optional extra ``eai-gym[server]``: FastAPI + uvicorn).

- :mod:`eai_gym.serve.alfworld`: AgentGym's ``agentenv-alfworld`` protocol over :mod:`eai_gym.compat.alfworld`.
- :mod:`eai_gym.serve.limits`: what a server checks of a request before its app reads it (body size, NaN/Infinity).
"""

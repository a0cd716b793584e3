"""Offline gold-plan and data builders: run by ``tools/`` and the tests, never by an env.

What builds the packaged data lives here, one folder per world, apart from the runtime worlds under
``envs/``: :mod:`.behavior1k` (the planner that finds the BEHAVIOR-1K gold plans, its distance estimate,
and the static checks that say why an activity has no plan) and :mod:`.rearrange` (the seeded generator of
the rearrange episodes). A builder imports its world from ``envs/``; no env imports a builder.
"""

"""The one registry of worlds and their modes: what the CLI, the task sets, the reports, plan similarity, the
evaluation runner, the servers and the RL adapters read.

Each world describes itself once, in a light module inside its own folder (``eai_gym/envs/<world>/spec.py``):
a :class:`WorldSpec` with its environment ids, its task set and its scoring modes (:class:`ModeSpec`). Every
piece of code is named by a lazy entry point, ``"package.module:function"``, loaded only when used, so that
listing the worlds (``eai-gym --help``, ``eai-gym list``) imports no world, no Gymnasium and no task data.

    >>> from eai_gym import registry
    >>> [w.name for w in registry.worlds()]
    ['virtualhome', 'behavior', 'rearrange', 'alfworld', 'behavior1k']
    >>> [m.name for m in registry.world("virtualhome").modes]
    ['action_sequencing', 'subgoal_decomposition', 'goal_interpretation', 'transition_modeling', 'similarity']
    >>> registry.mode("behavior", "subgoal_decomposition").protocols
    ('fixed', 'eai-1.0.5')
    >>> [(e.id, e.kind) for e in registry.world("rearrange").envs]
    [('eai_gym/rearrange-v0', 'parallel'), ('eai_gym/rearrange-v0', 'aec'), ('eai_gym/Rearrange-v0', 'gymnasium')]

A world outside the package (or a test's) joins with :func:`register_world`. Adding a world to the package is
one line in :data:`WORLD_SPECS`; adding a mode is one :class:`ModeSpec` in its world's spec module. The spec types
themselves are in :mod:`eai_gym.specs` (and named here too).
"""

from __future__ import annotations

import importlib
from typing import Callable

from .specs import (
    COMMON_RECORD_FIELDS,
    EPISODES_SUMMARY,
    PLAN_RECORD_FIELDS,
    SPLIT_ROLES,
    UNITS,
    EnvSpec,
    ModeSpec,
    Option,
    RegistryError,
    ServerSpec,
    SplitSpec,
    SummaryKey,
    SummaryLayout,
    WorldSpec,
    load,
)

__all__ = ["COMMON_RECORD_FIELDS", "EPISODES_SUMMARY", "PLAN_RECORD_FIELDS", "SERVERS", "SIMILARITY_OPTIONS",
           "SIMILARITY_UNITS", "SPLIT_ROLES", "UNITS", "WORLD_SPECS", "EnvSpec", "ModeSpec", "Option", "RegistryError",
           "ServerSpec", "SplitSpec", "SummaryKey", "SummaryLayout", "WorldSpec", "load", "mode", "on_register",
           "options", "register_world", "serve", "server_protocols", "similarity_mode", "unregister_world", "world",
           "world_names", "worlds"]

#: the spec module of every packaged world, in the order the CLI lists them (one line per world)
WORLD_SPECS = (
    "eai_gym.envs.virtualhome.spec",
    "eai_gym.envs.behavior.spec",
    "eai_gym.envs.rearrange.spec",
    "eai_gym.envs.alfworld.spec",
    "eai_gym.envs.behavior1k.spec",
)


#: what every world's similarity mode accepts (see :func:`similarity_mode`)
SIMILARITY_OPTIONS = (
    Option("reference", "compare each plan with the task's gold plan (gold, the default) or with the plan for "
                        "the same task in this plans file", type="path", default="gold"),
)


#: the protocols every world is served with, after the world's own server (``WorldSpec.server``)
SERVERS = (
    ServerSpec("openenv", "eai_gym.openenv.server:main",
               "OpenEnv: typed reset/step/state over WebSocket sessions (pip install 'eai-gym[openenv]')"),
)

_WORLDS: dict[str, WorldSpec] = {}
_LOADED = False
#: called with each world :func:`register_world` adds (:mod:`eai_gym.registration` registers its env ids)
_ON_REGISTER: list[Callable[[WorldSpec], None]] = []


def _load_packaged() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for module in WORLD_SPECS:
        spec = importlib.import_module(module).WORLD
        _WORLDS.setdefault(spec.name, spec)


def register_world(spec: WorldSpec, replace: bool = False) -> WorldSpec:
    """Add a world (a third-party or a test's). Its environment ids are registered with Gymnasium and
    PettingZoo (now if :mod:`eai_gym.registration` is loaded, else when it is). ``replace``: overwrite a world
    of the same name (else that is an error)."""
    _load_packaged()
    if spec.name in _WORLDS and not replace and _WORLDS[spec.name] != spec:
        raise RegistryError(f"a world named {spec.name!r} is already registered")
    previous = _WORLDS.get(spec.name)
    _WORLDS[spec.name] = spec
    try:
        options()  # a contradicting option declaration is an error now, not when the CLI builds its flags
    except RegistryError:
        if previous is None:
            del _WORLDS[spec.name]
        else:
            _WORLDS[spec.name] = previous
        raise
    for listener in _ON_REGISTER:
        listener(spec)
    return spec


def on_register(listener: Callable[[WorldSpec], None]) -> None:
    """Call ``listener`` with every world :func:`register_world` adds from now on."""
    _ON_REGISTER.append(listener)


def unregister_world(name: str) -> None:
    """Remove a world added with :func:`register_world` (its Gymnasium ids stay registered)."""
    _load_packaged()
    _WORLDS.pop(name, None)


def worlds() -> tuple[WorldSpec, ...]:
    """Every world, packaged ones first in :data:`WORLD_SPECS` order, then registered ones."""
    _load_packaged()
    return tuple(_WORLDS.values())


def world_names() -> tuple[str, ...]:
    return tuple(w.name for w in worlds())


def world(name: str) -> WorldSpec:
    _load_packaged()
    try:
        return _WORLDS[name]
    except KeyError:
        raise RegistryError(f"unknown world {name!r} (worlds: {', '.join(_WORLDS)})") from None


def server_protocols(world_name: str) -> tuple[str, ...]:
    """The protocols ``eai-gym serve WORLD`` speaks, the default first: the world's own server's, then
    :data:`SERVERS`'."""
    w = world(world_name)
    own = (w.server_protocol,) if w.server else ()
    return own + tuple(s.protocol for s in SERVERS if s.protocol not in own)


def serve(world_name: str, protocol: str | None, argv: list[str]) -> int:
    """Run ``world_name``'s server for ``protocol`` (None: the default) with the server options ``argv``; the
    exit code. Raises :class:`RegistryError` for a protocol the world is not served with."""
    w = world(world_name)
    protocols = server_protocols(w.name)
    protocol = protocol or protocols[0]
    if w.server and protocol == w.server_protocol:
        return load(w.server)(list(argv))
    for s in SERVERS:
        if s.protocol == protocol:
            return load(s.entry_point)(w.name, list(argv))
    raise RegistryError(f"{w.name} is served with protocol(s) {', '.join(protocols)}, not {protocol}")


def mode(world_name: str, name: str | None = None) -> ModeSpec:
    """A world's mode (its default mode when ``name`` is None)."""
    w = world(world_name)
    return w.default_mode if name is None else w.mode(name)


def options() -> tuple[tuple[Option, tuple[ModeSpec, ...]], ...]:
    """Every option any mode declares, with the modes that accept it: in declaration order, world by world,
    then the options every world's similarity mode shares (:data:`SIMILARITY_OPTIONS`)."""
    found: dict[str, tuple[Option, list[ModeSpec]]] = {}
    declared = [(m, o) for w in worlds() for m in w.modes for o in m.options]
    for m, o in [d for d in declared if d[1] not in SIMILARITY_OPTIONS] + \
                [d for d in declared if d[1] in SIMILARITY_OPTIONS]:
        if o.name not in found:
            found[o.name] = (o, [m])
            continue
        first, users = found[o.name]
        if (first.type, first.default, first.choices) != (o.type, o.default, o.choices):
            raise RegistryError(f"option {o.flag} of {m.world} {m.name} differs from the one of "
                                f"{users[0].world} {users[0].name} (type, default or choices)")
        users.append(m)
    return tuple((o, tuple(users)) for o, users in found.values())


#: the units of the similarity summary (:mod:`eai_gym.scoring.similarity`): means of fractions, and the mean edit
#: distance (a number of edits)
SIMILARITY_UNITS = (("plans", "count"), ("invalid_input", "count"), ("mean_edit_distance", "number"), ("*", "fraction"))


def similarity_mode(protocols: tuple[str, ...], gold: str, similarity_actions: str, gold_actions: str,
                    inputs: str = ModeSpec.inputs, options: tuple[Option, ...] = ()) -> ModeSpec:
    """A world's ``similarity`` mode: LCS, Jaccard and edit distance of each plan's actions (read with
    ``similarity_actions``) against the task's gold actions (``gold_actions``) or a reference file's."""
    return ModeSpec("similarity", "LCS, Jaccard and edit distance against a reference plan",
                    protocols, "eai_gym.scoring.similarity:jobs", gold=gold, options=options + SIMILARITY_OPTIONS,
                    record_options=("reference",), inputs=inputs,
                    summary_keys=(SummaryKey("mean_lcs"), SummaryKey("mean_jaccard"),
                                  SummaryKey("mean_edit_distance", higher_is_better=False), SummaryKey("exact_match_rate")),
                    summary_units=SIMILARITY_UNITS, similarity_actions=similarity_actions, gold_actions=gold_actions)

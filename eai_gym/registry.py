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
one line in :data:`WORLD_SPECS`; adding a mode is one :class:`ModeSpec` in its world's spec module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Callable

#: the spec module of every packaged world, in the order the CLI lists them (one line per world)
WORLD_SPECS = (
    "eai_gym.envs.virtualhome.spec",
    "eai_gym.envs.behavior.spec",
    "eai_gym.envs.rearrange.spec",
    "eai_gym.envs.alfworld.spec",
    "eai_gym.envs.behavior1k.spec",
)


class RegistryError(KeyError):
    """An unknown world or mode, or a spec that contradicts another one."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Option:
    """A scoring option a mode accepts; the CLI turns it into ``--<name with dashes>``.

    ``type`` is ``"str"``, ``"int"`` or ``"path"``; ``default`` is the value when the flag is not given.
    Two modes may declare the same option only with the same type, default and choices.
    """

    name: str
    help: str
    type: str = "str"
    default: Any = None
    choices: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


#: what every world's similarity mode accepts (see :func:`similarity_mode`)
SIMILARITY_OPTIONS = (
    Option("reference", "compare each plan with the task's gold plan (gold, the default) or with the plan for "
                        "the same task in this plans file", type="path", default="gold"),
)


#: the units of summary figures: ``percent`` (0-100), ``fraction`` (0-1; shown as a percent), ``count``, ``steps``
#: (a mean number of steps or actions) and ``number`` (anything else: shown as it is)
UNITS = ("percent", "fraction", "count", "steps", "number")


@dataclass(frozen=True)
class SummaryKey:
    """A headline figure of a mode's summary (a dotted path into it), whether a higher value is better, and its
    unit (one of :data:`UNITS`; None: the unit the mode's ``summary_units`` give the path)."""

    key: str
    higher_is_better: bool = True
    unit: str | None = None

    def __post_init__(self) -> None:
        if self.unit is not None and self.unit not in UNITS:
            raise RegistryError(f"summary key {self.key!r}: unknown unit {self.unit!r} (units: {', '.join(UNITS)})")


@dataclass(frozen=True)
class SummaryLayout:
    """What a summary's figures are: its headline figures (:class:`SummaryKey`) and the unit of every figure,
    ``units``: ``(pattern, unit)`` pairs, the first pattern (:func:`fnmatch.fnmatchcase` over the dotted path,
    e.g. ``"goal_evaluation.*"``, ``"*_num"``) that matches a path gives its unit."""

    keys: tuple[SummaryKey, ...] = ()
    units: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for pattern, unit in self.units:
            if unit not in UNITS:
                raise RegistryError(f"summary unit pattern {pattern!r}: unknown unit {unit!r} (units: {', '.join(UNITS)})")

    def declared_unit(self, path: str) -> str | None:
        """The unit declared for a figure (its headline key's, else the first matching pattern's), or None."""
        for k in self.keys:
            if k.key == path and k.unit is not None:
                return k.unit
        return next((unit for pattern, unit in self.units if fnmatchcase(path, pattern)), None)

    def unit(self, path: str) -> str:
        """The unit of the figure at ``path`` (``number`` where nothing is declared)."""
        return self.declared_unit(path) or "number"


#: the summary of ``eai-gym evaluate WORLD --mode episodes`` (every world's: the metric wrappers' figures)
EPISODES_SUMMARY = SummaryLayout(
    keys=(SummaryKey("success_rate"), SummaryKey("progress_rate"), SummaryKey("mean_steps", higher_is_better=False)),
    units=(("*_rate", "fraction"), ("mean_steps", "steps"), ("episodes", "count"), ("finished", "count"),
           ("cut_off", "count"), ("request_errors", "count"), ("env_errors", "count"), ("error_counts.*", "count")))


#: the fields every mode's per-item records carry
COMMON_RECORD_FIELDS = ("identifier", "status", "message")
#: the fields the records of a mode that replays plans carry besides (``ModeSpec.plan_records``): whether the goal
#: was reached, whether the plan executed, and the type of the error that stopped it (None: none did)
PLAN_RECORD_FIELDS = ("success", "executable", "error_type")


@dataclass(frozen=True)
class EnvSpec:
    """An environment id to register: ``kind`` is ``gymnasium``, ``parallel`` or ``aec`` (PettingZoo)."""

    id: str
    entry_point: str
    kind: str = "gymnasium"
    max_episode_steps: int | None = None


#: what a split is for: training data, or evaluation only
SPLIT_ROLES = ("train", "eval")


@dataclass(frozen=True)
class SplitSpec:
    """A named set of a world's tasks and what it is for (``role``: ``"train"`` or ``"eval"``).

    Entry points: ``task_ids() -> list[str]`` (None: the world's task set, its ``ids()``) and ``play(task_id,
    protocol) -> (env id, make kwargs, reset options)`` (None: the task set's ``play``). Every dataset builder and
    RL adapter (:mod:`eai_gym.rl`) reads a world's splits from here; a split whose role is ``eval`` is never handed
    out as training data.
    """

    name: str
    role: str
    description: str
    task_ids: str | None = None
    play: str | None = None

    def __post_init__(self) -> None:
        if self.role not in SPLIT_ROLES:
            raise RegistryError(f"split {self.name!r}: role must be one of {', '.join(SPLIT_ROLES)}, not {self.role!r}")


@dataclass(frozen=True)
class ModeSpec:
    """One way of scoring a world's outputs offline (and, as later slots fill, of prompting and running it).

    Entry points (``"module:function"``):
      - ``jobs(items, protocol, options, mode) -> scoring.jobs.Jobs``: the per-item work and its summary
        (``options``: the values of the mode's :attr:`options`; ``mode``: this spec).
      - ``gold(options) -> items``: the packaged gold items (None: the mode has no gold).
      - ``load_items(paths, options) -> items``: read the input files (raises ``scoring.io.InputFileError``).
      - ``result(run) -> (result, records)``: the results file of a run (default: one record per item with
        ``n_items`` and the mode's ``record_options``; see :func:`eai_gym.scoring.results.item_result`).
      - ``similarity_actions(item) -> (task key, actions)`` and ``gold_actions(key, options) -> actions``: the
        action strings plan similarity compares (a list, or ``{agent: list}`` compared agent by agent).
      - ``prompts(protocol, options) -> [{"identifier", "llm_prompt"}]``: the mode's prompts (``eai-gym prompts``,
        ``eai-gym evaluate``), and ``reply_to_item(identifier, reply) -> item``: a model reply as the mode's input
        (default ``{"identifier", "llm_output": reply}``). Online play is the world's (``WorldSpec.agent_prompt``).

    ``summary_keys`` are the summary's headline figures and ``summary_units`` the unit of each figure (see
    :class:`SummaryLayout`): the summary itself keeps the reference's own scale (percent or fraction), and the
    command line and the reports show every rate in percent, naming the unit. ``plan_records``: each record also
    carries :data:`PLAN_RECORD_FIELDS` (the mode replays plans). ``gold_notes``: where the documentation explains
    the packaged gold plans that do not reach their goal (``eai-gym score --gold`` names them and points there).
    """

    world: str
    name: str
    description: str
    protocols: tuple[str, ...]
    jobs: str
    gold: str | None = None
    load_items: str = "eai_gym.scoring.io:read_item_files"
    result: str = "eai_gym.scoring.results:item_result"
    options: tuple[Option, ...] = ()
    #: options copied into the results file (in this order)
    record_options: tuple[str, ...] = ()
    inputs: str = "one JSON file of {identifier, llm_output} items (or a dict identifier -> llm_output)"
    multiple_inputs: bool = False
    summary_keys: tuple[SummaryKey, ...] = ()
    similarity_actions: str | None = None
    gold_actions: str | None = None
    prompts: str | None = None
    reply_to_item: str | None = None
    summary_units: tuple[tuple[str, str], ...] = ()
    plan_records: bool = False
    gold_notes: str | None = None

    @property
    def default_protocol(self) -> str:
        return self.protocols[0]

    @property
    def summary_layout(self) -> SummaryLayout:
        return SummaryLayout(self.summary_keys, self.summary_units)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class WorldSpec:
    """A world: its environments, its task set (for ``list``/``show``/``play``) and its modes (first = default).

    ``task_set`` is a module with ``ids()``, ``names()``, ``card(task_id)``, ``play(task_id, protocol) ->
    (env_id, make kwargs, reset options)``, ``legal_actions(env)`` and ``category(task_id)`` (the group a
    report puts a task in, or None).

    ``agent_prompt`` (a module, or None) lets ``eai-gym evaluate WORLD --mode episodes`` put a model in front of
    the world: ``instructions(options)``, ``examples(options)`` and ``env_kwargs(options)``; with ``TEAM_ENV``
    (a PettingZoo parallel env id) every agent of that env plays, each with its own model and history
    (``options["team"]`` False: one agent plays the task set's single-agent env, as :mod:`eai_gym.rl` does).

    ``server`` (an entry point ``main(argv) -> exit code``, or None) is the world's own env server, speaking
    ``server_protocol``: the default of ``eai-gym serve WORLD``. Every world is also served with each protocol of
    :data:`SERVERS` (see :func:`server_protocols`, :func:`serve`).

    ``splits``: the world's named task splits (:class:`SplitSpec`), the first being the task set; a world that
    declares none has one, ``eval``: its task set, for evaluation only (:attr:`split_specs`).
    """

    name: str
    title: str
    envs: tuple[EnvSpec, ...]
    task_set: str
    modes: tuple[ModeSpec, ...]
    description: str = ""
    agent_prompt: str | None = None
    server: str | None = None
    server_protocol: str = "native"
    splits: tuple[SplitSpec, ...] = ()

    @property
    def split_specs(self) -> tuple[SplitSpec, ...]:
        """The declared splits, or (none declared) the task set as one evaluation split named ``eval``."""
        return self.splits or (SplitSpec("eval", "eval", f"{self.title}: the world's task set (evaluation only)"),)

    def split(self, name: str | None = None) -> SplitSpec:
        """A split by name (None: the first, the task set)."""
        specs = self.split_specs
        if name is None:
            return specs[0]
        for s in specs:
            if s.name == name:
                return s
        raise RegistryError(f"{self.name} has split(s) {', '.join(s.name for s in specs)}, not {name!r}")

    @property
    def env_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(e.id for e in self.envs))

    @property
    def protocols(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for m in self.modes for p in m.protocols))

    @property
    def default_mode(self) -> ModeSpec:
        return self.modes[0]

    def mode(self, name: str) -> ModeSpec:
        for m in self.modes:
            if m.name == name:
                return m
        raise RegistryError(f"{self.name} has mode(s) {', '.join(m.name for m in self.modes)}, not {name}")


@dataclass(frozen=True)
class ServerSpec:
    """A protocol every world is served with: ``eai-gym serve WORLD --protocol NAME [server options]`` runs
    ``entry_point``, ``main(world, argv) -> exit code`` (``world``: the world's name; ``argv``: the options)."""

    protocol: str
    entry_point: str
    description: str = ""


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
    for m in spec.modes:
        if m.world != spec.name:
            raise RegistryError(f"mode {m.name!r} of world {spec.name!r} says it belongs to {m.world!r}")
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


def load(entry_point: str) -> Any:
    """The object an entry point names: ``"package.module:attribute"`` (or a module, without ``:``)."""
    module, _, attr = entry_point.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in filter(None, attr.split(".")):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as e:
        raise RegistryError(f"entry point {entry_point!r} cannot be loaded: {e}") from e
    return obj


#: the units of the similarity summary (:mod:`eai_gym.scoring.similarity`): means of fractions, and the mean edit
#: distance (a number of edits)
SIMILARITY_UNITS = (("plans", "count"), ("invalid_input", "count"), ("mean_edit_distance", "number"), ("*", "fraction"))


def similarity_mode(world_name: str, protocols: tuple[str, ...], gold: str, similarity_actions: str,
                    gold_actions: str, inputs: str = ModeSpec.inputs, options: tuple[Option, ...] = ()) -> ModeSpec:
    """A world's ``similarity`` mode: LCS, Jaccard and edit distance of each plan's actions (read with
    ``similarity_actions``) against the task's gold actions (``gold_actions``) or a reference file's."""
    return ModeSpec(world_name, "similarity", "LCS, Jaccard and edit distance against a reference plan",
                    protocols, "eai_gym.scoring.similarity:jobs", gold=gold, options=options + SIMILARITY_OPTIONS,
                    record_options=("reference",), inputs=inputs,
                    summary_keys=(SummaryKey("mean_lcs"), SummaryKey("mean_jaccard"),
                                  SummaryKey("mean_edit_distance", higher_is_better=False), SummaryKey("exact_match_rate")),
                    summary_units=SIMILARITY_UNITS, similarity_actions=similarity_actions, gold_actions=gold_actions)

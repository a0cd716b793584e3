"""What a world describes itself with (:mod:`eai_gym.registry` collects the descriptions): :class:`WorldSpec` (its
env ids, task set, splits, modes, agent prompt and server), :class:`ModeSpec` (one way of scoring it), and the small
types they are made of. Entry points are ``"package.module:attribute"`` strings, loaded with :func:`load` when used,
so that a spec module imports nothing of the world it describes.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import Any


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
    """One way of scoring a world's outputs offline (and of prompting a model for them).

    Entry points (``"module:function"``; every one that needs to know its mode is given this spec, so one
    function serves the modes of several worlds):
      - ``jobs(items, protocol, options, mode) -> scoring.jobs.Jobs``: the per-item work and its summary
        (``options``: the values of the mode's :attr:`options`; ``mode``: this spec).
      - ``gold(options, mode) -> items``: the packaged gold items (None: the mode has no gold): :meth:`gold_items`.
      - ``load_items(paths, options) -> items``: read the input files (raises ``scoring.io.InputFileError``).
      - ``result(run) -> (result, records)``: the results file of a run (default: one record per item with
        ``n_items`` and the mode's ``record_options``; see :func:`eai_gym.scoring.results.item_result`).
      - ``similarity_actions(item) -> (task key, actions)`` and ``gold_actions(key, options) -> actions``: the
        action strings plan similarity compares (a list, or ``{agent: list}`` compared agent by agent).
      - ``prompts(protocol, options, mode) -> [{"identifier", "llm_prompt"}]``: the mode's prompts (``eai-gym
        prompts``, ``eai-gym evaluate``): :meth:`prompt_items`; and ``reply_to_item(identifier, reply) -> item``: a
        model reply as the mode's input (default ``{"identifier", "llm_output": reply}``). Online play is the
        world's (``WorldSpec.agent_prompt``).

    ``world`` is filled in by the :class:`WorldSpec` the mode belongs to. ``parameters``: ``(name, value)`` pairs the
    mode's entry points read (:meth:`parameter`), such as the reference's planner timeout of a world's transition
    modeling. ``summary_keys`` are the summary's headline figures and ``summary_units`` the unit of each figure (see
    :class:`SummaryLayout`): the summary itself keeps the reference's own scale (percent or fraction), and the
    command line and the reports show every rate in percent, naming the unit. ``plan_records``: each record also
    carries :data:`PLAN_RECORD_FIELDS` (the mode replays plans). ``gold_notes``: where the documentation explains
    the packaged gold plans that do not reach their goal (``eai-gym score --gold`` names them and points there).
    """

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
    parameters: tuple[tuple[str, Any], ...] = ()
    world: str = ""

    @property
    def default_protocol(self) -> str:
        return self.protocols[0]

    @property
    def summary_layout(self) -> SummaryLayout:
        return SummaryLayout(self.summary_keys, self.summary_units)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def parameter(self, name: str) -> Any:
        """The value of one of :attr:`parameters` (raises :class:`RegistryError` naming the mode if it has none)."""
        for key, value in self.parameters:
            if key == name:
                return value
        raise RegistryError(f"{self.world} --mode {self.name} has no parameter {name!r}")

    def gold_items(self, options: Any) -> list:
        """The packaged gold items (raises :class:`RegistryError` when the mode has none)."""
        if self.gold is None:
            raise RegistryError(f"{self.world} --mode {self.name} has no packaged gold")
        return list(load(self.gold)(options, self))

    def prompt_items(self, protocol: str, options: Any) -> list[dict]:
        """The mode's prompts, ``[{"identifier", "llm_prompt"}]`` (raises :class:`RegistryError` when it has none)."""
        if self.prompts is None:
            raise RegistryError(f"{self.world} --mode {self.name} has no prompts")
        return list(load(self.prompts)(protocol, options, self))


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

    def __post_init__(self) -> None:
        """Stamp the world's name on its modes (a mode naming another world is an error)."""
        stamped = []
        for m in self.modes:
            if m.world and m.world != self.name:
                raise RegistryError(f"mode {m.name!r} of world {self.name!r} says it belongs to {m.world!r}")
            stamped.append(m if m.world == self.name else replace(m, world=self.name))
        object.__setattr__(self, "modes", tuple(stamped))

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

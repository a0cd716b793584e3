"""What ``eai-gym score`` runs per item, for :func:`eai_gym.scoring.runner.run_items`.

A mode's ``jobs`` builder (:class:`eai_gym.registry.ModeSpec`, e.g. :mod:`eai_gym.scoring.virtualhome.modes`)
returns :class:`Jobs`: one unit of work per input item (in input order), a module-level function
``fn(context, unit) -> record``, how a worker builds its ``context`` (a world) once, and how the records are
summarized. Units are independent: where the serial scorer carries state from item to item (repeated
identifiers, the eai-1.0.5 subgoal RNG), the scorer's ``plan_items`` works it out up front, so any split of
the units over workers gives the serial records and summary.

``summary_fields`` names the record fields ``summarize`` reads. Given them, ``eai-gym score`` keeps of each
record only those and :data:`eai_gym.scoring.results.RECORD_FIELDS` (:meth:`Jobs.keep`) once the record's JSON
text is made: a worker sends back only that (and the text), and the command holds only that in memory. None: the
summary may read anything, every record is kept whole. A mode whose ``result`` entry point writes the records
themselves (not from ``ScoreRun.record_texts``, as :func:`eai_gym.scoring.results.item_result` does) or reads other
fields of them must leave it None.

One bad item never loses the run: ``Jobs.fn`` is an :class:`ItemWork`, whose :meth:`ItemWork.invalid_record` the
runner calls for a unit whose scoring raised (its one per-item boundary). That record is the mode's own record
of an item it does not score (``blank(identifier, status, message)``: the fields its summary and results file
read) with ``status: "invalid_input"`` and a message naming the item and the cause. :meth:`Jobs.once_per_identifier`
applies the scorers' treatment of repeated identifiers (see ``docs/scoring.md``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from .input_json import UnreadableItem
from .items import describe_error, describe_item, item_identifier, plain_record
from .results import RECORD_FIELDS

#: the status of an item not scored because an earlier item has its identifier
DUPLICATE = "duplicate_identifier"
#: the statuses of records of items that are not scored
NOT_SCORED = ("invalid_input", "evaluation_error", DUPLICATE)
#: the modes whose reference evaluator (eai-eval 1.0.5) scores every item, an identifier met again included (its
#: action sequencing and transition modeling count each item; its BEHAVIOR goal interpretation counts the last
#: item of a task): under ``protocol="eai-1.0.5"`` they do the same, to reproduce its numbers
REFERENCE_SCORES_REPEATS = {"eai-1.0.5": ("action_sequencing", "goal_interpretation", "transition_modeling")}


def scores_repeats(mode: str, protocol: str) -> bool:
    """Whether ``mode`` scores every item of an identifier under ``protocol`` (a reference's behaviour), rather
    than only the first (see ``docs/scoring.md``)."""
    return mode in REFERENCE_SCORES_REPEATS.get(protocol, ())


@dataclass(frozen=True)
class Preset:
    """A unit whose record is known before any scoring (an item whose identifier an earlier item has)."""

    record: dict


@dataclass(frozen=True)
class ItemWork:
    """``fn(context, unit)``, and the record of a unit it raised on (:meth:`invalid_record`); picklable when its
    functions are module-level functions (or partials of them)."""

    fn: Callable[[Any, Any], Any]
    blank: Callable[[Any, str, str], dict] = plain_record
    identify: Callable[[Any], Any] = item_identifier
    record_fields: tuple[str, ...] = ("identifier", "status")

    def __call__(self, context: Any, unit: Any) -> Any:
        if type(unit) is Preset:
            return dict(unit.record)
        if type(unit) is UnreadableItem:
            raise ValueError(unit.reason)
        return self.fn(context, unit)

    def identifier(self, unit: Any) -> Any:
        """The unit's identifier as records name it (None when it has none, or when looking it up fails)."""
        try:
            return self.identify(unit)
        except Exception:  # noqa: BLE001 - the item is hostile: it has no identifier to show
            return None

    def invalid_record(self, index: int, unit: Any, error: BaseException) -> dict:
        """The record of unit ``index`` whose scoring raised ``error``: ``invalid_input``, the mode's fields."""
        return invalid_record(self.blank, index, self.identifier(unit), error)

    def check_record(self, record: Any) -> str | None:
        """What keeps ``record`` (read back from a results file with ``--resume``) from being one of this mode's
        records, or None: an object with a text ``status`` and the mode's ``record_fields``; a record of an item
        not scored has every field of the mode's record of such an item."""
        if not isinstance(record, dict):
            return f"the record is not an object but a {type(record).__name__}"
        status = record.get("status")
        if not isinstance(status, str):
            return "the record has no text 'status'"
        need = tuple(self.blank(None, status, "")) if status in NOT_SCORED else self.record_fields
        missing = [f for f in need if f not in record]
        return f"the record has no {', '.join(map(repr, missing))}" if missing else None


def invalid_record(blank: Callable[[Any, str, str], dict], index: int, identifier: Any,
                   error: BaseException) -> dict:
    """A mode's ``invalid_input`` record (``blank``) of item ``index``, whose scoring raised ``error``."""
    return blank(identifier, "invalid_input", f"{describe_item(index, identifier)} cannot be scored: "
                                              f"{describe_error(error)}")


def duplicate_record(blank: Callable[[Any, str, str], dict], index: int, first: int, identifier: Any) -> dict:
    """A mode's ``duplicate_identifier`` record (``blank``) of item ``index``, whose task item ``first`` has."""
    return blank(identifier, DUPLICATE, f"{describe_item(index, identifier)} is for the same task as item "
                                        f"{first}, which is the one scored")


def repeats(units: list, key: Callable[[Any], Hashable | None]) -> dict[int, int]:
    """``{index: first index}`` for each unit whose ``key`` (not None) an earlier unit has; a unit whose key
    cannot be found (``key`` raises) repeats nothing."""
    first: dict[Hashable, int] = {}
    out: dict[int, int] = {}
    for i, unit in enumerate(units):
        try:
            k = key(unit)
            j = i if k is None else first.setdefault(k, i)
        except Exception:  # noqa: BLE001 - no usable key: the unit is scored (and its record says what is wrong)
            continue
        if j != i:
            out[i] = j
    return out


@dataclass
class Jobs:
    fn: Callable[[Any, Any], dict]
    units: list
    #: records (in input order) -> result fields: "summary" and any others (e.g. "counters")
    summarize: Callable[[list], dict]
    init: Callable[..., Any] | None = None
    init_args: tuple = ()
    #: the record fields ``summarize`` reads (None: any)
    summary_fields: tuple[str, ...] | None = None
    #: the mode's record of an item it does not score, ``blank(identifier, status, message)``: the fields its
    #: summary and results file read (a module-level function or a partial of one: workers receive it)
    blank: Callable[[Any, str, str], dict] = plain_record
    #: a unit's identifier as its record names it (:func:`eai_gym.scoring.items.safe_identifier` values)
    identify: Callable[[Any], Any] = item_identifier
    #: the fields every record has (what ``--resume`` checks of the records it reads back)
    record_fields: tuple[str, ...] = ("identifier", "status")

    def __post_init__(self) -> None:
        if not isinstance(self.fn, ItemWork):
            self.fn = ItemWork(self.fn, self.blank, self.identify, self.record_fields)

    def keep(self) -> Callable[[dict], dict] | None:
        """What to keep of each record (a picklable function), or None: the whole record."""
        if self.summary_fields is None:
            return None
        return functools.partial(keep_fields, frozenset(self.summary_fields + RECORD_FIELDS))

    def once_per_identifier(self, key: Callable[[Any], Hashable | None] | None = None, *, mode: str = "",
                            protocol: str = "") -> "Jobs":
        """Score only the first unit of each task: a later unit with the same ``key`` (default: its identifier,
        when that is a string) becomes a ``duplicate_identifier`` record naming the first, which the summaries
        leave out, unless ``mode`` under ``protocol`` scores every item (:func:`scores_repeats`). Returns
        ``self``."""
        if scores_repeats(mode, protocol):
            return self
        work = self.fn
        assert isinstance(work, ItemWork)
        for i, j in repeats(self.units, key or string_key(work.identifier)).items():
            self.units[i] = Preset(duplicate_record(self.blank, i, j, work.identifier(self.units[i])))
        return self


def string_key(identify: Callable[[Any], Any]) -> Callable[[Any], str | None]:
    """A key for :meth:`Jobs.once_per_identifier`: the unit's identifier when it is a string."""
    return functools.partial(_string_key, identify)


def _string_key(identify: Callable[[Any], Any], unit: Any) -> str | None:
    ident = identify(unit)
    return ident if isinstance(ident, str) else None


def tagged_identifier(job: tuple) -> Any:
    """The identifier of a ``(tag, item, ...)`` job's item, or of a ``("record", record)`` job's record (the jobs
    of the subgoal scorers' ``plan_items``)."""
    if job[0] == "record":
        return job[1].get("identifier")
    return item_identifier(job[1])


def keep_fields(fields: frozenset, record: Any) -> Any:
    """The record with only ``fields`` (those it has), in its own order; what is not a dict, as it is."""
    if not isinstance(record, dict):
        return record
    return {k: v for k, v in record.items() if k in fields}


def same(*args: Any) -> tuple:
    """A worker context that is just the ``init_args``."""
    return args

"""What ``eai-gym score`` runs per item, for :func:`eai_gym.scoring.runner.run_items`.

A mode's ``jobs`` builder (:class:`eai_gym.registry.ModeSpec`, e.g. :mod:`eai_gym.scoring.virtualhome.modes`)
returns :class:`Jobs`: one unit of work per input item (in input order), a module-level function
``fn(context, unit) -> record``, how a worker builds its ``context`` (a world) once, and how the records are
summarized. Units are independent: where the serial scorer carries state from item to item (duplicate
identifiers, the eai-1.0.5 subgoal RNG), the scorer's ``plan_items`` works it out up front, so any split of
the units over workers gives the serial records and summary.

``summary_fields`` names the record fields ``summarize`` reads. Given them, ``eai-gym score`` keeps of each
record only those and :data:`eai_gym.scoring.results.RECORD_FIELDS` (:meth:`Jobs.keep`) once the record's JSON
text is made: a worker sends back only that (and the text), and the command holds only that in memory. None: the
summary may read anything, every record is kept whole. A mode whose ``result`` entry point writes the records
themselves (not from ``ScoreRun.record_texts``, as :func:`eai_gym.scoring.results.item_result` does) or reads other
fields of them must leave it None.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from .results import RECORD_FIELDS


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

    def keep(self) -> Callable[[dict], dict] | None:
        """What to keep of each record (a picklable function), or None: the whole record."""
        if self.summary_fields is None:
            return None
        return functools.partial(keep_fields, frozenset(self.summary_fields + RECORD_FIELDS))


def keep_fields(fields: frozenset, record: Any) -> Any:
    """The record with only ``fields`` (those it has), in its own order; what is not a dict, as it is."""
    if not isinstance(record, dict):
        return record
    return {k: v for k, v in record.items() if k in fields}


def same(*args: Any) -> tuple:
    """A worker context that is just the ``init_args``."""
    return args

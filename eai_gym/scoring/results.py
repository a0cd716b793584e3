"""The results file of an ``eai-gym score`` run, whatever the world and mode.

A mode's ``result`` entry point (:class:`eai_gym.registry.ModeSpec`) turns a finished :class:`ScoreRun` into the
results dict (what ``--out`` writes) and the records the command reports on (each with ``identifier``,
``status`` and ``message``). :func:`item_result` is the default: one record per input item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GOLD_SOURCE = "gold plans (packaged)"


class EncodedRecords(list):
    """A list of records that carries each record's JSON text (``json.dumps(record)``), so that writing the
    results file (:func:`eai_gym.scoring.io.dumps_results`) need not encode them again: the workers of a parallel
    run encode the records they make. The records must not change after they were encoded."""

    def __init__(self, records: list, texts: list[str]) -> None:
        super().__init__(records)
        self.texts = texts


@dataclass
class ScoreRun:
    world: str
    mode: Any  # registry.ModeSpec
    protocol: str
    #: the input paths (empty with --gold)
    inputs: list[str]
    gold: bool
    #: the values of the mode's options
    options: dict[str, Any]
    records: list[dict[str, Any]]
    #: the summary fields of the records: "summary" and any others (e.g. "counters")
    fields: dict[str, Any]
    version: str
    #: each record's JSON text (``json.dumps``), made with the record (None: not made)
    record_texts: list[str] | None = None

    @property
    def source(self) -> str:
        return GOLD_SOURCE if self.gold else self.inputs[0]


def item_result(run: ScoreRun) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """world, mode, protocol, source, version, item counts, summary, one record per item, the other summary
    fields, then the mode's ``record_options``."""
    fields = dict(run.fields)
    records = run.records
    texts = run.record_texts
    result = {"world": run.world, "mode": run.mode.name, "protocol": run.protocol, "source": run.source,
              "eai_gym_version": run.version, "n_items": len(records),
              "n_invalid_input": sum(r["status"] == "invalid_input" for r in records),
              "summary": fields.pop("summary"),
              "tasks": records if texts is None or len(texts) != len(records) else EncodedRecords(records, texts)}
    result.update(fields)
    for name in run.mode.record_options:
        result[name] = run.options[name]
    return result, records

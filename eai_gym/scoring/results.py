"""The results file of an ``eai-gym score`` run, whatever the world and mode.

A mode's ``result`` entry point (:class:`eai_gym.registry.ModeSpec`) turns a finished :class:`ScoreRun` into the
results dict (what ``--out`` writes) and the records the command reports on (each with ``identifier``,
``status`` and ``message``). :func:`item_result` is the default: one record per input item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

ITEMS_SOURCE = "items given in process"
GOLD_SOURCE = "gold plans (packaged)"


#: the fields of every record that :func:`item_result` and the ``eai-gym score`` command read (besides the
#: fields the mode's summary reads: :attr:`eai_gym.scoring.jobs.Jobs.summary_fields`): ``success``, where a record
#: has it, names the gold plans that do not reach their goal
RECORD_FIELDS = ("identifier", "status", "message", "success")


class RecordTexts:
    """Each record's JSON text (``json.dumps(record)``), in record order, held as the blocks the workers send:
    the texts of consecutive records joined by newlines (``json.dumps`` writes none: it escapes them in strings).
    Joining them for a results file (:meth:`join`) then costs one ``replace`` per block, not an object per
    record. ``add`` every record exactly once; :meth:`join` refuses a gap or an overlap."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.pieces: list[tuple[int, int, str]] = []  # (first record, number of records, block)

    def add(self, indices: list[int], block: str) -> None:
        """The texts of records ``indices`` (in that order), joined by newlines."""
        if not indices:
            return
        if indices[-1] - indices[0] == len(indices) - 1 and all(b == a + 1 for a, b in zip(indices, indices[1:])):
            self.pieces.append((indices[0], len(indices), block))
            return
        texts = block.split("\n")  # records that are not consecutive (a resumed run): one piece each
        if len(texts) != len(indices):
            raise ValueError(f"{len(indices)} records but {len(texts)} texts")
        self.pieces.extend((i, 1, t) for i, t in zip(indices, texts))

    def __len__(self) -> int:
        return self.n

    def _ordered(self) -> list[tuple[int, int, str]]:
        pieces = sorted(self.pieces, key=lambda p: p[0])
        at = 0
        for first, count, _ in pieces:
            if first != at:
                raise ValueError(f"record texts missing or given twice at record {min(first, at)}")
            at += count
        if at != self.n:
            raise ValueError(f"record texts for {at} of {self.n} records")
        return pieces

    def __iter__(self) -> Iterator[str]:
        for _, _, block in self._ordered():
            yield from block.split("\n")

    def join(self, sep: str) -> str:
        """``sep.join(texts)``."""
        return "".join(self.parts(sep))

    def parts(self, sep: str) -> Iterator[str]:
        """``sep.join(texts)`` in parts (a block at a time)."""
        for k, (_, _, block) in enumerate(self._ordered()):
            yield (sep if k else "") + block.replace("\n", sep)


class EncodedRecords(list):
    """A list of records that carries each record's JSON text (``json.dumps(record)``: a list of texts or a
    :class:`RecordTexts`), so that writing the results file (:func:`eai_gym.scoring.io.dumps_results`) need not
    encode them again: the workers of a parallel run encode the records they make. The texts are what is
    written: the records may be only the fields a summary reads (:attr:`eai_gym.scoring.jobs.Jobs.summary_fields`)."""

    def __init__(self, records: list, texts: "RecordTexts | list[str]") -> None:
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
    #: each record's JSON text (``json.dumps``), made with the record (None: not made: no results file). Where the
    #: mode names its summary's fields, ``records`` hold only those and :data:`RECORD_FIELDS` of each record, and a
    #: results file is written from these texts
    record_texts: "RecordTexts | list[str] | None" = None

    @property
    def source(self) -> str:
        """What was scored: the packaged gold plans, the first input file, or items handed over in process."""
        if self.gold:
            return GOLD_SOURCE
        return self.inputs[0] if self.inputs else ITEMS_SOURCE


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

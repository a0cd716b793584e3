"""The one scoring path: ``eai-gym score`` (:mod:`eai_gym.cli_score`) and ``eai-gym evaluate`` (its offline modes,
:mod:`eai_gym.evaluate.targets`) both call :func:`score`, so a file of plans and a model's replies are scored by the
same code, into the same results.

:func:`score` reads the items (the mode's packaged gold, its input files, or items given), builds the mode's jobs
(``ModeSpec.jobs``), runs them (:func:`eai_gym.scoring.runner.run_items`, serially or on workers, streaming to a JSONL
journal as :class:`RunSettings` say) and makes the results file's dict with the mode's ``result`` entry point. It
takes explicit options, never a command line's namespace. Everything it does runs with the cyclic collector looking at
young objects rarely (:func:`eai_gym.scoring.runner.fewer_collections`): the task data, items and records it makes are
long-lived, and collecting them is wasted work.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .. import __version__
from ..specs import ModeSpec, load
from .results import ScoreRun
from .runner import fewer_collections, run_items


@dataclass(frozen=True)
class RunSettings:
    """How a run runs; none of it changes a record.

    Args:
        workers: worker processes or Ray actors (1: in this process; 0: one per CPU).
        backend: ``processes`` or ``ray``.
        jsonl: a JSONL journal each record is appended to as it finishes (``--resume`` reads it back).
        resume: keep the records ``jsonl`` holds and score only the rest.
        texts: make each record's JSON text where it is made (by the workers), for writing the results file.
        run_options: every option's value, recorded in the journal's first line (a resumed run must match it).
        log: where progress notes go (resuming, ...).
    """

    workers: int = 1
    backend: str = "processes"
    jsonl: str | None = None
    resume: bool = False
    texts: bool = False
    run_options: Mapping[str, Any] | None = None
    log: Callable[[str], None] | None = None


def read_items(mode: ModeSpec, options: Mapping[str, Any], *, gold: bool = False,
               paths: Sequence[str] = ()) -> list[Any]:
    """The items to score: the mode's packaged gold (``gold``), else what its ``load_items`` reads from ``paths``
    (raises :class:`eai_gym.scoring.io.InputFileError` for a file that cannot be read at all)."""
    if gold:
        return mode.gold_items(options)
    return list(load(mode.load_items)(list(paths), options))


def score(mode: ModeSpec, protocol: str, options: Mapping[str, Any], *, items: list[Any] | None = None,
          gold: bool = False, paths: Sequence[str] = (), settings: RunSettings = RunSettings()) -> tuple[dict, list]:
    """Score ``items`` (None: :func:`read_items` of ``gold``/``paths``) with ``mode`` under ``protocol`` and the mode's
    ``options``; returns the results file's dict and the records as the mode's ``result`` entry point shows them
    (one per item, in input order)."""
    with fewer_collections():
        if items is None:
            items = read_items(mode, options, gold=gold, paths=paths)
        jobs = load(mode.jobs)(items, protocol, options, mode)
        run_info = None
        if settings.jsonl:  # the journal's first line names the run it holds, so that --resume can check it
            digest = hashlib.sha256(json.dumps(items, sort_keys=True, default=repr).encode("utf-8")).hexdigest()
            run_info = {"world": mode.world, "mode": mode.name, "protocol": protocol, "n_items": len(items),
                        "input_sha256": digest, "options": dict(settings.run_options or options),
                        "eai_gym_version": __version__}
        results = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=settings.workers,
                            backend=settings.backend, jsonl=settings.jsonl, resume=settings.resume,
                            run_info=run_info, encode=settings.texts, log=settings.log,
                            # trimmed records only when the results file is written from the texts
                            keep=jobs.keep() if settings.texts else None)
        records, texts = results if settings.texts else (results, None)
        run = ScoreRun(mode.world, mode, protocol, list(paths), gold, dict(options), records, jobs.summarize(records),
                       __version__, texts)
        result, shown = load(mode.result)(run)
    return result, shown

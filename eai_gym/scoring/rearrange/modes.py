"""The rearrange world's scoring modes as :mod:`eai_gym.registry` names them: the jobs, the packaged gold items,
the results file of fact replay and the actions plan similarity compares."""

from __future__ import annotations

import functools
from functools import lru_cache
from typing import Any, Mapping

from ..io import InputFileError, read_item_files
from ..jobs import Jobs, same
from ..results import ScoreRun, item_result
from ..similarity import PlanItemError


# ------------------------------------------------------------------------------ facts
def _facts_case(ctx: tuple, entry: tuple) -> dict:
    from .facts import score_loaded

    return score_loaded(entry, ctx[0])


def facts_items(paths: list[str], options: Mapping[str, Any]) -> list:
    """The ``(default case id, case)`` entries of the case files and folders (an unreadable file is an entry)."""
    from .facts import load_cases

    return load_cases(paths)


def facts_jobs(entries: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    """``entries``: the ``(default case id, case)`` pairs of :func:`.facts.load_cases`."""
    from .facts import entry_case_id, explicit_case_id, not_scored, summarize

    jobs = Jobs(_facts_case, list(entries), lambda rs: {"summary": summarize(rs)}, same, (protocol,),
                blank=functools.partial(not_scored, protocol), identify=entry_case_id,
                record_fields=("case_id", "status"))
    return jobs.once_per_identifier(explicit_case_id, mode="facts", protocol=protocol)


def facts_result(run: ScoreRun) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One record per case (``case_id``), the input paths as the source."""
    result = {"world": run.world, "mode": run.mode.name, "protocol": run.protocol, "source": run.inputs,
              "eai_gym_version": run.version, "summary": run.fields["summary"], "tasks": run.records}
    return result, [{**r, "identifier": r["case_id"], "message": r.get("error")} for r in run.records]


# ------------------------------------------------------------------------------ actions
@lru_cache(maxsize=8)
def _episodes(path: str | None) -> tuple:
    from ...envs.rearrange.episode import EpisodeError, load_episodes, shipped_episodes

    try:
        return tuple(load_episodes(path) if path else shipped_episodes("val"))
    except (OSError, ValueError, EpisodeError) as e:
        raise InputFileError(f"cannot read the episodes {path}: {e}") from None


def _rearrange_action(ctx: tuple, item: Any) -> dict:
    from .actions import score_item

    return score_item(item, *ctx)


def actions_items(paths: list[str], options: Mapping[str, Any]) -> list:
    _episodes(options["episodes"])  # an unreadable episode file is reported before the plans are read
    return read_item_files(paths, options)


def actions_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any = None) -> Jobs:
    from .actions import SUMMARY_FIELDS, item_name, not_scored, summarize

    by_id = {e.episode_id: e for e in _episodes(options["episodes"])}
    return Jobs(_rearrange_action, list(items), lambda rs: {"summary": summarize(rs)}, same,
                (by_id, protocol, options["max_steps"], options["observability"]), summary_fields=SUMMARY_FIELDS,
                blank=not_scored, identify=item_name).once_per_identifier(mode="actions", protocol=protocol)


def actions_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """The oracle's per-agent scripts of every episode (of ``--episodes``, default the packaged validation set)."""
    from ...envs.rearrange.oracle import oracle_scripts

    return [{"episode_id": e.episode_id, "actions": oracle_scripts(e)} for e in _episodes(options.get("episodes"))]


def actions_result(run: ScoreRun) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    result, records = item_result(run)
    result["episodes"] = run.options["episodes"] or "val (packaged)"
    return result, records


# ------------------------------------------------------------------------------ similarity
def similarity_actions(item: Any) -> tuple[str, dict[str, list[str]]]:
    from .actions import agents_plan

    if not isinstance(item, Mapping):
        raise PlanItemError(f"an item must be an object, got {type(item).__name__}")
    key = item.get("episode_id", item.get("identifier"))
    if not isinstance(key, str):
        raise PlanItemError("an item needs 'episode_id' (or 'identifier')")
    return key, agents_plan(item.get("actions"))


def gold_actions(key: str, options: Mapping[str, Any]) -> dict[str, list[str]]:
    from ...envs.rearrange.oracle import oracle_scripts
    from .actions import agents_plan

    episode = {e.episode_id: e for e in _episodes(None)}.get(key)
    if episode is None:
        raise PlanItemError(f"no packaged episode {key!r}")
    return agents_plan(oracle_scripts(episode))


def similarity_gold(options: Mapping[str, Any], mode: Any = None) -> list[dict[str, Any]]:
    """The oracle's per-agent scripts of every packaged validation episode."""
    return actions_gold({"episodes": None})

"""Action replay: score per-agent skill scripts for rearrange episodes through the env's world.

A plans file is a JSON list (or ``{"plans": [...]}``) of items::

    {"episode_id": "house_03_temporal_0007",            # or "identifier"
     "actions": {"agent_0": ["Navigate[counter_3]", "Pick[cup_1]", ...],
                 "agent_1": ["Rearrange[book_2, on, shelves_1, None, None]", ...]},
     "episode": {...}}                                    # optional: the episode itself (PARTNR fields)

Episodes are looked up in the episode set (the shipped validation set unless another file is
given). Each agent runs its list in order, taking its next action whenever idle, and says
``Done[]`` when its list is used up; an item naming only ``agent_0`` runs the robot alone with every
skill. The episode ends on success, when both agents are done, or at ``max_steps`` ticks. Each item
gives one record with the engine's metrics; a malformed item is ``invalid_input`` and never stops
the others. The summary averages PARTNR's metrics overall and per task kind.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ...core.safe_repr import bounded_repr
from ...envs.rearrange.episode import AGENTS, EpisodeError, RearrangeEpisode
from ...envs.rearrange.rollout import run_scripts
from ...logic.propositions import SpecError
from ..items import item_identifier
from ..similarity import compare, error_message

#: actions that are timing, not plan content (left out when plans are compared)
FILLERS = ("wait[]", "done[]")


class PlanError(ValueError):
    """An item that is not a rearrange action plan."""


def scripts_of(item: Mapping[str, Any]) -> dict[str, list[str]]:
    actions = item.get("actions")
    if not isinstance(actions, Mapping) or not actions:
        raise PlanError("'actions' must map agent_0 and/or agent_1 to lists of action texts")
    unknown = sorted(set(actions) - set(AGENTS))
    if unknown:
        raise PlanError(f"unknown agent(s) {', '.join(map(str, unknown))}; expected agent_0, agent_1")
    for a, acts in actions.items():
        if not isinstance(acts, list) or not all(isinstance(t, str) for t in acts):
            raise PlanError(f"actions[{a!r}] must be a list of strings")
    return {a: list(v) for a, v in actions.items()}


def agents_plan(actions: Any) -> dict[str, list[str]]:
    """Each agent's actions without the fillers (``Wait[]``, ``Done[]``): what plan similarity compares."""
    return {a: [t for t in acts if t.strip().lower().replace(" ", "") not in FILLERS]
            for a, acts in scripts_of({"actions": actions}).items()}


#: the fields that name an item, the first one present counts
IDENTIFIER_FIELDS = ("identifier", "episode_id")


def not_scored(identifier: Any, status: str, message: str) -> dict[str, Any]:
    """The record of an item that is not scored (``invalid_input``, ``duplicate_identifier``)."""
    return {"identifier": identifier, "episode_id": None, "status": status, "message": message}


def item_name(item: Any) -> Any:
    """An item's identifier as its record shows it."""
    return item_identifier(item, IDENTIFIER_FIELDS)


def score_item(item: Any, episodes: Mapping[str, RearrangeEpisode], protocol: str = "fixed",
               max_steps: int = 300, observability: str = "full") -> dict[str, Any]:
    ident = item_identifier(item, IDENTIFIER_FIELDS)
    rec = not_scored(ident, "evaluated", "")
    try:
        if not isinstance(item, Mapping):
            raise PlanError(f"an item must be an object, got {type(item).__name__}")
        if "episode" in item:
            episode = RearrangeEpisode.from_json(item["episode"])
        else:
            eid = item.get("episode_id", item.get("identifier"))
            if not isinstance(eid, str) or eid not in episodes:
                raise PlanError(f"unknown episode_id {bounded_repr(eid)}")
            episode = episodes[eid]
        scripts = scripts_of(item)
        rollout = run_scripts(episode, scripts, max_steps, protocol, observability)
    except (PlanError, EpisodeError, SpecError, ValueError, KeyError) as e:
        rec.update(status="invalid_input", message=error_message(e), success=False, executable=False, error_type=None)
        return rec
    world = rollout.world
    assert world is not None
    errors: dict[str, int] = {}
    for err in rollout.error_types:
        errors[err] = errors.get(err, 0) + 1
    rec.update(episode_id=episode.episode_id, task_kind=episode.task_kind, agents=sorted(scripts),
               task_state_success=float(world.metrics.task_state_success),
               task_percent_complete=float(rollout.percent_complete), num_steps=rollout.steps,
               success=rollout.success, failed_actions=len(rollout.failures), error_counts=errors,
               failures=[list(f) for f in rollout.failures], actions=rollout.actions,
               explanation=world.tracker.explain(), task_evaluation_log=world.tracker.evaluation_log(),
               similarity=_similarity(episode, scripts))
    # every plan mode's fields: the scripts ran without a failed action; the type of the first failure
    rec.update(executable=not rollout.failures, error_type=rollout.error_types[0] if rollout.error_types else None)
    return rec


def _similarity(episode: RearrangeEpisode, scripts: dict[str, list[str]]) -> dict[str, Any] | None:
    """The scripts against the oracle's (the gold plans), None if the oracle finds no plan."""
    from ...envs.rearrange.oracle import OracleError, oracle_scripts

    try:
        gold = oracle_scripts(episode)
    except OracleError:
        return None
    return compare(agents_plan(scripts), agents_plan(gold))


#: the record fields :func:`summarize` reads (with ``status``)
SUMMARY_FIELDS = ("success", "task_state_success", "task_percent_complete", "num_steps", "failed_actions",
                  "error_counts", "task_kind")


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    done = [r for r in records if r["status"] == "evaluated"]

    def block(rs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        n = len(rs)
        if n == 0:
            return {"episodes": 0, "task_state_success": None, "task_percent_complete": None, "num_steps": None}
        ok = [r for r in rs if r["success"]]
        errors: dict[str, int] = {}
        for r in rs:
            for k, v in r["error_counts"].items():
                errors[k] = errors.get(k, 0) + v
        return {"episodes": n, "task_state_success": round(sum(r["task_state_success"] for r in rs) / n, 4),
                "task_percent_complete": round(sum(r["task_percent_complete"] for r in rs) / n, 4),
                "num_steps": round(sum(r["num_steps"] for r in rs) / n, 2),
                "num_steps_successful": round(sum(r["num_steps"] for r in ok) / len(ok), 2) if ok else None,
                "failed_actions": round(sum(r["failed_actions"] for r in rs) / n, 2),
                "error_counts": dict(sorted(errors.items()))}

    kinds = sorted({r["task_kind"] for r in done})
    return {**block(done), "by_task_kind": {k: block([r for r in done if r["task_kind"] == k]) for k in kinds},
            "invalid_input": sum(r["status"] == "invalid_input" for r in records)}


def score_items(items: Iterable[Any], episodes: Mapping[str, RearrangeEpisode], protocol: str = "fixed",
                max_steps: int = 300, observability: str = "full") -> dict[str, Any]:
    records = [score_item(it, episodes, protocol, max_steps, observability) for it in items]
    return {"summary": summarize(records), "tasks": records}

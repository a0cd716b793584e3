"""Plan similarity scoring: each plan against its task's gold plan, or against a reference plans file.

``eai-gym score WORLD PLANS.json --mode similarity [--reference gold|FILE]`` reads the world's own plans
format (the one its other scoring modes read), turns every plan into a list of actions and compares it
with the reference plan of the same task: GAICo's LCS and Jaccard scores and the edit distance, over
actions in eai-gym's canonical form (:func:`eai_gym.metrics.plan_similarity.canonical_action`), so that
``[WALK] <kitchen> (11)`` and ``{"WALK": ["kitchen", "11"]}`` are the same action.

This module is world-agnostic: each world's ``similarity`` mode in :mod:`eai_gym.registry` names two public
functions of its own, ``similarity_actions(item) -> (task key, actions)`` and ``gold_actions(key, options) ->
actions``. Actions are a list of strings, or ``{agent: list}`` for a multi-agent world (compared agent by
agent; the item's value is the mean over the agents either plan names, the edit distance their sum).
Gold plans: VirtualHome and BEHAVIOR, the tasks' annotated gold action plans; BEHAVIOR-1K, the planner's packaged
gold plans; rearrange, the oracle's per-agent scripts (``Wait[]`` and ``Done[]`` left out as timing); ALFWorld, the oracle's shortest command
list from the initial state. An output with no readable action is an empty plan (similarity 0 to a
non-empty reference). A malformed item, or one whose task has no reference, is ``invalid_input`` alone.
"""

from __future__ import annotations

import functools
import json
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from .. import registry
from ..metrics.plan_similarity import similarity_record
from .io import InputFileError, read_items
from .items import item_identifier
from .jobs import Jobs

FIELDS = ("lcs", "jaccard", "edit_distance", "edit_similarity")
Options = Mapping[str, Any]


class PlanItemError(ValueError):
    """An item that is not a plan of the world."""


def error_message(e: Exception) -> str:
    """An exception's message for a record (a KeyError's own, without the quotes ``str()`` adds)."""
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


# ------------------------------------------------------------------------------ the world's hooks
def _mode(world: str) -> registry.ModeSpec:
    return registry.mode(world, "similarity")


def plan_actions(world: str, item: Any) -> tuple[str, Any]:
    """``(task key, actions)`` of one item of the world's plans format (raises :class:`PlanItemError`)."""
    hook: Callable[[Any], tuple[str, Any]] = registry.load(_mode(world).similarity_actions or "")
    return hook(item)


def _frozen(options: Options | None) -> tuple:
    return tuple(sorted((options or {}).items()))


def gold_plan(world: str, key: str, options: Options | None = None) -> Any:
    """The gold actions of a task (by the key :func:`plan_actions` gives its items); computed once per task."""
    plan = _gold_plan(world, key, _frozen(options))
    return {a: list(p) for a, p in plan[1]} if plan[0] else list(plan[1])


@lru_cache(maxsize=4096)
def _gold_plan(world: str, key: str, options: tuple) -> tuple:
    plan = registry.load(_mode(world).gold_actions or "")(key, dict(options))
    if isinstance(plan, Mapping):
        return True, tuple((a, tuple(p)) for a, p in plan.items())
    return False, tuple(plan)


def gold_items(world: str, options: Options | None = None) -> list[dict[str, Any]]:
    """Every packaged task's gold plan as an item of the world's plans format."""
    gold = _mode(world).gold
    if gold is None:
        raise PlanItemError(f"{world} has no packaged gold plans")
    return registry.load(gold)(dict(options or {}))


# ------------------------------------------------------------------------------ scoring
def compare(plan: Any, reference: Any) -> dict[str, Any]:
    """The similarity record of one plan against its reference (agent by agent for ``{agent: actions}``)."""
    if not isinstance(plan, Mapping):
        return similarity_record(plan, reference)
    agents = sorted(set(plan) | set(reference))
    per = {a: similarity_record(plan.get(a, []), reference.get(a, [])) for a in agents}
    rec: dict[str, Any] = {k: sum(p[k] for p in per.values()) / len(per) for k in FIELDS}
    rec["edit_distance"] = sum(p["edit_distance"] for p in per.values())
    rec["agents"] = per
    return rec


def item_similarity(world: str, item: Any, options: Options | None = None, reference: Any = None) -> dict[str, Any] | None:
    """The similarity record of one item against its gold plan (or ``reference``, actions in the form
    :func:`plan_actions` gives), None when the item or its task has no plan to compare."""
    try:
        key, plan = plan_actions(world, item)
        ref = gold_plan(world, key, options) if reference is None else reference
        return compare(plan, ref)
    except (PlanItemError, KeyError, ValueError, IndexError):
        return None


def reference_plans(world: str, reference: Sequence[Any]) -> dict[str, Any]:
    """The plans of a reference file by task key (the first plan of a task wins; unreadable items are skipped)."""
    refs: dict[str, Any] = {}
    for it in reference:
        try:
            key, plan = plan_actions(world, it)
            refs.setdefault(key, plan)
        except Exception:  # noqa: BLE001 - an item that is no plan of the world: there is none to compare with
            continue
    return refs


def score_item(world: str, item: Any, refs: Mapping[str, Any] | None = None,
               options: Options | None = None) -> dict[str, Any]:
    """One item's record against its gold plan (``refs`` None) or the reference plan of its task."""
    ident = item_identifier(item, ("identifier", "episode_id"))
    rec: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": ""}
    try:
        key, plan = plan_actions(world, item)
        rec["task"] = key
        if refs is None:
            ref = gold_plan(world, key, options)
        elif key in refs:
            ref = refs[key]
        else:
            raise PlanItemError(f"the reference file has no plan for {key!r}")
        rec.update(compare(plan, ref))
    except (PlanItemError, KeyError, ValueError, IndexError) as e:
        rec.update(status="invalid_input", message=error_message(e))
    return rec


def score_items(world: str, items: Iterable[Any], reference: Sequence[Any] | None = None,
                options: Options | None = None) -> dict[str, Any]:
    """Score every item; ``reference`` is a list of items in the same format (None: the gold plans)."""
    refs = None if reference is None else reference_plans(world, reference)
    records = [score_item(world, it, refs, options) for it in items]
    return {"summary": summarize(records), "tasks": records}


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    done = [r for r in records if r["status"] == "evaluated"]
    out: dict[str, Any] = {"plans": len(done), "invalid_input": sum(r["status"] == "invalid_input" for r in records)}
    for k in FIELDS:
        out[f"mean_{k}"] = round(sum(r[k] for r in done) / len(done), 4) if done else None
    out["exact_match_rate"] = round(sum(r["edit_distance"] == 0 for r in done) / len(done), 4) if done else None
    return out


# ------------------------------------------------------------------------------ eai-gym score --mode similarity
def _context(world: str, refs: Any, options: dict) -> tuple:
    return (world, refs, options)


def _score_unit(ctx: tuple, item: Any) -> dict:
    world, refs, options = ctx
    return score_item(world, item, refs, options)


def _gold_options(world: str, options: Options) -> dict[str, Any]:
    """The options the gold actions depend on: the mode's own, without the shared similarity ones."""
    shared = {o.name for o in registry.SIMILARITY_OPTIONS}
    return {o.name: options[o.name] for o in _mode(world).options if o.name not in shared and o.name in options}


def jobs(items: list, protocol: str, options: Options, mode: registry.ModeSpec) -> Jobs:
    """The work of ``eai-gym score WORLD --mode similarity``: ``options["reference"]`` is ``gold`` or a plans
    file to compare with (raises :class:`InputFileError` when it cannot be read)."""
    world = mode.world
    reference = options.get("reference", "gold")
    refs = None if reference == "gold" else reference_plans(world, read_items(reference))
    return Jobs(_score_unit, list(items), lambda rs: {"summary": summarize(rs)}, _context,
                (world, refs, _gold_options(world, options)), summary_fields=FIELDS,
                identify=functools.partial(item_identifier, fields=("identifier", "episode_id"))
                ).once_per_identifier(task_key, mode="similarity", protocol=protocol)


#: the fields that name an item's task in the worlds' plan formats, the first one present counts
TASK_FIELDS = ("identifier", "episode_id", "game")


def task_key(item: Any) -> str | None:
    """What names an item's task, as text (its first :data:`TASK_FIELDS` value: a string as it is, another
    value as canonical JSON), for :meth:`Jobs.once_per_identifier`; None when it has none."""
    if not isinstance(item, Mapping):
        return None
    value = next((item[f] for f in TASK_FIELDS if f in item), None)
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True)


__all__ = ["InputFileError", "PlanItemError", "compare", "gold_items", "gold_plan", "item_similarity", "jobs",
           "plan_actions", "reference_plans", "score_item", "score_items", "summarize"]

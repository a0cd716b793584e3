"""Plan similarity scoring: each plan against its task's gold plan, or against a reference plans file.

``eai-gym score WORLD PLANS.json --mode similarity [--reference gold|FILE]`` reads the world's own plans
format (the one its other scoring modes read), turns every plan into a list of actions and compares it
with the reference plan of the same task: GAICo's LCS and Jaccard scores and the edit distance, over
actions in eai-gym's canonical form (:func:`eai_gym.metrics.plan_similarity.canonical_action`), so that
``[WALK] <kitchen> (11)`` and ``{"WALK": ["kitchen", "11"]}`` are the same action.

Gold plans: VirtualHome and BEHAVIOR, the tasks' annotated gold action plans; rearrange, the oracle's
per-agent scripts (compared agent by agent, ``Wait[]`` and ``Done[]`` left out as timing, the item's value
the mean over the agents either plan names); ALFWorld, the oracle's shortest command list from the
initial state. An output with no readable action is an empty plan (similarity 0 to a non-empty
reference). A malformed item, or one whose task has no reference, is ``invalid_input`` alone.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..metrics.plan_similarity import similarity_record

FILLERS = ("wait[]", "done[]")
FIELDS = ("lcs", "jaccard", "edit_distance", "edit_similarity")


class PlanItemError(ValueError):
    """An item that is not a plan of the world."""


def error_message(e: Exception) -> str:
    """An exception's message for a record (a KeyError's own, without the quotes ``str()`` adds)."""
    return str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)


# ------------------------------------------------------------------------------ per world: key and plan
def _vh_plan(llm_output: Any) -> list[str]:
    from .eai_output import extract_steps

    if not isinstance(llm_output, str):
        raise PlanItemError(f"llm_output must be a string, got {type(llm_output).__name__}")
    plan = extract_steps(llm_output, "fixed")
    if plan.steps is None:
        return []  # an output with no readable action is an empty plan
    return [f"[{k}]" + "".join(f" <{v[i]}> ({v[i + 1]})" for i in range(0, len(v), 2)) for k, v in plan.steps]


def _behavior_plan(llm_output: Any) -> list[str]:
    from .behavior import _steps_fixed

    if not isinstance(llm_output, str):
        raise PlanItemError(f"llm_output must be a string, got {type(llm_output).__name__}")
    steps = _steps_fixed(llm_output)
    if isinstance(steps, str):
        return []  # an output with no readable action is an empty plan
    return [f"{s.get('action')}({s.get('object')})" for s in steps]


def _eai_item(item: Any) -> str:
    if not isinstance(item, Mapping) or not isinstance(item.get("identifier"), str) or "llm_output" not in item:
        raise PlanItemError("an item must be an object with 'identifier' and 'llm_output'")
    return item["identifier"]


def _vh(item: Any) -> tuple[str, Any]:
    return _eai_item(item), _vh_plan(item["llm_output"])


def _behavior(item: Any) -> tuple[str, Any]:
    return _eai_item(item), _behavior_plan(item["llm_output"])


def agents_plan(actions: Any) -> dict[str, list[str]]:
    from .rearrange_actions import _scripts

    return {a: [t for t in acts if t.strip().lower().replace(" ", "") not in FILLERS]
            for a, acts in _scripts({"actions": actions}).items()}


def _rearrange(item: Any) -> tuple[str, Any]:
    if not isinstance(item, Mapping):
        raise PlanItemError(f"an item must be an object, got {type(item).__name__}")
    key = item.get("episode_id", item.get("identifier"))
    if not isinstance(key, str):
        raise PlanItemError("an item needs 'episode_id' (or 'identifier')")
    return key, agents_plan(item.get("actions"))


def _alfworld(item: Any) -> tuple[str, Any]:
    if not isinstance(item, Mapping):
        raise PlanItemError(f"an item must be an object, got {type(item).__name__}")
    cmds = item.get("commands")
    if not isinstance(cmds, list) or not all(isinstance(c, str) for c in cmds):
        raise PlanItemError("'commands' must be a list of strings")
    return json.dumps(item.get("game"), sort_keys=True), list(cmds)


READERS: dict[str, Callable[[Any], tuple[str, Any]]] = {
    "virtualhome": _vh, "behavior": _behavior, "rearrange": _rearrange, "alfworld": _alfworld}


def gold_plan(world: str, key: str, dialect: str = "0.4") -> Any:
    """The gold plan of a task (by the key :data:`READERS` gives its items); computed once per task."""
    plan = _gold_plan(world, key, dialect)
    return {a: list(p) for a, p in plan} if world == "rearrange" else list(plan)


@lru_cache(maxsize=4096)
def _gold_plan(world: str, key: str, dialect: str) -> tuple:
    plan = _compute_gold_plan(world, key, dialect)
    return tuple((a, tuple(p)) for a, p in plan.items()) if world == "rearrange" else tuple(plan)


def _compute_gold_plan(world: str, key: str, dialect: str) -> Any:
    if world == "virtualhome":
        from ..envs.virtualhome.tasks import load_task

        return list(load_task(key).metadata["virtualhome"].gold_script)
    if world == "behavior":
        from ..envs.behavior.tasks import task_record

        return [f"{s['action']}({s['object']})" for s in task_record(key)["gold_plan"]]
    if world == "rearrange":
        from ..envs.rearrange.episode import shipped_episodes
        from ..envs.rearrange.oracle import oracle_scripts

        episode = {e.episode_id: e for e in shipped_episodes("val")}.get(key)
        if episode is None:
            raise PlanItemError(f"no packaged episode {key!r}")
        return agents_plan(oracle_scripts(episode))
    from ..envs.alfworld.engine import Engine
    from ..envs.alfworld.oracle import Oracle
    from .alfworld_commands import _game

    engine = Engine(_game(json.loads(key)), dialect)
    return Oracle(engine).plan(engine.initial_state()) or []


def gold_items(world: str, dialect: str = "0.4") -> list[dict[str, Any]]:
    """Every packaged task's gold plan as an item of the world's plans format."""
    if world == "virtualhome":
        from ..envs.virtualhome.tasks import gold_plan_json, task_ids

        return [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()]
    if world == "behavior":
        from ..envs.behavior.tasks import task_ids, task_record

        return [{"identifier": t, "llm_output": json.dumps(task_record(t)["gold_plan"])} for t in task_ids()]
    if world == "rearrange":
        from ..envs.rearrange.episode import shipped_episodes
        from ..envs.rearrange.oracle import oracle_scripts

        return [{"episode_id": e.episode_id, "actions": oracle_scripts(e)} for e in shipped_episodes("val")]
    from ..envs.alfworld.generator import eval_split

    return [{"game": i, "commands": gold_plan("alfworld", json.dumps(i), dialect)} for i in range(len(eval_split()))]


# ------------------------------------------------------------------------------ scoring
def compare(world: str, plan: Any, reference: Any) -> dict[str, Any]:
    """The similarity record of one plan against its reference (per agent for rearrange)."""
    if world != "rearrange":
        return similarity_record(plan, reference)
    agents = sorted(set(plan) | set(reference))
    per = {a: similarity_record(plan.get(a, []), reference.get(a, [])) for a in agents}
    rec: dict[str, Any] = {k: sum(p[k] for p in per.values()) / len(per) for k in FIELDS}
    rec["edit_distance"] = sum(p["edit_distance"] for p in per.values())
    rec["agents"] = per
    return rec


def item_similarity(world: str, item: Any, dialect: str = "0.4", reference: Any = None) -> dict[str, Any] | None:
    """The similarity record of one item against its gold plan (or ``reference``, a plan in the form the
    readers give), None when the item or its task has no plan to compare."""
    try:
        key, plan = READERS[world](item)
        ref = gold_plan(world, key, dialect) if reference is None else reference
        return compare(world, plan, ref)
    except (PlanItemError, KeyError, ValueError, IndexError):
        return None


def reference_plans(world: str, reference: Sequence[Any]) -> dict[str, Any]:
    """The plans of a reference file by task key (the first plan of a task wins; unreadable items are skipped)."""
    refs: dict[str, Any] = {}
    for it in reference:
        try:
            key, plan = READERS[world](it)
        except (PlanItemError, KeyError, ValueError):
            continue
        refs.setdefault(key, plan)
    return refs


def score_item(world: str, item: Any, refs: Mapping[str, Any] | None = None, dialect: str = "0.4") -> dict[str, Any]:
    """One item's record against its gold plan (``refs`` None) or the reference plan of its task."""
    ident = item.get("identifier", item.get("episode_id")) if isinstance(item, Mapping) else None
    rec: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": ""}
    try:
        key, plan = READERS[world](item)
        rec["task"] = key
        if refs is None:
            ref = gold_plan(world, key, dialect)
        elif key in refs:
            ref = refs[key]
        else:
            raise PlanItemError(f"the reference file has no plan for {key!r}")
        rec.update(compare(world, plan, ref))
    except (PlanItemError, KeyError, ValueError, IndexError) as e:
        rec.update(status="invalid_input", message=error_message(e))
    return rec


def score_items(world: str, items: Iterable[Any], reference: Sequence[Any] | None = None,
                dialect: str = "0.4") -> dict[str, Any]:
    """Score every item; ``reference`` is a list of items in the same format (None: the gold plans)."""
    refs = None if reference is None else reference_plans(world, reference)
    records = [score_item(world, it, refs, dialect) for it in items]
    return {"summary": summarize(records), "tasks": records}


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    done = [r for r in records if r["status"] == "evaluated"]
    out: dict[str, Any] = {"plans": len(done), "invalid_input": len(records) - len(done)}
    for k in FIELDS:
        out[f"mean_{k}"] = round(sum(r[k] for r in done) / len(done), 4) if done else None
    out["exact_match_rate"] = round(sum(r["edit_distance"] == 0 for r in done) / len(done), 4) if done else None
    return out

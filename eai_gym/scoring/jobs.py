"""What ``eai-gym score`` runs per item, world by world, for :func:`eai_gym.scoring.runner.run_items`.

Each builder returns :class:`Jobs`: one unit of work per input item (in input order), a module-level
function ``fn(context, unit) -> record``, how a worker builds its ``context`` (a world) once, and how
the records are summarized. Units are independent: where the serial scorer carries state from item to
item (duplicate identifiers, the eai-1.0.5 subgoal RNG), the scorer's ``plan_items`` works it out up
front, so any split of the units over workers gives the serial records and summary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


@dataclass
class Jobs:
    fn: Callable[[Any, Any], dict]
    units: list
    #: records (in input order) -> result fields: "summary" and any others (e.g. "counters")
    summarize: Callable[[list], dict]
    init: Callable[..., Any] | None = None
    init_args: tuple = ()


# --- virtualhome ----------------------------------------------------------------------------------

def _vh_world(protocol: str, *rest: Any) -> tuple:
    from ..envs.virtualhome.world import VirtualHomeWorld

    return (VirtualHomeWorld(protocol), protocol, *rest)


def _vh_action(ctx: tuple, item: Any) -> dict:
    from .virtualhome import score_item

    world, protocol, shortcut = ctx
    return score_item(item, protocol, world, shortcut)


def virtualhome_actions(items: list, protocol: str, gold_shortcut: bool | None) -> Jobs:
    def summarize(records: list) -> dict:
        from ..metrics.eai_summary import summarize

        summary, counters = summarize([r["counts"] for r in records], protocol)
        return {"summary": summary, "counters": counters}
    return Jobs(_vh_action, list(items), summarize, _vh_world, (protocol, gold_shortcut))


def _vh_subgoal(ctx: tuple, job: tuple) -> dict:
    from .virtualhome_subgoal import score_job

    world, protocol = ctx
    return score_job(job, protocol, world)


def virtualhome_subgoals(items: list, protocol: str, seed: int) -> Jobs:
    from . import virtualhome_subgoal as vs

    return Jobs(_vh_subgoal, vs.plan_items(items, protocol, seed), lambda rs: {"summary": vs.summarize(rs)},
                _vh_world, (protocol,))


# --- behavior -------------------------------------------------------------------------------------

def _behavior_world(protocol: str, *rest: Any) -> tuple:
    from ..envs.behavior.world import BehaviorWorld

    return (BehaviorWorld(protocol), protocol, *rest)


def _behavior_action(ctx: tuple, item: Any) -> dict:
    from .behavior import score_item

    world, protocol, initial_state = ctx
    return score_item(item, protocol, initial_state, world)


def behavior_actions(items: list, protocol: str, initial_state: str) -> Jobs:
    def summarize(records: list) -> dict:
        from ..metrics.eai_summary import summarize_behavior

        return {"summary": summarize_behavior(r for r in records if r["status"] == "evaluated")}
    return Jobs(_behavior_action, list(items), summarize, _behavior_world, (protocol, initial_state))


def _behavior_subgoal(ctx: tuple, job: tuple) -> dict:
    from .behavior_subgoal import score_job

    world, protocol, initial_state = ctx
    return score_job(job, protocol, initial_state, world)


def behavior_subgoals(items: list, protocol: str, initial_state: str, seed: int) -> Jobs:
    from . import behavior_subgoal as bs

    return Jobs(_behavior_subgoal, bs.plan_items(items, protocol, initial_state, seed),
                lambda rs: {"summary": bs.summarize(rs, protocol, initial_state)},
                _behavior_world, (protocol, initial_state))


# --- rearrange ------------------------------------------------------------------------------------

def _same(*args: Any) -> tuple:
    return args


def _facts_case(ctx: tuple, entry: tuple) -> dict:
    from .rearrange_facts import score_loaded

    return score_loaded(entry, ctx[0])


def rearrange_facts(entries: list, protocol: str) -> Jobs:
    """``entries``: the ``(default case id, case)`` pairs of :func:`.rearrange_facts.load_cases`."""
    from .rearrange_facts import summarize

    return Jobs(_facts_case, list(entries), lambda rs: {"summary": summarize(rs)}, _same, (protocol,))


def _rearrange_action(ctx: tuple, item: Any) -> dict:
    from .rearrange_actions import score_item

    return score_item(item, *ctx)


def rearrange_actions(items: list, episodes: Mapping[str, Any], protocol: str, max_steps: int,
                      observability: str) -> Jobs:
    from .rearrange_actions import summarize

    return Jobs(_rearrange_action, list(items), lambda rs: {"summary": summarize(rs)}, _same,
                (episodes, protocol, max_steps, observability))


# --- alfworld -------------------------------------------------------------------------------------

def _alfworld_item(ctx: tuple, item: Any) -> dict:
    from .alfworld_commands import score_item

    return score_item(item, ctx[0])


def alfworld(items: list, dialect: str) -> Jobs:
    from .alfworld_commands import summarize

    return Jobs(_alfworld_item, list(items), lambda rs: {"summary": summarize(rs)}, _same, (dialect,))


# --- plan similarity (every world) ------------------------------------------------------------------

def _similarity_ctx(world: str, refs: Any, dialect: str) -> tuple:
    return (world, refs, dialect)


def _similarity_item(ctx: tuple, item: Any) -> dict:
    from .similarity import score_item

    world, refs, dialect = ctx
    return score_item(world, item, refs, dialect)


def similarity(items: list, world: str, reference: list | None, dialect: str) -> Jobs:
    from .similarity import reference_plans, summarize

    refs = None if reference is None else reference_plans(world, reference)
    return Jobs(_similarity_item, list(items), lambda rs: {"summary": summarize(rs)}, _similarity_ctx,
                (world, refs, dialect))

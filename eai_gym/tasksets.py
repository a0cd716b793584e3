"""Every world's packaged task set, seen the same way: ids, a task card (instruction, goal, objects, gold
plan), and a wrapped env to play a task by hand. Used by ``eai-gym list``, ``show`` and ``play``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import gymnasium as gym


@dataclass(frozen=True)
class TaskSet:
    world: str
    name: str
    env_ids: tuple[str, ...]
    modes: tuple[str, ...]
    protocols: tuple[str, ...]
    ids: Callable[[], list[str]]
    names: Callable[[], list[str]]
    card: Callable[[str], dict[str, Any]]
    env_kwargs: Callable[[str | None, str], tuple[str, dict, dict | None]]

    def count(self) -> int:
        return len(self.ids())

    def entries(self) -> list[tuple[str, str]]:
        return list(zip(self.ids(), self.names()))

    def show(self, task: str) -> dict[str, Any]:
        if task not in self.ids():
            raise KeyError(task)
        return self.card(task)

    def play_env(self, task: str | None, protocol: str) -> tuple[gym.Env, dict | None]:
        from .wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

        if task is not None and task not in self.ids():
            raise KeyError(task)
        if protocol not in self.protocols:
            raise ValueError(f"{self.world} has protocol(s) {', '.join(self.protocols)}, not {protocol}")
        env_id, kwargs, options = self.env_kwargs(task, protocol)
        env = gym.make(env_id, render_mode="ansi", **kwargs)
        return GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(env)))), options

    @staticmethod
    def legal_actions(env: gym.Env) -> list[str]:
        base = env.unwrapped
        if hasattr(base, "engine") and hasattr(base, "state"):
            return base.engine.admissible(base.state)
        if hasattr(base, "session"):
            from .envs.rearrange import catalogue as cat

            w = base.session.world
            acts = cat.catalogue(w)
            return [t for t, ok in zip(acts, cat.legal_mask(w, "agent_0", acts)) if ok]
        if hasattr(base, "world") and hasattr(base, "episode") and hasattr(base.world, "legal_actions"):
            from .envs.virtualhome.actions import to_script

            state = base.episode.state
            if base.world.name == "virtualhome":
                return [to_script(a) for a in base.world.legal_actions(state, base.objects())]
            return [a.raw for a in base.world.legal_actions(state)]
        return []

    @staticmethod
    def feedback(env: gym.Env, obs: str, info: dict) -> str:
        base = env.unwrapped
        if hasattr(base, "last_feedback"):
            return base.last_feedback
        if isinstance(info.get("feedback"), dict):
            return info["feedback"]["message"]
        return obs


def unknown_task_message(s: TaskSet, task: str) -> str:
    ids = s.ids()
    return f"{s.world} has no task {task!r} ({len(ids)} tasks, e.g. {', '.join(ids[:3])}; eai-gym list {s.world})"


# ------------------------------------------------------------------------------ VirtualHome
def _vh_card(t: str) -> dict[str, Any]:
    from .envs.virtualhome.dynamics import label
    from .envs.virtualhome.tasks import gold_plan_json, load_task, task_object_ids

    task = load_task(t)
    st, g = task.initial_state, task.goal
    goal = [f"{label(st, x['id'])} is {x['state']}" for x in g.node_goals]
    goal += [f"{label(st, x['from_id'])} {x['relation_type']} {label(st, x['to_id'])}" for x in g.edge_goals]
    goal += [f"do {' or '.join(a.split('|'))}" for a in g.action_goals]
    plan = [f"[{k}]" + "".join(f" <{v[i]}> ({v[i + 1]})" for i in range(0, len(v), 2))
            for k, v in json.loads(gold_plan_json(t), object_pairs_hook=list)]
    return {"id": t, "name": task.name, "instruction": task.instruction, "goal": goal,
            "objects": [label(st, i) for i in task_object_ids(t)], "gold_plan": plan,
            "gold_plan_source": "annotated"}


def _vh_set() -> TaskSet:
    from .envs.virtualhome.tasks import load_task, task_ids

    return TaskSet("virtualhome", "EAI VirtualHome (scene_1)", ("eai_gym/VirtualHome-v0",),
                   ("action_sequencing", "subgoal_decomposition", "similarity"), ("fixed", "eai-1.0.5"),
                   lambda: list(task_ids()), lambda: [load_task(t).name for t in task_ids()], _vh_card,
                   lambda t, p: ("eai_gym/VirtualHome-v0", {"task_id": t, "protocol": p}, None))


# ------------------------------------------------------------------------------ BEHAVIOR
def _beh_card(t: str) -> dict[str, Any]:
    from .envs.behavior.tasks import load_task, task_record

    task, rec = load_task(t), task_record(t)
    st = task.initial_state
    return {"id": t, "name": task.name, "instruction": task.instruction,
            "goal": [" ".join(str(x) for x in g) for g in task.metadata["behavior"]["goal_prompt_lines"]],
            "objects": [f"{n} ({st.scene.objects[n].category})" for n in st.scene.order],
            "gold_plan": [f"{s['action']}({s['object']})" for s in rec["gold_plan"]], "gold_plan_source": "annotated"}


def _beh_set() -> TaskSet:
    from .envs.behavior.tasks import task_ids, task_record

    return TaskSet("behavior", "EAI BEHAVIOR (100 activities)", ("eai_gym/Behavior-v0",),
                   ("action_sequencing", "subgoal_decomposition", "similarity"), ("fixed", "eai-1.0.5"),
                   lambda: list(task_ids()), lambda: [task_record(t)["task"] for t in task_ids()], _beh_card,
                   lambda t, p: ("eai_gym/Behavior-v0", {"task_id": t, "protocol": p}, None))


# ------------------------------------------------------------------------------ rearrange
def _episodes() -> dict[str, Any]:
    from .envs.rearrange.episode import shipped_episodes

    return {e.episode_id: e for e in shipped_episodes("val")}


def _re_card(t: str) -> dict[str, Any]:
    from .envs.rearrange.oracle import oracle_scripts

    ep = _episodes()[t]
    props = ep.evaluation.get("evaluation_propositions", [])
    goal = [f"{p['function_name']}({', '.join(f'{k}={v}' for k, v in p['args'].items())})" for p in props]
    goal += [f"constraint {c.get('type')}: {json.dumps(c.get('args', {}))}"
             for c in ep.evaluation.get("evaluation_constraints", [])]
    plan = [f"{a}: {x}" for a, s in oracle_scripts(ep).items() for x in s if x != "Wait[]"]
    return {"id": t, "name": f"{ep.task_kind} in {ep.scene_id}", "instruction": ep.instruction, "goal": goal,
            "objects": [f"{h} ({c})" for h, c in sorted(ep.object_classes.items())], "gold_plan": plan,
            "gold_plan_source": "oracle, per agent, without waits"}


def _re_set() -> TaskSet:
    return TaskSet("rearrange", "rearrange validation set (12 houses)",
                   ("eai_gym/rearrange-v0", "eai_gym/Rearrange-v0"), ("facts", "actions", "similarity"),
                   ("fixed", "partnr"), lambda: list(_episodes()),
                   lambda: [f"{e.task_kind}: {e.instruction}" for e in _episodes().values()], _re_card,
                   lambda t, p: ("eai_gym/Rearrange-v0", {"protocol": p},
                                 None if t is None else {"episode_id": t}))


# ------------------------------------------------------------------------------ ALFWorld
def _alf_card(t: str) -> dict[str, Any]:
    from .envs.alfworld.engine import Engine
    from .envs.alfworld.generator import eval_game, formula_text
    from .envs.alfworld.oracle import Oracle

    game = eval_game(int(t))
    engine = Engine(game)
    return {"id": t, "name": f"{game.task_type} ({game.name})", "instruction": game.task_text(0),
            "goal": [formula_text(game.goal)], "objects": sorted(engine.name[o] for o in game.objects + game.receptacles),
            "gold_plan": Oracle(engine).plan(engine.initial_state()) or [], "gold_plan_source": "oracle (shortest)"}


def _alf_set() -> TaskSet:
    from .envs.alfworld.generator import eval_game, eval_split

    def ids() -> list[str]:
        return [str(i) for i in range(len(eval_split()))]

    return TaskSet("alfworld", "ALFWorld eval split (134 games)", ("eai_gym/AlfWorld-v0",), ("commands", "similarity"),
                   ("fixed",), ids, lambda: [f"{eval_game(int(i)).task_type}: {eval_game(int(i)).task_text(0)}"
                                             for i in ids()], _alf_card,
                   lambda t, p: ("eai_gym/AlfWorld-v0", {}, {"split": "eval", **({} if t is None else {"index": int(t)})}))


@lru_cache(maxsize=1)
def task_sets() -> dict[str, TaskSet]:
    return {s.world: s for s in (_vh_set(), _beh_set(), _re_set(), _alf_set())}

"""The same plans scored offline (``eai_gym.scoring``) and online (a scripted agent sending them through the
wrapped env) give identical metrics, for every world."""

from __future__ import annotations

import json
import random
from pathlib import Path

import gymnasium as gym

import eai_gym  # noqa: F401
from eai_gym.wrappers import (
    GoalSuccess,
    ParallelGoalSuccess,
    ParallelProgressRate,
    ParallelPropositionLog,
    ParallelTrajectoryErrors,
    ProgressRate,
    PropositionLog,
    TrajectoryErrors,
)

DATA = Path(__file__).parent / "reference" / "data"


def _wrap(env):
    return GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(env))))


def _play(env, reset_kwargs, actions):
    obs, info = env.reset(seed=0, **reset_kwargs)
    for a in actions:
        obs, r, te, tr, info = env.step(a)
        if te or tr:
            break
    return info


def _summaries(info):
    """The episode summaries (the plan ran out: the step limit is the plan's length, so the episode ended)."""
    return {k: info[k]["summary"] for k in ("trajectory_errors", "proposition_log", "progress_rate", "goal_success")}


# ---------------------------------------------------------------------------------------- VirtualHome
def _vh_items():
    from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids

    items = json.loads((DATA / "virtualhome" / "perturbed_inputs.json").read_text())
    return items + [{"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()[::3]]


def test_virtualhome_offline_equals_online():
    from eai_gym.scoring.virtualhome.action_sequencing import ERROR_STRINGS, score_item

    compared = 0
    for item in _vh_items():
        rec = score_item(item, "fixed")
        if rec["status"] != "evaluated" or not rec["actions"]:
            continue  # grammar errors are judged on the whole plan before anything runs
        env = _wrap(gym.make("eai_gym/VirtualHome-v0", task_id=item["identifier"], terminate_on_error=True,
                             terminate_on_success=False, max_episode_steps=len(rec["actions"])))
        info = _play(env, {}, rec["actions"])
        m = _summaries(info)
        fatal = m["trajectory_errors"]["first_fatal"]
        assert rec["executable"] == (fatal is None), item["identifier"]
        assert rec["error_type"] == (None if fatal is None else ERROR_STRINGS[eai_gym.core.ErrorType(fatal["error"])])
        assert rec["success"] == m["goal_success"]["success"]
        g = rec["goal"]
        total = g["node_total"] + g["edge_total"] + g["action_total"]
        matched = g["node_matched"] + g["edge_matched"] + g["action_matched"]
        assert m["goal_success"]["partial"] == (matched / total if total else float(rec["success"]))
        props = m["proposition_log"]["propositions"]
        for kind in ("node", "edge", "action"):
            assert sum(p["satisfied_at_end"] for p in props if p["kind"] == kind) == g[f"{kind}_matched"]
        assert len(rec["executed"]) == m["trajectory_errors"]["executed"]
        compared += 1
    assert compared > 250


# ---------------------------------------------------------------------------------------- BEHAVIOR
def test_behavior_offline_equals_online():
    from eai_gym.scoring.behavior import score_item

    items = []
    for name in ("gold.json", "pert_drop.json", "pert_swap.json", "pert_duplicate.json", "pert_wrong_hand.json"):
        items += json.loads((DATA / "behavior" / name).read_text())["inputs"]
    compared = 0
    for item in items:
        rec = score_item(item, "fixed")
        if rec["status"] != "evaluated" or not rec["execution_info"] or rec["error_type"] in (
                "parsing", "hallucination", "arguments") or rec["message"]:
            continue
        actions = [json.dumps({"action": s["action"], "object": s["object"]}) for s in rec["execution_info"]]
        env = _wrap(gym.make("eai_gym/Behavior-v0", task_id=item["identifier"], terminate_on_error=True,
                             terminate_on_success=False, max_episode_steps=len(actions)))
        m = _summaries(_play(env, {}, actions))
        errs = m["trajectory_errors"]
        fatal = errs["first_fatal"]
        assert rec["execution_success"] == (fatal is None), item["identifier"]
        assert rec["error_type"] == (fatal["error"] if fatal else ("additional_step" if errs["counts"]["additional_step"]
                                                                   else None))
        assert sorted(rec["error_types"]) == sorted(k for k, v in errs["counts"].items() if v)
        assert rec["all_goal_satisfied"] == m["goal_success"]["success"]
        partial = rec["satisfied_predicates"] / rec["tot_predicates"] if rec["tot_predicates"] else float(
            rec["all_goal_satisfied"])
        assert m["goal_success"]["partial"] == partial
        compared += 1
    assert compared > 150


# ---------------------------------------------------------------------------------------- rearrange
def _rearrange_items():
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.envs.rearrange.oracle import oracle_scripts

    rng = random.Random(3)
    items = []
    for ep in shipped_episodes("val")[::14]:
        scripts = oracle_scripts(ep)
        items.append({"episode_id": ep.episode_id, "actions": scripts})
        broken = {a: list(s) for a, s in scripts.items()}
        rng.shuffle(broken["agent_1"])
        broken["agent_0"].insert(1, "Pick[no_such_thing_3]")
        items.append({"episode_id": ep.episode_id, "actions": broken})
    return items


def _run_parallel(episode_id, scripts, max_steps):
    from eai_gym.envs.rearrange.env import parallel_env

    env = ParallelGoalSuccess(ParallelProgressRate(ParallelPropositionLog(ParallelTrajectoryErrors(
        parallel_env(max_steps=max_steps)))))
    obs, infos = env.reset(seed=0, options={"episode_id": episode_id})
    queues = {a: list(scripts.get(a, [])) for a in env.possible_agents}
    last = infos
    while env.agents:
        acts = {}
        for a in env.agents:
            if infos[a]["busy"]:
                acts[a] = "Wait[]"
            else:
                acts[a] = queues[a].pop(0) if queues[a] else "Done[]"
        obs, rewards, terms, truncs, infos = env.step(acts)
        last = infos
    return next(iter(last.values()))


def test_rearrange_offline_equals_online():
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.scoring.rearrange.actions import score_items

    episodes = {e.episode_id: e for e in shipped_episodes("val")}
    items = _rearrange_items()
    records = score_items(items, episodes, "fixed", 300)["tasks"]
    for item, rec in zip(items, records):
        info = _run_parallel(item["episode_id"], item["actions"], 300)
        m = _summaries(info)
        assert rec["success"] == m["goal_success"]["success"], item["episode_id"]
        assert rec["task_percent_complete"] == m["progress_rate"]["final"] == m["goal_success"]["partial"]
        assert rec["num_steps"] == m["goal_success"]["steps"]
        errs = m["trajectory_errors"]
        assert rec["failed_actions"] == errs["actions"] - errs["executed"]
        assert rec["error_counts"] == {k: v for k, v in errs["counts"].items() if v}
    assert sum(not r["success"] for r in records) >= 5


# ---------------------------------------------------------------------------------------- ALFWorld
def test_alfworld_offline_equals_online():
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game
    from eai_gym.envs.alfworld.oracle import Oracle
    from eai_gym.scoring.alfworld.commands import score_item

    rng = random.Random(5)
    for index in range(0, 134, 7):
        engine = Engine(eval_game(index))
        s = engine.initial_state()
        plan = Oracle(engine).plan(s)
        walk = []
        for _ in range(12):  # a random walk over admissible commands, with a few bad commands
            cmd = rng.choice(engine.admissible(s)) if rng.random() < 0.8 else rng.choice(["jump", "take moon 1"])
            engine.step(s, cmd)
            walk.append(cmd)
        for commands in (plan, walk, walk[:4] + plan):
            rec = score_item({"game": index, "commands": commands})
            env = _wrap(gym.make("eai_gym/AlfWorld-v0", max_episode_steps=len(commands)))
            m = _summaries(_play(env, {"options": {"split": "eval", "index": index, "template": 0}}, commands))
            p = m["progress_rate"]
            assert rec["success"] == m["goal_success"]["success"]
            assert rec["steps"] == p["steps"] == m["trajectory_errors"]["actions"]
            assert rec["agentquest_progress_final"] == p["final"] and p["definition"] == "agentquest_oracle_plan"
            assert rec["agentquest_progress"] == p["history"][1:]
            assert rec["fsm_progress_final"] == p["fsm"] and rec["agentboard_progress_final"] == p["agentboard"]
            assert rec["fsm_progress_final_dialect_aware"] == p["fsm_dialect_aware"]
            assert rec["agentboard_progress_final_dialect_aware"] == p["agentboard_dialect_aware"]
            assert rec["initial_plan_length"] == len(plan)

"""Every world through OpenEnv's own clients on loopback (``/ws`` sessions), against the in-process environment.

The servers run in a thread of the test process (:func:`eai_gym.openenv.server.running`: the app of
``eai-gym serve WORLD --protocol openenv``, served by uvicorn on a real socket); ``test_openenv_process.py``
starts the command itself.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from eai_gym import registry
from eai_gym.envs.base import MAX_ACTION
from eai_gym.openenv.episode import EpisodeConfig, world_facts
from eai_gym.openenv.gold import GoldPlayer, gold_tasks
from eai_gym.rl.rewards import REWARDS, rewards_of

from .reference import expert_plan, raw_run, raw_texts, split_ids

pytest.importorskip("openenv")
requests = pytest.importorskip("requests")
websockets_sync = pytest.importorskip("websockets.sync.client")

from openenv.core import GenericEnvClient  # noqa: E402
from openenv.core.env_server.serialization import serialize_observation  # noqa: E402

from eai_gym.openenv.client import EaiGymEnv  # noqa: E402
from eai_gym.openenv.environment import EaiGymEnvironment  # noqa: E402
from eai_gym.openenv.server import build_app, running  # noqa: E402

WORLDS = registry.world_names()


@pytest.fixture(scope="module", params=WORLDS)
def served(request):
    with running(build_app(EpisodeConfig(request.param), max_sessions=8, idle_timeout=0)) as url:
        yield request.param, url


def noop(world: str):
    """An action that changes nothing: a command no world parses, or no new action for any agent."""
    return {} if world_facts(world).team_env else "xyzzy"


def test_gold_plan_over_the_websocket_is_won_and_byte_equal_to_in_process(served):
    world, url = served
    task = gold_tasks(world)[0]
    local = EaiGymEnvironment(EpisodeConfig(world))
    player = GoldPlayer(world, task)
    expected = [local.reset(task=task)]
    actions = []
    while not expected[-1].done:
        action = player.next(expected[-1])
        if action is None:
            break
        actions.append(action)
        expected.append(local.step(local_action(local, action)))
    failing = {a: "xyzzy" for a in world_facts(world).agents} if world_facts(world).team_env else "xyzzy"
    with EaiGymEnv(base_url=url).sync() as typed, GenericEnvClient(base_url=url).sync() as generic:
        got = [typed.reset(task=task)]
        got_generic = [generic.reset(task=task)]
        for action in actions:
            got.append(typed.step(action))
            got_generic.append(generic.step(action if isinstance(action, dict) else {"command": action}))
        assert typed.state().won and typed.state().task == task
    assert len(got) == len(expected)
    for mine, theirs, plain in zip(expected, got, got_generic):
        assert theirs.observation.model_dump_json() == mine.model_dump_json()
        wire = serialize_observation(mine)
        assert json.dumps(plain.observation, sort_keys=True) == json.dumps(wire["observation"], sort_keys=True)
        assert (plain.reward, plain.done) == (theirs.reward, theirs.done) == (mine.reward, mine.done)
    last = got[-1].observation
    assert last.won and last.done and not last.truncated and last.progress == 1.0
    texts = raw_texts(world, task, actions)
    if world_facts(world).team_env:
        assert [{a: v.text for a, v in r.observation.agents.items()} for r in got] == texts
    else:
        assert [r.observation.text for r in got] == texts
    with EaiGymEnv(base_url=url).sync() as typed:  # a failing action: its EAI error type, in process and served
        typed.reset(task=task)
        local.reset(task=task)
        served_failure = typed.step(failing).observation
        assert served_failure.model_dump_json() == local.step(local_action(local, failing)).model_dump_json()
        assert served_failure.error is not None and not served_failure.done


def local_action(env: EaiGymEnvironment, action):
    from eai_gym.openenv.models import EaiAction, action_model

    if isinstance(action, str):
        return EaiAction(command=action)
    return action_model(env.episode.facts)(**action)


def test_truncated_after_the_step_limit(served):
    world, url = served
    with GenericEnvClient(base_url=url).sync() as env:
        env.reset(seed=1, max_steps=3)
        results = [env.step(noop(world) if world_facts(world).team_env else {"command": noop(world)})
                   for _ in range(3)]
        assert [r.done for r in results] == [False, False, True]
        assert results[-1].observation["truncated"] and not results[-1].observation["won"]
        assert results[-1].observation["step"] == 3
        with pytest.raises(RuntimeError, match=r"over \(truncated\).*EXECUTION_ERROR"):
            env.step({} if world_facts(world).team_env else {"command": "look"})
        assert env.reset(seed=1).observation["step"] == 0  # a reset starts afresh


def ws_call(ws, message) -> dict:
    ws.send(message if isinstance(message, str) else json.dumps(message))
    return json.loads(ws.recv(timeout=60))


def test_each_misuse_has_its_error_code(served):
    world, url = served
    facts = world_facts(world)
    step_data = {facts.agents[0]: "look"} if facts.team_env else {"command": "look"}
    wrong_shape = {"command": "look"} if facts.team_env else {"agent_0": "look"}
    too_long = {facts.agents[0]: "x" * (MAX_ACTION + 1)} if facts.team_env else {"command": "x" * (MAX_ACTION + 1)}
    with websockets_sync.connect(url.replace("http://", "ws://") + "/ws") as ws:
        def code(message) -> str:
            reply = ws_call(ws, message)
            assert reply["type"] == "error", reply
            return reply["data"]["code"]

        assert code("{not json") == "INVALID_JSON"
        assert code({"type": "jump"}) == "UNKNOWN_TYPE"
        assert code({"type": "step", "data": step_data}) == "EXECUTION_ERROR"  # before any reset
        assert code({"type": "reset", "data": {"task": "no such task"}}) == "EXECUTION_ERROR"
        assert code({"type": "reset", "data": {"taks": facts.ids[0]}}) == "EXECUTION_ERROR"  # misspelt field
        for bad, named in [({"split": "valid"}, f"{world} has split(s) {facts.splits[0].name} ("),
                           ({"reward": "dense"}, "reward must be one of success, progress")]:
            reply = ws_call(ws, {"type": "reset", "data": bad})
            assert reply["data"]["code"] == "EXECUTION_ERROR" and named in reply["data"]["message"], reply
        assert ws_call(ws, {"type": "reset", "data": {"seed": 0}})["type"] == "observation"
        assert code({"type": "step", "data": wrong_shape}) == "VALIDATION_ERROR"
        assert code({"type": "step", "data": too_long}) == "VALIDATION_ERROR"
        assert code({"type": "step", "data": {k: 3 for k in step_data}}) == "VALIDATION_ERROR"
        reply = ws_call(ws, {"type": "step", "data": step_data})  # the session survives every error
        assert reply["type"] == "observation" and reply["data"]["observation"]["step"] == 1


def test_http_routes(served):
    world, url = served
    facts = world_facts(world)
    schema = requests.get(url + "/schema", timeout=30).json()
    if facts.team_env:
        assert set(facts.agents) <= set(schema["action"]["properties"])
    else:
        assert schema["action"]["required"] == ["command"]
    reset = requests.post(url + "/reset", json={"task": facts.ids[1]}, timeout=60).json()
    assert reset["observation"]["task"] == facts.ids[1] and reset["reward"] is None and not reset["done"]
    step = requests.post(url + "/step", json={"action": {facts.agents[0]: "x"} if facts.team_env else
                                              {"command": "x"}}, timeout=60)
    assert step.status_code == 400 and "reset first" in step.json()["detail"]  # no episode spans two requests
    assert requests.get(url + "/state", timeout=30).json()["world"] == world
    assert requests.post(f"{url}/{world}/num_tasks", json={"split": "eval"}, timeout=30).json() == \
        {"num_tasks": len(facts.ids)}  # eval: the task set, as before the worlds declared their splits
    assert requests.post(f"{url}/{world}/task", json={"split": "eval", "index": 2}, timeout=30).json()["task"]["id"] \
        == facts.ids[2]
    assert requests.post(f"{url}/{world}/task", json={"split": "eval", "index": len(facts.ids)},
                         timeout=30).status_code == 400


def test_the_task_api_lists_every_declared_split_and_serves_its_tasks(served):
    world, url = served
    spec = registry.world(world)
    splits = requests.get(f"{url}/{world}/splits", timeout=30).json()
    assert [(s["name"], s["role"], s["description"]) for s in splits] == \
        [(s.name, s.role, s.description) for s in spec.split_specs]
    assert [s["type"] for s in splits] == ["train" if s.role == "train" else "test" for s in spec.split_specs]
    if world == "alfworld":
        assert [(s["name"], s["num_tasks"]) for s in splits] == \
            [("eval_out_of_distribution", 134), ("train", 3553), ("eval_in_distribution", 140)]
    else:
        assert len(splits) == 1 and splits[0]["role"] == "eval"  # an evaluation set, and said so
    for s in spec.split_specs:
        ids = split_ids(world, s.name)
        assert requests.post(f"{url}/{world}/num_tasks", json={"split": s.name}, timeout=30).json() == \
            {"num_tasks": len(ids)}
        last = requests.post(f"{url}/{world}/task", json={"split": s.name, "index": len(ids) - 1}, timeout=30).json()
        assert last["task"] == {"id": ids[-1], "index": len(ids) - 1, "split": s.name}
        assert requests.post(f"{url}/{world}/task", json={"split": s.name, "index": len(ids)},
                             timeout=30).status_code == 400
        some = requests.post(f"{url}/{world}/task_range", json={"split": s.name, "start": 1, "stop": 4},
                             timeout=30).json()["tasks"]
        assert [t["id"] for t in some] == ids[1:4]
        everything = requests.post(f"{url}/{world}/tasks", json={"split": s.name}, timeout=60).json()["tasks"]
        assert [t["id"] for t in everything] == ids
    bad = requests.post(f"{url}/{world}/num_tasks", json={"split": "valid"}, timeout=30)
    assert bad.status_code == 400 and f"{world} has split(s)" in bad.json()["detail"]


def first_admissible(observation):
    """The next action of a fixed walk: the first admissible action (several agents: each idle agent's)."""
    if observation.agents is not None:
        return {a: (v.admissible_actions[0] if v.admissible_actions and not v.busy else None)
                for a, v in observation.agents.items()}
    return observation.admissible_actions[0]


def test_each_split_and_reward_over_the_websocket_is_byte_equal_to_in_process(served):
    """Every split's first task with each reward kind, a fixed walk of 6 steps: the served observations equal the
    in-process environment's byte for byte, their texts the world's own env's, their rewards ``rewards_of`` over
    the world's own goal success and progress."""
    world, url = served
    for s in registry.world(world).split_specs:
        for kind in REWARDS:
            local = EaiGymEnvironment(EpisodeConfig(world))
            with EaiGymEnv(base_url=url).sync() as typed:
                got = [typed.reset(split=s.name, index=0, reward=kind)]
                expected = [local.reset(split=s.name, index=0, reward=kind)]
                actions = []
                while len(actions) < 6 and not expected[-1].done:
                    actions.append(first_admissible(expected[-1]))
                    got.append(typed.step(actions[-1]))
                    expected.append(local.step(local_action(local, actions[-1])))
                state = typed.state()
            assert [g.observation.model_dump_json() for g in got] == [e.model_dump_json() for e in expected]
            assert (state.split, state.reward_kind, state.task) == (s.name, kind, split_ids(world, s.name)[0])
            raw = raw_run(world, state.task, actions, s.name)
            shown = [g.observation.text if g.observation.agents is None else
                     {a: v.text for a, v in g.observation.agents.items()} for g in got]
            assert shown == raw.texts
            assert [g.reward for g in got[1:]] == \
                rewards_of(kind, raw.successes, raw.progress if kind == "progress" else None)


def test_an_alfworld_train_game_over_the_websocket():
    plan = expert_plan("train", "7")
    with running(build_app(EpisodeConfig("alfworld"), max_sessions=2, idle_timeout=0)) as url:
        with EaiGymEnv(base_url=url).sync() as typed:
            for kind in REWARDS:
                first = typed.reset(split="train", task="7", reward=kind)
                assert (first.observation.split, first.observation.task) == ("train", "7")
                results = [typed.step(command) for command in plan]
                last = results[-1].observation
                assert last.won and results[-1].done and not last.truncated
                raw = raw_run("alfworld", "7", plan, "train")
                assert [first.observation.text] + [r.observation.text for r in results] == raw.texts
                assert [r.reward for r in results] == \
                    rewards_of(kind, raw.successes, raw.progress if kind == "progress" else None)
            assert typed.reset(split="train", index=7).observation.text == raw.texts[0]


def test_capacity_is_refused_with_openenv_s_code():
    with running(build_app(EpisodeConfig("alfworld"), max_sessions=2, idle_timeout=0)) as url:
        first, second = EaiGymEnv(base_url=url).sync(), EaiGymEnv(base_url=url).sync()
        first.reset(seed=0)
        second.reset(seed=1)
        with EaiGymEnv(base_url=url).sync() as third:
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                third.reset(seed=2)
        first.close()
        with EaiGymEnv(base_url=url).sync() as fourth:  # a closed session frees its place
            assert fourth.reset(seed=3).observation.task == world_facts("alfworld").ids[3]
        second.close()


def test_64_concurrent_sessions_without_cross_talk():
    """64 sessions step their own tasks' gold plans interleaved; each sees exactly what its task alone gives in
    process; a 65th session is refused while they are open."""
    n = 64
    tasks = gold_tasks("alfworld")[:n]
    expected = {}
    for t in tasks:
        local = EaiGymEnvironment(EpisodeConfig("alfworld"))
        obs = [local.reset(task=t)]
        for command in GoldPlayer("alfworld", t).commands:
            obs.append(local.step(local_action(local, command)))
        expected[t] = [o.model_dump_json() for o in obs]

    async def run(url: str) -> dict:
        clients = [EaiGymEnv(base_url=url) for _ in tasks]
        seen: dict = {t: [] for t in tasks}
        plans = {t: list(GoldPlayer("alfworld", t).commands) for t in tasks}
        try:
            for c in clients:
                await c.connect()
            results = await asyncio.gather(*(c.reset(task=t) for c, t in zip(clients, tasks)))
            for t, r in zip(tasks, results):
                seen[t].append(r.observation.model_dump_json())
            with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
                async with EaiGymEnv(base_url=url) as extra:
                    await extra.reset(seed=0)
            while any(plans.values()):
                live = [(c, t) for c, t in zip(clients, tasks) if plans[t]]
                results = await asyncio.gather(*(c.step(plans[t].pop(0)) for c, t in live))
                for (_, t), r in zip(live, results):
                    seen[t].append(r.observation.model_dump_json())
        finally:
            await asyncio.gather(*(c.close() for c in clients))
        return seen

    with running(build_app(EpisodeConfig("alfworld"), max_sessions=n, idle_timeout=0)) as url:
        seen = asyncio.run(run(url))
    assert len(tasks) == n and seen == expected


def test_idle_sessions_are_reclaimed():
    with running(build_app(EpisodeConfig("alfworld"), max_sessions=1, idle_timeout=1)) as url:
        idle = EaiGymEnv(base_url=url).sync()
        idle.reset(seed=0)
        for _ in range(240):  # OpenEnv's reaper looks every 5 s; bounded by construction, not timed
            with EaiGymEnv(base_url=url).sync() as other:
                try:
                    other.reset(seed=1)
                    break
                except RuntimeError as e:
                    assert "CAPACITY_REACHED" in str(e)
            asyncio.run(asyncio.sleep(0.25))
        else:
            pytest.fail("the idle session was never reclaimed")
        with pytest.raises(RuntimeError, match="session is closed.*EXECUTION_ERROR"):
            idle.step("look")
        idle.close()


def test_benchmark_smoke(tmp_path):
    """``benchmarks/bench_openenv.py`` measures both paths and the sessions' memory (a tiny run)."""
    from benchmarks.bench_openenv import main

    out = tmp_path / "bench.json"
    assert main(["--quick", "--worlds", "alfworld", "--steps", "10", "--out", str(out)]) == 0
    result = json.loads(out.read_text())["worlds"]["alfworld"]
    assert result["in_process_steps_per_s"] > 0 and result["websocket_steps_per_s"] > 0
    assert result["memory"]["sessions"] == 8 and result["steps"] == 10

"""One ALFWorld load played through one interface: the runners of ``benchmarks/bench_interfaces.py``.

Each runner keeps ``envs`` environments (or server sessions) open and plays rounds: every env is reset on its task
(the reset phase), then every env plays its task's commands (the step phase), in lockstep in process or
concurrently against a server (one thread per AgentGym-protocol client, one asyncio task per OpenEnv client). A
:class:`Phase` gives both phases' wall time and the CPU time spent meanwhile (this process, plus the server's process
tree for a server: client and server work together).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .procstat import tree_cpu_s, tree_memory_mb

#: the dialect every runner that has one plays (AgentGym's server runs alfworld 0.3.3)
DIALECT = "0.3"
WORLD = "alfworld"
_PUT = re.compile(r"^put (.+) in/on (.+)$")


def to_dialect_04(command: str) -> str:
    """An alfworld 0.3 command in 0.4's words (``put X in/on Y`` is ``move X to Y``; every other command is the same)."""
    m = _PUT.match(command)
    return f"move {m.group(1)} to {m.group(2)}" if m else command


@dataclass
class Phase:
    """What one round took: steps played, wall seconds of each phase, CPU seconds of the step phase."""

    steps: int = 0
    reset_s: float = 0.0
    step_s: float = 0.0
    cpu_s: float = 0.0
    observations: dict[str, list[str]] = field(default_factory=dict)
    off_admissible: int = 0


class Runner:
    """The common part: a name, where the env lives, the CPU clock to read."""

    name = ""
    label = ""
    server_pid: int | None = None
    #: the env lives in this process (its steps take microseconds: a repeat plays the load several times)
    in_process = False

    def cpu(self) -> float:
        own = time.process_time()
        return own + (tree_cpu_s(self.server_pid) if self.server_pid else 0.0)

    def memory(self) -> dict[str, Any] | None:
        return tree_memory_mb(self.server_pid) if self.server_pid else None

    def open(self, envs: int, tasks: list[str]) -> None:
        raise NotImplementedError

    def round(self, tasks: list[str], walks: dict[str, list[str]], record: bool = False) -> Phase:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Lockstep(Runner):
    """In-process runners: ``reset_one(i, task)`` and ``step_one(i, command)`` on env ``i``, one thread."""

    in_process = True

    def reset_one(self, i: int, task: str) -> None:
        raise NotImplementedError

    def step_one(self, i: int, command: str) -> None:
        raise NotImplementedError

    def instance(self, task: str) -> Any:
        """One more env, reset on ``task`` (for the memory an env holds)."""
        raise NotImplementedError

    def round(self, tasks: list[str], walks: dict[str, list[str]], record: bool = False) -> Phase:
        t0 = time.perf_counter()
        for i, task in enumerate(tasks):
            self.reset_one(i, task)
        t1, c1 = time.perf_counter(), time.process_time()
        plays = [walks[t] for t in tasks]
        for k in range(max(map(len, plays))):
            for i, commands in enumerate(plays):
                if k < len(commands):
                    self.step_one(i, commands[k])
        t2, c2 = time.perf_counter(), time.process_time()
        return Phase(sum(map(len, plays)), t1 - t0, t2 - t1, c2 - c1)


class GymRunner(Lockstep):
    name, label = "gymnasium", '`gymnasium.make("eai_gym/AlfWorld-v0")`, in process'

    def open(self, envs: int, tasks: list[str]) -> None:
        from eai_gym.tasksets import task_sets

        from .bench_rl_interfaces import gym_step, task_env

        self.ts, self.gym_step = task_sets()[WORLD], gym_step
        self.envs = [task_env(self.ts, tasks[0], dialect=DIALECT)[0] for _ in range(envs)]

    def reset_one(self, i: int, task: str) -> None:
        self.envs[i].reset(seed=0, options=self.ts.hooks.play(task, self.ts.protocols[0])[2])

    def step_one(self, i: int, command: str) -> None:
        self.gym_step(self.envs[i], command)

    def instance(self, task: str) -> Any:
        from .bench_rl_interfaces import task_env

        env, options = task_env(self.ts, task, dialect=DIALECT)
        env.reset(seed=0, options=options)
        return env


class CompatRunner(Lockstep):
    """One ``init_env(batch_size=envs)``: its reset draws the games from its own seeded cycle over the load's games."""

    name, label = "compat", "`eai_gym.compat.alfworld` batch, `init_env(batch_size=N)`"

    def open(self, envs: int, tasks: list[str]) -> None:
        from eai_gym.compat.alfworld import AlfredTWEnv, shipped_paths

        from .bench_compat_alfworld import EVAL, config

        paths = shipped_paths(EVAL)
        self.task_of = {paths[int(t)]: t for t in tasks}
        self.base = AlfredTWEnv(config(dialect=DIALECT), EVAL)
        self.base.game_files = list(self.task_of)
        self.env = self.base.init_env(batch_size=envs)

    def instance(self, task: str) -> Any:
        path = next(p for p, t in self.task_of.items() if t == task)
        self.base.game_files = [path]
        env = self.base.init_env(batch_size=1)
        env.reset()
        self.base.game_files = list(self.task_of)
        return env

    def round(self, tasks: list[str], walks: dict[str, list[str]], record: bool = False) -> Phase:
        t0 = time.perf_counter()
        _obs, infos = self.env.reset()
        t1, c1 = time.perf_counter(), time.process_time()
        plays = [walks[self.task_of[f]] for f in infos["extra.gamefile"]]
        for k in range(max(map(len, plays))):
            self.env.step([c[k] if k < len(c) else "look" for c in plays])
        t2, c2 = time.perf_counter(), time.process_time()
        return Phase(sum(map(len, plays)), t1 - t0, t2 - t1, c2 - c1)


class TrlRunner(Lockstep):
    name, label = "trl", "TRL `environment_factory` class, `eai_gym.rl.trl`"

    def open(self, envs: int, tasks: list[str]) -> None:
        from eai_gym.rl.trl import environment_class

        self.cls = environment_class(WORLD, reward="success", max_steps=1000, options={"dialect": DIALECT})
        self.envs = [self.cls() for _ in range(envs)]

    def instance(self, task: str) -> Any:
        env = self.cls()
        env.reset(task=task, prompt=[{"role": "user", "content": ""}])
        return env

    def reset_one(self, i: int, task: str) -> None:
        self.envs[i].reset(task=task, prompt=[{"role": "user", "content": ""}])

    def step_one(self, i: int, command: str) -> None:
        self.envs[i].act(command=command)


class SkyrlRunner(Lockstep):
    """SkyRL's generator makes one env per trajectory: the reset phase makes it and calls ``init``."""

    name, label = "skyrl", "SkyRL-gym `BaseTextEnv`, `eai_gym.rl.skyrl`"

    def open(self, envs: int, tasks: list[str]) -> None:
        import skyrl_gym

        from eai_gym.rl.skyrl import env_id

        self.make = lambda task: skyrl_gym.make(env_id(WORLD), env_config={
            "reward": "success", "max_steps": 1000, "options": {"dialect": DIALECT}}, extras={"task": task})
        self.envs: list[Any] = [None] * envs

    def reset_one(self, i: int, task: str) -> None:
        if self.envs[i] is not None:
            self.envs[i].close()
        self.envs[i] = self.make(task)
        self.envs[i].init([{"role": "user", "content": ""}])

    def step_one(self, i: int, command: str) -> None:
        self.envs[i].step(command)

    def instance(self, task: str) -> Any:
        env = self.make(task)
        env.init([{"role": "user", "content": ""}])
        return env


class OpenEnvInProcessRunner(Lockstep):
    """The OpenEnv server's per-session ``Environment`` (:class:`eai_gym.openenv.environment.EaiGymEnvironment`: the
    world's env in the four metric wrappers, admissible actions listed) called directly: the WebSocket row minus the
    socket, the JSON and the event loop. Commands in alfworld 0.4's words, as over the socket."""

    name, label = "openenv_in_process", "OpenEnv `Environment` class, in process (no socket)"

    def open(self, envs: int, tasks: list[str]) -> None:
        from eai_gym.openenv.environment import EaiGymEnvironment
        from eai_gym.openenv.episode import EpisodeConfig
        from eai_gym.openenv.models import EaiAction

        self.make = lambda: EaiGymEnvironment(EpisodeConfig(WORLD))
        self.action = EaiAction
        self.envs = [self.make() for _ in range(envs)]

    def reset_one(self, i: int, task: str) -> None:
        self.envs[i].reset(task=task)

    def step_one(self, i: int, command: str) -> None:
        self.envs[i].step(self.action(command=to_dialect_04(command)))

    def instance(self, task: str) -> Any:
        env = self.make()
        env.reset(task=task)
        return env


class ThreadedClients(Runner):
    """Server runners driven from one thread per client: ``reset_client(c, task)``, ``step_client(c, command)`` ->
    (observation, admissible actions)."""

    clients: list[Any]

    def reset_client(self, client: Any, task: str) -> None:
        raise NotImplementedError

    def step_client(self, client: Any, command: str) -> tuple[str, list[str] | None]:
        raise NotImplementedError

    def round(self, tasks: list[str], walks: dict[str, list[str]], record: bool = False) -> Phase:
        n = len(self.clients)
        gate = threading.Barrier(n + 1, timeout=3600)
        errors: list[BaseException] = []
        seen: dict[str, list[str]] = {}

        def work(i: int) -> None:
            try:
                self.reset_client(self.clients[i], tasks[i])
                gate.wait()
                gate.wait()
                out = [self.step_client(self.clients[i], c)[0] for c in walks[tasks[i]]]
                if record:
                    seen[tasks[i]] = out
                gate.wait()
            except BaseException as e:  # noqa: BLE001 - handed to the main thread, which raises it
                errors.append(e)
                gate.abort()

        threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(n)]
        try:
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            gate.wait()
            t1, c1 = time.perf_counter(), self.cpu()
            gate.wait()
            gate.wait()
            t2, c2 = time.perf_counter(), self.cpu()
        except threading.BrokenBarrierError:
            raise RuntimeError(f"{self.name}: {errors[0] if errors else 'a client stopped'}") from None
        finally:
            gate.abort()  # wakes the clients still waiting (after an interrupt); harmless once all have passed
            for t in threads:
                t.join(timeout=60)
        return Phase(sum(len(walks[t]) for t in tasks), t1 - t0, t2 - t1, c2 - c1, seen)


class AgentGymProtocolRunner(ThreadedClients):
    """A server of AgentGym's protocol (``eai-gym serve alfworld`` or AgentGym's own), driven with the HTTP calls of
    AgentGym's client (:class:`.bench_serve_alfworld.AgentGymClient`: a new connection per call)."""

    def __init__(self, name: str, label: str, url: str, pid: int | None, games: dict[str, int],
                 closable: bool) -> None:
        self.name, self.label, self.url, self.server_pid = name, label, url, pid
        self.games, self.closable = games, closable

    def open(self, envs: int, tasks: list[str]) -> None:
        from .bench_serve_alfworld import AgentGymClient

        self.clients = [AgentGymClient(self.url) for _ in range(envs)]

    def reset_client(self, client: Any, task: str) -> None:
        r = client.reset(self.games[task])
        if "error" in r:
            raise RuntimeError(f"reset on game {self.games[task]}: {r['error']}")

    def step_client(self, client: Any, command: str) -> tuple[str, list[str] | None]:
        r = client.step(command)
        if "error" in r:
            raise RuntimeError(f"step {command!r}: {r['error']}")
        return r["observation"], r["available_actions"]

    def close(self) -> None:
        if self.closable:
            for c in getattr(self, "clients", []):
                c.close()


class OpenEnvRunner(Runner):
    """``eai-gym serve alfworld --protocol openenv`` with the typed client (:class:`eai_gym.openenv.client.EaiGymEnv`,
    async, one task per session on one event loop). Its ALFWorld speaks alfworld 0.4's words: commands are
    translated (:func:`to_dialect_04`)."""

    name, label = "openenv", "OpenEnv WebSocket, `serve alfworld --protocol openenv` + typed client"

    def __init__(self, url: str, pid: int | None) -> None:
        self.url, self.server_pid = url, pid
        self.loop = asyncio.new_event_loop()

    def open(self, envs: int, tasks: list[str]) -> None:
        from eai_gym.openenv.client import EaiGymEnv

        self.clients = [EaiGymEnv(base_url=self.url, message_timeout_s=300) for _ in range(envs)]

    def _gather(self, make: Callable[[Any, int], Any]) -> list[Any]:
        async def all_of() -> list[Any]:
            return await asyncio.gather(*(make(c, i) for i, c in enumerate(self.clients)))
        return self.loop.run_until_complete(all_of())

    def round(self, tasks: list[str], walks: dict[str, list[str]], record: bool = False) -> Phase:
        off = [0]

        first: dict[int, list[str] | None] = {}

        async def play(client: Any, i: int) -> list[str]:
            out, admissible = [], first.get(i)
            for command in walks[tasks[i]]:
                command = to_dialect_04(command)
                if record and admissible is not None and command not in admissible:
                    off[0] += 1
                obs = (await client.step(command)).observation
                out.append(obs.text)
                admissible = obs.admissible_actions
            return out

        async def reset(client: Any, i: int) -> None:
            first[i] = (await client.reset(task=tasks[i])).observation.admissible_actions

        t0 = time.perf_counter()
        self._gather(reset)
        t1, c1 = time.perf_counter(), self.cpu()
        seen = self._gather(play)
        t2, c2 = time.perf_counter(), self.cpu()
        return Phase(sum(len(walks[t]) for t in tasks), t1 - t0, t2 - t1, c2 - c1,
                     dict(zip(tasks, seen)) if record else {}, off[0])

    def close(self) -> None:
        async def close(client: Any, i: int) -> None:
            await client.close()
        if getattr(self, "clients", None):
            self._gather(close)
        self.loop.close()

"""``eai-gym serve alfworld``: an env server speaking AgentGym's ``agentenv-alfworld`` protocol.

Routes and JSON shapes as AgentGym's server (FastAPI): ``GET /`` → a greeting; ``POST /create`` → ``{"id"}``;
``POST /reset {id, game, world_type}`` → ``{id, observation, available_actions, task_type}``;
``POST /step {id, action}`` → ``{observation, reward, available_actions, done}``; ``GET /observation?id=``,
``GET /available_actions?id=``, ``GET /detail?id=``; and ``POST /close {id}`` → ``{id, closed, active}``.
Errors are HTTP 200 with ``{"error": message}``, as AgentGym returns them (so its client behaves the same), and so
is a ``/create`` past the server's ``--max-envs`` (default 1000). A request that does not fit the protocol is
HTTP 400 with ``{"detail": ...}`` naming the field: a body that is not JSON, a missing field, a value of the wrong
JSON type (``{"id": true}`` is not an id; ids and games are JSON integers), a ``NaN``/``Infinity`` number; a body
over ``--max-body-bytes`` (default 1 MB) is HTTP 413 (:mod:`.limits`). The API documentation pages (``/docs``,
``/redoc``, ``/openapi.json``) are served only with ``--docs``. Observations are processed as AgentGym does: the
reset text loses its welcome paragraph, and a step text loses a leading ``You arrive at loc N. ``.

Games: ``--games DIR`` (a folder of ALFWorld-layout games, e.g. ``$ALFWORLD_DATA``) with ``--mapping`` files
(AgentGym's ``mappings_train.json`` then ``mappings_test.json``: games numbered as AgentGym numbers them, under
``json_2.1.1/train`` then ``json_2.1.1/valid_train``); ``--games`` alone: every game under ``DIR``, sorted by
path; neither: the shipped games, the 3,553 train games then the 134 eval games. Every env owns its own
engine state (nothing shared but the immutable games); an env not used for ``--idle-timeout`` seconds is
closed. Dialect 0.3 by default (AgentGym pins alfworld 0.3.3).
"""


import argparse
import asyncio
import contextlib
import json
import os
import socket
import sys
import threading
import time
from typing import Any

from ..compat.alfworld import SingleAlfredTWEnv, default_config, shipped_paths
from ..compat.alfworld.game_files import scan_folders
from ..envs.alfworld.game import TASK_TYPES
from .limits import DEFAULT_MAX_BODY_BYTES, RequestLimits
from .sockets import base_url

WORLD_TYPES = ("Text", "Embody", "Hybrid")
#: the default of ``--max-envs`` (an env holds about 0.1 MB once reset on a shipped game)
DEFAULT_MAX_ENVS = 1000


def process_ob(ob: str) -> str:
    """AgentGym's per-step clean-up: drop a leading ``You arrive at loc N. ``."""
    if ob.startswith("You arrive at loc "):
        ob = ob[ob.find(". ") + 2:]
    return ob


def game_list(games: str | None = None, mappings: list[str] | None = None) -> list[str]:
    """The numbered game files (see the module docstring)."""
    if mappings:
        if games is None:
            raise ValueError("--mapping needs --games DIR (the folder holding json_2.1.1)")
        roots = ["train", "valid_train"] + ["valid_train"] * max(0, len(mappings) - 2)
        out = []
        for root, path in zip(roots, mappings):
            with open(path) as f:
                entries = json.load(f)
            for e in entries:
                out.append(os.path.join(games, "json_2.1.1", root, e["task_type"], e["task_id"], "game.tw-pddl"))
        return out
    if games is not None:
        if not os.path.isdir(games):
            raise ValueError(f"--games {games}: not a folder")
        found = scan_folders(games, list(TASK_TYPES))
        if not found:
            raise ValueError(f"--games {games}: no ALFWorld game folders (initial_state.pddl + traj_data.json) in it")
        return found
    return shipped_paths("train") + shipped_paths("eval_out_of_distribution")


class EnvRecord:
    def __init__(self, tw_env: SingleAlfredTWEnv) -> None:
        self.tw_env = tw_env
        self.batch: Any = None
        self.info: dict[str, Any] = {"done": False, "reward": 0, "deleted": False}
        self.lock = threading.Lock()
        self.used = time.monotonic()


class AlfworldServer:
    """The envs of one server; every method returns AgentGym's payload (``{"error": ...}`` on failure)."""

    def __init__(self, games: list[str], dialect: str = "0.3", max_steps: int = 50, idle_timeout: float = 3600.0,
                 max_action_chars: int = 4096, max_envs: int = DEFAULT_MAX_ENVS) -> None:
        if not isinstance(max_envs, int) or isinstance(max_envs, bool) or max_envs < 0:
            raise ValueError(f"--max-envs must be a non-negative int (0: no cap), got {max_envs!r}")
        self.games, self.idle_timeout, self.max_action_chars = games, idle_timeout, max_action_chars
        self.max_envs = max_envs
        self.config = default_config()
        self.config["env"]["dialect"] = dialect
        self.config["dagger"]["training"]["max_nb_steps_per_episode"] = max_steps
        self.envs: dict[int, EnvRecord] = {}
        self.next_id = 0
        self.lock = threading.Lock()

    # -- bookkeeping ------------------------------------------------------------------------------------------
    def reclaim_idle(self) -> int:
        """Close envs idle for longer than the idle timeout; return how many."""
        if self.idle_timeout <= 0:
            return 0
        now = time.monotonic()
        with self.lock:
            idle = [i for i, r in self.envs.items() if now - r.used > self.idle_timeout and not r.lock.locked()]
            for i in idle:
                del self.envs[i]
        return len(idle)

    def record(self, idx: Any, is_reset: bool = False) -> EnvRecord:
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise NameError(f"The id {idx!r} is not valid.")
        rec = self.envs.get(idx)
        if rec is None:
            if 0 <= idx < self.next_id:
                raise NameError(f"The task with environment {idx} has been deleted.")
            raise NameError(f"The id {idx} is not valid.")
        if not is_reset and rec.info["done"]:
            raise NameError(f"The task with environment {idx} has finished.")
        rec.used = time.monotonic()
        return rec

    # -- the protocol ---------------------------------------------------------------------------------------
    def create(self) -> dict[str, Any]:
        self.reclaim_idle()
        rec = EnvRecord(SingleAlfredTWEnv(self.config))
        with self.lock:
            if self.max_envs and len(self.envs) >= self.max_envs:
                return {"error": f"this server holds its maximum of {self.max_envs} envs (--max-envs): close one "
                                 "(POST /close) or wait until an idle one is closed (--idle-timeout)"}
            idx = self.next_id
            self.next_id += 1
            self.envs[idx] = rec
        return {"id": idx}

    def reset(self, idx: Any, game: Any, world_type: Any) -> dict[str, Any]:
        if world_type not in WORLD_TYPES:
            return {"error": 'world_type must be one of "Text", "Embody" and "Hybrid"'}
        try:
            rec = self.record(idx, is_reset=True)
            if not isinstance(game, int) or isinstance(game, bool) or not 0 <= game < len(self.games):
                raise IndexError(f"game {game!r} is out of range: this server has games 0..{len(self.games) - 1}")
            with rec.lock:
                rec.tw_env.game_files, rec.tw_env.num_games = [self.games[game]], 1
                rec.batch = rec.tw_env.init_env(batch_size=1)
                ob, info = rec.batch.reset()
            ob = "\n".join(ob[0].split("\n\n")[1:])
            actions = info.get("admissible_commands", [[]])[0]
            rec.info = {"world_type": world_type, "game": game, "observation": ob, "available_actions": actions,
                        "done": False, "reward": 0, "deleted": False}
            return {"id": idx, "observation": ob, "available_actions": actions,
                    "task_type": "/".join(info["extra.gamefile"][0].split("/")[-3:-1])}
        except Exception as e:  # AgentGym reports every failure as {"error": ...}
            return {"error": str(e)}

    def step(self, idx: Any, action: Any) -> dict[str, Any]:
        try:
            rec = self.record(idx)
            if rec.batch is None:
                raise RuntimeError(f"environment {idx} has no game yet: POST /reset first")
            if not isinstance(action, str):
                raise TypeError(f"action must be a string, got {type(action).__name__}")
            if len(action) > self.max_action_chars:
                raise ValueError(f"action is {len(action)} characters long; this server accepts at most "
                                 f"{self.max_action_chars}")
            with rec.lock:
                ob, _, done, info = rec.batch.step([action])
            payload = {"observation": process_ob(ob[0]), "reward": float(info["won"][0]),
                       "available_actions": info.get("admissible_commands", [[]])[0], "done": bool(done[0])}
            rec.info.update(payload)
            return payload
        except Exception as e:
            return {"error": str(e)}

    def get(self, idx: Any, key: str | None) -> Any:
        try:
            rec = self.record(idx)
            return dict(rec.info) if key is None else rec.info[key]
        except KeyError:
            return {"error": f"environment {idx} has no game yet: POST /reset first"}
        except Exception as e:
            return {"error": str(e)}

    def close(self, idx: Any) -> dict[str, Any]:
        try:
            self.record(idx, is_reset=True)
            with self.lock:
                self.envs.pop(idx, None)
                active = len(self.envs)
            return {"id": idx, "closed": True, "active": active}
        except Exception as e:
            return {"error": str(e)}


def build_app(games: str | None = None, mappings: list[str] | None = None, dialect: str = "0.3",
              max_steps: int = 50, idle_timeout: float = 3600.0, max_action_chars: int = 4096,
              max_envs: int = DEFAULT_MAX_ENVS, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
              docs: bool = False) -> Any:
    """The FastAPI app (needs ``eai-gym[server]``), wrapped in :class:`~.limits.RequestLimits`; ``app.state.server``
    is its :class:`AlfworldServer`. ``docs``: serve ``/docs``, ``/redoc`` and ``/openapi.json``."""
    try:
        from fastapi import FastAPI
        from fastapi.exceptions import RequestValidationError
        from fastapi.responses import JSONResponse
        from pydantic import BaseModel, StrictInt, StrictStr
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("eai-gym serve needs FastAPI and uvicorn: pip install 'eai-gym[server]'") from e
    if dialect not in ("0.3", "0.4"):
        raise ValueError(f"dialect must be '0.3' or '0.4', got {dialect!r}")
    server = AlfworldServer(game_list(games, mappings), dialect, max_steps, idle_timeout, max_action_chars, max_envs)

    # strict: a JSON true is not the id 1, nor a float or a string an id
    class StepBody(BaseModel):
        id: StrictInt
        action: StrictStr

    class ResetBody(BaseModel):
        id: StrictInt
        game: StrictInt
        world_type: StrictStr = "Text"

    class CloseBody(BaseModel):
        id: StrictInt

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any):
        sweeper = None
        if idle_timeout > 0:
            async def sweep() -> None:
                while True:
                    await asyncio.sleep(min(idle_timeout / 2, 30.0))
                    server.reclaim_idle()
            sweeper = asyncio.create_task(sweep())
        yield
        if sweeper is not None:
            sweeper.cancel()

    app = FastAPI(title="eai-gym ALFWorld (AgentGym protocol)", lifespan=lifespan, docs_url="/docs" if docs else None,
                  redoc_url="/redoc" if docs else None, openapi_url="/openapi.json" if docs else None)
    app.state.server = server
    app.add_middleware(RequestLimits, max_body_bytes=max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Any, exc: RequestValidationError) -> Any:
        # 400 naming each field (FastAPI's 422 echoes the input, which may not even be JSON-serialisable)
        return JSONResponse({"detail": [{"loc": [str(x) for x in e.get("loc", ())], "msg": str(e.get("msg", "")),
                                         "type": str(e.get("type", ""))} for e in exc.errors()]}, status_code=400)

    @app.get("/")
    def hello() -> str:
        return "This is environment AlfWorld."

    @app.post("/create")
    def create() -> Any:
        return server.create()

    @app.post("/reset")
    def reset(body: ResetBody) -> Any:
        return server.reset(body.id, body.game, body.world_type)

    @app.post("/step")
    def step(body: StepBody) -> Any:
        return server.step(body.id, body.action)

    @app.get("/observation")
    def observation(id: int) -> Any:  # noqa: A002 - AgentGym's query parameter
        return server.get(id, "observation")

    @app.get("/available_actions")
    def available_actions(id: int) -> Any:  # noqa: A002
        return server.get(id, "available_actions")

    @app.get("/detail")
    def detail(id: int) -> Any:  # noqa: A002
        return server.get(id, None)

    @app.post("/close")
    def close(body: CloseBody) -> Any:
        return server.close(body.id)

    return app


def main(argv: list[str] | None = None) -> int:
    """``eai-gym serve alfworld``; returns the exit status."""
    ap = argparse.ArgumentParser(prog="eai-gym serve alfworld", description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=36001, help="0 picks a free port (default: 36001)")
    ap.add_argument("--games", default=None, help="a folder of ALFWorld-layout games (default: the shipped games)")
    ap.add_argument("--mapping", nargs="+", default=None, help="AgentGym's mapping files, train then test")
    ap.add_argument("--dialect", default="0.3", choices=["0.3", "0.4"])
    ap.add_argument("--max-steps", type=int, default=50, help="steps per episode (alfworld's default 50)")
    ap.add_argument("--idle-timeout", type=float, default=3600.0,
                    help="close envs unused for this many seconds (0: never)")
    ap.add_argument("--max-action-chars", type=int, default=4096)
    ap.add_argument("--max-envs", type=int, default=DEFAULT_MAX_ENVS,
                    help=f"envs open at once; /create past it is an error (default {DEFAULT_MAX_ENVS}; 0: no cap)")
    ap.add_argument("--max-body-bytes", type=int, default=DEFAULT_MAX_BODY_BYTES,
                    help=f"largest request body; larger ones get HTTP 413 (default {DEFAULT_MAX_BODY_BYTES})")
    ap.add_argument("--docs", action="store_true", help="serve the API documentation (/docs, /redoc, /openapi.json)")
    args = ap.parse_args(argv)
    try:
        import uvicorn

        app = build_app(args.games, args.mapping, args.dialect, args.max_steps, args.idle_timeout,
                        args.max_action_chars, args.max_envs, args.max_body_bytes, args.docs)
    except (ImportError, ValueError, OSError, KeyError) as e:
        print(f"eai-gym serve alfworld: {e}", file=sys.stderr)
        return 2
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY on accepted connections only then (else every reply
    # waits for a delayed ACK)
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET, socket.SOCK_STREAM,
                         socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f"eai-gym serve alfworld: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 2
    sock.listen(2048)  # from here on, connections wait in the backlog until the server accepts them
    print(base_url(sock), flush=True)  # the first line: the base URL, as every eai-gym serve prints it
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())

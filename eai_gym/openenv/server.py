"""``eai-gym serve WORLD --protocol openenv``: a world as an OpenEnv server (the app of OpenEnv's ``create_app``).

Routes are OpenEnv's: ``WS /ws`` (a session per connection: ``reset``, ``step``, ``state``, ``close`` messages;
errors as ``{"type": "error", "data": {"message", "code"}}``), ``POST /reset`` and ``POST /step`` (a throwaway
env per request: no episode spans two requests), ``GET /state /metadata /health /schema``, OpenEnv's task API
(``/WORLD/splits``, ``/WORLD/num_tasks``, ...) and its MCP routes. Sessions: at most ``--max-sessions`` at once
(one more is refused with OpenEnv's ``CAPACITY_REACHED``); a session idle for ``--idle-timeout`` seconds is
closed (OpenEnv's reaper looks every max(timeout / 4, 5) seconds) and answers any later message with an
``EXECUTION_ERROR`` saying so.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from typing import Any, Iterator

from .episode import EpisodeConfig

#: the largest WebSocket message the server reads (a command is at most 2,000 characters)
MAX_MESSAGE_BYTES = 1 << 20


def build_app(config: EpisodeConfig, max_sessions: int = 128, idle_timeout: float = 600.0) -> Any:
    """The FastAPI app serving ``config.world`` (``idle_timeout`` 0: sessions are never reclaimed).

    Loads the world's task ids and plays the reset of the first task of the default split once, so that the first
    sessions find the world's data loaded (and a broken world or split fails here, not in a session)."""
    from fastapi import Request
    from fastapi.responses import JSONResponse
    from openenv.core.env_server.http_server import create_app
    from openenv.core.env_server.types import ConcurrencyConfig

    from .environment import EaiGymEnvironment
    from .episode import EpisodeError, WorldEpisode, world_facts
    from .models import EaiObservation, EaiState, action_model

    if max_sessions < 1:
        raise ValueError(f"--max-sessions must be at least 1, got {max_sessions}")
    if idle_timeout < 0:
        raise ValueError(f"--idle-timeout must be 0 (never) or more, got {idle_timeout}")
    facts = world_facts(config.world, config.protocol)
    warm = WorldEpisode(config)
    warm.reset()
    warm.close()
    app = create_app(functools.partial(EaiGymEnvironment, config), action_model(facts), EaiObservation,
                     env_name=facts.name, state_cls=EaiState,
                     concurrency_config=ConcurrencyConfig(max_concurrent_envs=max_sessions,
                                                          session_timeout=idle_timeout or None))

    @app.exception_handler(EpisodeError)
    async def episode_error(_request: Request, exc: EpisodeError) -> JSONResponse:
        """An HTTP request the episode cannot serve (e.g. ``/step`` on the throwaway env of the request): 400."""
        return JSONResponse(status_code=400, content={"detail": str(exc)})

    return app


@contextlib.contextmanager
def running(app: Any, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread of this process while the block runs; yields the base URL (for
    tests and benchmarks: a real loopback server without a second process importing OpenEnv again)."""
    import uvicorn

    from ..serve.sockets import base_url, listening_socket

    sock = listening_socket(host, port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_MESSAGE_BYTES))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="eai-gym-openenv", daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the server stopped while starting")
            thread.join(0.01)
        yield base_url(sock)
    finally:
        server.should_exit = True
        thread.join()
        sock.close()


def main(world: str, argv: list[str] | None = None) -> int:
    """``eai-gym serve WORLD --protocol openenv [options]``; the exit code."""
    from .. import registry
    from ..rl.rewards import REWARDS

    spec = registry.world(world)
    ap = argparse.ArgumentParser(prog=f"eai-gym serve {world} --protocol openenv",
                                 description=f"Serve {spec.title} as an OpenEnv environment (WebSocket sessions at "
                                             "/ws). The first line printed is the base URL.")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port (default: 8000)")
    ap.add_argument("--max-sessions", type=int, default=128,
                    help="concurrent sessions; one more is refused with CAPACITY_REACHED (default: 128)")
    ap.add_argument("--idle-timeout", type=float, default=600.0,
                    help="close a session idle for this many seconds (0: never; default: 600)")
    ap.add_argument("--max-steps", type=int, default=None,
                    help="steps before an episode is truncated (default: the world's env's own limit)")
    ap.add_argument("--world-protocol", choices=spec.protocols, default=spec.protocols[0],
                    help=f"the world's rules: {', '.join(spec.protocols)} (default: {spec.protocols[0]})")
    ap.add_argument("--admissible", choices=("on", "off"), default="on",
                    help="list the admissible actions in every observation (a reset can override; default: on)")
    splits = [f"{s.name} ({s.role})" for s in spec.split_specs]
    ap.add_argument("--split", choices=[s.name for s in spec.split_specs], default=spec.split().name,
                    help=f"the split of a reset that names none: {', '.join(splits)} (default: "
                         f"{spec.split().name}, the task set)")
    ap.add_argument("--reward", choices=REWARDS, default=REWARDS[0],
                    help="the reward of a reset that names none: success (1 at the step the goal is reached) or "
                         "progress (dense, never below zero); eai_gym.rl.rewards (default: success)")
    args = ap.parse_args(argv)
    prog = f"eai-gym serve {world} --protocol openenv"
    for problem in (args.max_steps is not None and args.max_steps < 1 and "--max-steps must be at least 1",
                    args.max_sessions < 1 and "--max-sessions must be at least 1",
                    not args.idle_timeout >= 0 and "--idle-timeout must be 0 (never) or more"):
        if problem:
            print(f"{prog}: {problem}", file=sys.stderr)
            return 2
    from ..serve.sockets import base_url, listening_socket

    try:
        sock = listening_socket(args.host, args.port)
    except OSError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        app = build_app(EpisodeConfig(world, args.world_protocol, args.max_steps, args.admissible == "on", args.split,
                                      args.reward), args.max_sessions, args.idle_timeout)
    except ImportError as e:
        sock.close()
        print(f"{prog}: {e}: pip install 'eai-gym[openenv]'", file=sys.stderr)
        return 2
    except ValueError as e:
        sock.close()
        print(f"{prog}: {e}", file=sys.stderr)
        return 2
    print(base_url(sock), flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_MESSAGE_BYTES))
    server.run(sockets=[sock])
    return 0

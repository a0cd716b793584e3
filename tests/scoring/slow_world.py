"""A test-only world whose items can be made to take as long as a test wants, the way a planner call does.

Its one mode, ``slow plans``, scores items ``{"identifier": ID, "hold": FLAG_PATH or null}``. An item with a
``hold`` path runs a "planner" through :func:`eai_gym.eai.planner.run_planner` (so under the same guard as
Fast Downward): a Python process that, while the flag file exists, keeps a child of its own sleeping and waits.
So a run holds as long as the test keeps the flag, with planner processes (a process and its child) to stop; once
the flag is removed, the same items finish at once. ``python slow_world.py ARGS`` is ``eai-gym ARGS`` with this
world registered (the test runs it as a separate process, to signal it).
"""

from __future__ import annotations

import sys
import tempfile
from types import SimpleNamespace
from typing import Any, Mapping

from eai_gym import registry
from eai_gym.scoring.jobs import Jobs, same

HERE = "slow_world"
#: the planner's code (argv: the flag path); its command line holds this marker, for the tests to find it
HOLD = """# slow-world-planner
import os, subprocess, sys, time
if os.path.exists(sys.argv[1]):
    subprocess.Popen([sys.executable, "-c", "# slow-world-planner-child\\nimport time; time.sleep(600)"])
while os.path.exists(sys.argv[1]):
    time.sleep(0.05)
"""


def score_unit(ctx: tuple, item: Any) -> dict:
    from eai_gym.eai.planner import run_planner

    ident = item.get("identifier") if isinstance(item, Mapping) else None
    record: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": "", "held": False}
    flag = item.get("hold") if isinstance(item, Mapping) else None
    if isinstance(flag, str):
        with tempfile.TemporaryDirectory(prefix="slow-world-") as tmp:
            out, _ = run_planner([sys.executable, "-c", HOLD, flag], tmp, 600.0)
        record["held"] = out is not None
    return record


def summarize(records: list) -> dict:
    return {"summary": {"items": len(records)}}


def plans_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any) -> Jobs:
    return Jobs(score_unit, list(items), summarize, same, (protocol,))


TASK_SET = SimpleNamespace(ids=lambda: [], names=lambda: [], card=lambda t: {}, play=lambda t, p: None,
                           legal_actions=lambda env: [], category=lambda t: None)

WORLD = registry.WorldSpec(
    name="slow", title="items that take as long as a flag file exists (tests)", envs=(), task_set=f"{HERE}:TASK_SET",
    modes=(registry.ModeSpec("plans", "run a held planner per item", ("fixed",), f"{HERE}:plans_jobs",
                             inputs="one JSON file of {identifier, hold} items"),),
)


def main(argv: list[str]) -> int:
    from eai_gym.cli import main as cli_main

    registry.register_world(WORLD)
    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

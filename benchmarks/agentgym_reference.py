"""AgentGym's own ALFWorld env server (``agentenv-alfworld``, WooooDyy/AgentGym 3ef9235) on eai-gym's games.

AgentGym's server reads ALFWorld's data from ``~/.cache/alfworld`` (it sets ``ALFWORLD_DATA`` itself) and numbers
its games with its two mapping files (``configs/mappings_train.json``, 2,420 games under ``json_2.1.1/train``, then
``configs/mappings_test.json``, 200 games under ``json_2.1.1/valid_train``). ALFWorld's data are a download that is
not available here, so :func:`prepare_home` writes a home folder whose ``.cache/alfworld`` holds eai-gym's games in
ALFWorld's layout (``initial_state.pddl`` and ``traj_data.json`` from eai-gym's exporter, ``game.tw-pddl`` written
by the reference's own alfworld as ``alfworld-generate`` writes it: ``alfred.pddl``, ``alfred.twl2`` with the task
added by ``add_task_to_grammar``) at the places AgentGym's mapping files name, each game in a slot of its own task
type, and ``logic/`` with the wheel's domain and grammar. The server runs unmodified with ``HOME`` set to that
folder; ``eai-gym serve alfworld --games HOME/.cache/alfworld --mapping <the same two files>`` then numbers the
same game folders the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

#: AgentGym's test games' folder under json_2.1.1 (its server's spelling)
TEST_ROOT = "valid_train"
#: the file in a prepared home that maps eai-gym task ids to AgentGym game numbers
GAMES_FILE = "agentgym_games.json"

#: run by the reference's python in a prepared data folder: ``game.tw-pddl`` per game, the logic files
GAME_FILES_SNIPPET = """
import json, os, random, shutil, sys
import alfworld
from alfworld.agents.utils.misc import add_task_to_grammar
data, root = os.path.join(os.path.dirname(alfworld.__file__), "data"), sys.argv[1]
os.makedirs(os.path.join(root, "logic"), exist_ok=True)
for name in ("alfred.pddl", "alfred.twl2"):
    shutil.copyfile(os.path.join(data, name), os.path.join(root, "logic", name))
domain, grammar = (open(os.path.join(data, n)).read() for n in ("alfred.pddl", "alfred.twl2"))
random.seed(0)
n = 0
for folder in sorted(json.loads(sys.argv[2])):
    traj = json.load(open(os.path.join(folder, "traj_data.json")))
    with open(os.path.join(folder, "game.tw-pddl"), "w") as f:
        json.dump({"pddl_domain": domain, "grammar": add_task_to_grammar(grammar, traj),
                   "pddl_problem": open(os.path.join(folder, "initial_state.pddl")).read(), "solvable": True}, f)
    n += 1
from importlib.metadata import version
print(json.dumps({"games": n, "alfworld": version("alfworld"), "textworld": version("textworld")}))
"""


def source_dir(python: str) -> Path:
    """The ``agentenv-alfworld`` checkout the reference venv runs (installed ``-e``, as AgentGym's setup.sh does)."""
    code = ("import importlib.util as u, os; spec = u.find_spec('agentenv_alfworld'); "
            "print(os.path.dirname(os.path.dirname(os.path.realpath(spec.origin))))")  # found, not imported
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=600, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{python}: no agentenv_alfworld: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
    return Path(out.stdout.strip().splitlines()[-1])


def mapping_files(source: Path) -> list[Path]:
    """AgentGym's mapping files, train then test (the order its server numbers games in)."""
    return [source / "configs" / "mappings_train.json", source / "configs" / "mappings_test.json"]


def assign_slots(tasks: dict[str, str], mappings: list[Path]) -> dict[str, tuple[int, str]]:
    """Per eai-gym task id (``tasks``: id -> task type): an AgentGym game number and its folder below json_2.1.1,
    the first unused slot of the same task type, test games first."""
    entries: list[tuple[int, str, dict[str, Any]]] = []
    for root, path in zip(("train", TEST_ROOT), mappings):
        with open(path) as f:
            entries += [(len(entries) + i, root, e) for i, e in enumerate(json.load(f))]
    order = [e for e in entries if e[1] == TEST_ROOT] + [e for e in entries if e[1] != TEST_ROOT]
    used: set[int] = set()
    out = {}
    for task, task_type in tasks.items():
        slot = next((e for e in order if e[0] not in used and e[2]["task_type"].split("-", 1)[0] == task_type), None)
        if slot is None:
            raise ValueError(f"AgentGym's mappings have no free {task_type} game for task {task}")
        used.add(slot[0])
        out[task] = (slot[0], f"{slot[1]}/{slot[2]['task_type']}/{slot[2]['task_id']}")
    return out


def prepare_home(home: Path, python: str, tasks: list[str]) -> dict[str, Any]:
    """Write the home folder of AgentGym's server for eai-gym's eval games ``tasks`` (ids of ALFWorld's task
    set); ``home`` must not exist yet. Returns what :data:`GAMES_FILE` holds: task -> game number, and the
    mapping files."""
    from eai_gym.compat.alfworld import shipped_paths
    from eai_gym.compat.alfworld.game_files import export_game, load_game

    if home.exists():
        raise FileExistsError(f"{home} exists: the reference's home folder is written fresh")
    paths = shipped_paths("eval_out_of_distribution")
    mappings = mapping_files(source_dir(python))
    slots = assign_slots({t: load_game(paths[int(t)]).task_type for t in tasks}, mappings)
    data = home / ".cache" / "alfworld"
    stage = home / "stage"
    folders = []
    for task in tasks:
        made = Path(export_game(paths[int(task)], str(stage))).parent
        dest = data / "json_2.1.1" / slots[task][1]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(made), str(dest))
        folders.append(str(dest))
    shutil.rmtree(stage)
    out = subprocess.run([python, "-c", GAME_FILES_SNIPPET, str(data), json.dumps(folders)], capture_output=True,
                         text=True, timeout=600, env={**os.environ, "HOME": str(home)}, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"writing game.tw-pddl files failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
    games = {"games": {t: slots[t][0] for t in tasks}, "mappings": [str(m) for m in mappings],
             "written_by": json.loads(out.stdout.strip().splitlines()[-1])}
    (home / GAMES_FILE).write_text(json.dumps(games, indent=1) + "\n")
    return games


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(python: str, home: Path, log: Path) -> tuple[subprocess.Popen, str]:
    """AgentGym's server as its README launches it (``alfworld --host H --port P``, the venv's console script), with
    ``HOME`` at ``home``; its output goes to ``log``. Returns the process and its base URL once it answers."""
    from .bench_serve_alfworld import wait_until_up

    port = free_port()
    script = Path(python).parent / "alfworld"
    with open(log, "ab") as out:
        proc = subprocess.Popen([str(script), "--host", "127.0.0.1", "--port", str(port)], stdout=out,
                                stderr=subprocess.STDOUT, env={**os.environ, "HOME": str(home)})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, proc, timeout=600)
    except RuntimeError as e:
        stop(proc)
        tail = log.read_text(errors="replace").strip().splitlines()[-3:]
        raise RuntimeError(f"AgentGym's server ({script}): {e}; its log {log} ends: {' | '.join(tail)}") from None
    return proc, url


def stop(proc: subprocess.Popen) -> None:
    """End a server started here and the processes it started (AgentGym's: one per env)."""
    from .procstat import tree_pids

    kids = tree_pids(proc.pid)[1:]
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for pid in kids:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass

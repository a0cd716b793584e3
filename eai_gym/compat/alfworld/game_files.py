"""Game files in ALFWorld's layout: the shipped splits as virtual paths, and folders on disk.

ALFWorld names a game by the path of its ``game.tw-pddl``:
``.../json_2.1.1/<split>/<task_type>-<Object>-<MRecep>-<Recep>-<scene>/<trial>/game.tw-pddl``; clients read
the task type from it (ReAct's ``prefixes``: ``'/'.join(path.split('/')[-3:-1])``). eai-gym's shipped games
get paths in the same layout under the root :data:`SHIPPED_ROOT` (nothing is written to disk):

- ``eval_out_of_distribution`` (``valid_unseen``): the 134 shipped eval games,
  ``<task_type>-<Object>-None-<Recep or lamp>-<floor plan>/trial_eval_<i>``;
- ``train`` (3,553 games, ALFWorld's train size) and ``eval_in_distribution`` (``valid_seen``, 140 games):
  generated on the training floor plans when first played, so their folder names carry the task type but not
  the objects: ``<task_type>-Generated-None-Generated-<n>/trial_train_<n>`` (``trial_seen_<n>``).

A path anywhere else is a game folder on disk holding ``initial_state.pddl`` and ``traj_data.json``
(what ``alfworld-download`` fetches, or what ``tools/convert/alfworld_export.py`` writes).
"""

from __future__ import annotations

import json
import os
import random
import zlib
from functools import lru_cache

from ...envs.alfworld.engine import Engine
from ...envs.alfworld.game import TASK_TYPES, Game, GameError, load_game_folder
from ...envs.alfworld.generator import GenerationError, eval_game, eval_split, generate_game
from ...envs.alfworld.oracle import Oracle
from ...envs.alfworld.splits import SEED_STRIDE, SEEN_SEED_BASE, SEEN_SIZE, TRAIN_SIZE

SHIPPED_ROOT = "eai-gym-shipped/alfworld"
#: train_eval -> (ALFWorld's folder under json_2.1.1, trial prefix, number of shipped games)
SHIPPED_SPLITS = {"train": ("train", "train", TRAIN_SIZE), "eval_in_distribution": ("valid_seen", "seen", SEEN_SIZE),
                  "eval_out_of_distribution": ("valid_unseen", "eval", 134)}


def shipped_path(train_eval: str, n: int) -> str:
    """The virtual game-file path of shipped game ``n`` of a split."""
    folder, kind, size = SHIPPED_SPLITS[train_eval]
    if not 0 <= n < size:
        raise IndexError(f"{train_eval} has {size} shipped games; index {n} is out of range")
    if kind == "eval":
        task_type, floorplan, _ = eval_split()[n]
        p = eval_game(n).params
        task = f"{task_type}-{p['object_target']}-None-{p['parent_target'] or p['toggle_target']}-{floorplan[9:]}"
    else:
        task = f"{TASK_TYPES[n % len(TASK_TYPES)]}-Generated-None-Generated-{n}"
    return f"{SHIPPED_ROOT}/json_2.1.1/{folder}/{task}/trial_{kind}_{n:06d}/game.tw-pddl"


def shipped_paths(train_eval: str, limit: int | None = None) -> list[str]:
    """The virtual paths of a split's shipped games (the first ``limit``)."""
    if train_eval not in SHIPPED_SPLITS:
        raise ValueError(f"train_eval must be one of {', '.join(SHIPPED_SPLITS)}, got {train_eval!r}")
    size = SHIPPED_SPLITS[train_eval][2]
    return list(_shipped_paths(train_eval, size if limit is None else max(0, min(limit, size))))


@lru_cache(maxsize=16)
def _shipped_paths(train_eval: str, n: int) -> tuple[str, ...]:
    return tuple(shipped_path(train_eval, k) for k in range(n))


def _generated(n: int, base: int) -> Game:
    """Generated game ``n``: the first seed from ``base + SEED_STRIDE n`` whose game is unsolved at the start
    and solvable, with task type ``n mod 6`` (:mod:`eai_gym.envs.alfworld.splits`)."""
    task_type = TASK_TYPES[n % len(TASK_TYPES)]
    for k in range(SEED_STRIDE):
        try:
            game = generate_game(base + SEED_STRIDE * n + k, task_type, split="train")
        except GenerationError:
            continue
        engine = Engine(game)
        start = engine.initial_state()
        if not engine.won(start) and Oracle(engine).plan(start):
            return game
    raise GameError(f"no solvable {task_type} game from seed {base + SEED_STRIDE * n}")  # not reached by the generator


@lru_cache(maxsize=2048)
def load_game(path: str) -> Game:
    """The game behind a game-file path (shipped virtual path, ``game.tw-pddl`` path or game folder).

    Games are shared between envs and never changed after loading."""
    if path.startswith(SHIPPED_ROOT + "/"):
        trial = path.rstrip("/").split("/")[-2] if path.endswith("game.tw-pddl") else path.rstrip("/").split("/")[-1]
        parts = trial.split("_")
        if len(parts) == 3 and parts[0] == "trial" and parts[2].isdigit():
            kind, n = parts[1], int(parts[2])
            for train_eval, (_, k, size) in SHIPPED_SPLITS.items():
                if k == kind and 0 <= n < size:
                    if kind == "eval":
                        return eval_game(n)
                    return _generated(n, 0 if kind == "train" else SEEN_SEED_BASE)
        raise GameError(f"{path}: not a shipped game path (expected .../trial_<eval|seen|train>_<n>/game.tw-pddl "
                        "with n in range)")
    folder = os.path.dirname(path) if os.path.basename(path) == "game.tw-pddl" or os.path.isfile(path) else path
    return load_game_folder(folder)


def task_type_of(root: str) -> str | None:
    """The task type named by a trial folder's parent (``pick_heat_then_place_in_recep-Apple-...``)."""
    head = os.path.basename(os.path.dirname(root.rstrip(os.sep))).split("-", 1)[0]
    return head if head in TASK_TYPES else None


def scan_folders(data_path: str, task_types: list[str]) -> list[str]:
    """``game.tw-pddl`` paths of the games under ``data_path``, sorted, skipping what alfworld skips:
    paths containing ``movable`` or ``Sliced``, task types not in ``task_types``, and folders whose
    ``game.tw-pddl`` exists without ``"solvable": true``. Folders without ``initial_state.pddl`` are skipped
    (eai-gym builds the game from it)."""
    found = []
    for root, _dirs, files in os.walk(data_path):
        if "traj_data.json" not in files or "initial_state.pddl" not in files:
            continue
        if "movable" in root or "Sliced" in root:
            continue
        task_type = task_type_of(root)
        if task_type is None:
            try:
                with open(os.path.join(root, "traj_data.json")) as f:
                    task_type = json.load(f).get("task_type")
            except (OSError, json.JSONDecodeError):
                continue
        if task_type not in task_types:
            continue
        game_file = os.path.join(root, "game.tw-pddl")
        if "game.tw-pddl" in files:
            try:
                with open(game_file) as f:
                    if not json.load(f).get("solvable", False):
                        continue
            except (OSError, json.JSONDecodeError):
                continue
        found.append(game_file)
    return sorted(found)


def task_text(path: str, game: Game, human_prob: float) -> str:
    """The game's task text: one of ALFWorld's two templates, fixed per game path (ALFWorld fixes it when
    a game file is generated); with probability ``human_prob`` a human annotation (``turk_annotations`` of
    ``traj_data.json``) where the folder has one. Both draws are seeded by the path below ``json_2.1.1``."""
    key = path.split("json_2.1.1/", 1)[-1]
    rng = random.Random(zlib.crc32(key.encode("utf-8")))
    template = rng.randrange(2)
    if human_prob > 0 and rng.random() < human_prob and not path.startswith(SHIPPED_ROOT + "/"):
        anns = _annotations(os.path.dirname(path))
        if anns:
            return rng.choice(anns).rstrip(".")
    return game.task_text(template)


@lru_cache(maxsize=256)
def _annotations(folder: str) -> tuple[str, ...]:
    try:
        with open(os.path.join(folder, "traj_data.json")) as f:
            anns = json.load(f).get("turk_annotations", {}).get("anns", [])
    except (OSError, json.JSONDecodeError, AttributeError):
        return ()
    return tuple(str(a["task_desc"]).strip() for a in anns if isinstance(a, dict) and a.get("task_desc"))


def export_game(path: str, out_root: str, trial_suffix: str = "") -> str:
    """Write the game behind ``path`` as an ALFWorld game folder (``initial_state.pddl`` + ``traj_data.json``)
    under ``out_root``, at the same place below ``json_2.1.1`` as its path; return the new ``game.tw-pddl``
    path (the file itself is not written: it would hold ALFWorld's domain and grammar). ``trial_suffix`` is
    appended to the trial folder's name (to write one game several times)."""
    from ...envs.alfworld.generator import game_to_pddl

    game = load_game(path)
    rel = path.split("json_2.1.1/", 1)[-1].rsplit("/", 1)[0] + trial_suffix
    folder = os.path.join(out_root, "json_2.1.1", *rel.split("/"))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "initial_state.pddl"), "w") as f:
        f.write(game_to_pddl(game))
    traj = {"task_type": game.task_type, "pddl_params": dict(game.params), "turk_annotations": {"anns": []}}
    with open(os.path.join(folder, "traj_data.json"), "w") as f:
        json.dump(traj, f, sort_keys=True)
    return os.path.join(folder, "game.tw-pddl")

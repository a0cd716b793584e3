"""ALFWorld's generated splits (named in :mod:`.spec`): ``train`` and ``eval_in_distribution``.

ALFWorld trains on 3,553 games and evaluates on ``valid_seen`` (140 games, training scenes) and ``valid_unseen``
(134 games, unseen scenes). eai-gym ships the unseen split as its task set (:mod:`.taskset`) and generates the other
two on the training floor plans: game ``n`` of a split is the first game from seed ``base + 1000 n`` with task type
``TASK_TYPES[n % 6]`` that is unsolved at the start and solvable (the env's ``{"split": "train", "seed": ...}``
reset), with ``base`` 0 for ``train`` and :data:`SEEN_SEED_BASE` for ``eval_in_distribution``; the same games as
alfworld's API serves under those split names (:mod:`eai_gym.compat.alfworld.game_files`).
"""

from __future__ import annotations

from .game import TASK_TYPES

#: games per generated split (ALFWorld's sizes)
TRAIN_SIZE, SEEN_SIZE = 3553, 140
#: the seed base of the in-distribution evaluation games (the train games' seeds are below it)
SEEN_SEED_BASE = 10_000_000
#: the reset seed's stride between two games of a split
SEED_STRIDE = 1000


def train_ids() -> list[str]:
    return [str(n) for n in range(TRAIN_SIZE)]


def seen_ids() -> list[str]:
    return [str(n) for n in range(SEEN_SIZE)]


def _options(task_id: str, size: int, base: int, split: str) -> dict:
    if not (isinstance(task_id, str) and task_id.isdigit() and int(task_id) < size):
        raise KeyError(f"ALFWorld's {split} split has tasks 0..{size - 1}, not {task_id!r}")
    n = int(task_id)
    return {"split": "train", "seed": base + SEED_STRIDE * n, "task_type": TASK_TYPES[n % len(TASK_TYPES)]}


def play_train(task_id: str, protocol: str) -> tuple[str, dict, dict]:
    """The env and reset options of train game ``task_id`` ("0" .. "3552")."""
    return "eai_gym/AlfWorld-v0", {}, _options(task_id, TRAIN_SIZE, 0, "train")


def play_seen(task_id: str, protocol: str) -> tuple[str, dict, dict]:
    """The env and reset options of in-distribution evaluation game ``task_id`` ("0" .. "139")."""
    return "eai_gym/AlfWorld-v0", {}, _options(task_id, SEEN_SIZE, SEEN_SEED_BASE, "eval_in_distribution")

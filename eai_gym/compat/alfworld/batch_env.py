"""textworld 1.7.0's batch gym env (``TextworldBatchGymEnv`` + ``SyncBatchEnv``) over eai-gym's ALFWorld engine.

What :meth:`AlfredTWEnv.init_env <eai_gym.compat.alfworld.AlfredTWEnv.init_env>` returns. Same calls and
shapes as textworld's: ``reset() -> (obs, infos)`` and ``step(commands) -> (obs, scores, dones, infos)``,
``obs``/``scores``/``dones`` tuples with one entry per game of the batch, ``infos`` a dict of per-game lists;
``seed(s)`` fixes the game order (textworld's rule: ``numpy.random.RandomState(s)`` shuffles a copy of the
game list once, the games are played in that order, and after each full cycle the same generator
reshuffles them; the env is seeded with 1234 when made); a game that is done (won, or out of steps) keeps
returning its last result until the next ``reset()``, as textworld's ``SyncBatchEnv`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ...envs.alfworld.engine import NOTHING, Engine
from ...envs.alfworld.expert import SAME_CONFIG, Expert
from .facts import FactNames, Proposition, StateFacts, static_facts
from .game_files import load_game, task_text


@lru_cache(maxsize=512)
def game_facts(gamefile: str) -> tuple[FactNames, tuple[Proposition, ...]]:
    """A game's fact objects and its static facts (made once per game file; games never change)."""
    names = FactNames(load_game(gamefile))
    return names, static_facts(names)


#: the textworld ``EnvInfos`` fields supported, in textworld's slot order
BASICS = ("feedback", "facts", "last_command", "won", "lost", "score", "moves", "admissible_commands",
          "policy_commands")
#: the extras supported (``infos["extra.<name>"]``)
EXTRAS = ("gamefile", "expert_plan", "walkthrough")
EXPERT_TYPES = ("handcoded", "planner")
_UNKNOWN = object()  #: a configuration not computed yet


def check_infos(basics: Iterable[str], extras: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    basics, extras = tuple(basics), tuple(extras)
    bad = [b for b in basics if b not in BASICS] + [f"extra.{e}" for e in extras if e not in EXTRAS]
    if bad:
        raise ValueError(f"unsupported infos {bad}; available: {', '.join(BASICS)} and "
                         f"{', '.join('extra.' + e for e in EXTRAS)}")
    return tuple(b for b in BASICS if b in basics), tuple(e for e in EXTRAS if e in extras)


class GameRun:
    """One game being played: textworld's ``PddlEnv`` + ``Limit`` + alfworld's wrappers + ``Filter``."""

    def __init__(self, gamefile: str, dialect: str, basics: tuple[str, ...], extras: tuple[str, ...],
                 expert_type: str | None, max_steps: int | None, human_prob: float) -> None:
        game = load_game(gamefile)
        self.gamefile, self.basics, self.extras = gamefile, basics, extras
        self.expert_type, self.max_steps = expert_type, max_steps
        self.engine = Engine(game, dialect)
        self.expert = Expert(self.engine)
        self.state = self.engine.initial_state()
        self.commands = self.engine.commands(self.state)
        self.feedback = self.engine.intro(task_text(gamefile, game, human_prob))
        self.last_command: str | None = None
        self.nb_steps = self.moves = 0
        self.walkthrough: list[str] | None = None
        self._config: object = _UNKNOWN  #: the expert's configuration of the state, kept while it holds
        self._facts: StateFacts | None = None  #: the state facts, kept in parts (made when first asked for)

    def plan(self) -> list[str]:
        """The expert's cost-optimal plan from here ([] once won, or if the goal is unreachable;
        :class:`~eai_gym.envs.alfworld.expert.Expert`)."""
        return self.expert.plan(self.state) or []

    def expert_plan(self) -> list[str]:
        if self.expert_type == "planner":
            return self.plan()
        # alfworld's handcoded expert: ["look"] at reset, then its next command if admissible, else ["look"]
        if not self.last_command:
            return ["look"]
        if self._config is _UNKNOWN:
            self._config = self.expert.config(self.state)
        command = self.expert.answer(self.state, self._config)  # type: ignore[arg-type]
        return [command] if command is not None and command in self.commands else ["look"]

    def facts(self) -> list:
        """textworld's ``facts``: the state's, then the static ones (shared objects, see :mod:`.facts`)."""
        if self._facts is None:
            self._facts = StateFacts(*game_facts(self.gamefile))
        return self._facts.facts(self.state)

    def infos(self, won: bool, at_reset: bool = False) -> dict[str, Any]:
        admissible = sorted(self.commands)
        out: dict[str, Any] = {}
        for key in self.basics:
            if key == "won":
                out[key] = won
            elif key == "admissible_commands":
                out[key] = admissible
            elif key == "feedback":
                out[key] = self.feedback
            elif key == "facts":
                out[key] = self.facts()
            elif key == "last_command":
                out[key] = self.last_command
            elif key == "lost":
                out[key] = False
            elif key == "score":
                out[key] = 1 if won else 0
            elif key == "moves":
                out[key] = self.moves
            else:  # policy_commands
                out[key] = self.plan()
        for key in self.extras:
            if key == "gamefile":  # alfworld's AlfredInfos sets it on reset only: None after a step
                out["extra.gamefile"] = self.gamefile if at_reset else None
            elif key == "expert_plan":
                out["extra.expert_plan"] = self.expert_plan()
            else:  # walkthrough: the plan from the start, kept for the whole episode
                if self.walkthrough is None:
                    self.walkthrough = self.plan()
                out["extra.walkthrough"] = list(self.walkthrough)
        return out

    def reset(self) -> tuple[str, dict[str, Any]]:
        return self.feedback, self.infos(self.engine.won(self.state), at_reset=True)

    def step(self, command: str) -> tuple[str, int, bool, dict[str, Any]]:
        command = command.strip()
        op = self.commands.get(command)
        if op is None:
            self.feedback = NOTHING
        else:
            self.feedback = self.engine.apply(self.state, op)
            self.commands = self.engine.commands(self.state)
            self.moves += 1
            if op[0] not in SAME_CONFIG:
                self._config = _UNKNOWN
            if self._facts is not None:
                self._facts.changed(op[0])
        self.last_command = command
        self.nb_steps += 1
        won = self.engine.won(self.state)
        done = won or (self.max_steps is not None and self.max_steps > 0 and self.nb_steps >= self.max_steps)
        return self.feedback, 1 if won else 0, done, self.infos(won)


class AlfredBatchEnv:
    """A batch of ALFWorld games played in lockstep (see the module docstring)."""

    def __init__(self, gamefiles: Sequence[str], batch_size: int = 1, max_episode_steps: int | None = None,
                 dialect: str = "0.4", expert_type: str | None = None,
                 request_infos: Iterable[str] = ("won", "admissible_commands"),
                 extras: Iterable[str] = ("gamefile",), goal_desc_human_anns_prob: float = 0.0) -> None:
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        if dialect not in ("0.4", "0.3"):
            raise ValueError(f"dialect must be '0.4' or '0.3', got {dialect!r}")
        if expert_type is not None and expert_type not in EXPERT_TYPES:
            raise ValueError(f"Unknown type of AlfredExpert: {expert_type}. Expecting either 'handcoded' or 'planner'.")
        self.gamefiles = [str(g) for g in gamefiles]
        if not self.gamefiles:
            raise ValueError("no game files to play: the game list is empty")
        self.batch_size, self.max_episode_steps = batch_size, max_episode_steps
        self.dialect, self.expert_type, self.human_prob = dialect, expert_type, float(goal_desc_human_anns_prob)
        basics, extras = set(request_infos), set(extras)
        if expert_type is not None:  # alfworld's AlfredExpert asks for these
            extras.add("expert_plan")
            basics.add("policy_commands" if expert_type == "planner" else "facts")
        self.basics, self.extras = check_infos(basics, extras)
        self.runs: list[GameRun] = []
        self.last: list[tuple | None] = []
        self.last_commands: list[str | None] = [None] * batch_size
        self.obs: tuple[str, ...] = ()
        self.seed(1234)

    # -- game order (textworld.gym.envs.utils.shuffled_cycle) ---------------------------------------------
    def seed(self, seed: int | None = None) -> list[int | None]:
        self._rng = np.random.RandomState(seed)
        self._order = list(self.gamefiles)
        self._rng.shuffle(self._order)
        self._pos = 0
        return [seed]

    def _next_gamefile(self) -> str:
        if self._pos == len(self._order):
            self._rng.shuffle(self._order)
            self._pos = 0
        self._pos += 1
        return self._order[self._pos - 1]

    def skip(self, nb_games: int = 1) -> None:
        for _ in range(nb_games):
            self._next_gamefile()

    # -- playing --------------------------------------------------------------------------------------------
    def reset(self) -> tuple[tuple[str, ...], dict[str, list[Any]]]:
        files = [self._next_gamefile() for _ in range(self.batch_size)]
        self.runs = [GameRun(f, self.dialect, self.basics, self.extras, self.expert_type, self.max_episode_steps,
                             self.human_prob) for f in files]
        self.last = [None] * self.batch_size
        self.last_commands = [None] * self.batch_size
        results = [run.reset() for run in self.runs]
        self.obs = tuple(r[0] for r in results)
        return self.obs, self._gather([r[1] for r in results])

    def step(self, commands: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...], tuple[bool, ...],
                                                     dict[str, list[Any]]]:
        if not self.runs:
            raise RuntimeError("call reset() before step()")
        if not isinstance(commands, (list, tuple)):
            raise TypeError(f"step() takes a list of commands, one per game of the batch; got {type(commands).__name__}"
                            f" {commands!r:.80}. For one game: env.step([command]).")
        if len(commands) != self.batch_size:
            raise ValueError(f"expected {self.batch_size} commands (one per game of the batch), got {len(commands)}")
        last = self.last
        for i, command in enumerate(commands):  # check first: a bad command leaves every game unchanged
            if not isinstance(command, str) and not (last[i] is not None and last[i][2]):
                raise TypeError(f"command {i} of the batch is a {type(command).__name__} ({command!r:.80}), not a str")
        # a game that ended on an earlier step returns its last result again
        results = [prev if prev is not None and prev[2] else run.step(command)
                   for run, command, prev in zip(self.runs, commands, last)]
        self.last = results
        self.last_commands = list(commands)
        obs, scores, dones, infos = zip(*results)
        self.obs = obs
        return obs, scores, dones, self._gather(infos)

    @staticmethod
    def _gather(infos: Sequence[dict[str, Any]]) -> dict[str, list[Any]]:
        if len(infos) == 1:
            return {k: [v] for k, v in infos[0].items()}
        keys = list(infos[0]) if infos else []
        return {k: [d.get(k) for d in infos] for k in keys}

    def render(self, mode: str = "text") -> str | None:
        parts = []
        for command, ob in zip(self.last_commands, self.obs):
            msg = ob.rstrip() + "\n"
            parts.append(("> " + command + "\n" + msg) if command is not None else msg)
        text = "\n-----\n".join(parts) + "\n"
        if mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        self.runs, self.last = [], []

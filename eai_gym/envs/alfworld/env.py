"""ALFWorld as a Gymnasium text env, ``eai_gym/AlfWorld-v0``: :class:`AlfWorldEnv` (its docstring documents the
env: spaces, rewards, reset options, info keys, the frozen game after a win)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ...core import Action, Step
from ...core.step import raw_text
from ..arguments import (
    ArgumentRangeError,
    action_index,
    check_seed,
    check_text_action,
    int_option,
    path_option,
    reset_options,
    str_option,
)
from ..base import CHARSET, MAX_ACTION, MAX_OBS, printable
from ..text_space import TextObservation
from .command_errors import classify
from .engine import NOTHING, Engine
from .game import TASK_TYPES, TEMPLATES, Game, GameError, load_game_folder
from .generator import GenerationError, eval_game, eval_split, generate_game
from .goal_conditions import GoalConditions
from .oracle import Oracle
from .progress import ProgressTracker

INFOS = ("admissible_commands", "won", "expert_plan", "expert_next", "facts")
MAX_COMMANDS = 512
#: the keys ``reset(options=...)`` accepts (see :class:`AlfWorldEnv`; an unknown key is a ``ValueError``)
RESET_OPTIONS = ("game", "split", "index", "seed", "task_type", "template")
SPLITS = ("eval", "train")


class AlfWorldEnv(gym.Env[str, Any]):
    """An ALFWorld text game per episode: alfworld 0.4.2's texts and admissible commands, as ``eai_gym/AlfWorld-v0``.

    ## Description

    ALFWorld's household games (the ``alfred`` PDDL domain: find, take, clean, heat, cool, examine in light, put)
    on a pure-Python engine that writes ALFWorld's texts and admissible commands and agrees with alfworld 0.4.2 +
    textworld 1.7.0 step by step, in alfworld 0.4.2's text dialect (``dialect="0.4"``) or 0.3.3's (``"0.3"``).
    The games: the 134 shipped games of the eval split, games generated with a seed on ALFWorld's floor plans (the
    ``train`` split), or any folder with ``initial_state.pddl`` and ``traj_data.json`` (ALFWorld's own game
    folders work as they are). An optimal-plan oracle gives the expert plan.

    ## Action Space

    ``action_mode="text"`` (default): ``Text(max_length=2000)`` over the printable ASCII characters, one command
    per step (``go to cabinet 13``, ``take pan 1 from stoveburner 2``...). A command that is not admissible does
    nothing (``Nothing happens.``) and is recorded as a failed step with its EAI error class (``parsing``,
    ``hallucination``, ``affordance``, ``missing_step``); a batch (a list, a tuple...) is a ``TypeError``.

    ``action_mode="index"``: ``Discrete(512)``, an index into the admissible commands (sorted), with
    ``info["action_mask"]`` marking them; an index past the admissible commands is a command that does nothing
    (``Nothing happens.``), an index outside the space an error.

    ## Observation Space

    ``Text(max_length=60000)`` over the printable ASCII characters, ALFWorld's own texts: after reset the welcome,
    the room's receptacles and ``Your task is to: ...``; after a step, the command's feedback (``You arrive at
    cabinet 13. The cabinet 13 is closed.``), as ALFWorld shows it (not the whole state).

    ## Rewards

    1.0 on the step that wins the game, else 0.0 (also on steps sent after the win: the episode's return is 1
    once won).

    ## Starting State

    The game's initial state. The game: ``options["game"]`` (a folder, or a game) if given; ``{"split": "eval",
    "index": i}`` one of the 134 eval games; ``{"split": "train", "seed": s, "task_type": t}`` a generated game (the
    first seed from ``s`` whose game is not already won and has a plan); otherwise a game drawn with the env's
    generator (seeded by ``reset(seed=...)``) from ``games``, by default from the eval split. The task text's
    template is ``options["template"]`` (0 or 1) or drawn, as ALFWorld draws it.

    ## Episode End

    - Termination: the game is won (``done == won``, as in ALFWorld). A won game is frozen, as textworld's batch
      env freezes it: further steps change nothing and return the winning step's observation and info again
      with ``terminated=True`` and reward 0.0; ``info["step"]`` records the ignored command (``ok`` False, no
      error, ``details["after_win"]``) and the metric hooks' trajectory does not grow. A failed command ends
      nothing.
    - Truncation: after 100 steps (the ``TimeLimit`` that ``gymnasium.make`` adds; the class itself has none).

    ## Information

    ``reset`` and ``step`` return a dict with ``game`` (its name), ``task_type`` (one of ALFWorld's six),
    ``step`` (the step record: ``index``, ``raw``, ``action``, ``ok``, ``error``, ``message``, ``feedback``,
    ``details``; ``{}`` after reset) and, in index mode, ``action_mask`` (``int8``); the keys of
    ``request_infos``, opt-in like TextWorld's ``EnvInfos``:

    - ``admissible_commands``: the commands that do something now, sorted;
    - ``won``: whether the game is won;
    - ``expert_plan``: the oracle's cost-optimal remaining plan (``[]`` once won);
    - ``expert_next``: its next command (None once won): a next-command expert;
    - ``facts``: the true state as readable facts (``at loc 3``, ``in apple 1 fridge 1``, ``opened fridge 1``...).

    The metric wrappers of ``eai_gym.wrappers`` read the env's hooks: ``goal_propositions()`` (the goal's
    changeable conditions under their best binding), ``goal_report()`` (the share of them that hold) and
    ``progress_report()`` (AgentQuest's oracle-plan progress, with the FSM and AgentBoard variants).

    ## Arguments

    ```python
    >>> import gymnasium as gym, eai_gym
    >>> env = gym.make("eai_gym/AlfWorld-v0", request_infos=["admissible_commands", "won", "expert_next"])
    >>> obs, info = env.reset(seed=0, options={"split": "eval", "index": 0, "template": 0})
    >>> obs.splitlines()[-1], info["task_type"], info["expert_next"]
    ('Your task is to: put a pan in sinkbasin.', 'pick_and_place_simple', 'go to cabinet 13')
    >>> obs, reward, terminated, truncated, info = env.step("go to cabinet 13")
    >>> obs, reward, terminated
    ('You arrive at cabinet 13. The cabinet 13 is closed.', 0.0, False)
    >>> gym.make("eai_gym/AlfWorld-v0", action_mode="index").action_space
    Discrete(512)

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``games`` | list or None | None | the games drawn from when the reset options name none: folders (``str`` or ``Path``) or games; None: the eval split |
    | ``dialect`` | ``str`` | ``"0.4"`` | ``"0.4"`` (alfworld 0.4.2's texts) or ``"0.3"`` (0.3.3's) |
    | ``request_infos`` | sequence of ``str`` | ``("admissible_commands", "won")`` | the opt-in info keys (see Information); an unknown one is a ``ValueError`` |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` (see Action Space) |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns the last observation) |

    Reset options (``RESET_OPTIONS``): ``game`` (a folder or a game), ``split`` (``"eval"`` or ``"train"``),
    ``index`` (an eval game, 0 to 133), ``seed`` and ``task_type`` (of a train game), ``template`` (0 or 1), as in
    Starting State. Another key, a value of the wrong type or out of range is a ``ValueError`` or ``TypeError``
    naming it; see ``eai_gym.envs.arguments``.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """
    metadata = {"render_modes": ["ansi"], "render_fps": 1}
    #: the keys ``reset(options=...)`` accepts
    RESET_OPTIONS = RESET_OPTIONS

    def __init__(self, games: Sequence[str | Path | Game] | None = None, dialect: str = "0.4",
                 request_infos: Sequence[str] = ("admissible_commands", "won"), action_mode: str = "text",
                 render_mode: str | None = None) -> None:
        unknown = sorted(set(request_infos) - set(INFOS))
        if unknown:
            raise ValueError(f"unknown request_infos {unknown}; available: {', '.join(INFOS)}")
        if action_mode not in ("text", "index"):
            raise ValueError(f"action_mode must be 'text' or 'index', got {action_mode!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if dialect not in ("0.4", "0.3"):
            raise ValueError(f"dialect must be '0.4' or '0.3', got {dialect!r}")
        self.games = list(games) if games is not None else None  # None: the shipped eval split
        self.dialect, self.request_infos = dialect, tuple(request_infos)
        self.action_mode, self.render_mode = action_mode, render_mode
        self.observation_space = TextObservation(MAX_OBS, min_length=0, charset=CHARSET)
        self.action_space = (spaces.Discrete(MAX_COMMANDS) if action_mode == "index"
                             else spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET))
        self.engine: Engine | None = None
        self._obs = ""

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        where = f"{type(self).__name__}.reset()"
        seed = check_seed(seed, where)
        options = self._check_options(options, where)
        super().reset(seed=seed)
        game = self._choose(options, where)
        templates = len(TEMPLATES[game.task_type])
        template = int_option(options, "template", where, templates)
        if template is None:
            template = int(self.np_random.integers(templates))
        self.engine = Engine(game, self.dialect)
        self.oracle = Oracle(self.engine)
        self.state = self.engine.initial_state()
        self._commands = self.engine.commands(self.state)
        self._admissible = sorted(self._commands)
        self._obs = printable(self.engine.intro(game.task_text(template)))[:MAX_OBS]
        self._conditions: GoalConditions | None = None
        self._progress: ProgressTracker | None = None  # the progress measures, fed each step's row once
        self._rows = [{"action": None, "obs": self._obs, "won": self.engine.won(self.state), "state": self.state.copy()}]
        self._step: dict = {}  # no action yet ({} not None: vector envs batch infos by type)
        self._won_info: dict[str, Any] | None = None  # the info of the step that won the game
        self._after = 0  # steps sent after the win
        return self._obs, self._info()

    @staticmethod
    def _check_options(options: Any, where: str) -> dict[str, Any]:
        """The reset options, their types checked (ranges that depend on the game are checked where it is known)."""
        options = reset_options(options, RESET_OPTIONS, where)
        path_option(options, "game", where, also=(Game,))
        split = str_option(options, "split", where)
        if split is not None and split not in SPLITS:
            raise ValueError(f"{where}: options['split'] must be one of {', '.join(SPLITS)}, got {split!r}")
        task_type = str_option(options, "task_type", where)
        if task_type is not None and task_type not in TASK_TYPES:
            raise ValueError(f"{where}: unknown options['task_type'] {task_type!r}; the task types are "
                             f"{', '.join(TASK_TYPES)}")
        for key in ("seed", "template"):
            int_option(options, key, where)
        index, n = int_option(options, "index", where), len(eval_split())
        if index is not None and not 0 <= index < n:
            raise ArgumentRangeError(f"{where}: options['index']: eval index {index} out of range 0..{n - 1}")
        return options

    def _choose(self, options: dict, where: str) -> Game:
        source = options.get("game")
        split = options.get("split")
        if source is None and split == "train":
            seed = options.get("seed", int(self.np_random.integers(2**31)))
            for k in range(1000):
                try:
                    game = generate_game(int(seed) + k, options.get("task_type"), split="train")
                except GenerationError:
                    continue
                engine = Engine(game)
                start = engine.initial_state()
                if not engine.won(start) and Oracle(engine).plan(start):  # unsolved, and solvable
                    return game
            raise ValueError(f"{where}: no train game from options['seed'] {seed} (and the 999 seeds after it)")
        if source is None and (split == "eval" or self.games is None):
            n = len(eval_split())
            index = options.get("index", int(self.np_random.integers(n)))
            return eval_game(int(index))
        if source is None:
            if not self.games:
                raise ValueError("no game: pass games=[...] to the env or options={'game': folder} to reset()")
            source = self.games[int(self.np_random.integers(len(self.games)))]
            return source if isinstance(source, Game) else load_game_folder(source)
        try:
            return source if isinstance(source, Game) else load_game_folder(source)
        except GameError as e:
            raise GameError(f"{where}: options['game']: {e}") from None

    def step(self, action: Any):
        if self.engine is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.action_mode == "index":  # an index past the admissible commands is a command that does nothing
            idx = action_index(action, MAX_COMMANDS, f"{type(self).__name__}.step()")
            command = self._admissible[idx] if idx < len(self._admissible) else ""
        else:
            check_text_action(action, f"{type(self).__name__}.step()")
            command = action
        if self._won_info is not None:
            return self._after_win(command)
        op = self._commands.get(command.strip()) if isinstance(command, str) else None  # as Engine.step
        executed = op is not None
        feedback = self.engine.apply(self.state, op) if executed else NOTHING
        self._commands = self.engine.commands(self.state)
        self._admissible = sorted(self._commands)
        won = self.engine.won(self.state)
        self._obs = printable(feedback)[:MAX_OBS]
        raw = raw_text(command)
        error, message = (None, "") if executed else classify(self.engine, command)
        self._step = Step(len(self._rows) - 1, raw, Action(raw.strip(), (), (), raw) if executed else None, executed,
                          error, message, feedback).to_dict()
        self._rows.append({"action": raw, "obs": feedback, "won": won, "state": self.state.copy()})
        info = self._info(won)
        if won:
            self._won_info = info
        return self._obs, 1.0 if won else 0.0, won, False, copy.deepcopy(info) if won else info

    def _after_win(self, command: Any):
        """A step sent after the winning one: nothing changes (see the class docstring, Episode End)."""
        assert self._won_info is not None
        raw = raw_text(command)
        info = copy.deepcopy(self._won_info)
        info["step"] = Step(len(self._rows) - 1 + self._after, raw, None, False, None,
                            "ignored: the game is won (ALFWorld freezes a won game)", self._obs,
                            {"after_win": True}).to_dict()
        self._after += 1
        return self._obs, 0.0, True, False, info

    def _info(self, won: bool | None = None) -> dict[str, Any]:
        assert self.engine is not None
        g = self.engine.game
        info: dict[str, Any] = {"game": g.name, "task_type": g.task_type, "step": self._step}
        if "admissible_commands" in self.request_infos:
            info["admissible_commands"] = list(self._admissible)
        if "won" in self.request_infos:
            info["won"] = self.engine.won(self.state) if won is None else won
        if "expert_plan" in self.request_infos:
            info["expert_plan"] = self.oracle.plan(self.state) or []
        if "expert_next" in self.request_infos:
            plan = self.oracle.plan(self.state)
            info["expert_next"] = plan[0] if plan else None
        if "facts" in self.request_infos:
            info["facts"] = self.facts()
        if self.action_mode == "index":
            mask = np.zeros(MAX_COMMANDS, dtype=np.int8)
            mask[:min(len(self._admissible), MAX_COMMANDS)] = 1
            info["action_mask"] = mask
        return info

    # -- metric hooks (eai_gym.wrappers) ------------------------------------------------------------
    def goal_propositions(self) -> list[dict[str, Any]]:
        """The goal's changeable conditions under their best binding (:mod:`.goal_conditions`)."""
        assert self.engine is not None
        if self._conditions is None:
            self._conditions = GoalConditions(self.engine)
        return self._conditions.evaluate(self.state)

    def goal_report(self) -> dict[str, Any]:
        props = self.goal_propositions()
        return {"success": self.engine.won(self.state), "partial": sum(p["holds"] for p in props) / len(props),
                "partial_definition": "goal_conditions_fraction"}

    def progress_report(self) -> dict[str, Any]:
        """AgentQuest's oracle-plan progress (``value``), with the FSM and AgentBoard variants."""
        assert self.engine is not None
        g = self.engine.game
        tracker = self._progress
        if tracker is None:
            tracker = self._progress = ProgressTracker(g.task_type, g.params, self._plan_row(self._rows[0]))
        for row in self._rows[tracker.fed:]:  # the steps since the last report (progress_series, incrementally)
            tracker.add(self._plan_row(row))
        last = tracker.latest()
        return {"definition": "agentquest_oracle_plan", "value": last["agentquest"],
                "plan_length": self._rows[-1]["plan_length"], "fsm": last["fsm"], "fsm_state": last["fsm_states"],
                "agentboard": last["agentboard"], "fsm_dialect_aware": last["fsm_dialect_aware"],
                "agentboard_dialect_aware": last["agentboard_dialect_aware"]}

    def _plan_row(self, row: dict[str, Any]) -> dict[str, Any]:
        """``row`` with the oracle's plan length from its state (None: the goal is unreachable)."""
        if "plan_length" not in row:
            plan = self.oracle.plan(row["state"])
            row["plan_length"] = len(plan) if plan is not None else None
        return row

    def facts(self) -> list[str]:
        """The true state in words: ``at loc 3``, ``in apple 1 fridge 1``, ``holds mug 1``, ``opened fridge 1``,
        ``ishot apple 1``..."""
        e, s = self.engine, self.state
        assert e is not None
        n = e.name
        out = [f"at {n[s.loc]}"] + [f"in {n[o]} {n[r]}" for o, r in sorted(s.inside.items())]
        if s.held:
            out.append(f"holds {n[s.held]}")
        out += [f"opened {n[r]}" for r in sorted(s.opened)]
        out += [f"{k} {n[o]}" for k, v in sorted(s.states.items()) for o in sorted(v)]
        return out

    def render(self) -> str | None:
        return self._obs if self.render_mode == "ansi" else None

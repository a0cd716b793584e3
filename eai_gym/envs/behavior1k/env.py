"""``eai_gym/Behavior1K-v0``: BEHAVIOR-1K's 1,016 activities (bddl 3.6.0) as a Gymnasium environment.

Actions: ``GRASP(apple.n.01_1)`` or an EAI BEHAVIOR item ``{"action": "GRASP", "object": "apple.n.01_1"}``; with
``action_mode="index"``, an integer into the activity's catalogue (every action over its objects, in
:data:`~.world.ACTIONS` order; indices past the catalogue are never legal) with ``info["action_mask"]`` (int8).
``reset(options={"activity": NAME})`` picks an activity (``"task_id"`` works too); otherwise the reset seed draws
one. Observations are text: the activity, its goal in BDDL, every entity's facts, the held object and the feedback
of the last action. The goal is bddl 3.6.0's (:func:`~.goals.check_goal`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from ...core import Action, GoalStatus, Task
from ...core.kept_mask import KeptMask, KeptMasks
from ..arguments import str_option
from ..base import TaskTextEnv
from .data import activity_names, activity_record
from .intermediates import activity_intermediates
from .mask import Behavior1KMask
from .observe import KeptDescription
from .state import B1KState
from .world import ACTIONS, NO_TARGET, Behavior1KWorld, Catalogue, catalogue_calls, load_task, to_text


class Behavior1KEnv(TaskTextEnv):
    """One BEHAVIOR-1K activity per episode: bddl 3.6.0's goals on a symbolic world, as ``eai_gym/Behavior1K-v0``.

    ## Description

    BEHAVIOR-1K's 1,016 activities as the ``bddl`` 3.6.0 package ships them, without OmniGibson: one agent with
    one hand, OmniGibson's symbolic primitives plus the actions the goals need, each object's abilities from the
    knowledge base's properties, and the knowledge base's transition rules fired to a fixpoint after every action
    (docs/behavior1k.md describes every action and rule). The goal is bddl 3.6.0's own semantics, exactly
    (``eai_gym.envs.behavior1k.check_goal``). A failed action is classified in the EAI error taxonomy
    (``parsing``, ``hallucination``, ``arguments``, ``affordance``, ``missing_step``, ``additional_step``; never
    ``wrong_order``); an ``additional_step`` changes nothing and is not fatal.

    ## Action Space

    ``action_mode="text"`` (default): ``Text(max_length=2000)`` over the printable ASCII characters, one action per
    step naming at most one target, in call syntax (``GRASP(apple.n.01_1)``; ``WAIT()`` takes none, ``RELEASE()``
    none or the held object) or as one EAI BEHAVIOR item (``{"action": "GRASP", "object": "apple.n.01_1"}``). The 30
    actions are ``eai_gym.envs.behavior1k.world.ACTIONS``: ``NAVIGATE_TO``, ``GRASP``, ``RELEASE``,
    ``PLACE_ON_TOP``, ``PLACE_INSIDE``, ``OPEN``, ``CLOSE``, ``TOGGLE_ON``, ``TOGGLE_OFF``, ``SOAK_UNDER``,
    ``SOAK_INSIDE``, ``WIPE``, ``CUT``, ``PLACE_NEAR_HEATING_ELEMENT`` (OmniGibson's), ``PLACE_NEXT_TO``,
    ``PLACE_NEXT_TO_GROUP``, ``PLACE_UNDER``, ``FILL``, ``POUR``, ``RINSE``, ``APPLY``, ``MIX``, ``ATTACH``,
    ``DETACH``, ``FOLD``, ``UNFOLD``, ``DRAPE``, ``OVERLAY``, ``WAIT``, ``IGNITE`` (added). Any string is accepted
    and judged by the world: one that does not parse is a failed step (``parsing``), one naming an unknown action or
    object a failed step (``hallucination``); a batch (a list, a tuple...) is a ``TypeError``.

    ``action_mode="index"``: ``Discrete(2018)``, the largest catalogue over the activities. An activity's catalogue
    lists every action (in the order above) on every object of the activity (declared, then the undeclared
    intermediates its rules can make), and ``RELEASE()`` and ``WAIT()`` once. ``info["action_mask"]`` marks the
    entries that would succeed; an index past the activity's catalogue is a failed step (``parsing``), an index
    outside the space an error.

    ## Observation Space

    ``Text(max_length=60000)`` over the printable ASCII characters: the activity's name, its goal conditions in
    BDDL, every entity with its kind (object or substance), whether it exists (``exists``, ``does not exist yet``,
    ``gone``) and its facts, what the agent holds (``Holding:``), and ``Feedback:`` the result of the last action
    (``The episode starts.`` after reset).

    ## Rewards

    1.0 on a step after which the goal holds (every top-level goal condition), else 0.0; with
    ``terminate_on_success=False``, 1.0 on every step while it holds.

    ## Starting State

    The activity's ``:init`` atoms that hold, ``real`` for every declared entity that is not ``future``,
    ``contains`` wherever ``filled``, and ``future`` for the undeclared intermediates; the hand is empty. The
    activity is ``options["activity"]`` (or ``options["task_id"]``) if given, else the constructor's ``activity``,
    else one of the 1,016 drawn with the env's generator (seeded by ``reset(seed=...)``). The dynamics are
    deterministic.

    ## Episode End

    - Termination: the goal holds (with ``terminate_on_success=True``, the default), or the action failed with a
      fatal error, any but ``additional_step`` (with ``terminate_on_error=True``).
    - Truncation: after 300 steps (the ``TimeLimit`` that ``gymnasium.make`` adds; the class itself has none).

    ## Information

    ``reset`` and ``step`` return a fresh dict with:

    - ``task_id``: the activity's name;
    - ``step``: the step record of the action (``index``, ``raw``, ``action`` (``{}`` when it was not parsed),
      ``ok``, ``error`` (the EAI error type or None), ``message``, ``feedback``, ``details``: ``origin``,
      ``"omnigibson"`` or ``"added"``, once the action's handler ran), ``{}`` after reset;
    - ``goal``: ``success`` and ``conditions``, ``[satisfied, total]`` top-level goal conditions;
    - ``action_mask`` (index mode): an ``int8`` array over the action space, 1 where the action would succeed.

    The legal actions as text, in catalogue order, in either mode: ``env.unwrapped.legal_actions()``. The metric
    wrappers of ``eai_gym.wrappers`` read the env's hooks: ``goal_propositions()`` (the goal's top-level conditions
    and whether each holds), ``goal_report()`` and ``progress_report()`` (both the share of conditions that hold).

    ## Arguments

    ```python
    >>> import gymnasium as gym, eai_gym
    >>> env = gym.make("eai_gym/Behavior1K-v0")
    >>> obs, info = env.reset(options={"activity": "adding_chemicals_to_hot_tub"})
    >>> info["goal"]
    {'success': False, 'conditions': [1, 2]}
    >>> obs, reward, terminated, truncated, info = env.step("GRASP(chlorine__bottle.n.01_1)")
    >>> obs, reward, terminated, truncated, info = env.step("POUR(hot_tub.n.02_1)")
    >>> obs.splitlines()[-1], reward, terminated, info["goal"]
    ('Feedback: POUR(hot_tub.n.02_1): done.', 1.0, True, {'success': True, 'conditions': [2, 2]})
    >>> gym.make("eai_gym/Behavior1K-v0", action_mode="index").action_space
    Discrete(2018)

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``activity`` | ``str`` or None | None | a fixed activity (None: drawn at each reset); an unknown one is an ``UnknownTaskError`` |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` (see Action Space) |
    | ``terminate_on_error`` | ``bool`` | False | end the episode at the first fatal error, as offline plan scoring does |
    | ``terminate_on_success`` | ``bool`` | True | end the episode when the goal holds |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns the observation) |
    | ``protocol`` | ``str`` | ``"bddl-3.6.0"`` | the goal semantics; ``"bddl-3.6.0"`` (bddl's own evaluator, exactly) is the only one |

    Reset options (``RESET_OPTIONS``): ``activity``, an activity's name (``str``), and ``task_id``, its other name
    (``activity`` wins when both are given). Another key is a ``ValueError`` naming it, a value that is not a
    ``str`` a ``TypeError``, an unknown activity an ``UnknownTaskError`` (a ``KeyError``); see
    ``eai_gym.envs.arguments``.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """

    def __init__(self, activity: str | None = None, action_mode: str = "text", terminate_on_error: bool = False,
                 terminate_on_success: bool = True, render_mode: str | None = None,
                 protocol: str = "bddl-3.6.0") -> None:
        if protocol != "bddl-3.6.0":
            raise ValueError(f"unknown protocol {protocol!r}; BEHAVIOR-1K has one: 'bddl-3.6.0'")
        self.protocol = protocol
        self.world = Behavior1KWorld()
        self._description = KeptDescription()
        self._kept_masks = KeptMasks(KEPT_ACTIVITIES)  # by activity
        self._header: tuple[Task | None, str] = (None, "")
        self.task_ids = activity_names()
        if activity is not None:
            activity_record(activity)
        super().__init__(activity, action_mode, terminate_on_error, render_mode, terminate_on_success)

    RESET_OPTIONS = ("activity", "task_id")

    def task_option(self, options: dict[str, Any], where: str) -> str | None:
        """``options["activity"]`` (``"task_id"`` is its other name; ``"activity"`` wins when both are given)."""
        activity = str_option(options, "activity", where)
        return activity if activity is not None else str_option(options, "task_id", where)

    def load_task(self, task_id: str) -> Task[B1KState]:
        return load_task(task_id)

    def catalogue(self, task: Task) -> Sequence[Action]:  # type: ignore[override]
        """The activity's catalogue (:meth:`~.world.Behavior1KWorld.catalogue`; its actions made when first read)
        and its kept mask."""
        # the activity's kept answers carry over from its last episode in this env (and its catalogue's calls)
        self._kept = self._kept_mask(task.id, self.action_space.n)
        self._calls = self._kept.rules.calls
        self.actions = Catalogue(self._calls)  # type: ignore[assignment]
        return self.actions

    def _kept_mask(self, activity: str, size: int | None) -> KeptMask:
        """The activity's kept mask (of ``size`` entries; None: as many as its catalogue has)."""
        def make() -> KeptMask:
            calls = catalogue_calls(activity)
            return KeptMask(len(calls) if size is None else size, Behavior1KMask(self.world.legal, calls, activity))

        return self._kept_masks.take(activity, make)

    def catalogue_size(self) -> int:
        return max_catalogue_size()

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would succeed: the candidates of :class:`.mask.Behavior1KMask`, each answer kept
        until a fact it read changes (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask` decides
        every candidate afresh."""
        assert self.episode is not None
        return self._kept.update(self.episode.state)

    def legal_actions(self) -> list[str]:
        """The actions that would succeed now, as text, in catalogue order: the kept mask's answers (as
        :meth:`legal_mask`, in text mode too), equal to ``world.legal_actions(state)`` decided afresh."""
        assert self.task is not None and self.episode is not None
        kept = self._kept if self.action_mode == "index" else self._kept_mask(self.task.id, None)
        calls = kept.rules.calls
        return [to_text(*calls[i]) for i in np.flatnonzero(kept.update(self.episode.state)).tolist()]

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without kept answers: every candidate entry's preconditions on a probe."""
        assert self.episode is not None
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        mask[self._kept.rules.fresh(self.episode.state)] = 1
        return mask

    def goal_info(self, status: GoalStatus) -> dict[str, Any]:
        return {"success": status.success, "conditions": list(status.parts["conditions"])}

    def goal_propositions(self) -> list[dict[str, Any]]:
        """The goal's top-level conjuncts (bddl's goal conditions) and whether each holds now."""
        assert self.task is not None and self.episode is not None
        sat = self.world.satisfied(self.episode.state, self.task.goal)
        texts = self.task.metadata["behavior1k"]["goal_bddl"]
        return [{"id": f"condition_{i}", "kind": "condition", "text": t, "holds": ok}
                for i, (t, ok) in enumerate(zip(texts, sat))]

    def observation(self) -> str:
        """The activity, its goal, every entity's facts (:meth:`~.world.Behavior1KWorld.describe`, kept between
        steps: :class:`~.observe.KeptDescription`), the held object and the last feedback."""
        assert self.task is not None and self.episode is not None
        state = self.episode.state
        if self._header[0] is not self.task:
            lines = [f"Activity: {self.task.id}", "Goal (BDDL, every condition must hold):"]
            lines += ["  " + g for g in self.task.metadata["behavior1k"]["goal_bddl"]]
            self._header = (self.task, "\n".join(lines + ["Entities:"]))
        return (f"{self._header[1]}\n{self._description.describe(state)}\nHolding: {state.held or 'nothing'}\n"
                f"Feedback: {self.last_feedback}")


#: how many activities' kept masks an env keeps (their memory: docs/benchmarks.md)
KEPT_ACTIVITIES = 128


@lru_cache(maxsize=1)
def max_catalogue_size() -> int:
    """The largest activity catalogue (the index-mode ``Discrete`` size; undeclared intermediates included)."""
    best = 0
    for name in activity_names():
        rec = activity_record(name)
        n = sum(len(v) for v in rec["objects"].values()) + sum(len(v) for v in activity_intermediates(rec).values())
        best = max(best, n)
    targeted = len([a for a in ACTIONS if a not in NO_TARGET])
    return targeted * best + len(NO_TARGET)

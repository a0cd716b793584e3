"""``eai_gym/VirtualHome-v0``: the EAI VirtualHome tasks as a Gymnasium environment.

Actions are text in script syntax (``[WALK] <kitchen> (11)``) or one EAI JSON item
(``{"WALK": ["kitchen", "11"]}``); with ``action_mode="index"`` they are integers into a fixed
catalogue of grounded actions over the task's objects, with ``info["action_mask"]`` (int8) marking
those that would execute. Observations are text: the task, its goal, the task's objects with their
states and relations, and the feedback of the last action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core import Action, GoalStatus, Step, Task, WorldState
from ...core.kept_mask import KeptMask, KeptMasks
from ..base import TaskTextEnv
from .actions import ARITY, to_script
from .catalogue import catalogue
from .dynamics import label
from .goals import action_goal_results
from .mask import VirtualHomeMask
from .plan_progress import shortest_plan_length
from .tasks import CHARACTER_ID, load_task, task_ids, task_object_ids
from .world import VirtualHomeWorld


class VirtualHomeEnv(TaskTextEnv):
    """One EAI VirtualHome task per episode on ``eai-eval`` 1.0.5's evolving scene graph: ``eai_gym/VirtualHome-v0``.

    ## Description

    The 342 household tasks of the Embodied Agent Interface's VirtualHome benchmark (scene_1, acting character 65),
    on the evolving-graph transition model of ``eai-eval`` 1.0.5's ``virtualhome_eval``: objects with states
    (``OPEN``, ``ON``, ``PLUGGED_IN``...) and relations (``INSIDE``, ``ON``, ``CLOSE``, ``FACING``, ``HOLDS_RH``...),
    and script actions with the reference's preconditions and effects. No Unity simulator is needed. Every failed
    action is classified in the EAI error taxonomy (``parsing``, ``hallucination``, ``arguments``,
    ``missing_step``, ``wrong_order``, ``affordance``, ``additional_step``); where the reference simulator fails
    without an error code or has no executor (``LOOKAT_SHORT``, ``LOOKAT_LONG``), the failure is an
    ``affordance`` error whose ``details`` carry ``reference_abort`` (the reference evaluator aborts there).
    ``protocol="fixed"`` applies the documented intent; ``protocol="eai-1.0.5"`` reproduces the reference, bugs
    included (docs/virtualhome.md lists every difference), among them its action whitelist (no ``PLUGIN``,
    ``PLUGOUT``, ``RELEASE``) and object set (only the task's relevant objects may be named).

    ## Action Space

    ``action_mode="text"`` (default): ``Text(max_length=2000)`` over the printable ASCII characters, one action per
    step, in script syntax (``[WALK] <kitchen> (11)``, zero to two objects named by class name and id) or as one EAI
    JSON item (``{"WALK": ["kitchen", "11"]}``). Any string is accepted and judged by the world: one that does not
    parse is a failed step (``parsing``), one naming an unknown action or object a failed step (``hallucination``);
    a batch (a list, a tuple...) is a ``TypeError``.

    ``action_mode="index"``: ``Discrete(4938)`` (``Discrete(4833)`` with ``protocol="eai-1.0.5"``), the largest
    catalogue over the tasks. A task's catalogue lists every grounded action over its objects: the action names in
    alphabetical order, each with no object, every object or every ordered pair of distinct objects.
    ``info["action_mask"]`` marks the entries that would execute; an index past the task's catalogue is a failed
    step (``parsing``), an index outside the space an error.

    ## Observation Space

    ``Text(max_length=60000)`` over the printable ASCII characters: the task's id, name and instruction, its goal
    (node, edge and action goals), the task's objects (its relevant objects and the rooms) with their states,
    properties and relations among them, ``You are <character> (65).``, and ``Feedback:`` the result of the last
    action (``The episode starts.`` after reset).

    ## Rewards

    1.0 on a step after which the task's goal holds (its node, edge and action goals, as the protocol evaluates
    them), else 0.0; with ``terminate_on_success=False``, 1.0 on every step while it holds.

    ## Starting State

    The task's initial scene graph, as EAI ships it. The task is ``options["task_id"]`` if given, else the
    constructor's ``task_id``, else one of the 342 drawn with the env's generator (seeded by ``reset(seed=...)``).
    The dynamics are deterministic.

    ## Episode End

    - Termination: the goal holds (with ``terminate_on_success=True``, the default), or the action failed with a
      fatal error, any but ``additional_step`` (with ``terminate_on_error=True``).
    - Truncation: after 100 steps (the ``TimeLimit`` that ``gymnasium.make`` adds; the class itself has none).

    ## Information

    ``reset`` and ``step`` return a fresh dict with:

    - ``task_id``: the task's id;
    - ``step``: the step record of the action (``index``, ``raw``, ``action`` (``{}`` when it was not parsed),
      ``ok``, ``error`` (the EAI error type or None), ``message``, ``feedback``, ``details`` such as the missing
      preconditions), ``{}`` after reset;
    - ``goal``: ``success`` and ``[matched, total]`` for the ``node``, ``edge`` and ``action`` goals;
    - ``action_mask`` (index mode): an ``int8`` array over the action space, 1 where the action would execute;
    - ``admissible_actions`` (with ``admissible=True``): the actions that would execute, in script syntax.

    The metric wrappers of ``eai_gym.wrappers`` read the env's hooks: ``goal_propositions()`` (the node, edge and
    action goals and whether each holds), ``goal_report()`` (EAI's total-goal partial credit) and
    ``progress_report()`` (from the subgoal translator's shortest plan, else the share of goal propositions).

    ## Arguments

    ```python
    >>> import gymnasium as gym, eai_gym
    >>> env = gym.make("eai_gym/VirtualHome-v0", protocol="fixed", action_mode="index")
    >>> env.action_space
    Discrete(4938)
    >>> gym.make("eai_gym/VirtualHome-v0", protocol="eai-1.0.5", action_mode="index").action_space
    Discrete(4833)
    >>> obs, info = env.reset(seed=0, options={"task_id": "27_2"})
    >>> obs.splitlines()[0], info["goal"]
    ('Task 27_2: Wash clothes', {'success': False, 'node': [2, 3], 'edge': [0, 2], 'action': [0, 0]})

    ```

    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | ``task_id`` | ``str`` or None | None | a fixed task (None: drawn at each reset); an unknown id is an ``UnknownTaskError`` |
    | ``protocol`` | ``str`` | ``"fixed"`` | ``"fixed"`` or ``"eai-1.0.5"`` (see Description) |
    | ``action_mode`` | ``str`` | ``"text"`` | ``"text"`` or ``"index"`` (see Action Space) |
    | ``admissible`` | ``bool`` | False | add ``info["admissible_actions"]`` |
    | ``terminate_on_error`` | ``bool`` | False | end the episode at the first fatal error, as offline plan scoring does |
    | ``terminate_on_success`` | ``bool`` | True | end the episode when the goal holds; offline plan scoring runs the whole plan and judges the final state (``terminate_on_error=True, terminate_on_success=False``) |
    | ``render_mode`` | ``str`` or None | None | None or ``"ansi"`` (``render()`` returns the observation) |

    Reset options (``RESET_OPTIONS``): ``task_id``, a task id (``str``). Another key is a ``ValueError`` naming
    it, a value that is not a ``str`` a ``TypeError``, an unknown task an ``UnknownTaskError`` (a ``KeyError``);
    see ``eai_gym.envs.arguments``.

    ## Version History

    - v0: initial version (eai-gym 0.1.0).
    """

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", action_mode: str = "text",
                 admissible: bool = False, terminate_on_error: bool = False, terminate_on_success: bool = True,
                 render_mode: str | None = None) -> None:
        self.world = VirtualHomeWorld(protocol)
        self.protocol = protocol
        self.task_ids = task_ids()
        if task_id is not None:
            load_task(task_id)  # validates the id
        self.admissible = admissible
        self._lines: dict = {}
        self._header: str | None = None
        self._objects: tuple[int, ...] = ()
        self._kept_masks = KeptMasks(KEPT_TASKS)  # by task id
        super().__init__(task_id, action_mode, terminate_on_error, render_mode, terminate_on_success)

    def load_task(self, task_id: str) -> Task[WorldState]:
        task = load_task(task_id)
        self._lines, self._header, self._objects = {}, None, task_object_ids(task_id)
        return task

    def parse(self, text: Any, state: WorldState) -> Action:
        allowed = self.task.metadata["virtualhome"].relevant if self.protocol == "eai-1.0.5" else None
        return self.world.parse(text, state, allowed)

    def catalogue(self, task: Task) -> Sequence[Action]:  # type: ignore[override]
        key = (self.world.protocol, task.id, id(task.initial_state.scene))
        cached = _CATALOGUES.get(key)
        if cached is None or cached[0] is not task.initial_state.scene:
            if len(_CATALOGUES) > 512:
                _CATALOGUES.clear()
            acts = catalogue(self.world, task)
            cached = _CATALOGUES[key] = (task.initial_state.scene, acts, acts.requirement_groups())
        acts, requirements = cached[1], cached[2]
        # the task's kept answers and mask carry over from its last episode in this env
        self._kept = self._kept_masks.take(task.id, lambda: KeptMask(self.action_space.n, VirtualHomeMask(
            self.world.try_action_ok, acts, requirements, self.world.character, task_object_ids(task.id))))
        return acts

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would execute: the candidates of :class:`.mask.VirtualHomeMask`, each answer
        kept until a fact it read changes, also from one episode of a task to the next
        (:class:`~eai_gym.core.kept_mask.KeptMask`). :meth:`full_legal_mask` decides every candidate afresh."""
        assert self.episode is not None
        return self._kept.update(self.episode.state)

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without the kept answers: every candidate entry's executor runs in full."""
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        for i in self._kept.rules.candidates(state):
            mask[i] = self.world.executes(state, self.actions[i])
        return mask

    def catalogue_size(self) -> int:
        return max_catalogue_size(self.world)

    def shown(self, step: Step) -> str:
        return to_script(step.action) if step.action is not None else step.raw

    def objects(self) -> tuple[int, ...]:
        """The task's objects: the relevant objects and the rooms (what the observation lists)."""
        return self._objects

    def extra_info(self) -> dict[str, Any]:
        if not self.admissible:
            return {}
        return {"admissible_actions": [to_script(a) for a in
                                       self.world.legal_actions(self.episode.state, self._objects)]}

    def goal_propositions(self) -> list[dict[str, Any]]:
        """Node goals (on objects in the scene), edge goals and action goals (in the order the protocol
        matches them; an action goal holds once it and every earlier one has been matched)."""
        assert self.task is not None and self.episode is not None
        state, goal = self.episode.state, self.task.goal
        out: list[dict[str, Any]] = [
            {"id": f"node_{i}", "kind": "node", "text": f"{label(state, g['id'])} is {g['state']}",
             "holds": g["state"] in state.states(g["id"])}
            for i, g in enumerate(goal.node_goals) if g["id"] in state.scene.objects]
        out += [{"id": f"edge_{i}", "kind": "edge",
                 "text": f"{label(state, g['from_id'])} {g['relation_type']} {label(state, g['to_id'])}",
                 "holds": state.has_edge(g["from_id"], g["relation_type"], g["to_id"])}
                for i, g in enumerate(goal.edge_goals)]
        if goal.action_goals:
            executed = [s.action for s in self.episode.trajectory.steps if s.ok and s.action is not None]
            matched, _ = action_goal_results(executed, goal, self.protocol)
            order = goal.action_goals_reference_order if self.protocol == "eai-1.0.5" else goal.action_goals
            out += [{"id": f"action_{i}", "kind": "action", "text": "do " + " or ".join(a.split("|")),
                     "holds": i < matched} for i, a in enumerate(order)]
        return out

    def shortest_plan_length(self, state: WorldState) -> int | None:
        assert self.task is not None
        return shortest_plan_length(self.world, self.task.goal.tl_goal, state)

    def partial_success(self, status: GoalStatus) -> tuple[float, str]:
        return status.fraction, "eai_total_goal"

    def observation(self) -> str:
        assert self.task is not None and self.episode is not None
        if self._header is None:
            state = self.task.initial_state
            g = self.task.goal
            lines = [f"Task {self.task.id}: {self.task.name}", f"Instruction: {self.task.instruction}", "Goal:"]
            lines += [f"  {label(state, x['id'])} is {x['state']}" for x in g.node_goals]
            lines += [f"  {label(state, x['from_id'])} {x['relation_type']} {label(state, x['to_id'])}"
                      for x in g.edge_goals]
            lines += [f"  do {' or '.join(a.split('|'))}" for a in g.action_goals]
            lines.append("Objects (states; properties; relations):")
            self._header = "\n".join(lines) + "\n"
        body = self.world.describe(self.episode.state, self._objects, self._lines)
        return f"{self._header}{body}\nYou are <character> ({CHARACTER_ID}).\nFeedback: {self.last_feedback}"


#: how many tasks' kept masks an env keeps (as many as the task and catalogue caches; see docs/benchmarks.md
#: for their memory; an access pattern cycling through more tasks than this would miss every time)
KEPT_TASKS = 512


def task_objects(task: Task) -> tuple[int, ...]:
    return task_object_ids(task.id)


_MAX_CAT: dict[str, int] = {}
#: (protocol, task id, id of the task's scene) -> (that scene, catalogue, its requirement groups); Actions are frozen
_CATALOGUES: dict[tuple, tuple] = {}


def max_catalogue_size(world: VirtualHomeWorld) -> int:
    """Size of the largest action catalogue over all tasks (the Discrete space of index mode)."""
    if world.protocol not in _MAX_CAT:
        n1 = sum(1 for a in world.vocabulary if ARITY[a] == 1)
        n2 = sum(1 for a in world.vocabulary if ARITY[a] == 2)
        n0 = sum(1 for a in world.vocabulary if ARITY[a] == 0)
        k = max(len(task_object_ids(t)) for t in task_ids())
        _MAX_CAT[world.protocol] = n0 + n1 * k + n2 * k * (k - 1)
    return _MAX_CAT[world.protocol]

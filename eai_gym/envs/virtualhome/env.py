"""``eai_gym/VirtualHome-v0``: the EAI VirtualHome tasks as a Gymnasium environment.

Actions are text in script syntax (``[WALK] <kitchen> (11)``) or one EAI JSON item
(``{"WALK": ["kitchen", "11"]}``); with ``action_mode="index"`` they are integers into a fixed
catalogue of grounded actions over the task's objects, with ``info["action_mask"]`` (int8) marking
those that would execute. Observations are text: the task, its goal, the task's objects with their
states and relations, and the feedback of the last action.
"""

from __future__ import annotations

from collections.abc import Sequence
from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

import numpy as np

from ...core import Action, GoalStatus, Step, Task, WorldState
from ...core.catalogue import LazyCatalogue
from ...core.kept_mask import KeptMask, KeptMasks
from ..base import TaskTextEnv
from .actions import ARITY, to_script
from .dynamics import holding_hand, is_close, is_facing, label
from .goals import action_goal_results
from .mask_groups import active_groups, mask_groups
from .plan_progress import shortest_plan_length
from .tasks import CHARACTER_ID, load_task, task_ids, task_object_ids
from .world import VirtualHomeWorld, action_item_json


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

    #: the mask's groups: their pinned keys hold kept-query functions, which do not pickle
    UNPICKLED = ("_mask_groups",)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_groups" in state:
            self._mask_groups = mask_groups(self._groups, self.world.character, self.actions)

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
            groups = acts.requirement_groups()
            cached = _CATALOGUES[key] = (task.initial_state.scene, acts, groups,
                                         mask_groups(groups, self.world.character, acts))
        self._groups, self._mask_groups = cached[2], cached[3]
        self._kept = self._kept_masks.take(task.id, lambda: KeptMask(self.action_space.n))
        return cached[1]

    def legal_mask(self) -> np.ndarray:
        """Which catalogue entries would execute. Only entries whose necessary condition holds are tried:
        the actions in ``NEEDS_CLOSE`` need the character close to their object, those in ``NEEDS_HELD``
        need it held (and the two-object ones the character close to the second); the executor decides.
        Each entry's answer is kept until a fact it read changes (:class:`~eai_gym.core.answers.KeptAnswers`),
        also from one episode of a task to the next, and the mask is updated where answers or candidates
        changed (:class:`~eai_gym.core.kept_mask.KeptMask`; the groups of candidates: :mod:`.mask_groups`);
        :meth:`full_legal_mask` decides every candidate afresh."""
        assert self.episode is not None
        state = self.episode.state
        active = active_groups(self._mask_groups, self._groups[4], state, self.world.character, self._objects)
        return self._kept.update(state, active, self._decide)

    def _decide(self, i: int):
        actions, ok = self.actions, self.world.try_action_ok
        return lambda w: ok(w, actions[i])

    def full_legal_mask(self) -> np.ndarray:
        """:meth:`legal_mask` without the kept answers: every candidate entry's executor runs in full."""
        assert self.episode is not None
        state = self.episode.state
        mask = np.zeros(self.action_space.n, dtype=np.int8)
        for i in self._candidates(state):
            mask[i] = self.world.executes(state, self.actions[i])
        return mask

    def _candidates(self, state: WorldState) -> list[int]:
        c = self.world.character
        free, by_close, by_facing, by_held, by_held_close = self._groups
        near = [x for x in self._objects if is_close(state, c, x)]
        held_now = [x for x in self._objects if holding_hand(state, c, x) is not None]
        candidates = list(free)
        for x in near:
            candidates += by_close.get(x, ())
        for x in self._objects:
            if is_facing(state, c, x):
                candidates += by_facing.get(x, ())
        for x in held_now:
            candidates += by_held.get(x, ())
            for y in near:
                candidates += by_held_close.get((x, y), ())
        return candidates

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


#: actions whose executor fails unless the character is close to the object / holds it (checked first or
#: unconditionally in :mod:`.executors` and :mod:`.executors_use`); the two-object ones need the first
#: held and the character close to the second
NEEDS_CLOSE = frozenset({"SIT", "LIE", "GRAB", "OPEN", "CLOSE", "SWITCHON", "SWITCHOFF", "PLUGIN", "PLUGOUT",
                         "WIPE", "WASH", "RINSE", "SCRUB", "TOUCH", "TYPE", "MOVE", "PULL", "PUSH", "SQUEEZE",
                         "CUT", "EAT"})
NEEDS_HELD = frozenset({"PUTBACK", "PUTIN", "POUR", "DROP", "RELEASE", "PUTON", "DRINK", "READ"})
#: actions whose executor fails unless the character faces the object (``is_facing``)
NEEDS_FACING = frozenset({"LOOKAT", "LOOKAT_MEDIUM", "LOOKAT_SHORT", "LOOKAT_LONG", "POINTAT", "WATCH"})
#: how many tasks' kept masks an env keeps (as many as the task and catalogue caches; see docs/benchmarks.md
#: for their memory; an access pattern cycling through more tasks than this would miss every time)
KEPT_TASKS = 512


def requirement_groups(actions: list[Action]) -> tuple[list[int], dict, dict, dict, dict]:
    """Catalogue indices by the condition they need: (no condition, by close object, by faced object, by held
    object, by (held object, close object))."""
    free: list[int] = []
    by_close: dict[int, list[int]] = {}
    by_facing: dict[int, list[int]] = {}
    by_held: dict[int, list[int]] = {}
    by_held_close: dict[tuple[int, int], list[int]] = {}
    for i, a in enumerate(actions):
        if a.name in NEEDS_HELD and len(a.args) == 2:
            by_held_close.setdefault((a.args[0], a.args[1]), []).append(i)
        elif a.name in NEEDS_HELD:
            by_held.setdefault(a.args[0], []).append(i)
        elif a.name in NEEDS_CLOSE:
            by_close.setdefault(a.args[0], []).append(i)
        elif a.name in NEEDS_FACING:
            by_facing.setdefault(a.args[0], []).append(i)
        else:
            free.append(i)
    return free, by_close, by_facing, by_held, by_held_close


def task_objects(task: Task) -> tuple[int, ...]:
    return task_object_ids(task.id)


def catalogue(world: VirtualHomeWorld, task: Task) -> "ActionCatalogue":
    """Every grounded action over the task's objects, in a fixed order (names, then object ids)."""
    scene = task.initial_state.scene
    ids = task_objects(task)
    return ActionCatalogue(sorted(world.vocabulary), ids, [scene.objects[i].name for i in ids])


class ActionCatalogue(LazyCatalogue):
    """The catalogue as a read-only sequence whose actions are built when first asked for (a task has up to
    ~8,000 entries; an episode touches a few hundred). Entry order: action names sorted; for each, no
    object, every object, or every ordered pair of distinct objects, in the task's object order."""

    def __init__(self, names: list[str], ids: tuple[int, ...], obj_names: list[str]) -> None:
        self.ids = tuple(ids)
        enc = encode_basestring_ascii  # what json.dumps writes for a string: raw is action_item_json(action)
        self._names = tuple(obj_names)
        self._parts = tuple(f"{enc(n)}, {enc(str(i))}" for i, n in zip(ids, obj_names))
        super().__init__(((name, ARITY[name]) for name in names), len(self.ids))

    def build(self, name: str, positions: tuple[int, ...]) -> Action:
        raw = "{" + encode_basestring_ascii(name) + ": [" + ", ".join(self._parts[p] for p in positions) + "]}"
        return Action(name, tuple(self.ids[p] for p in positions), tuple(self._names[p] for p in positions), raw=raw)

    def requirement_groups(self) -> tuple[list[int], dict, dict, dict, dict]:
        """:func:`requirement_groups` of this catalogue, from its layout (no action is built)."""
        free: list[int] = []
        by_close: dict[int, list[int]] = {}
        by_facing: dict[int, list[int]] = {}
        by_held: dict[int, list[int]] = {}
        by_held_close: dict[tuple[int, int], list[int]] = {}
        ids, k = self.ids, len(self.ids)
        for start, name, n in self.blocks:
            size = self.block_size(n)
            if name in NEEDS_HELD and n == 2:
                for off in range(size):
                    r, c = self.positions(off, 2)
                    by_held_close.setdefault((ids[r], ids[c]), []).append(start + off)
            elif name in NEEDS_HELD or name in NEEDS_CLOSE or name in NEEDS_FACING:
                target = by_held if name in NEEDS_HELD else by_close if name in NEEDS_CLOSE else by_facing
                for off in range(size):
                    target.setdefault(ids[off], []).append(start + off)
            else:
                free.extend(range(start, start + size))
        return free, by_close, by_facing, by_held, by_held_close


_MAX_CAT: dict[str, int] = {}
#: (protocol, task id, id of the task's scene) -> (that scene, catalogue, requirement groups); Actions are frozen
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

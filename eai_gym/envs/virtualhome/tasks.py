"""The 342 EAI VirtualHome tasks (scene_1), loaded from the packaged data.

See ``eai_gym/data/virtualhome/PROVENANCE.md`` for where the data comes from.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import chain
from types import SimpleNamespace
from typing import Any, Callable

from ...core import EMPTY, ObjectInfo, Scene, Task, UnknownTaskError, WorldState
from ...core.task import Deferred
from .task_data import data_file, packed

CHARACTER_ID = 65


@dataclass(frozen=True, slots=True)
class VirtualHomeGoal:
    """A task goal as ``vh_goal`` states it.

    Attributes:
        node_goals: ``{"id", "class_name", "state"}`` dicts, duplicates removed (first occurrence kept).
        edge_goals: ``{"from_id", "relation_type", "to_id"}`` dicts, duplicates removed.
        action_goals: action alternatives (``"LOOKAT|WATCH"``) in annotated order, duplicates removed.
        action_goals_reference_order: the same goals in the order eai-eval 1.0.5 iterates them
            (``list(set(...))`` under ``PYTHONHASHSEED=0``).
        tl_goal: the temporal-logic form of the goal.
    """

    node_goals: tuple[dict, ...]
    edge_goals: tuple[dict, ...]
    action_goals: tuple[str, ...]
    action_goals_reference_order: tuple[str, ...]
    tl_goal: str

    @property
    def size(self) -> int:
        return len(self.node_goals) + len(self.edge_goals) + len(self.action_goals)


class VirtualHomeTaskData:
    """Everything the data provides about one task beyond the generic :class:`Task` fields.

    Attributes:
        final_state: the task's annotated final graph as a state of its scene. Given as a state or as a function
            of no arguments that makes it: it is then made the first time it is read (only the action-sequencing
            scorer's gold check reads it; loading a task for anything else skips it).
        relevant: the ``(class name, id)`` pairs of the task's relevant objects.
        gold_script: the gold script's lines.
        raw_goal: the task's ``vh_goal`` as the data gives it.
    """

    __slots__ = ("_final", "relevant", "gold_script", "raw_goal")

    def __init__(self, final_state: WorldState | Callable[[], WorldState], relevant: frozenset[tuple[str, int]],
                 gold_script: tuple[str, ...], raw_goal: dict | None = None) -> None:
        self._final = final_state
        self.relevant = relevant
        self.gold_script = gold_script
        self.raw_goal = {} if raw_goal is None else raw_goal

    @property
    def final_state(self) -> WorldState:
        if not isinstance(self._final, WorldState):
            self._final = self._final()
        return self._final

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VirtualHomeTaskData):
            return NotImplemented
        return (self.final_state, self.relevant, self.gold_script, self.raw_goal) == (
            other.final_state, other.relevant, other.gold_script, other.raw_goal)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"VirtualHomeTaskData(final_state={self.final_state!r}, relevant={self.relevant!r}, "
                f"gold_script={self.gold_script!r})")


@lru_cache(maxsize=1)
def _resources() -> dict:
    data = data_file("resources.json.gz")
    unzip = zlib.decompressobj(31)  # gzip's format, without importing gzip
    text = unzip.decompress(data) + unzip.flush()
    if not unzip.eof or unzip.unused_data:  # not one whole gzip member: let gzip read it (or say why not)
        import gzip

        text = gzip.decompress(data)
    return json.loads(text)


def class_resources() -> dict:
    """The simulator's class resources: ``properties_data``, ``object_states``,
    ``class_name_equivalence``, ``action_space``."""
    return _resources()


def _obj(n: list) -> ObjectInfo:
    return ObjectInfo(n[0], n[1], n[2] or "", frozenset(n[3]))


@lru_cache(maxsize=1)
def _base_scene() -> Scene:
    """The scene every task's scene derives from; its edge indexes come precomputed in the packaged file."""
    h = packed().header
    scene = Scene((_obj(n) for n in h["base_nodes"]), {n[0]: n[4] for n in h["base_nodes"]}, ())
    scene.out, scene.inn, scene.relations = h["base_out"], h["base_inn"], frozenset(h["base_relations"])
    return scene


def task_ids() -> tuple[str, ...]:
    """All task ids in the order of ``task_state_LTL_formula_accurate.json``."""
    return _task_ids()


@lru_cache(maxsize=1)
def _task_ids() -> tuple[str, ...]:
    return tuple(packed().header["task_order"])


def _check_id(task_id: Any) -> None:
    """Raise UnknownTaskError unless ``task_id`` is a packaged task's id."""
    try:
        known = task_id in packed().index
    except TypeError:  # unhashable
        raise UnknownTaskError(f"VirtualHome task id must be a string, got {task_id!r}") from None
    if not known:
        raise UnknownTaskError(f"unknown VirtualHome task id {task_id!r} "
                               f"(there are {len(task_ids())}, e.g. {task_ids()[0]!r})")


@lru_cache(maxsize=None)
def _task(task_id: str) -> tuple[dict, dict[str, list[int]]]:
    return packed().task(task_id)


def task_record(task_id: str) -> dict:
    """The raw packaged record of a task (goals, gold script, diffs), decoded the first time it is asked for."""
    _check_id(task_id)
    return _task(task_id)[0]


def load_task(task_id: str) -> Task[WorldState]:
    """The task with id ``task_id`` (e.g. ``"27_2"``). Raises UnknownTaskError for other ids."""
    if not isinstance(task_id, str):
        raise UnknownTaskError(f"VirtualHome task id must be a string, got {task_id!r}")
    _check_id(task_id)
    return _load_task(task_id)


@lru_cache(maxsize=512)
def _load_task(task_id: str) -> Task[WorldState]:
    rec, derived = _task(task_id)
    initial = Deferred(partial(_initial_state, task_id))  # made when first read (a task read only for its goal
    # or record never builds its scene)
    vh = rec["vh_goal"]
    goals = vh["goal"]
    goal = VirtualHomeGoal(
        node_goals=tuple(goals[i] for i in derived["node_goals"]),
        edge_goals=tuple(goals[i] for i in derived["edge_goals"]),
        action_goals=tuple(dict.fromkeys(vh["actions"])),
        action_goals_reference_order=tuple(rec["action_goals_hash0"]),
        tl_goal=rec["tl_goal"],
    )
    extra = VirtualHomeTaskData(
        final_state=partial(_final_state, initial, rec["final"]),  # picklable (envs are), made on first use
        relevant=frozenset((n, i) for n, i in rec["relevant"]),
        gold_script=tuple(rec["gold_script"]),
        raw_goal=vh,
    )
    return Task(id=task_id, name=rec["task"], instruction=rec["description"], initial_state=initial,
                goal=goal, gold_plan=tuple(rec["gold_script"]), metadata={"virtualhome": extra})


def _initial_state(task_id: str) -> WorldState:
    """The task's initial state: the base scene changed by the record's ``init`` differences."""
    init = _task(task_id)[0]["init"]
    nodes = init["nodes"]
    scene = _base_scene().derive(
        set_objects=map(_obj, nodes["objects"]),
        del_objects=nodes["del"],
        set_states=chain(((n[0], n[4]) for n in nodes["objects"]), nodes["states"]),
        add_edges=init["edges"]["add"],
        del_edges=init["edges"]["del"],
    )
    return WorldState(scene)


def _final_state(initial: Deferred[WorldState], final: dict) -> WorldState:
    """The task's final graph: its initial state changed by the record's ``final`` differences."""
    final_state = initial.value.copy()
    for n in final["nodes"]["objects"]:
        final_state.set_states(n[0], frozenset(n[4]))
    for oid, st in final["nodes"]["states"]:
        final_state.set_states(oid, frozenset(st))
    for a, rel, bs in final["edges"]["del"]:
        for b in bs:
            final_state.remove_edge(a, rel, b)
    for a, rel, bs in final["edges"]["add"]:
        for b in bs:
            final_state.add_edge(a, rel, b)
    return final_state


class FinalGraph:
    """A task's annotated final graph as the goal check reads a state (``scene.objects``, ``states``, ``has_edge``),
    read from the record fact by fact: :attr:`VirtualHomeTaskData.final_state` without building the task's scene or
    its final state (``tests/envs/test_virtualhome_task_data.py`` compares the two on every task)."""

    __slots__ = ("scene", "_states", "_edges")

    def __init__(self, task_id: str) -> None:
        rec = task_record(task_id)
        init, final = rec["init"], rec["final"]
        self.scene = SimpleNamespace(objects=object_names(task_id))  # (the final graph has the initial objects)
        # unary states (as written: made a set when read), the latest write winning as the initial scene and then
        # the final state write them
        states: dict[Any, Any] = dict.fromkeys(init["nodes"]["del"], EMPTY)
        for part in (init, final):
            for n in part["nodes"]["objects"]:
                states[n[0]] = n[4]
            for oid, st in part["nodes"]["states"]:
                states[oid] = st
        self._states = states
        # edges the task changes: whether present, the latest change winning (removals before additions, the
        # initial graph's before the final graph's); the others are the base scene's
        edges: dict[tuple, bool] = {}
        for part in (init, final):
            for a, rel, bs in part["edges"]["del"]:
                for b in bs:
                    edges[(a, rel, b)] = False
            for a, rel, bs in part["edges"]["add"]:
                for b in bs:
                    edges[(a, rel, b)] = True
        self._edges = edges

    def states(self, oid: Any) -> frozenset[str]:
        st = self._states.get(oid)
        return _base_scene().states.get(oid, EMPTY) if st is None else frozenset(st)

    def has_edge(self, a: Any, rel: str, b: Any) -> bool:
        present = self._edges.get((a, rel, b))
        return b in _base_scene().out.get((a, rel), EMPTY) if present is None else present


@lru_cache(maxsize=512)
def final_graph(task_id: str) -> FinalGraph:
    """The task's :class:`FinalGraph` (what the action-sequencing scorer's gold check reads)."""
    return FinalGraph(task_id)


@lru_cache(maxsize=1)
def _base_names() -> dict[int, str]:
    return {n[0]: n[1] for n in packed().header["base_nodes"]}


def _initial_nodes(task_id: str, base: dict[int, Any], value: Callable[[list], Any]) -> dict[int, Any]:
    """``base`` (a value per base-scene object) changed as a task's initial graph changes the base scene's nodes:
    its deleted objects dropped, its own objects' values made by ``value`` from their nodes; in scene order."""
    nodes = task_record(task_id)["init"]["nodes"]
    out = dict(base)
    for oid in nodes["del"]:
        out.pop(oid, None)
    for n in nodes["objects"]:
        out[n[0]] = value(n)
    return out


def object_names(task_id: str) -> dict[int, str]:
    """The class name of every object of a task's initial graph by id, in its scene's order, without building its
    scene (cheap)."""
    return _initial_nodes(task_id, _base_names(), lambda n: n[1])


@lru_cache(maxsize=1)
def _base_labels() -> dict[int, str]:
    return {n[0]: f"{n[1]}.{n[0]}" for n in packed().header["base_nodes"]}


def object_labels(task_id: str) -> tuple[str, ...]:
    """The objects of a task's initial graph as temporal-logic formulas name them (``"tv.426"``), in its scene's
    order (:func:`eai_gym.envs.virtualhome.subgoals.object_labels` of its scene), without building its scene."""
    return tuple(_initial_nodes(task_id, _base_labels(), lambda n: f"{n[1]}.{n[0]}").values())


def initial_objects(task_id: str) -> tuple[dict[int, ObjectInfo], dict[int, frozenset[str]]]:
    """The objects and unary states of a task's initial graph, without building its state (cheap)."""
    nodes = task_record(task_id)["init"]["nodes"]
    base = _base_scene()
    objects, states = dict(base.objects), dict(base.states)
    for oid in nodes["del"]:
        objects.pop(oid, None)
        states.pop(oid, None)
    for n in nodes["objects"]:
        objects[n[0]] = _obj(n)
        states[n[0]] = frozenset(n[4])
    for oid, st in nodes["states"]:
        states[oid] = frozenset(st)
    return objects, states


@lru_cache(maxsize=None)
def task_object_ids(task_id: str) -> tuple[int, ...]:
    """The objects a task shows an agent: its relevant objects and the rooms of the scene. (Its record is decoded
    afresh, not kept: sizing the index-mode action space reads every task's, and keeping all 342 decoded records,
    some 115,000 lists, would make every full collection of the garbage collector walk them.)"""
    _check_id(task_id)
    rec = packed().task(task_id)[0]
    rooms = {n[0] for n in packed().header["base_nodes"] if n[2] == "Rooms"}
    rooms |= {n[0] for n in rec["init"]["nodes"]["objects"] if n[2] == "Rooms"}
    rooms -= set(rec["init"]["nodes"]["del"])
    return tuple(sorted(rooms | {i for _, i in rec["relevant"]}))


def gold_plan_json(task_id: str) -> str:
    """The gold script rendered in EAI's LLM-output format (a JSON-like object whose repeated keys are
    action names and whose values are ``[name, id, ...]`` lists)."""
    from .actions import parse_script_line

    steps = []
    for line in task_record(task_id)["gold_script"]:
        name, args = parse_script_line(line)
        vals = []
        for obj_name, oid in args:
            vals += [obj_name, str(oid)]
        steps.append(f"{json.dumps(name)}: {json.dumps(vals)}")
    return "{" + ", ".join(steps) + "}"

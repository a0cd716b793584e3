"""The LLM prompts of the four EAI modules for the 342 VirtualHome tasks.

``build_prompts(module, protocol)`` fills eai-eval 1.0.5's templates (packaged data, see
``eai_gym/data/virtualhome/PROVENANCE-prompts.md``) from eai-gym's task data:

* ``protocol="eai-1.0.5"`` gives eai-eval 1.0.5's generator output byte for byte as run with
  ``PYTHONHASHSEED=0``: the lists the generator builds from Python sets (shown and changed objects,
  initial-only edges, property and state lists, goal edges of the subgoal prompt, relation targets) are
  put in the order recorded from that run;
* ``protocol="fixed"`` (default) uses the same templates with every such list in sorted order (ids
  ascending, names alphabetical, edges by ``(from, relation, to)``, goal edges in annotated order), so the
  text is the same under any hash seed. ``docs/prompts.md`` lists the differences.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Callable

from .tasks import initial_objects, task_record

MODULES = ("goal_interpretation", "action_sequencing", "subgoal_decomposition", "transition_modeling")
PROTOCOLS = ("fixed", "eai-1.0.5")
RULE = "-----------------\n"
# Relation names of the subgoal prompt that differ from eai-eval's graph relations (states keep their names).
SUBGOAL_NAMES = {"CLOSE": "NEXT_TO", "ON": "ONTOP", "SITTING": "ONTOP"}


@lru_cache(maxsize=1)
def prompt_data() -> dict:
    """The packaged templates, resources and recorded orders (``prompts.json.gz``)."""
    ref = resources.files("eai_gym.data") / "virtualhome" / "prompts.json.gz"
    with ref.open("rb") as f:
        return json.loads(gzip.decompress(f.read()))


@lru_cache(maxsize=1)
def possible_states() -> dict[str, list[str]]:
    """Possible states per class as eai-eval's loader gives them: each class also under its name without
    underscores (an alias that overwrites a class already spelt that way)."""
    table = dict(prompt_data()["object_states_full"])
    for name in list(table):
        table[name.replace("_", "")] = table[name]
    return table


def set_repr(items: list[str]) -> str:
    """How Python prints a set whose iteration order is ``items``."""
    return "{" + ", ".join(map(repr, items)) + "}" if items else "set()"


class TaskView:
    """One task's objects, states and changed parts, with its set-derived lists in protocol order."""

    def __init__(self, task_id: str, protocol: str) -> None:
        self.id = task_id
        self.rec = task_record(task_id)
        self.orders = prompt_data()["orders_hash0"][task_id]
        self.reference = protocol == "eai-1.0.5"
        self.objects, self.initial_states = initial_objects(task_id)
        self.goal = self.rec["vh_goal"]
        self.title, self.description = prompt_data()["script_headers"][task_id]

    def shown(self) -> list[int]:
        """The objects the prompts show: those the task changes and the ends of the edges it changes."""
        return list(self.orders["shown"]) if self.reference else sorted(i for _, i in self.rec["relevant"])

    def changed(self) -> list[int]:
        """Objects whose node differs between the initial and the final graph."""
        if self.reference:
            return list(self.orders["changed"])
        final = self.rec["final"]["nodes"]
        ids = {n[0] for n in final["objects"]} | set(final["del"])
        ids |= {oid for oid, st in final["states"] if frozenset(st) != self.initial_states.get(oid, frozenset())}
        return sorted(ids)

    def changed_initial(self) -> list[int]:
        """Changed objects that are in the initial graph (eai-eval's initial-side difference)."""
        if self.reference:
            return list(self.orders["init_nodes"])
        return [i for i in self.changed() if i in self.objects]

    def init_edges(self) -> list[tuple[int, str, int]]:
        """Edges of the initial graph that the final graph does not have."""
        if self.reference:
            return [tuple(e) for e in self.orders["init_edges"]]
        return sorted((a, rel, b) for a, rel, bs in self.rec["final"]["edges"]["del"] for b in bs)

    def goal_edge_positions(self) -> list[int]:
        """Positions of the goal edges the subgoal prompt lists (one per distinct predicate)."""
        if self.reference:
            return list(self.orders["goal_edges"])
        firsts: dict[str, int] = {}
        for pos, g in enumerate(self.edge_goals()):
            firsts.setdefault(_binary(self, g["from_id"], g["relation_type"], g["to_id"]), pos)
        return sorted(firsts.values())

    def name(self, oid: int) -> str:
        return self.objects[oid].name

    def category(self, oid: int) -> str | None:
        return self.objects[oid].category or None

    def properties(self, oid: int) -> list[str]:
        recorded = self.orders["props"].get(str(oid)) if self.reference else None
        return list(recorded) if recorded is not None else sorted(self.objects[oid].properties)

    def states(self, oid: int) -> list[str]:
        recorded = self.orders["states"].get(str(oid)) if self.reference else None
        return list(recorded) if recorded is not None else sorted(self.initial_states.get(oid, ()))

    def node_goals(self) -> list[dict]:
        return [g for g in self.goal["goal"] if {"id", "class_name", "state"} <= g.keys()]

    def edge_goals(self) -> list[dict]:
        return [g for g in self.goal["goal"] if {"from_id", "relation_type", "to_id"} <= g.keys()]


# ------------------------------------------------------------------ goal interpretation
def goal_interpretation(view: TaskView) -> str:
    data = prompt_data()
    possible = possible_states()
    lines, has_character, states, options = [], False, [], []
    for oid in view.shown():
        name = view.name(oid)
        has_character |= name == "character"
        states, options = view.states(oid), [s.upper() for s in possible.get(name, [])]
        lines.append(f"{name}, initial states: {states}, possible states: {options}\n")
    if not has_character:  # eai-eval prints the last object's states here (a quirk kept in both protocols)
        lines.append(f"character, initial states: {states}, possible states: {options}\n")
    goal = f"Goal name: {view.title}\nGoal description: {view.description}\n"
    relations, actions, pairs = goal_interpretation_resources(view.reference)
    return (data["templates"]["goal_interpretation"].replace("<object_in_scene>", "".join(lines))
            .replace("<goal_str>", goal).replace("<relation_types>", relations)
            .replace("<action_space>", actions).replace("<rel_obj_pairs>", pairs))


@lru_cache(maxsize=2)
def goal_interpretation_resources(reference: bool) -> tuple[str, str, str]:
    """The relation types, action space and relation targets as the goal-interpretation prompt prints them."""
    data = prompt_data()
    pairs = data["relation_object_pairs_hash0" if reference else "relation_object_pairs"]
    pairs_str = "{" + ", ".join(f"{k!r}: {set_repr(v)}" for k, v in pairs.items()) + "}"
    return str(data["relation_types"]), str(data["action_space"]), pairs_str


# ------------------------------------------------------------------ action sequencing
def _edge_line(view: TaskView, edge: tuple[int, str, int]) -> str:
    a, rel, b = edge
    rel = "NEAR" if rel == "CLOSE" else rel
    return f"<{view.name(a)}> ({a}) is {rel} to <{view.name(b)}> ({b})\n"


def _action_goal_lines(actions: list[str]) -> str:
    if not actions:
        return "There is no action requirement.\n"
    out = "The following action(s) should be included:\n"
    for goal in actions:
        if "|" in goal:  # the alternatives joined by " or ", then (an eai-eval quirk) the goal again
            options = goal.split("|")
            out += "".join(a + ("\n" if a == options[-1] else " or ") for a in options)
        else:
            out += goal + "\n"
        out += goal + "\n"
    return out + RULE


def action_sequencing(view: TaskView) -> str:
    objects = "Objects in the scene:\n" + "".join(
        f"{view.name(i)}, id: {i}, properties: {view.properties(i)}\n" for i in view.shown()) + RULE
    change = "Nodes:\n" + "".join(
        f"{view.name(i)}, states: {view.states(i)}, properties:{view.properties(i)}\n"
        for i in view.changed())
    change += "\nEdges:\n" + "".join(_edge_line(view, e) for e in view.init_edges()) + RULE
    nodes = "".join(f"{g['class_name']} is {g['state']}\n" for g in view.node_goals()) + RULE
    edges = "".join(f"{view.name(g['from_id'])} is {g['relation_type']} to {view.name(g['to_id'])}\n"
                    for g in view.edge_goals()) + RULE
    return (prompt_data()["templates"]["action_sequencing"].replace("<object_in_scene>", objects)
            .replace("<cur_change>", change).replace("<node_goals>", nodes).replace("<edge_goals>", edges)
            .replace("<action_goals>", _action_goal_lines(view.goal["actions"])))


# ------------------------------------------------------------------ subgoal decomposition
def _binary(view: TaskView, a: int, rel: str, b: int) -> str:
    return f"{SUBGOAL_NAMES.get(rel, rel)}({view.name(a)}.{a}, {view.name(b)}.{b})"


def subgoal_parts(view: TaskView) -> tuple[list[str], list[str], list[str], list[str]]:
    """Relevant object rows, initial states, goal states and goal actions of the subgoal prompt."""
    # eai-eval lists these in the initial graph's node order, ascending ids in all 342 tasks, with their
    # property lists sorted (its diff sorts the node dicts in place before they are listed).
    rows = [f"| {view.name(i)}.{i} | {view.category(i)} | {sorted(view.objects[i].properties)} |"
            for i in sorted(view.shown())]
    init = [f"{s}({view.name(i)}.{i})"
            for i in view.changed_initial() for s in sorted(view.initial_states.get(i, ()))]
    # eai-eval pairs BETWEEN edges through a list that never fills, so they never appear; CLOSE is left out.
    init += [_binary(view, a, rel, b) for a, rel, b in view.init_edges() if rel not in ("BETWEEN", "CLOSE")]
    final = [f"{g['state']}({g['class_name']}.{g['id']})"
             for g in view.node_goals()]
    edges = view.edge_goals()
    final += [_binary(view, edges[p]["from_id"], edges[p]["relation_type"], edges[p]["to_id"])
              for p in view.goal_edge_positions() if edges[p]["relation_type"] != "BETWEEN"]
    actions = [" or ".join(a.upper().replace(" ", "") for a in g.split("|")) for g in view.goal["actions"]]
    return rows, init, final, actions


def subgoal_decomposition(view: TaskView) -> str | None:
    """The subgoal prompt, or None for a task with neither goal states nor goal actions (eai-eval skips it)."""
    rows, init, final, actions = (("\n".join(x) if x else "None") for x in subgoal_parts(view))
    if final == "None" and actions == "None":
        return None
    return (prompt_data()["templates"]["subgoal_decomposition"].replace("<task_name>", view.title)
            .replace("<relevant_objects>", rows).replace("<initial_states>", init)
            .replace("<final_states>", final).replace("<final_actions>", actions)
            .replace("<necessity>", "Yes" if actions != "None" else "No"))


# ------------------------------------------------------------------ transition modeling
def transition_modeling(task_id: str) -> str | None:
    """The transition-modeling prompt, or None for a task eai-eval gives none (see ``prompt_data()``)."""
    tm = prompt_data()["transition_modeling"]
    if task_id not in tm["problems"]:
        return None
    params = tm["operator_parameters"]
    handlers = "".join(f"(:action {op}\n  :parameters {params[op]}\n  :precondition ()\n  :effect ()\n)\n"
                       for op in tm["operators"][task_id])
    # eai-eval replaces "<action_handlers" (without ">"), so a ">" follows the handlers.
    return (prompt_data()["templates"]["transition_modeling"].replace("<problem_file>", tm["problems"][task_id])
            .replace("<action_handlers", handlers))


BUILDERS: dict[str, Callable[[TaskView], str | None]] = {
    "goal_interpretation": goal_interpretation,
    "action_sequencing": action_sequencing,
    "subgoal_decomposition": subgoal_decomposition,
}


def check_choice(kind: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"unknown prompt {kind} {value!r}; choose one of {', '.join(choices)}")


def build_prompts(module: str, protocol: str = "fixed", task_ids: list[str] | None = None) -> list[dict]:
    """``[{"identifier", "llm_prompt"}]`` for ``module``, in eai-eval 1.0.5's order.

    Args:
        module: one of :data:`MODULES`.
        protocol: ``"fixed"`` (hash-independent orders) or ``"eai-1.0.5"`` (the reference's text).
        task_ids: only these tasks (ids like ``"27_2"``; subgoal identifiers ``"scene_1_27_2"`` are
            accepted too), still in the reference's order; all of the module's tasks when None.

    Raises:
        ValueError: unknown module, protocol or task id, or a task the module has no prompt for.
    """
    check_choice("module", module, MODULES)
    check_choice("protocol", protocol, PROTOCOLS)
    order = prompt_data()["task_order"]  # the same as tasks.task_ids(); transition modeling needs no scene
    wanted = None
    if isinstance(task_ids, str):
        raise ValueError(f"task_ids must be a list of ids, got the string {task_ids!r}")
    if task_ids is not None:
        wanted = {_plain_id(t) for t in task_ids}
        unknown = sorted(wanted - set(order), key=str)
        if unknown:
            raise ValueError(f"unknown VirtualHome task id(s) {', '.join(map(repr, unknown))} "
                             f"(there are {len(order)}, e.g. {order[0]!r})")
    out = []
    for tid in order:
        if wanted is not None and tid not in wanted:
            continue
        if module == "transition_modeling":
            text = transition_modeling(tid)
        else:
            text = BUILDERS[module](TaskView(tid, protocol))
        if text is None:
            if wanted is not None:
                raise ValueError(f"task {tid!r} has no {module} prompt in eai-eval 1.0.5")
            continue
        ident = f"scene_1_{tid}" if module == "subgoal_decomposition" else tid
        out.append({"identifier": ident, "llm_prompt": text})
    return out


def _plain_id(task_id: object) -> str:
    if not isinstance(task_id, str):
        raise ValueError(f"a VirtualHome task id must be a string, got {task_id!r}")
    return task_id[len("scene_1_"):] if task_id.startswith("scene_1_") else task_id


# ------------------------------------------------------------------------------ the registry's prompts entry
def mode_prompts(protocol: str, options: Any, mode: Any) -> list[dict]:
    """The prompts of the EAI module a mode scores (``mode.name``; the registry's ``prompts`` entry point)."""
    return build_prompts(mode.name, protocol)

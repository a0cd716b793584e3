"""EAI's BEHAVIOR prompts adapted to BEHAVIOR-1K: ``eai-gym prompts behavior1k --mode action_sequencing|goal_interpretation``.

Both start from eai-eval 1.0.5's own BEHAVIOR templates (packaged data, ``eai_gym/data/behavior/prompts.json.gz``)
and change only what BEHAVIOR-1K makes untrue (docs/behavior1k.md, "EAI's prompts"):

* Action sequencing: the state examples use BEHAVIOR-1K names and predicates; an action takes one object (``""``
  for RELEASE and WAIT), not two; the action list is the env's vocabulary (:data:`.world.ACTIONS`, one line each
  from :data:`ACTION_HELP`); the rules describe one hand; the worked example is the packaged gold plan of
  :data:`EXAMPLE_ACTIVITY`. Each prompt gives the activity's ``:init`` (``inroom`` left out, as EAI's are), its
  ``:goal`` conjuncts flattened as EAI writes BEHAVIOR goals (the tokens, ``?`` stripped) and the objects an
  action may target (not substances, not the agent) with their synsets.
* Goal interpretation: the state sets are bddl 3.6.0's unary and binary predicates (the scorer's node and edge
  states); each object line lists the unary states its knowledge-base abilities allow (:data:`UNARY_ABILITY`;
  ``real`` for every entity); the goal instruction is the activity's name, because bddl 3.6.0 ships no
  natural-language instructions.

Every list is in file or sorted order: the text does not depend on the hash seed.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ...eai.behavior_prompt_data import prompt_data
from .data import activity_names, activity_record
from .interpretation import edge_states, goal_groundings, legal_objects, node_states
from .kb import activity_kb

MODULES = ("action_sequencing", "goal_interpretation")
#: the activity whose packaged gold plan is the action-sequencing prompt's worked example
EXAMPLE_ACTIVITY = "clean_rubber"

#: what each action does, written for the prompt (the env's preconditions, docs/behavior1k.md)
ACTION_HELP = {
    "NAVIGATE_TO": "the robot goes to the target object",
    "GRASP": "the robot grasps the target object; its hand must be empty and the object must not be a fixture, "
             "attached or inside a closed object",
    "RELEASE": "the robot releases the object in its hand onto the floor; object is \"\"",
    "PLACE_ON_TOP": "the robot places the object in its hand on top of the target object",
    "PLACE_INSIDE": "the robot places the object in its hand inside the target object, which must be open if it is "
                    "openable",
    "OPEN": "the robot opens the target object; its hand must be empty and the object openable",
    "CLOSE": "the robot closes the target object; its hand must be empty and the object openable",
    "TOGGLE_ON": "the robot toggles on the target object; its hand must be empty and the object toggleable",
    "TOGGLE_OFF": "the robot toggles off the target object; its hand must be empty and the object toggleable",
    "SOAK_UNDER": "the robot soaks the cleaning tool in its hand under the target source (e.g. a toggled-on sink)",
    "SOAK_INSIDE": "the robot soaks the cleaning tool in its hand in what the target container contains",
    "WIPE": "the robot wipes the target object with the cleaning tool in its hand, removing what covers it (a dirt "
            "may need the tool soaked first, e.g. with water)",
    "CUT": "the robot cuts the target object with the slicer (e.g. a knife) in its hand; the object is replaced by "
           "its pieces",
    "PLACE_NEAR_HEATING_ELEMENT": "the robot places the object in its hand on the target heat source (e.g. a stove)",
    "PLACE_NEXT_TO": "the robot places the object in its hand next to the target object",
    "PLACE_NEXT_TO_GROUP": "the robot places the object in its hand next to the target object and next to every "
                           "object the target is next to; the target must be next to something",
    "PLACE_UNDER": "the robot places the object in its hand under the target object",
    "FILL": "the robot fills the container in its hand from the target source or container",
    "POUR": "the robot pours what the object in its hand contains into (or onto) the target object",
    "RINSE": "the robot rinses the object in its hand under the target water source (e.g. a toggled-on sink)",
    "APPLY": "the robot applies the substance of the sprayer or shaker in its hand onto the target object",
    "MIX": "the robot stirs the target container with the mixing tool in its hand",
    "ATTACH": "the robot attaches the object in its hand to the target object",
    "DETACH": "the robot detaches the target object and holds it; its hand must be empty",
    "FOLD": "the robot folds the target cloth",
    "UNFOLD": "the robot unfolds the target cloth",
    "DRAPE": "the robot drapes the object in its hand over the target object",
    "OVERLAY": "the robot lays the cloth in its hand over the target object",
    "WAIT": "the robot waits: what no active heat source reaches cools down, what no active cold source reaches "
            "thaws; object is \"\"",
    "IGNITE": "the robot sets the target object on fire; it must be flammable and on or in an active heat source",
}

#: the object each action's line shows in its example (none for RELEASE and WAIT)
ACTION_EXAMPLE = {
    "NAVIGATE_TO": "table.n.02_1", "GRASP": "apple.n.01_1", "PLACE_ON_TOP": "table.n.02_1",
    "PLACE_INSIDE": "electric_refrigerator.n.01_1", "OPEN": "electric_refrigerator.n.01_1",
    "CLOSE": "electric_refrigerator.n.01_1", "TOGGLE_ON": "sink.n.01_1", "TOGGLE_OFF": "sink.n.01_1",
    "SOAK_UNDER": "sink.n.01_1", "SOAK_INSIDE": "bucket.n.01_1", "WIPE": "table.n.02_1", "CUT": "apple.n.01_1",
    "PLACE_NEAR_HEATING_ELEMENT": "stove.n.01_1", "PLACE_NEXT_TO": "plate.n.04_1",
    "PLACE_NEXT_TO_GROUP": "plate.n.04_1", "PLACE_UNDER": "table.n.02_1",
    "FILL": "sink.n.01_1", "POUR": "bowl.n.01_1", "RINSE": "sink.n.01_1", "APPLY": "window.n.01_1",
    "MIX": "bowl.n.01_1", "ATTACH": "wall.n.01_1", "DETACH": "picture_frame.n.01_1", "FOLD": "towel.n.01_1",
    "UNFOLD": "towel.n.01_1", "DRAPE": "chair.n.01_1", "OVERLAY": "table.n.02_1", "IGNITE": "log.n.01_1",
}

#: the knowledge-base ability that lets an object take each unary goal state (``real``: every entity)
UNARY_ABILITY = {"broken": "breakable", "cooked": "cookable", "folded": "cloth", "frozen": "freezable",
                 "hot": "heatable", "on_fire": "flammable", "open": "openable", "toggled_on": "toggleable",
                 "unfolded": "cloth"}

_STATE_EXAMPLES = ("['inside', 'apple.n.01_1', 'electric_refrigerator.n.01_1'] #apple.n.01_1 is inside "
                   "electric_refrigerator.n.01_1\n"
                   "['not', 'cooked', 'apple.n.01_1'] #apple.n.01_1 is not cooked\n"
                   "['covered', 'plate.n.04_1', 'stain.n.01_1'] #plate.n.04_1 is covered with stain.n.01_1\n"
                   "['future', 'half__apple.n.01_1'] #half__apple.n.01_1 does not exist yet (cutting the apple "
                   "makes it)\n")
_COMMAND_FORMAT = ('Action commands is a dictionary with the following format:\n{\n        "action": "action_name", \n'
                   '        "object": "target_obj_name",\n}\nEvery action has one target object, except RELEASE '
                   'and WAIT, whose object is "". The object in the robot\'s hand is never named: PLACE_ON_TOP '
                   'with object table.n.02_1 places the held object on table.n.02_1.\n\n')
_RULES = ("1. The robot has one hand and holds at most one object.\n"
          "2. Action name must be one of the above action names, and the object name must be one of the object "
          "names listed in the interactable objects.\n"
          "3. All PLACE actions release the object in the robot's hand; you don't need to RELEASE it after the "
          "PLACE action.\n"
          "4. To grasp an object inside a closed object, open that object first.\n"
          "5. OPEN, CLOSE, TOGGLE_ON, TOGGLE_OFF and DETACH need an empty hand, and the target object must have "
          "the corresponding property (openable, toggleable, ...).\n"
          "6. Substances (water, stain, dust, ...) appear in the states but are never action targets: act on the "
          "objects that hold, give or carry them.\n"
          "7. An object that does not exist yet (future) appears when an action makes it, e.g. CUT or cooking.\n")


def _splice(text: str, start: str, end: str, new: str) -> str:
    """``text`` with what lies between the anchors ``start`` and ``end`` replaced by ``new``."""
    i = text.find(start)
    j = text.find(end, i + len(start)) if i >= 0 else -1
    if i < 0 or j < 0 or text.count(start) != 1:
        raise ValueError(f"EAI's BEHAVIOR template has changed: anchors {start!r} .. {end!r} not found once")
    return text[:i + len(start)] + new + text[j:]


def _braces(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def init_lines(activity: str) -> list[str]:
    """The ``:init`` literals as EAI writes BEHAVIOR states (flattened lists; ``inroom`` left out)."""
    def flat(x: Any) -> list[str]:
        return [t for y in x for t in flat(y)] if isinstance(x, list) else [x]
    return [str(flat(lit)) for lit in activity_record(activity)["init"] if lit[0] != "inroom"]


def goal_lines(activity: str) -> list[str]:
    """The ``:goal`` conjuncts as EAI's BEHAVIOR prompts write them: each one's tokens, ``?`` stripped."""
    return [str(list(c.terms)) for c in goal_groundings(activity)]


def object_lines(activity: str) -> list[str]:
    """The objects an action may target, ``{'name': instance, 'category': synset}`` each."""
    kb = activity_kb(activity)
    return [str({"name": i, "category": kb.synset[i]}) for i in kb.instances if kb.is_object(i)]


def _action_list() -> str:
    from .world import ACTIONS

    missing = [a for a in ACTIONS if a not in ACTION_HELP]
    if missing:
        raise ValueError(f"no prompt description for action(s) {', '.join(missing)} (add them to ACTION_HELP)")
    lines = []
    for a in ACTIONS:
        lines.append(f"{a} # {ACTION_HELP[a]}, e.g. {{'action': '{a}', 'object': '{ACTION_EXAMPLE.get(a, '')}'}}.\n")
    return "".join(lines)


def _example() -> str:
    from .gold import gold_plan

    plan = []
    for text in gold_plan(EXAMPLE_ACTIVITY):
        action, _, rest = text.partition("(")
        plan.append({"action": action, "object": rest.rstrip(")")})
    if not plan:
        raise ValueError(f"the example activity {EXAMPLE_ACTIVITY!r} has no packaged gold plan")
    body = ("Input:\ninitial environment state:\n" + "".join(f"{x}\n" for x in init_lines(EXAMPLE_ACTIVITY)) +
            "\n\ntarget environment state:\n" + "".join(f"{x}\n" for x in goal_lines(EXAMPLE_ACTIVITY)) +
            "\n\ninteractable objects:\n" + "".join(f"{x}\n" for x in object_lines(EXAMPLE_ACTIVITY)) +
            "\n\nOutput:\n" + json.dumps(plan, indent=4) + "\n\n")
    return _braces(body)


@lru_cache(maxsize=1)
def action_sequencing_template() -> str:
    """EAI's BEHAVIOR action-sequencing template adapted to BEHAVIOR-1K (``str.format`` fields kept)."""
    t = prompt_data()["templates"]["action_sequencing"]
    t = _splice(t, "For example:\n", "\nFormat of the action commands:", _braces(_STATE_EXAMPLES))
    t = _splice(t, "Format of the action commands:\n", "The action_name must be one of the following:",
                _braces(_COMMAND_FORMAT))
    t = _splice(t, "The action_name must be one of the following:\n", "\nFormat of the interactable objects:",
                _braces(_action_list()))
    t = _splice(t, "Please pay specail attention:\n", "\n\nExamples: after# is the explanation.", _braces(_RULES))
    return _splice(t, "Example 1:\n", "Your task:", _example())


def action_sequencing(activity: str) -> str:
    return action_sequencing_template().format(
        init_state="".join(f"{x}\n" for x in init_lines(activity)),
        target_state="".join(f"{x}\n" for x in goal_lines(activity)),
        obj_list="".join(f"{x}\n" for x in object_lines(activity)))


def _set_text(names: tuple[str, ...]) -> str:
    return "{" + ", ".join(f'"{n}"' for n in names) + "}"


def _replace(text: str, old: str, new: str, count: int) -> str:
    if text.count(old) != count:
        raise ValueError(f"EAI's BEHAVIOR template has changed: {old!r} is not there {count} time(s)")
    return text.replace(old, new)


@lru_cache(maxsize=1)
def goal_interpretation_template() -> str:
    """EAI's BEHAVIOR goal-interpretation template with BEHAVIOR-1K's state sets."""
    t = prompt_data()["templates"]["goal_interpretation"]
    t = _replace(t, '{"Cooked", "Open", "Frozen", "Dusty", "Stained", "Sliced", "Soaked", "Toggled_On"}',
                 _set_text(node_states()), 2)
    t = _replace(t, '{"NextTo", "Inside", "OnFloor", "Touching", "Under"}', _set_text(edge_states()), 1)
    return _replace(t, '"Stained", "cup.n.01_1"', '"cooked", "apple.n.01_1"', 2)


def unary_states(activity: str, instance: str) -> list[str]:
    """The unary goal states the instance can take: ``real``, and those its abilities allow (sorted)."""
    kb = activity_kb(activity)
    return ["real"] + [s for s, ability in sorted(UNARY_ABILITY.items()) if kb.has(instance, ability)]


def goal_interpretation(activity: str) -> str:
    objects = "\n".join(f"{i}: {unary_states(activity, i)}" for i in legal_objects(activity))
    instructions = json.dumps({"Task Name": activity, "Goal Instructions": activity.replace("_", " ")}, indent=4)
    return (goal_interpretation_template().replace("<object_in_scene>", objects)
            .replace("<all_initial_states>", "\n".join(init_lines(activity)))
            .replace("<instructions_str>", instructions))


def build_prompts(module: str, task_ids: list[str] | None = None) -> list[dict]:
    """``[{"identifier", "llm_prompt"}]`` for ``module``, in activity order (all 1,016, or ``task_ids``).

    Raises:
        ValueError: unknown module or activity.
    """
    if module not in MODULES:
        raise ValueError(f"unknown BEHAVIOR-1K prompt module {module!r}; choose one of {', '.join(MODULES)}")
    names = activity_names()
    if task_ids is not None:
        if isinstance(task_ids, str):
            raise ValueError(f"task_ids must be a list of activity names, got the string {task_ids!r}")
        unknown = [t for t in task_ids if t not in set(names)]
        if unknown:
            raise ValueError(f"unknown BEHAVIOR-1K activity(ies) {', '.join(map(repr, unknown))}")
        names = tuple(n for n in names if n in set(task_ids))
    make = action_sequencing if module == "action_sequencing" else goal_interpretation
    return [{"identifier": a, "llm_prompt": make(a)} for a in names]


# ------------------------------------------------------------------------------ the registry's prompts entry
def mode_prompts(protocol: str, options: Any, mode: Any) -> list[dict]:
    """The prompts of the EAI module a mode scores (``mode.name``; the registry's ``prompts`` entry point)."""
    return build_prompts(mode.name)

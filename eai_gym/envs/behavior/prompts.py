"""The LLM prompts of the four EAI modules for the 100 BEHAVIOR demos.

* Goal interpretation: eai-eval 1.0.5's template filled from its goal-interpretation resources (initial
  conditions, object states, instructions; packaged, see ``eai_gym/data/behavior/PROVENANCE-prompts.md``),
  in the order of its ``task_to_demo.json`` — what its generator writes without iGibson.
* Action sequencing: eai-eval 1.0.5's template filled from eai-gym's BEHAVIOR task data (initial literals
  with scene names, goal lines, interactable objects), in ``demo_names.json`` order.
* Subgoal decomposition and transition modeling: the prompts eai-eval 1.0.5 ships; its generators need
  iGibson's scene (the symbolic task data holds neither the translated goal formulas nor the problem files
  those prompts were made from).

None of these prompts iterates a set, so ``protocol="fixed"`` and ``protocol="eai-1.0.5"`` give the same
text (both are accepted for symmetry with VirtualHome).
"""

from __future__ import annotations

import json
from typing import Any

from ...eai.behavior_prompt_data import prompt_data
from .tasks import task_record

MODULES = ("goal_interpretation", "action_sequencing", "subgoal_decomposition", "transition_modeling")
PROTOCOLS = ("fixed", "eai-1.0.5")


def goal_interpretation(task_name: str, demo: str) -> str:
    gi = prompt_data()["goal_interpretation"]
    initial = "\n".join(str(c) for c in gi["initial_conditions"][demo].values())
    objects = "\n".join(f"{k}: {v}" for k, v in gi["objects"][demo].items())
    instructions = json.dumps({"Task Name": task_name, "Goal Instructions": gi["instructions"][task_name]},
                              indent=4)
    return (prompt_data()["templates"]["goal_interpretation"].replace("<object_in_scene>", objects)
            .replace("<all_initial_states>", initial).replace("<instructions_str>", instructions))


def action_sequencing(demo: str) -> str:
    rec = task_record(demo)
    init = "".join(f"{line}\n" for line in rec["init_scene"])
    goal = "".join(f"{line}\n" for line in rec["goal_prompt_lines"])
    objects = "".join(str({"name": o["name"], "category": o["category"]}) + "\n" for o in rec["objects"])
    return prompt_data()["templates"]["action_sequencing"].format(init_state=init, target_state=goal,
                                                                  obj_list=objects)


def module_items(module: str) -> list[tuple[str, str | None]]:
    """``(identifier, shipped prompt or None)`` for every item of ``module``, in the reference's order."""
    data = prompt_data()
    if module == "goal_interpretation":
        return [(demo, None) for demo in data["goal_interpretation"]["task_to_demo"].values()]
    if module == "action_sequencing":
        return [(demo, None) for demo in data["demo_order"]]
    return [(ident, text) for ident, text in data["shipped_prompts"][module]]


def build_prompts(module: str, protocol: str = "fixed", task_ids: list[str] | None = None) -> list[dict]:
    """``[{"identifier", "llm_prompt"}]`` for ``module``, in eai-eval 1.0.5's order.

    Args:
        module: one of :data:`MODULES`.
        protocol: ``"fixed"`` or ``"eai-1.0.5"`` (the same text for BEHAVIOR).
        task_ids: only these demos (e.g. ``"assembling_gift_baskets_0_Beechwood_0_int_0_2021-10-26_12-46-37"``),
            still in the reference's order; all 100 when None.

    Raises:
        ValueError: unknown module, protocol or demo name.
    """
    if module not in MODULES:
        raise ValueError(f"unknown prompt module {module!r}; choose one of {', '.join(MODULES)}")
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown prompt protocol {protocol!r}; choose one of {', '.join(PROTOCOLS)}")
    items = module_items(module)
    wanted = None
    if isinstance(task_ids, str):
        raise ValueError(f"task_ids must be a list of ids, got the string {task_ids!r}")
    if task_ids is not None:
        wanted = set()
        for t in task_ids:
            if not isinstance(t, str):
                raise ValueError(f"a BEHAVIOR demo name must be a string, got {t!r}")
            wanted.add(t)
        unknown = sorted(wanted - {ident for ident, _ in items})
        if unknown:
            raise ValueError(f"unknown BEHAVIOR demo(s) {', '.join(map(repr, unknown))} "
                             f"(there are {len(items)}, e.g. {items[0][0]!r})")
    names = {demo: name for name, demo in prompt_data()["goal_interpretation"]["task_to_demo"].items()}
    out = []
    for ident, shipped in items:
        if wanted is not None and ident not in wanted:
            continue
        if module == "goal_interpretation":
            text = goal_interpretation(names[ident], ident)
        elif module == "action_sequencing":
            text = action_sequencing(ident)
        else:
            text = shipped
        out.append({"identifier": ident, "llm_prompt": text})
    return out


# ------------------------------------------------------------------------------ the registry's prompts entry
def mode_prompts(protocol: str, options: Any, mode: Any) -> list[dict]:
    """The prompts of the EAI module a mode scores (``mode.name``; the registry's ``prompts`` entry point)."""
    return build_prompts(mode.name, protocol)

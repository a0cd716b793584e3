"""What each of alfworld 0.4.2's modules holds in eai-gym's stand-in (served by :mod:`.importer`).

| module | names |
|---|---|
| ``alfworld`` | ``ALFWORLD_DATA`` (alfworld's ``from alfworld.info import *``) |
| ``alfworld.info`` | ``__version__`` (``"0.4.2"``), ``ALFWORLD_DATA`` |
| ``alfworld.agents``, ``alfworld.agents.utils`` | (packages) |
| ``alfworld.agents.environment`` | ``get_environment``, ``AlfredTWEnv`` |
| ``alfworld.agents.environment.alfred_tw_env`` | ``AlfredTWEnv``, ``TASK_TYPES`` |
| ``alfworld.agents.utils.misc`` | ``get_templated_task_desc``, ``get_human_anns_task_desc``, ``add_task_to_grammar`` |

``ALFWORLD_DATA`` is alfworld's: ``$ALFWORLD_DATA``, else ``~/.cache/alfworld``, and like alfworld the
stand-in sets the environment variable to it (so a config's ``$ALFWORLD_DATA/json_2.1.1/...`` expands the same
way; the folder is not created). Importing one of alfworld's names that the stand-in does not have (its
textworld wrappers, its THOR envs, ...) raises an ``ImportError`` that says what eai-gym has instead.
"""

from __future__ import annotations

import os
import random
from typing import Any, Callable

VERSION = "0.4.2"
_TEXTWORLD = ("eai-gym's batch env is textworld-free: it computes the infos and the expert itself "
              "(init_env(batch_size, request_infos=[...], extras=['expert_plan']))")
_THOR = "eai-gym has the text world only (no AI2-THOR): use env.type 'AlfredTWEnv'"
_DOMAIN = "eai-gym's ALFWorld engine has the alfred domain and grammar built in; it ships no .pddl/.twl2 files"
#: alfworld names the stand-in does not provide, per module -> why, and what to use
MISSING: dict[str, dict[str, str]] = {
    "": {"BUILTIN_DATA_PATH": _DOMAIN, "ALFRED_PDDL_PATH": _DOMAIN, "ALFRED_TWL2_PATH": _DOMAIN},
    "info": {"BUILTIN_DATA_PATH": _DOMAIN, "ALFRED_PDDL_PATH": _DOMAIN, "ALFRED_TWL2_PATH": _DOMAIN},
    "agents.environment": {"AlfredThorEnv": _THOR, "AlfredHybrid": _THOR},
    "agents.environment.alfred_tw_env": {n: _TEXTWORLD for n in ("AlfredDemangler", "AlfredInfos", "AlfredExpert",
                                                                 "AlfredExpertType")},
    "agents.utils.misc": {"Demangler": "names are demangled by eai-gym's game loader (ALFWorld's rule)",
                          "clean_alfred_facts": _TEXTWORLD, "parse_objects": _TEXTWORLD,
                          "extract_admissible_commands": "infos['admissible_commands'] lists them",
                          "extract_admissible_commands_with_heuristics": "infos['admissible_commands'] lists them",
                          "NumpyArrayEncoder": "not part of the text env API"},
}


def alfworld_data() -> str:
    """alfworld's ``ALFWORLD_DATA``, set in the environment as alfworld sets it."""
    path = os.getenv("ALFWORLD_DATA") or os.path.expanduser("~/.cache/alfworld")
    os.environ["ALFWORLD_DATA"] = path
    return path


def namespace(rel: str) -> dict[str, Any]:
    """The names of stand-in module ``alfworld[.rel]`` (``rel`` one of :data:`.importer.MODULES`)."""
    doc = f"eai-gym's stand-in for alfworld {VERSION}'s {('alfworld.' + rel) if rel else 'alfworld'} (see {__name__})"
    out: dict[str, Any] = {"__doc__": doc}
    if rel in ("", "info"):
        out["ALFWORLD_DATA"] = alfworld_data()
        if rel == "info":
            out["__version__"] = VERSION
    elif rel == "agents.environment":
        from .tw_env import AlfredTWEnv, get_environment

        out.update(AlfredTWEnv=AlfredTWEnv, get_environment=get_environment)
    elif rel == "agents.environment.alfred_tw_env":
        from ...envs.alfworld.game import TASK_TYPES
        from .tw_env import AlfredTWEnv

        out.update(AlfredTWEnv=AlfredTWEnv, TASK_TYPES={i + 1: t for i, t in enumerate(TASK_TYPES)})
    elif rel == "agents.utils.misc":
        out.update(get_templated_task_desc=get_templated_task_desc, get_human_anns_task_desc=get_human_anns_task_desc,
                   add_task_to_grammar=add_task_to_grammar)
    public = sorted(k for k in out if not k.startswith("_"))
    out["__all__"] = public
    return out


def missing_name_hook(module_name: str, rel: str) -> Callable[[str], Any]:
    """The module's ``__getattr__``: ``ImportError`` (with what to use instead) for alfworld's names the stand-in
    lacks, ``AttributeError`` for any other name."""
    missing = MISSING.get(rel, {})

    def __getattr__(name: str) -> Any:
        if name in missing:
            raise ImportError(f"eai-gym's stand-in for alfworld {VERSION} has no {module_name}.{name}: {missing[name]} "
                              "(docs/compat_alfworld.md)", name=module_name)
        raise AttributeError(f"module {module_name!r} (eai-gym's stand-in for alfworld {VERSION}) has no attribute "
                             f"{name!r}")
    return __getattr__


# -- alfworld.agents.utils.misc -----------------------------------------------------------------------------
def get_templated_task_desc(traj_data: dict[str, Any]) -> str:
    """alfworld's task text for a ``traj_data.json`` dict: one of the task type's two templates, drawn with
    the ``random`` module (as alfworld draws it), filled with the lower-cased ``pddl_params``."""
    from ...envs.alfworld.game import TEMPLATES

    try:
        params, task_type = traj_data["pddl_params"], traj_data["task_type"]
    except (KeyError, TypeError):
        raise ValueError("traj_data needs 'task_type' and 'pddl_params' (a traj_data.json dict)") from None
    if task_type not in TEMPLATES:
        raise ValueError(f"traj_data task_type {task_type!r}: expected one of {', '.join(TEMPLATES)}")
    if params.get("object_sliced"):
        raise ValueError(f"traj_data has object_sliced set: ALFWorld's text games have no sliced tasks "
                         f"({task_type}_slice), and neither has eai-gym")
    try:
        fill = {k: str(params[f"{k}_target"]).lower() for k in ("object", "parent", "toggle", "mrecep")}
    except KeyError as e:
        raise ValueError(f"traj_data pddl_params lacks {e.args[0]!r}") from None
    template = random.choice(TEMPLATES[task_type])
    return template.format(obj=fill["object"], recep=fill["parent"], toggle=fill["toggle"], mrecep=fill["mrecep"])


def get_human_anns_task_desc(traj_data: dict[str, Any], rng: Any = random) -> str:
    """One of the human goal texts of ``traj_data`` (``turk_annotations.anns[*].task_desc``), drawn with ``rng``."""
    try:
        anns = traj_data["turk_annotations"]["anns"]
    except (KeyError, TypeError):
        raise ValueError("traj_data has no turk_annotations.anns (human goal texts)") from None
    if not anns:
        raise ValueError("traj_data's turk_annotations.anns is empty")
    return rng.choice(anns)["task_desc"]


def add_task_to_grammar(grammar_str: str, traj_data: dict[str, Any], goal_desc_human_anns_prob: float = 0.0,
                        rng: Any = random) -> str:
    """``grammar_str`` with ``UNKNOWN GOAL`` replaced by the task text: a human one with probability
    ``goal_desc_human_anns_prob`` (drawn with ``rng``), else the templated one."""
    if rng.random() < goal_desc_human_anns_prob:
        task_desc = get_human_anns_task_desc(traj_data, rng)
    else:
        task_desc = get_templated_task_desc(traj_data)
    return grammar_str.replace("UNKNOWN GOAL", task_desc)

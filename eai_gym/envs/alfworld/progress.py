"""ALFWorld's progress measures per step: AgentQuest's oracle progress and FSM progress, AgentBoard's subgoal
progress. Pure functions over a trajectory of steps; they live with the world because the env's
``progress_report`` hook computes them online (the other ALFWorld trajectory metrics are in
:mod:`eai_gym.metrics.alfworld_progress`).

A step is ``{"action": str, "obs": str, "won": bool, "admissible": [...], "plan_length": int}`` where
``admissible`` and ``plan_length`` describe the state *after* the action (step 0: ``action`` None,
the state after reset). See ``reference/docs/agentquest_alfworld_progress.md`` and the reference
notes on AgentQuest (@63e91a1) and AgentBoard (@bb7255e).

Version hazard, reproduced: AgentQuest's FSM and AgentBoard's pick-two subgoal look for the pre-0.4
texts (``put``, ``You put the ...``), so on ``dialect="0.4"`` transcripts they never fire.
``dialect_aware=True`` also accepts the 0.4 texts (``move``, ``You move the X to the Y.``).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

NOTHING = "Nothing happens."


def agentquest_progress(steps: Sequence[dict[str, Any]]) -> list[float]:
    """AgentQuest's oracle progress per step: ``(L0 - L) / L0`` if positive else 0, where ``L0`` is the
    initial plan length and ``L`` the plan length of the last state reached by a command that did
    something (a ``Nothing happens.`` step keeps the previous state)."""
    if not steps:
        return []
    l0 = steps[0]["plan_length"]
    current = l0
    out = []
    for s in steps[1:]:
        if NOTHING not in s["obs"]:
            current = s["plan_length"]
        diff = l0 - current
        out.append(diff / l0 if diff > 0 and l0 else 0.0)
    return out


def _events(action: str, obs: str, obj: str, final: str, dialect_aware: bool) -> str | None:
    a, o = action.lower(), obs.lower()
    if "nothing happens" in o and obj not in a:
        return None
    if "take" in a and "you pick up" in o:
        return "take"
    if "heat" in a and "you heat" in o:
        return "heat"
    if "cool" in a and "you cool" in o:
        return "cool"
    if "clean" in a and "you clean" in o:
        return "clean"
    if "use" in a and "you turn on" in o:
        return "use"
    put = "put" in a and "you put" in o
    target = re.search(r"you put the .*? the (.+?)\.", o)
    if dialect_aware and not put and "move" in a and "you move" in o:
        put, target = True, re.search(r"you move the .*? to the (.+?)\.", o)
    if put:
        return "put_final" if target and final in target.group(1) else "put_other"
    return None


#: task type -> (states, transitions {(state, event): state}); AgentQuest defines pick_heat; the rest are eai-gym's
FSMS: dict[str, tuple[tuple[str, ...], dict[tuple[int, str], int]]] = {
    "pick_heat_then_place_in_recep": (
        ("initial", "object picked up", "object heated and not picked up", "object heated and picked up",
         "object placed correctly"),
        {(0, "take"): 1, (1, "put_final"): 0, (1, "put_other"): 0, (1, "heat"): 3, (3, "put_final"): 4,
         (3, "put_other"): 2, (3, "cool"): 1, (2, "take"): 3}),
    "pick_cool_then_place_in_recep": (
        ("initial", "object picked up", "object cooled and not picked up", "object cooled and picked up",
         "object placed correctly"),
        {(0, "take"): 1, (1, "put_final"): 0, (1, "put_other"): 0, (1, "cool"): 3, (3, "put_final"): 4,
         (3, "put_other"): 2, (3, "heat"): 1, (2, "take"): 3}),
    "pick_clean_then_place_in_recep": (
        ("initial", "object picked up", "object cleaned and not picked up", "object cleaned and picked up",
         "object placed correctly"),
        {(0, "take"): 1, (1, "put_final"): 0, (1, "put_other"): 0, (1, "clean"): 3, (3, "put_final"): 4,
         (3, "put_other"): 2, (2, "take"): 3}),
    "pick_and_place_simple": (
        ("initial", "object picked up", "object placed correctly"),
        {(0, "take"): 1, (1, "put_final"): 2, (1, "put_other"): 0}),
    "pick_two_obj_and_place": (
        ("initial", "first object picked up", "first object placed correctly", "second object picked up",
         "both objects placed correctly"),
        {(0, "take"): 1, (1, "put_final"): 2, (1, "put_other"): 0, (2, "take"): 3, (3, "put_final"): 4,
         (3, "put_other"): 2}),
    "look_at_obj_in_light": (
        ("initial", "object picked up", "lamp switched on", "object held under the lit lamp"),
        {(0, "take"): 1, (0, "use"): 2, (1, "use"): 3, (2, "take"): 3, (1, "put_final"): 0, (1, "put_other"): 0,
         (3, "put_final"): 2, (3, "put_other"): 2}),
}


def fsm_progress(task_type: str, steps: Sequence[dict[str, Any]], obj: str, final: str,
                 dialect_aware: bool = False) -> dict[str, list]:
    """Per step: the FSM state name (``qualitative``) and ``index / (n_states - 1)`` (``quantitative``;
    AgentQuest's 0.25 per state for the five-state machines)."""
    if task_type not in FSMS:
        raise ValueError(f"unknown task_type {task_type!r}; expected one of {', '.join(FSMS)}")
    names, moves = FSMS[task_type]
    state, qual, quant = 0, [], []
    for s in steps[1:]:
        ev = _events(s["action"] or "", s["obs"], obj.lower(), final.lower(), dialect_aware)
        if ev is not None:
            state = moves.get((state, ev), state)
        qual.append(names[state])
        quant.append(state / (len(names) - 1))
    return {"qualitative": qual, "quantitative": quant}


def agentboard_subgoals(task_type: str, obj: str, recep: str, toggle: str, dialect_aware: bool = False) -> list[str]:
    """AgentBoard's per-type subgoal regexes (its test set annotates every game from these templates)."""
    o, r = obj.lower(), recep.lower()
    out = [rf"^(?=.* you see)(?=.*a {o} \d+)", rf"You pick up the {o} \d+"]
    if task_type == "look_at_obj_in_light":
        out.append(rf"^(?=.* you see)(?=.*a {toggle.lower()})")
    elif task_type == "pick_clean_then_place_in_recep":
        out.append(rf"You clean the {o} \d+")
    elif task_type == "pick_heat_then_place_in_recep":
        out.append(rf"You heat the {o} \d+ using the")
    elif task_type == "pick_cool_then_place_in_recep":
        out.append(rf"You cool the {o} \d+ using the")
    elif task_type == "pick_two_obj_and_place":
        put = rf"You put the {o} \d+ in/on the {r} \d+"
        out.append(rf"(?:{put}|You move the {o} \d+ to the {r} \d+)" if dialect_aware else put)
    return out


def agentboard_progress(steps: Sequence[dict[str, Any]], subgoals: Sequence[str]) -> list[float]:
    """Per step: 1.0 once won, else the share of sticky matched subgoals over ``K + 1``."""
    flags = [False] * len(subgoals)
    out = []
    for s in steps[1:]:
        text = re.sub(r"^You arrive at loc \d+\. ", "", s["obs"])
        for i, pat in enumerate(subgoals):
            flags[i] = flags[i] or re.search(pat, text) is not None
        out.append(1.0 if s["won"] else sum(flags) / (len(subgoals) + 1))
    return out


def progress_series(task_type: str, params: dict[str, Any], steps: Sequence[dict[str, Any]]) -> dict[str, list]:
    """Every progress measure per step for one game (``params``: its ``object_target``, ``parent_target``,
    ``toggle_target``): AgentQuest, FSM (quantitative and state names), AgentBoard, and the FSM and
    AgentBoard variants that accept the 0.4 texts."""
    obj, recep, toggle = params.get("object_target", ""), params.get("parent_target", ""), params.get("toggle_target", "")
    fsm = fsm_progress(task_type, steps, obj, recep or toggle)
    return {"agentquest": agentquest_progress(steps), "fsm": fsm["quantitative"], "fsm_states": fsm["qualitative"],
            "fsm_dialect_aware": fsm_progress(task_type, steps, obj, recep or toggle, dialect_aware=True)["quantitative"],
            "agentboard": agentboard_progress(steps, agentboard_subgoals(task_type, obj, recep, toggle)),
            "agentboard_dialect_aware": agentboard_progress(steps, agentboard_subgoals(task_type, obj, recep, toggle,
                                                                                       True))}


class ProgressTracker:
    """:func:`progress_series`, one step at a time: the env feeds each new step record (:meth:`add`) and reads the
    latest value of every measure (:meth:`latest`), equal to the last values of :func:`progress_series` over every
    record fed, without going over the earlier ones again.

    Args:
        task_type: the game's task type.
        params: its ``object_target``, ``parent_target`` and ``toggle_target``.
        start: the record of the reset (with its ``plan_length``).
    """

    def __init__(self, task_type: str, params: dict[str, Any], start: dict[str, Any]) -> None:
        if task_type not in FSMS:
            raise ValueError(f"unknown task_type {task_type!r}; expected one of {', '.join(FSMS)}")
        obj, recep, toggle = (params.get("object_target", ""), params.get("parent_target", ""),
                              params.get("toggle_target", ""))
        self.obj, self.final = obj.lower(), (recep or toggle).lower()
        self.names, self.moves = FSMS[task_type]
        self.l0 = self.current = start["plan_length"]
        self.fsm = [0, 0]  # the FSM state: plain, dialect-aware
        self.subgoals = [agentboard_subgoals(task_type, obj, recep, toggle, aware) for aware in (False, True)]
        self.flags = [[False] * len(s) for s in self.subgoals]
        self.fed = 1  # records fed, the reset's included
        self._latest: dict[str, Any] = {"agentquest": 0.0, "fsm": 0.0, "fsm_states": None, "fsm_dialect_aware": 0.0,
                                        "agentboard": 0.0, "agentboard_dialect_aware": 0.0}

    def add(self, step: dict[str, Any]) -> None:
        """Feed the next step record (``action``, ``obs``, ``won``, ``plan_length``)."""
        if NOTHING not in step["obs"]:
            self.current = step["plan_length"]
        diff = self.l0 - self.current
        out: dict[str, Any] = {"agentquest": diff / self.l0 if diff > 0 and self.l0 else 0.0}
        for k, aware in enumerate((False, True)):
            ev = _events(step["action"] or "", step["obs"], self.obj, self.final, aware)
            if ev is not None:
                self.fsm[k] = self.moves.get((self.fsm[k], ev), self.fsm[k])
        out["fsm"] = self.fsm[0] / (len(self.names) - 1)
        out["fsm_states"] = self.names[self.fsm[0]]
        out["fsm_dialect_aware"] = self.fsm[1] / (len(self.names) - 1)
        text = re.sub(r"^You arrive at loc \d+\. ", "", step["obs"])
        for k, key in enumerate(("agentboard", "agentboard_dialect_aware")):
            flags = self.flags[k]
            for i, pat in enumerate(self.subgoals[k]):
                flags[i] = flags[i] or re.search(pat, text) is not None
            out[key] = 1.0 if step["won"] else sum(flags) / (len(flags) + 1)
        self._latest = out
        self.fed += 1

    def latest(self) -> dict[str, Any]:
        """The measures after the last record fed (before any step: 0.0, and None for the FSM state name)."""
        return dict(self._latest)

#!/usr/bin/env python
"""Play one game on the installed reference engine and print every step's full infos (JSON lines).

Runs with a reference venv's python, not eai-gym's: alfworld 0.4.2 (``setup-alfworld.sh``) or
alfworld 0.3.3 (installed ``--no-deps`` beside textworld 1.7.0; its ``alfworld.agents.environment``
package imports the THOR simulator, so this script loads that package's ``alfred_tw_env`` module
without running the package ``__init__``)::

    <venv>/bin/python -m tools.reference.alfworld_play SPEC.json --kit <kit> --commands-file CMDS.txt \
        [--out OUT.jsonl]

``SPEC.json`` is a game in the kit harness's spec format (``harness/alfworld/ref_alfworld.py`` turns it
into the PDDL problem and the game file). The game is played through ``textworld.gym`` exactly as
alfworld plays it (``register_game`` with ``AlfredDemangler`` and ``AlfredExpert``), twice side by
side: with the planner expert (``policy_commands``) and with the handcoded expert (``facts``; alfworld
0.3.3 requests ``policy_commands`` only for the planner expert and ``facts`` only for the handcoded
one). Per step: command, obs, score, done, won, admissible, planner_plan, handcoded_next, facts
(sorted strings) and ``alfworld`` (the version). Steps sent after the game is done show how
textworld's batch env freezes a finished game.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import tempfile
import types


def _load_tw_env_module():
    """``alfworld.agents.environment.alfred_tw_env`` without the package ``__init__`` (which imports
    THOR in alfworld 0.3.3)."""
    name = "alfworld.agents.environment"
    if name not in sys.modules:
        import alfworld.agents  # noqa: F401 - the parent package (light)
        folder = os.path.join(os.path.dirname(sys.modules["alfworld.agents"].__file__), "environment")
        pkg = types.ModuleType(name)
        pkg.__path__ = [folder]
        sys.modules[name] = pkg
    spec = importlib.util.find_spec(name + ".alfred_tw_env")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _harness(kit: str):
    path = os.path.join(kit, "harness", "alfworld", "ref_alfworld.py")
    _load_tw_env_module()  # so that the harness's own import finds it
    spec = importlib.util.spec_from_file_location("ref_alfworld", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(kit: str, spec: dict, commands: list[str]) -> list[dict]:
    import textworld
    import textworld.gym
    from alfworld.info import __version__
    tw = _load_tw_env_module()
    h = _harness(kit)
    pddl = h.spec_to_pddl(spec)
    traj = {"task_type": spec["task_type"], "pddl_params": spec["pddl_params"]}
    workdir = tempfile.mkdtemp(prefix="alfplay_")
    random.seed(0)  # the task text: alfworld draws one of two templates
    gamefile = h.make_game_dir(pddl, traj, workdir)
    envs = {}
    for kind in (tw.AlfredExpertType.PLANNER, tw.AlfredExpertType.HANDCODED):
        infos = textworld.EnvInfos(won=True, admissible_commands=True, policy_commands=True, facts=True,
                                   extras=["expert_plan"])
        env_id = textworld.gym.register_game(gamefile, infos, max_episode_steps=1000,
                                             wrappers=[tw.AlfredDemangler(), tw.AlfredExpert(expert_type=kind)])
        envs[kind] = textworld.gym.make(env_id)
    planner, handcoded = envs[tw.AlfredExpertType.PLANNER], envs[tw.AlfredExpertType.HANDCODED]
    random.seed(0)  # the handcoded expert's random choices
    (obs, pinfo), (obs_h, hinfo) = planner.reset(), handcoded.reset()
    rows = [_row(0, None, obs, 0, False, pinfo, hinfo, obs_h, __version__)]
    for i, cmd in enumerate(commands):
        obs, score, done, pinfo = planner.step(cmd)
        try:
            obs_h, _, _, hinfo = handcoded.step(cmd)
        except Exception as e:  # the handcoded expert raises on some states (alfworld#128)
            obs_h, hinfo = obs, {"handcoded_error": f"{type(e).__name__}: {e}"}
        rows.append(_row(i + 1, cmd, obs, score, done, pinfo, hinfo, obs_h, __version__))
    return rows


def _row(step, command, obs, score, done, pinfo, hinfo, obs_h, version) -> dict:
    facts = hinfo.get("facts")
    row = {"step": step, "command": command, "obs": obs, "score": score, "done": bool(done), "won": bool(pinfo["won"]),
           "admissible": pinfo["admissible_commands"], "planner_plan": pinfo["policy_commands"],
           "handcoded_next": hinfo.get("extra.expert_plan"),
           "facts": None if facts is None else sorted(str(f) for f in facts), "alfworld": version}
    if "handcoded_error" in hinfo:
        row["handcoded_error"] = hinfo["handcoded_error"]
    elif obs_h != obs or hinfo["admissible_commands"] != pinfo["admissible_commands"]:
        raise RuntimeError(f"step {step}: the planner-expert and handcoded-expert games disagree")
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("--kit", required=True, help="the reference kit (holds harness/alfworld/ref_alfworld.py)")
    ap.add_argument("--commands-file", required=True)
    ap.add_argument("--out")
    a = ap.parse_args()
    with open(a.spec) as f:
        spec = json.load(f)
    with open(a.commands_file) as f:
        commands = [line.rstrip("\n") for line in f if line.strip()]
    text = "\n".join(json.dumps(r) for r in play(a.kit, spec, commands)) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

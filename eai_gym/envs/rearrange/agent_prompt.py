"""What each LLM agent is told when robot and human play a rearrange episode online (``eai-gym evaluate
rearrange --mode episodes``): PARTNR's skill syntax and one worked example — the oracle's scripts for
:data:`EXAMPLE_EPISODE` of the packaged validation set."""

from __future__ import annotations

from functools import lru_cache

EXAMPLE_EPISODE = 0  #: index into the packaged validation episodes
#: both agents play, each with its own model: the PettingZoo env they play in
TEAM_ENV = "eai_gym/rearrange-v0"


def env_kwargs(options: dict | None = None) -> dict:
    return {}


def instructions(options: dict | None = None) -> str:
    from .skills import MOTOR_SKILLS, TOOLS

    agent = (options or {}).get("agent", "agent_0")
    who = "the robot (agent_0)" if agent == "agent_0" else "the human (agent_1)"
    # options["team"] False: the robot alone, in the Gymnasium env (eai_gym.rl's adapters)
    role = ("alone in a house, rearranging its objects" if (options or {}).get("team", True) is False
            else "one of two agents rearranging objects in a house together")
    return (f"You are {who}, {role}. Act with one skill per "
            "reply, in PARTNR's syntax: Name[arg, ...], e.g. Navigate[table_1], Pick[cup_1], "
            "Place[cup_1, on, table_1, None, None] (object, on/within, furniture, spatial constraint or None, "
            "reference object or None), Open[cabinet_2], Wait[], Done[] when you have nothing left to do.\n"
            f"Skills: {', '.join(MOTOR_SKILLS)}; tools: {', '.join(TOOLS)}.\n"
            "Use only the names in the observation. Your skill runs for some ticks; you are asked again when it ends.")


def examples(options: dict | None = None) -> str:
    """The oracle's scripts for the example episode: both agents', or the robot's alone with ``team`` False."""
    return _examples((options or {}).get("team", True) is not False)


@lru_cache(maxsize=2)
def _examples(team: bool = True) -> str:
    from .episode import AGENTS, shipped_episodes
    from .oracle import oracle_scripts

    episode = shipped_episodes("val")[EXAMPLE_EPISODE]
    scripts = oracle_scripts(episode, AGENTS if team else AGENTS[:1])
    lines = [f"Task: {episode.instruction}"]
    for agent, script in scripts.items():
        lines.append(f"{agent}: " + " ; ".join(s for s in script if s != "Wait[]"))
    return "\n".join(lines)

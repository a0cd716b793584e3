"""A two-agent rollout in the rearrange world: the oracle's plan, fed to the PettingZoo env tick by tick."""

import pettingzoo

import eai_gym  # noqa: F401  (registers the envs)
from eai_gym.envs.rearrange.episode import shipped_episodes
from eai_gym.envs.rearrange.oracle import oracle_scripts

episode = next(e for e in shipped_episodes() if e.task_kind == "temporal")
plan = oracle_scripts(episode)  # {"agent_0": [...], "agent_1": [...]}: PARTNR skill texts

env = pettingzoo.make("parallel", "eai_gym/rearrange-v0")
obs, infos = env.reset(seed=0, options={"episode_id": episode.episode_id})
print(obs["agent_1"])
while env.agents:
    actions = {a: "Wait[]" if infos[a]["busy"] else (plan[a].pop(0) if plan[a] else "Done[]") for a in env.agents}
    obs, rewards, terms, truncs, infos = env.step(actions)
    for a in actions:
        if infos[a]["feedback"] and infos[a]["feedback"]["finished"]:
            print(f"tick {infos[a]['tick']:3d} {a}: {infos[a]['feedback']['action']} -> {infos[a]['feedback']['message']}")
print("percent complete", infos["agent_0"]["task_percent_complete"], "success", infos["agent_0"]["task_state_success"])

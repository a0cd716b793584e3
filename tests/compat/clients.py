"""The ALFWorld interaction loops of four clients, rewritten from the calling pattern of their published code
(not copied): what each calls on alfworld's API and how it reads the results. Each takes the env module
(``alfworld.agents.environment`` or eai-gym's stand-in), a config and an ``llm(prompt) -> text``.

- ReAct (ysymyth/ReAct ``alfworld.ipynb``): ``getattr(module, config["env"]["type"])(config, train_eval=split)``,
  ``init_env(batch_size=1)``; per game ``reset()``, strip the welcome paragraph, task name from
  ``extra.gamefile``, prompt picked by task-type prefix; ``step([action])``, ``process_ob``, ``won``/``done``
  of game 0; ``think:`` actions answered with ``OK.``.
- Reflexion (noahshinn/reflexion ``alfworld_runs``): the same env calls, several trials over the games,
  skipping games already solved (they are still reset, to keep the env's game order).
- AgentBench (THUDM/AgentBench ``src/server/tasks/alfworld``): its own ``SingleAlfredTWEnv(config, game_file)``
  subclass of ``AlfredTWEnv`` per game, ``init_env(batch_size=1)``, the reply mapped onto an admissible
  command.
- AgentBoard (hkust-nlp/AgentBoard ``environment/alfworld``): ``env.game_files.sort()`` before ``init_env``,
  the observation split into room text and goal, subgoal regexes per task name for the progress rate,
  ``put`` normalised to ``in/on``, ``look`` answered with the last ``go to``/``open`` observation.
"""

from __future__ import annotations

import re
from typing import Any, Callable

PREFIXES = {"pick_and_place": "put", "pick_clean_then_place": "clean", "pick_heat_then_place": "heat",
            "pick_cool_then_place": "cool", "look_at_obj": "examine", "pick_two_obj": "puttwo"}


def process_ob(ob: str) -> str:
    if ob.startswith("You arrive at loc "):
        ob = ob[ob.find(". ") + 2:]
    return ob


def react(module: Any, config: dict, llm: Callable[[str], str], n_games: int, max_steps: int = 50) -> list[dict]:
    env = getattr(module, config["env"]["type"])(config, train_eval="eval_out_of_distribution")
    env = env.init_env(batch_size=1)
    results = []
    for _ in range(n_games):
        ob, info = env.reset()
        ob = "\n".join(ob[0].split("\n\n")[1:])
        name = "/".join(info["extra.gamefile"][0].split("/")[-3:-1])
        kind = next(v for k, v in PREFIXES.items() if name.startswith(k))
        prompt = f"Interact with a household to solve a task. ({kind})\n{ob}\n>"
        reward, steps = 0, 0
        for steps in range(1, max_steps):
            action = llm(prompt).strip()
            observation, reward, done, info = env.step([action])
            observation, reward, done = process_ob(observation[0]), info["won"][0], done[0]
            if action.startswith("think:"):
                observation = "OK."
            prompt += f" {action}\n{observation}\n>"
            if done:
                break
        results.append({"name": name, "kind": kind, "won": bool(reward), "steps": steps})
    return results


def reflexion(module: Any, config: dict, llm: Callable[[str], str], n_games: int, trials: int = 2) -> list[list[bool]]:
    env = module.AlfredTWEnv(config, train_eval="eval_out_of_distribution")
    env = env.init_env(batch_size=1)
    solved = [False] * n_games
    history = []
    for _trial in range(trials):
        for z in range(n_games):
            ob, info = env.reset()
            if solved[z]:
                continue
            ob = "\n".join(ob[0].split("\n\n")[1:])
            name = "/".join(info["extra.gamefile"][0].split("/")[-3:-1])
            assert any(name.startswith(k) for k in PREFIXES), name
            prompt = ob
            for _ in range(49):
                action = llm(prompt).strip()
                observation, _, done, info = env.step([action])
                observation, done = process_ob(observation[0]), done[0]
                prompt += f"\n> {action}\n{observation}"
                if done:
                    solved[z] = True
                    break
        history.append(list(solved))
    return history


def agentbench(module: Any, config: dict, llm: Callable[[str], str], game_files: list[str],
               max_step: int = 35) -> list[bool]:
    base = module.AlfredTWEnv

    class SingleAlfredTWEnv(base):  # AgentBench defines this subclass itself
        def __init__(self, config, game_files, train_eval="eval_out_of_distribution"):
            self.config = config
            self.train_eval = train_eval
            self.goal_desc_human_anns_prob = self.config["env"]["goal_desc_human_anns_prob"]
            self.get_game_logic()
            self.random_seed = 42
            self.game_files = [game_files]
            self.num_games = 1

    def closest(output: str, admissible: list[str]) -> str:
        output = output.strip().lower().rstrip(".")
        if output in admissible:
            return output
        return max(admissible, key=lambda a: len(set(a.split()) & set(output.split())))

    results = []
    for game_file in game_files:
        env = SingleAlfredTWEnv(config, game_file).init_env(batch_size=1)
        ob, info = env.reset()
        ob = "\n".join(ob[0].split("\n\n")[1:])
        name = "/".join(info["extra.gamefile"][0].split("/")[-3:-1])
        assert info["extra.gamefile"][0] == game_file and any(name.startswith(k) for k in PREFIXES)
        won = False
        for _ in range(max_step):
            action = closest(llm(ob), info["admissible_commands"][0])
            observation, reward, done, info = env.step([action])
            observation, reward, done = process_ob(observation[0]), info["won"][0], done[0]
            if done:
                won = bool(reward)
                break
        env.close()
        results.append(won)
    return results


class AgentBoardAlfWorld:
    """AgentBoard's env wrapper: progress rate from subgoal regexes over observations."""

    def __init__(self, module: Any, config: dict, labels: dict[str, dict], batch_size: int = 1) -> None:
        env = getattr(module, config["env"]["type"])(config, train_eval="eval_out_of_distribution")
        env.game_files.sort()
        self.env = env.init_env(batch_size)
        self.labels = labels

    def reset(self):
        ob, info = self.env.reset()
        self.valid_actions = info["admissible_commands"][0]
        text = "\n".join(ob[0].split("\n\n")[1:])
        self.init_obs, self.goal = text.split("\n")[0], text.split("\n")[1]
        self.env_ob = self.init_obs
        self.cur_task_name = "/".join(info["extra.gamefile"][0].split("/")[-3:-1])
        self.sub_goal = self.labels[self.cur_task_name]["subgoals"]
        self.finished = [0] * (len(self.sub_goal) + 1)
        self.isdone, self.reward = False, 0.0
        return ob, info

    def step(self, action: str):
        info = None
        if action.endswith("."):
            action = action[:-1]
        if action == "look":
            observation, _, done, info = self.env.step([action])
            observation, done = [self.env_ob], done[0]
        elif action == "check valid actions":
            observation, done = [f"Choose an action from these valid actions: {', '.join(self.valid_actions)}"], self.isdone
        else:
            observation, _, done, info = self.env.step([action])
            done = done[0]
        if ("go to" in action or "open" in action) and "Nothing happens" not in observation[0]:
            self.env_ob = observation[0]
        if info:
            self.valid_actions = info["admissible_commands"][0]
        ob = process_ob(observation[0])
        self.isdone = done
        for i, pattern in enumerate(self.sub_goal):
            if re.search(pattern, ob):
                self.finished[i] = 1
        self.reward = 1.0 if self.isdone else sum(self.finished) / len(self.finished)
        return ob, self.reward, done, info


def agentboard(module: Any, config: dict, llm: Callable[[str], str], labels: dict[str, dict], n_games: int,
               max_num_steps: int = 30) -> list[dict]:
    env = AgentBoardAlfWorld(module, config, labels)
    out = []
    for _ in range(n_games):
        ob, info = env.reset()
        name = "/".join(info["extra.gamefile"][0].split("/")[-3:-1])
        assert any(name.startswith(k) for k in PREFIXES)
        progress, done, rewards = 0.0, False, []
        for _i in range(max_num_steps):
            action = llm(env.goal).strip()
            if "put" in action:
                action = action.replace(" in ", " in/on ") if " in " in action else action.replace(" on ", " in/on ")
            if action.endswith("."):
                action = action[:-1].strip()
            _obs, progress, done, _info = env.step(action)
            rewards.append(progress)
            if done:
                break
        out.append({"name": name, "done": done, "progress": progress, "rewards": rewards})
    return out

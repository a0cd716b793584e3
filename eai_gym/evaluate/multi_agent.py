"""Online episodes with two agents (rearrange): robot and human, each its own model and its own history.

Every tick, an agent whose skill has ended (``info["busy"]`` false) is asked for its next skill; a busy
agent waits (``Wait[]``). An agent that has used its ``max_steps`` replies says ``Done[]``. The env runs
with the PettingZoo metric wrappers; the episode's record holds both agents' actions and error counts,
the shared success, PARTNR's percent complete and the propositions over time. The episode is ``finished``
when the env ends it (success, or both agents done of their own accord), ``max_steps`` when it is cut off
(an agent ran out of replies, or the env's own tick limit), ``request_error`` or ``env_error`` (an exception
from the env: the step's error record, as for one agent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .client import ChatRequest, ModelClient
from .episodes import (
    WRAPPER_KEYS,
    Transcript,
    env_error,
    episode_record,
    play_all,
    reply_action,
    step_prompt,
    without_echo,
)
from .limits import MAX_REPLY_CHARS
from .requests import RequestStats, ask
from .rundir import RunDir, clipped


@dataclass
class TeamPlayer:
    """``make_env(task) -> (parallel env with the metric wrappers, reset options)``, and each agent's
    instructions and examples (``instructions(agent)``, ``examples``)."""

    make_env: Callable[[str], tuple[Any, dict | None]]
    instructions: Callable[[str], str]
    examples: str = ""
    seed: int = 0

    def for_agent(self, agent: str) -> Any:
        from .episodes import EpisodePlayer

        return EpisodePlayer(self.make_env, lambda env: [], lambda env, obs, info: obs, self.instructions(agent),
                             self.examples, self.seed)


def play_team_episode(run: RunDir, client: ModelClient | None, player: TeamPlayer, task: str, *,
                      models: dict[str, str], sampling: dict[str, Any], system_prompt: str | None, max_steps: int,
                      admissible: bool, history_limit: int, stats: RequestStats,
                      max_reply_chars: int = MAX_REPLY_CHARS) -> dict[str, Any]:
    env, options = player.make_env(task)
    try:
        obs, infos = env.reset(seed=player.seed, options=options)
        agents = list(env.possible_agents)
        views = {a: player.for_agent(a) for a in agents}
        transcripts = {a: Transcript(task, obs[a], max_reply_chars=max_reply_chars) for a in agents}
        pending: dict[str, str] = {}
        replies = {a: 0 for a in agents}
        actions: dict[str, list[dict[str, Any]]] = {a: [] for a in agents}
        status, error, cut = "finished", None, False
        terms: dict[str, bool] = {}
        while env.agents and status == "finished":
            step: dict[str, str] = {}
            for a in env.agents:
                if infos[a].get("busy"):
                    step[a] = "Wait[]"
                    continue
                if replies[a] >= max_steps:
                    step[a] = "Done[]"
                    cut = True
                    continue
                legal = infos[a].get("legal_actions") if admissible else None
                prompt = step_prompt(views[a], transcripts[a], obs[a], legal, history_limit)
                messages = ([{"role": "system", "content": system_prompt}] if system_prompt else []) + [
                    {"role": "user", "content": prompt}]
                reply = ask(run, client, f"{task}#{a}#{replies[a]}",
                            ChatRequest.of(models[a], messages, **sampling), stats)
                replies[a] += 1
                if not reply.ok:
                    status = "request_error"
                    actions[a].append({"reply": None, "request_error": reply.error})
                    break
                step[a] = reply_action(reply.content or "")
                pending[a] = step[a]
                actions[a].append({"reply": clipped(reply.content, max_reply_chars),
                                   "action": clipped(step[a], max_reply_chars)})
            if status != "finished":
                break
            try:
                obs, rewards, terms, truncs, infos = env.step(step)
                for a, info in infos.items():
                    feedback = info.get("feedback") or {}
                    if a in pending and feedback.get("finished"):
                        rec = info.get("step") or {}
                        message = str(feedback.get("message", ""))
                        action = pending.pop(a)
                        transcripts[a].add(action, message)
                        actions[a][-1].update(ok=rec.get("ok"), error_type=rec.get("error"),
                                              message=clipped(without_echo(message, action, max_reply_chars)))
            except Exception as e:  # noqa: BLE001 - the step's error record; the run goes on
                error, status = env_error("on the agents' actions", e), "env_error"
                for a in pending:
                    actions[a][-1].update(ok=False, error_type="env_error", message=error)
                break
            if not env.agents and not any(terms.values()):
                cut = True  # truncated: the env's own tick limit
        info = infos.get("agent_0") or next(iter(infos.values()), {})  # the metrics are shared
        summaries = {k: v.get("summary", v) for k, v in info.items() if k in WRAPPER_KEYS and isinstance(v, dict)}
        if status == "finished" and cut and not summaries.get("goal_success", {}).get("success"):
            status = "max_steps"
        errors = summaries.get("trajectory_errors", {})
        counts = {k: v for k, v in errors.get("counts", {}).items() if v}  # both agents' (the summary sums them)
        record = episode_record(task, status, [x for xs in actions.values() for x in xs],
                                {**summaries, "trajectory_errors": {"counts": counts}},
                                models=models, **({"error": error} if error else {}))
        record["replies"] = sum(replies.values())
        record["actions"] = actions
        return record
    finally:
        env.close()


def run_team_episodes(run: RunDir, client: ModelClient | None, player: TeamPlayer, tasks: Sequence[str], *,
                      models: dict[str, str], sampling: dict[str, Any], system_prompt: str | None, concurrency: int,
                      max_steps: int, admissible: bool, history_limit: int = 0,
                      max_reply_chars: int = MAX_REPLY_CHARS) -> dict[str, Any]:
    """Play every task with both agents; write ``results.json`` (as :func:`.episodes.run_episodes`)."""
    return play_all(run, tasks, concurrency, lambda task, stats: play_team_episode(
        run, client, player, task, models=models, sampling=sampling, system_prompt=system_prompt,
        max_steps=max_steps, admissible=admissible, history_limit=history_limit, stats=stats,
        max_reply_chars=max_reply_chars), client)

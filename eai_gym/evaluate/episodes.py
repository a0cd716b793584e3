"""Online ``--mode episodes`` of ``eai-gym evaluate``: the model plays tasks through ``step()``.

Each step the model sees one user message: how to act (the world's action syntax, worked examples), the
task (the first observation), the history of its actions with their feedback, the current observation,
and with ``admissible`` the legal actions. Its reply's first non-empty line is the action (a leading
``>``, backticks and quotes are removed). ``think: ...`` lines are thoughts, answered ``OK.`` without
stepping (ReAct's convention); they count towards ``max_steps``. The env runs with the four metric
wrappers, so an illegal action is the env's EAI error record, never a crash.

Episodes run ``concurrency`` at a time, one env each; requests go through the run directory's cache,
so ``--resume`` replays finished steps without asking the model again (the envs are deterministic).

Nothing a model says ends the run: an exception from the env or its metric wrappers while a reply is played
(or while an episode is set up) becomes that step's error record and ends the episode with status
``env_error`` (the env is in an unknown state after it); the other episodes go on. What the history carries
of one reply is clipped (:func:`history_text`, :mod:`.limits`), so a huge reply cannot grow every later prompt.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .client import ChatRequest, FatalRequestError, ModelClient
from .limits import MAX_OBSERVATION_CHARS, MAX_REPLY_CHARS
from .requests import RequestStats, ask, progress_bar
from .rundir import RunDir, clipped
from .workers import run_all

_FENCE = re.compile(r"^`{1,3}\w*|`{1,3}$")
_SURROGATE = re.compile("[\ud800-\udfff]")

#: the last line of every step prompt (a model server can tell an episode's prompt by it)
STEP_PROMPT_END = "Reply with your next action only, on one line."


def history_text(text: str, limit: int) -> str:
    """``text`` as a prompt carries it: at most ``limit`` characters (its start and its end, with a marker for
    what is left out between them), with any lone surrogate (which no request can encode) shown as U+FFFD."""
    if len(text) > limit:
        head = max(1, limit // 2)
        tail = max(0, limit - head)
        shown = (text[:head] + f" ... [{len(text) - head - tail} characters left out] ... "
                 + (text[len(text) - tail:] if tail else ""))
        text = shown if len(shown) < len(text) else text  # (never longer than the text itself)
    return _SURROGATE.sub("\ufffd", text)


def reply_action(text: str) -> str:
    """The action in a model reply: its first non-empty line, without a leading ``>``, fences or quotes."""
    for line in (text or "").splitlines():
        line = _FENCE.sub("", line.strip()).strip()
        if line.startswith(">"):
            line = line[1:].strip()
        if len(line) >= 2 and line[0] == line[-1] and line[0] in "\"'":
            line = line[1:-1].strip()
        if line:
            return line
    return ""


@dataclass
class EpisodePlayer:
    """What the runner needs of a world: an env for a task (``make_env(task) -> (env, reset options)``, the
    env wrapped in the metric wrappers), its legal actions, its feedback text, and how to act."""

    make_env: Callable[[str], tuple[Any, dict | None]]
    legal_actions: Callable[[Any], list[str]]
    feedback: Callable[[Any, str, dict], str]
    instructions: str
    examples: str = ""
    seed: int = 0


def _echo_length(text: str, start: int, action: str) -> int:
    """How many characters of ``action`` ``text`` repeats from ``start`` (compared in growing blocks: time in
    proportion to the length found)."""
    n, block = 0, 256
    while n < len(action):
        a, t = action[n:n + block], text[start + n:start + n + block]
        if a != t:
            return n + len(os.path.commonprefix([a, t]))
        n, block = n + len(a), block * 2
    return n


def without_echo(text: str, action: str, limit: int) -> str:
    """``text`` (an env's feedback) with every copy of a long ``action`` in it (whole, or cut short, as an
    observation of bounded length cuts it) shown as the history shows the action: an env that echoes a huge
    reply back cannot carry it into every later prompt."""
    if len(action) <= limit:
        return text
    probe = action[:max(limit, 32)]
    out, pos = [], 0
    while (i := text.find(probe, pos)) >= 0:
        m = _echo_length(text, i, action)
        out += [text[pos:i], history_text(text[i:i + m], limit)]
        pos = i + m
    return "".join(out) + text[pos:] if out else text


@dataclass
class Transcript:
    """What an agent has seen: the task's first observation and its ``> action`` / feedback lines (each
    action clipped to ``max_reply_chars``, each feedback to :data:`MAX_OBSERVATION_CHARS`, the feedback's
    echo of a long action clipped as the action is)."""

    task: str
    intro: str
    lines: list[str] = field(default_factory=list)
    max_reply_chars: int = MAX_REPLY_CHARS
    last_action: str = ""

    def add(self, action: str, feedback: str) -> None:
        self.last_action = action
        self.lines += [f"> {history_text(action, self.max_reply_chars)}", self.shown(feedback.strip())]

    def shown(self, observation: str) -> str:
        """An observation as a prompt shows it (see the class)."""
        observation = without_echo(observation, self.last_action, self.max_reply_chars)
        return history_text(observation, max(self.max_reply_chars, MAX_OBSERVATION_CHARS))


def step_prompt(player: EpisodePlayer, t: Transcript, observation: str, legal: list[str] | None,
                history_limit: int) -> str:
    parts = [player.instructions.strip()]
    if player.examples:
        parts.append("Examples:\n" + player.examples.strip())
    parts.append("Your task:\n" + t.intro.strip())
    shown = t.lines[-2 * history_limit:] if history_limit > 0 else t.lines
    if shown:
        skipped = (len(t.lines) - len(shown)) // 2
        parts.append("History" + (f" (the last {len(shown) // 2} steps; {skipped} earlier)" if skipped else "")
                     + ":\n" + "\n".join(shown))
    if t.lines:
        parts.append("Current observation:\n" + t.shown(observation.strip()))
    if legal is not None:
        parts.append("Admissible actions:\n" + "\n".join(f"- {a}" for a in legal))
    parts.append(STEP_PROMPT_END)
    return _SURROGATE.sub("\ufffd", "\n\n".join(parts))


def env_error(where: str, exc: BaseException) -> str:
    """The message of an exception the env raised (the step's or the episode's error record)."""
    return f"the env raised {type(exc).__name__} {where}: {clipped(str(exc), 500)}"


WRAPPER_KEYS = ("goal_success", "progress_rate", "trajectory_errors", "proposition_log")


def episode_record(task: str, status: str, actions: list[dict[str, Any]], summaries: dict[str, Any],
                   **extra: Any) -> dict[str, Any]:
    """One episode's record from its actions and the metric wrappers' summaries."""
    goal = summaries.get("goal_success", {})
    progress = summaries.get("progress_rate", {})
    errors = summaries.get("trajectory_errors", {})
    return {"identifier": task, "status": status, "success": bool(goal.get("success", False)),
            "steps": sum("action" in a for a in actions), "replies": len(actions),
            "progress": progress.get("final", progress.get("value")), "progress_max": progress.get("max"),
            "error_counts": errors.get("counts", {}), "propositions": summaries.get("proposition_log", {}),
            **extra, "actions": actions}


def running_summaries(info: dict[str, Any]) -> dict[str, Any]:
    """The wrappers' running values (an episode that did not end: cut off, or stopped by an error)."""
    return {k: {kk: vv for kk, vv in info[k].items() if kk != "summary"}
            for k in WRAPPER_KEYS if isinstance(info.get(k), dict)}


def play_episode(run: RunDir, client: ModelClient | None, player: EpisodePlayer, task: str, *, model: str,
                 sampling: dict[str, Any], system_prompt: str | None, max_steps: int, admissible: bool,
                 history_limit: int, stats: RequestStats, max_reply_chars: int = MAX_REPLY_CHARS) -> dict[str, Any]:
    """Play one task to its end (or ``max_steps`` replies); the episode's record. Status: ``finished`` (the env
    ended the episode), ``max_steps`` (cut off: ``max_steps`` replies, or the env's own step limit),
    ``request_error`` or ``env_error``."""
    env, options = player.make_env(task)
    try:
        obs, info = env.reset(seed=player.seed, options=options)
        t = Transcript(task, obs, max_reply_chars=max_reply_chars)
        actions: list[dict[str, Any]] = []
        status = "max_steps"
        error: str | None = None
        observation = obs
        for n in range(max_steps):
            try:
                legal = player.legal_actions(env) if admissible else None
            except Exception as e:  # noqa: BLE001 - the episode's error record; the run goes on
                error, status = env_error(f"listing the legal actions before reply {n}", e), "env_error"
                break
            prompt = step_prompt(player, t, observation, legal, history_limit)
            messages = ([{"role": "system", "content": system_prompt}] if system_prompt else []) + [
                {"role": "user", "content": prompt}]
            reply = ask(run, client, f"{task}#{n}", ChatRequest.of(model, messages, **sampling), stats)
            if not reply.ok:
                actions.append({"reply": None, "request_error": reply.error})
                status = "request_error"
                break
            content = reply.content or ""
            action = reply_action(content)
            if action.lower().startswith("think:"):
                t.add(action, "OK.")
                actions.append({"reply": clipped(content, max_reply_chars), "thought": clipped(action, max_reply_chars)})
                observation = "OK."
                continue
            try:
                obs, reward, terminated, truncated, info = env.step(action)
                observation = player.feedback(env, obs, info)
                step = info.get("step") or {}
                message = step.get("message")
                record = {"reply": clipped(content, max_reply_chars), "action": clipped(action, max_reply_chars),
                          "ok": step.get("ok"), "error_type": step.get("error"),
                          "message": clipped(without_echo(message, action, max_reply_chars)
                                             if isinstance(message, str) else message), "reward": float(reward)}
            except Exception as e:  # noqa: BLE001 - the step's error record; the run goes on
                error = env_error(f"on the action of reply {n}", e)
                actions.append({"reply": clipped(content, max_reply_chars), "action": clipped(action, max_reply_chars),
                                "ok": False, "error_type": "env_error", "message": error})
                status = "env_error"
                break
            actions.append(record)
            t.add(action, observation)
            if terminated or truncated:
                status = "finished" if terminated else "max_steps"
                break
        ended = status in ("finished", "max_steps") and isinstance(info, dict) and any(
            "summary" in (info.get(k) or {}) for k in WRAPPER_KEYS)
        summaries = ({k: info[k]["summary"] for k in WRAPPER_KEYS if "summary" in (info.get(k) or {})}
                     if ended else running_summaries(info if isinstance(info, dict) else {}))
        return episode_record(task, status, actions, summaries, **({"error": error} if error else {}))
    finally:
        env.close()


def summarize_episodes(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Success rate, mean progress, mean steps and the EAI error counts over the episodes, and how they ended:
    ``finished`` (by the env), ``cut_off`` (by the step limit), ``request_errors``, ``env_errors``."""
    n = len(records)
    counts: dict[str, int] = {}
    for r in records:
        for k, v in sorted(r["error_counts"].items()):
            counts[k] = counts.get(k, 0) + v
    progress = [r["progress"] for r in records if isinstance(r["progress"], (int, float))]
    return {"episodes": n, "success_rate": sum(r["success"] for r in records) / n if n else 0.0,
            "progress_rate": sum(progress) / len(progress) if progress else None,
            "mean_steps": sum(r["steps"] for r in records) / n if n else 0.0,
            "finished": sum(r["status"] == "finished" for r in records),
            "cut_off": sum(r["status"] == "max_steps" for r in records),
            "request_errors": sum(r["status"] == "request_error" for r in records),
            "env_errors": sum(r["status"] == "env_error" for r in records),
            "error_counts": dict(sorted(counts.items()))}


def failed_episode(task: str, exc: BaseException) -> dict[str, Any]:
    """The record of an episode that could not be played at all (its env could not be made or reset)."""
    message = env_error("setting the episode up", exc)
    return episode_record(task, "env_error", [], {}, error=message)


def play_all(run: RunDir, tasks: Sequence[str], concurrency: int,
             play: Callable[[str, RequestStats], dict[str, Any]], client: ModelClient | None = None) -> dict[str, Any]:
    """``play(task, stats)`` for every task, ``concurrency`` at a time; write ``results.json`` (summary, one
    record per episode in task order, token totals). An exception from an episode (other than the endpoint
    refusing) becomes that episode's ``env_error`` record."""
    from .offline import token_totals

    stats = RequestStats()
    bar = progress_bar(len(tasks), "episodes")
    stats.watch(bar, client)

    def one(i: int) -> dict[str, Any]:
        try:
            record = play(tasks[i], stats)
        except FatalRequestError:
            raise
        except Exception as e:  # noqa: BLE001 - this episode's error record; the others go on
            record = failed_episode(tasks[i], e)
        bar.update(1)
        return record

    try:
        done = run_all(one, len(tasks), concurrency, on_stop=None if client is None else client.cancel)
    finally:
        bar.close()
    result = {"summary": summarize_episodes(done), "n_items": len(done), "tokens": token_totals(stats), "tasks": done}
    run.write("results.json", result)
    return result


def run_episodes(run: RunDir, client: ModelClient | None, player: EpisodePlayer, tasks: Sequence[str], *, model: str,
                 sampling: dict[str, Any], system_prompt: str | None, concurrency: int, max_steps: int,
                 admissible: bool, history_limit: int = 0, max_reply_chars: int = MAX_REPLY_CHARS) -> dict[str, Any]:
    """Play every task; write ``results.json`` (summary, one record per episode in task order, tokens)."""
    return play_all(run, tasks, concurrency, lambda task, stats: play_episode(
        run, client, player, task, model=model, sampling=sampling, system_prompt=system_prompt, max_steps=max_steps,
        admissible=admissible, history_limit=history_limit, stats=stats, max_reply_chars=max_reply_chars), client)

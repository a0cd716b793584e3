"""Offline modes of ``eai-gym evaluate``: prompts -> model -> replies -> the mode's scorer -> results.

The replies become items in the reference's LLM-output format (``{"identifier", "llm_output"}``) and are
scored by the same code as ``eai-gym score`` on a file of them, so the ``summary`` is the one that
command prints for ``DIR/replies.json``.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .client import ChatRequest, ModelClient
from .requests import RequestStats, ask_all
from .rundir import RunDir


def messages_for(prompt: str, system_prompt: str | None) -> list[dict[str, str]]:
    return ([{"role": "system", "content": system_prompt}] if system_prompt else []) + [
        {"role": "user", "content": prompt}]


def token_totals(stats: RequestStats) -> dict[str, int]:
    return {"prompt_tokens": stats.prompt_tokens, "completion_tokens": stats.completion_tokens,
            "total_tokens": stats.prompt_tokens + stats.completion_tokens}


class ScoringError(Exception):
    """The mode's scorer failed on the run's replies as a whole (the replies are kept in ``replies.json``)."""


def score_isolated(score: Callable[[list[dict[str, Any]]], dict[str, Any]],
                   items: list[dict[str, Any]]) -> dict[str, Any]:
    """``score(items)``; if the scorer raises, each item is scored alone to find the replies it cannot take,
    those are scored as an empty (unreadable) reply, and their records say so in ``scoring_error``: one
    reply never loses the run. Raises :class:`ScoringError` if the scorer fails even then."""
    try:
        return score(items)
    except Exception as whole:  # noqa: BLE001 - find the items the scorer cannot take
        first = whole
    errors: dict[int, str] = {}
    for i, item in enumerate(items):
        try:
            score([item])
        except Exception as e:  # noqa: BLE001
            errors[i] = f"the scorer raised {type(e).__name__} on this reply ({str(e)[:200]}); scored as an empty reply"
    safe = [{**it, "llm_output": ""} if i in errors else it for i, it in enumerate(items)]
    try:
        scored = score(safe)
    except Exception as e:  # noqa: BLE001
        raise ScoringError(f"the scorer failed: {type(first).__name__}: {str(first)[:300]}"
                           + (f" (and again without the replies it cannot take: {type(e).__name__})"
                              if errors else "")) from None
    for i, message in errors.items():
        if i < len(scored["tasks"]) and isinstance(scored["tasks"][i], dict):
            scored["tasks"][i]["scoring_error"] = message
    return scored


def run_offline(run: RunDir, client: ModelClient | None, prompts: Sequence[dict[str, str]], *, model: str,
                sampling: dict[str, Any], system_prompt: str | None, concurrency: int,
                score: Callable[[list[dict[str, Any]]], dict[str, Any]],
                reply_to_output: Callable[[str], Any] = lambda text: text) -> dict[str, Any]:
    """Ask the model every prompt, score its replies, write ``replies.json`` and ``results.json``.

    ``score(items)`` returns at least ``summary`` and ``tasks`` (one record per item, in order), as the
    mode's scorer does for ``eai-gym score``. A request that failed after its retries is scored as an
    empty output, and its record says so in ``request_error``; ``--resume`` asks for it again.
    """
    requests = [(p["identifier"], ChatRequest.of(model, messages_for(p["llm_prompt"], system_prompt), **sampling))
                for p in prompts]
    stats = RequestStats()
    replies = ask_all(run, client, requests, concurrency, stats)
    items = [{"identifier": p["identifier"], "llm_output": reply_to_output(r.content or "")}
             for p, r in zip(prompts, replies)]
    run.write("replies.json", items)
    scored = score_isolated(score, items)
    tasks = scored["tasks"]
    for record, reply in zip(tasks, replies):
        if not reply.ok:
            record["request_error"] = reply.error
    failed = [p["identifier"] for p, r in zip(prompts, replies) if not r.ok]
    result = {**{k: v for k, v in scored.items() if k != "tasks"},
              "n_items": len(items), "n_request_errors": len(failed), "tokens": token_totals(stats),
              "tasks": tasks}
    run.write("results.json", result)
    return result

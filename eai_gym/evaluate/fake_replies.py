"""What ``eai-gym fake-llm`` answers: replies in each world's format, read from the registry.

* The prompt of an EAI mode (any world, mode and protocol in :mod:`eai_gym.registry` with prompts and a
  gold output), sent as ``eai-gym prompts`` / ``eai-gym evaluate`` make it: the gold output of that prompt's
  task, so a run against the fake scores what ``eai-gym score --gold`` scores. A prompt made with other
  options: the gold output of the known prompt that shares the longest beginning with it (a well-formed
  output of the same mode).
* The step prompt of ``--mode episodes``: one of the admissible actions it lists (chosen by the prompt's
  sha256, so the same prompt gets the same action), or, without that list, one of the actions of its
  worked examples (the world's own syntax).
* Anything else: a short fixed text.

The table of prompts (every world's, mode's and protocol's) is built once, in the background from
:meth:`WorldReplies.warm` or on the first request (its cost: docs/benchmarks.md, "Figures behind the code's choices").
"""

from __future__ import annotations

import bisect
import hashlib
import json
import threading
from typing import Any

from .episodes import STEP_PROMPT_END

#: a prompt shares at least this many first characters with a known one to get that one's gold output
MIN_SHARED_PREFIX = 40
#: the reply to a prompt the fake does not know
UNKNOWN_REPLY = "I do not know."


def _choose(prompt: str, options: list[str]) -> str:
    digest = hashlib.sha256(prompt.encode("utf-8", "surrogatepass")).digest()
    return options[int.from_bytes(digest[:8], "big") % len(options)]


def _section(prompt: str, title: str) -> str | None:
    """The text of the prompt's section that starts with the line ``title`` (sections are separated by a
    blank line), or None."""
    head = f"\n\n{title}\n"
    start = prompt.rfind(head)
    if start < 0:
        return None
    body = prompt[start + len(head):]
    end = body.find("\n\n")
    return body if end < 0 else body[:end]


def episode_action(prompt: str) -> str:
    """An action for an episode's step prompt: a listed admissible action, else one of its examples' actions."""
    listed = _section(prompt, "Admissible actions:")
    if listed is not None:
        actions = [line[2:].strip() for line in listed.splitlines() if line.startswith("- ") and line[2:].strip()]
        if actions:
            return _choose(prompt, actions)
    examples = _section(prompt, "Examples:") or ""
    actions = []
    for line in examples.splitlines():
        if line.startswith("> "):
            actions.append(line[2:].strip())
        elif ": " in line and " ; " in line:  # one agent's script: "agent_0: Pick[x] ; Navigate[y]"
            actions += [a.strip() for a in line.split(": ", 1)[1].split(" ; ")]
    actions = [a for a in actions if a and not a.lower().startswith("think:")]
    return _choose(prompt, actions) if actions else "look"


def _gold_by_prompt_id(gold: dict[str, str], identifier: str) -> str | None:
    """The gold output of a prompt's identifier: the same id, or its last parts (``scene_1_27_2`` -> ``27_2``)."""
    parts = identifier.split("_")
    for k in range(len(parts)):
        hit = gold.get("_".join(parts[k:]))
        if hit is not None:
            return hit
    return None


def prompt_table() -> tuple[list[str], list[str]]:
    """Every known EAI prompt (sorted) and the gold output of each: every world, mode with prompts and gold,
    and protocol, with the mode's default options."""
    from .. import registry

    table: dict[str, str] = {}
    for world in registry.worlds():
        for mode in world.modes:
            if not mode.prompts or not mode.gold:
                continue
            options = {o.name: o.default for o in mode.options}
            gold = {}
            for item in mode.gold_items(options):
                output = item.get("llm_output")
                gold[str(item.get("identifier"))] = output if isinstance(output, str) else json.dumps(output)
            for protocol in mode.protocols:
                for p in mode.prompt_items(protocol, options):
                    answer = _gold_by_prompt_id(gold, str(p["identifier"]))
                    if answer is not None:
                        table.setdefault(p["llm_prompt"], answer)
    prompts = sorted(table)
    return prompts, [table[p] for p in prompts]


def _shared_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class WorldReplies:
    """``answer(messages) -> str`` for :class:`.fake_server.FakeChatServer`, as described above."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._table: tuple[list[str], list[str]] | None = None

    def warm(self) -> None:
        """Build the prompt table now, in a background thread (the first request waits for it if needed)."""
        threading.Thread(target=self._loaded, name="fake-llm-prompts", daemon=True).start()

    def _loaded(self) -> tuple[list[str], list[str]]:
        with self._lock:
            if self._table is None:
                self._table = prompt_table()
            return self._table

    def offline_answer(self, prompt: str) -> str:
        prompts, answers = self._loaded()
        i = bisect.bisect_left(prompts, prompt)
        if i < len(prompts) and prompts[i] == prompt:
            return answers[i]
        best, best_len = None, MIN_SHARED_PREFIX - 1
        for j in (i - 1, i):
            if 0 <= j < len(prompts):
                shared = _shared_prefix(prompts[j], prompt)
                if shared > best_len:
                    best, best_len = j, shared
        return UNKNOWN_REPLY if best is None else answers[best]

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        prompt = users[-1].get("content") if users else None
        if isinstance(prompt, list):  # content parts: [{"type": "text", "text": ...}, ...]
            prompt = "".join(str(p.get("text", "")) for p in prompt if isinstance(p, dict))
        if not isinstance(prompt, str):
            return UNKNOWN_REPLY
        if prompt.rstrip().endswith(STEP_PROMPT_END):
            return episode_action(prompt)
        return self.offline_answer(prompt)

"""Fixtures for ``eai-gym evaluate``: the fake OpenAI-compatible server and a scorer over real tasks."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("openai")
pytest.importorskip("tenacity")

from eai_gym.evaluate.fake_server import FakeChatServer  # noqa: E402

TASK = re.compile(r"task (\w+)")


def gold_answer(messages: list[dict]) -> str:
    """The VirtualHome gold plan of the task named in the prompt ('... task 27_2 ...')."""
    from eai_gym.envs.virtualhome.tasks import gold_plan_json

    m = TASK.search(messages[-1]["content"])
    return gold_plan_json(m.group(1)) if m else "{}"


def vh_prompts(n: int) -> list[dict]:
    from eai_gym.envs.virtualhome.tasks import task_ids

    return [{"identifier": t, "llm_prompt": f"Write the plan for task {t}."} for t in list(task_ids())[:n]]


def score_vh(items: list[dict]) -> dict:
    """What ``eai-gym score virtualhome`` computes for these items (serially)."""
    from eai_gym import registry
    from eai_gym.scoring.score import score

    mode = registry.mode("virtualhome", "action_sequencing")
    return score(mode, "fixed", {o.name: o.default for o in mode.options}, items=items, paths=["replies.json"])[0]


@pytest.fixture
def fake_server():
    servers = []

    def start(**kw) -> FakeChatServer:
        kw.setdefault("answer", gold_answer)
        s = FakeChatServer(**kw).start()
        servers.append(s)
        return s
    yield start
    for s in servers:
        s.stop()


def read_json(path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)

"""Any action text is an action: every registered env (the Gymnasium ids and the PettingZoo ones) turns any text
into its step record (a parsing, hallucination or arguments error for text that names no action), never an
exception: 100,000 nested brackets, a 5,000-digit object id, lone surrogates, NUL bytes, a megabyte of text.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym import registry
from eai_gym.core import ErrorType
from eai_gym.registration import register_envs

sys.path.insert(0, str(Path(__file__).parents[1] / "scoring"))
from hostile_items import DEPTH, DIGITS, hostile_texts  # noqa: E402

register_envs()
ENVS = [e for w in registry.worlds() for e in w.envs]
IDS = [f"{e.id}-{e.kind}" for e in ENVS]
ERRORS = {e.value for e in ErrorType}
#: texts that name no action of any world, and what each world's syntax makes of deep nesting and long numbers
BAD_TEXTS = [(name, text) for name, text in hostile_texts() if name != "megabyte_words"] + [
    ("json_item_deep", '{"WALK": ' + "[" * DEPTH + "]" * DEPTH + "}"),
    ("json_action_deep", '{"action": ' * 1000 + '"OPEN"' + "}" * 1000),
    ("call_deep", "OPEN(" + "(" * DEPTH + ")"),
    ("script_id_digits", "[WALK] <kitchen> (" + "9" * DIGITS + ")"),
    ("json_id_digits", '{"WALK": ["kitchen", "' + "9" * DIGITS + '"]}'),
    ("json_number_digits", '{"WALK": ["kitchen", ' + "9" * DIGITS + "]}"),
    ("superscript_id", "[WALK] <kitchen> (\u00b2)"),
    ("skill_deep", "Navigate[" + "[" * DEPTH + "]"),
    ("skill_digits", "Rearrange[cup_1, on, table_2, " + "9" * DIGITS + ", None]"),
    ("command_digits", "go to fridge " + "9" * DIGITS),
    ("call_megabyte", "OPEN(" + "x" * 1_000_000 + ")"),
]


@lru_cache(maxsize=None)
def make(index: int):
    spec = ENVS[index]
    if spec.kind == "gymnasium":
        return gym.make(spec.id).unwrapped
    return registry.load(spec.entry_point)()


def step_records(index: int, text: str) -> list[dict]:
    """The step records (``info["step"]``) of ``text`` sent as the action (by every agent of a multi-agent env)."""
    spec, env = ENVS[index], make(index)
    env.reset(seed=0)
    if spec.kind == "gymnasium":
        return [env.step(text)[4]["step"]]
    if spec.kind == "parallel":
        infos = env.step({agent: text for agent in env.agents})[4]
        return [infos[agent]["step"] for agent in infos]
    records = []
    for _ in range(len(env.agents)):
        agent = env.agent_selection
        env.step(text)
        records.append(env.infos.get(agent, {}).get("step", {}))
    return records


def check(record: dict) -> None:
    assert isinstance(record, dict)
    if record:
        assert isinstance(record["ok"], bool)
        assert record["error"] is None or record["error"] in ERRORS, record["error"]


@pytest.mark.parametrize("name,text", BAD_TEXTS, ids=[n for n, _ in BAD_TEXTS])
@pytest.mark.parametrize("index", range(len(ENVS)), ids=IDS)
def test_text_that_names_no_action_is_an_error_record(index, name, text):
    records = step_records(index, text)
    for record in records:
        check(record)
    if ENVS[index].kind == "gymnasium":
        record, = records
        assert not record["ok"] and record["error"] in ("parsing", "hallucination", "arguments"), record


FRAGMENTS = st.sampled_from(["[", "]", "{", "}", "(", ")", "<", ">", '"', "'", ",", ":", ".", " ", "\n", "\\",
                             "WALK", "OPEN", "GRASP", "go to", "fridge 1", "Navigate", "action", "object",
                             "9" * 40, "-1", "1e999", "\x00", "\ud800", "\u00b2", "null", "None"])
#: pieces of action syntax, any text and lone surrogates put together; or one of the texts above
TEXT = st.lists(FRAGMENTS | st.text(max_size=8) | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
                max_size=40).map("".join) | st.sampled_from([text for _, text in BAD_TEXTS])


@pytest.mark.parametrize("index", range(len(ENVS)), ids=IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=TEXT)
def test_any_text_gives_a_step_record(index, text):
    for record in step_records(index, text):
        check(record)

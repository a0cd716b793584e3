"""The reproductions of one bad item losing a run, each now one record, through the command: identifiers that
are lists or objects, brackets nested a thousand deep, object ids of thousands of digits, long and many ALFWorld
commands (in time linear in them: each game state is worked out once), and what the readers make of files and
cases that hold what Python's JSON reader cannot."""

from __future__ import annotations

import json

import pytest
from hostile_items import valid_items

from eai_gym.cli import main
from eai_gym.core import ActionError, ErrorType
from eai_gym.envs.alfworld import engine as alfworld_engine
from eai_gym.envs.virtualhome.actions import MAX_ID_DIGITS, object_id, parse_script_line
from eai_gym.scoring.alfworld.commands import score_item as alfworld_item
from eai_gym.scoring.io import UnreadableItem, load_json_text
from eai_gym.scoring.rearrange.facts import evaluate_case


def run(tmp_path, world: str, mode: str, items: list) -> list[dict]:
    plans, out = tmp_path / "plans.json", tmp_path / "out.json"
    plans.write_text(json.dumps(items))
    assert main(["score", world, str(plans), "--mode", mode, "--out", str(out)]) == 0
    records = json.loads(out.read_text())["tasks"]
    assert len(records) == len(items)
    return records


@pytest.mark.parametrize("world", ["behavior", "behavior1k"])
def test_an_identifier_that_is_a_list_or_an_object_is_its_items_error(tmp_path, world):
    gold = valid_items(world, "action_sequencing")[0]
    records = run(tmp_path, world, "action_sequencing", [dict(gold, identifier=[gold["identifier"]]),
                                                          dict(gold, identifier={"a": gold["identifier"]}), gold])
    assert [r["status"] for r in records] == ["invalid_input", "invalid_input", "evaluated"]
    assert records[0]["message"] == "the identifier must be a string, got list"
    assert records[0]["identifier"] is None


@pytest.mark.parametrize("world,mode", [("behavior", "action_sequencing"), ("behavior1k", "action_sequencing"),
                                        ("behavior", "similarity"), ("behavior1k", "similarity")])
@pytest.mark.parametrize("text", ["[" * 1000, "[" * 1000 + "]" * 1000, '[{"action": ' * 1000])
def test_a_thousand_nested_brackets_are_an_unreadable_plan(tmp_path, world, mode, text):
    gold, other = valid_items(world, mode)[:2]
    records = run(tmp_path, world, mode, [dict(gold, llm_output=text), other])
    assert records[1]["status"] == "evaluated"
    if mode == "similarity":
        assert records[0]["status"] == "invalid_input" or records[0]["lcs"] == 0
    else:
        assert records[0]["status"] == "evaluated" and records[0]["error_type"] == "parsing"


@pytest.mark.parametrize("digits", [MAX_ID_DIGITS + 1, 4301, 5000])
def test_an_object_id_of_thousands_of_digits_names_no_object(tmp_path, digits):
    gold, other = valid_items("virtualhome", "action_sequencing")[:2]
    output = json.dumps({"WALK": ["kitchen", "9" * digits]})
    records = run(tmp_path, "virtualhome", "action_sequencing", [dict(gold, llm_output=output), other])
    assert records[0]["status"] == "evaluated" and records[0]["error_type"] == "hallucination error"
    assert object_id("9" * digits) is None
    with pytest.raises(ActionError) as e:
        parse_script_line(f"[WALK] <kitchen> ({'9' * digits})")
    assert e.value.error is ErrorType.HALLUCINATION


@pytest.mark.parametrize("digits", ["417", "0417", "\u00b2", "-1", "1.5", "", "\u0661\u0662"])
def test_object_ids_are_short_decimal_numbers(digits):
    expected = {"417": 417, "0417": 417, "\u0661\u0662": 12}.get(digits)
    assert object_id(digits) == expected


def test_alfworld_commands_cost_one_state_each(monkeypatch):
    """A state's commands, admissible list and plan are worked out once: 100,000 commands that change nothing
    cost 100,000 dictionary lookups, not 100,000 plans (nor pairwise comparisons: see the metrics' tests)."""
    calls = {"commands": 0}
    real = alfworld_engine.Engine.commands

    def counted(self, state):
        calls["commands"] += 1
        return real(self, state)
    monkeypatch.setattr(alfworld_engine.Engine, "commands", counted)
    few = alfworld_item({"game": 0, "commands": ["look", "inventory", "x" * 200_000]})
    for_few = calls["commands"]
    rec = alfworld_item({"game": 0, "commands": ["look", "inventory", "x" * 200_000] * 33_334})
    assert rec["status"] == "evaluated" and rec["steps"] == 100_002
    assert calls["commands"] - for_few == for_few  # (the oracle's plan search from the one state, and its list)
    assert rec["repetition_rate"] == (100_002 - 3) / 100_001
    assert few["agentquest_progress_final"] == rec["agentquest_progress_final"]


GAMES = {"digits": lambda: 10 ** 5000, "surrogate": lambda: "\ud800", "nul": lambda: "a\x00b",
         "nested": lambda: [[[]]], "bool_index": lambda: {"split": "eval", "index": True},
         "wide_index": lambda: {"split": "eval", "index": 10 ** 30}, "missing_folder": lambda: "/nonexistent/game"}


@pytest.mark.parametrize("game", GAMES)
def test_an_alfworld_game_that_names_nothing_is_its_items_error(game):
    rec = alfworld_item({"game": GAMES[game](), "commands": ["look"]})
    assert rec["status"] == "invalid_input" and rec["message"]
    json.dumps(rec)


def test_a_file_nested_too_deep_or_holding_long_numbers_is_read_item_by_item():
    deep = "[" * 100_000 + "]" * 100_000
    data = load_json_text(f'[{{"identifier": "a", "llm_output": "x"}}, {deep}, {{"n": {"9" * 5000}}}]')
    assert data[0] == {"identifier": "a", "llm_output": "x"}
    assert isinstance(data[1], UnreadableItem) and "nested too deep" in data[1].reason
    assert data[2] == {"n": float("inf")}
    assert load_json_text('{"a": "x", "b": ' + deep + "}")["a"] == "x"
    for broken in ("[" * 100_000, "[" + deep + " x]", "[" + deep + "] [1]"):
        with pytest.raises(ValueError):
            load_json_text(broken)


def test_a_file_item_nested_too_deep_is_its_error_in_every_mode(tmp_path):
    gold = valid_items("virtualhome", "action_sequencing")[0]
    plans, out = tmp_path / "plans.json", tmp_path / "out.json"
    plans.write_text("[" + json.dumps(gold) + ", " + "[" * 100_000 + "]" * 100_000 + "]")
    assert main(["score", "virtualhome", str(plans), "--out", str(out)]) == 0
    records = json.loads(out.read_text())["tasks"]
    assert [r["status"] for r in records] == ["evaluated", "invalid_input"]
    assert records[1]["message"].startswith("item 1 cannot be scored: ValueError: value 1 of the file is nested")


@pytest.mark.parametrize("protocol", ["fixed", "partnr"])
def test_a_proposition_number_too_large_to_unroll_is_the_cases_error(protocol):
    case = json.loads(json.dumps(valid_items("rearrange", "facts")[0]))
    prop = next(p for p in case["propositions"] if "object_handles" in p.get("args", {}))
    prop["args"]["number"] = 10 ** 5000
    record = evaluate_case(case, protocol)
    assert record["status"] == "invalid_input" and "more than 1000" in record["error"]
    json.dumps(record)

"""The direct reader of plain formulas (eai_gym/logic/tl_reader.py) gives what lark gives: on every packaged
goal, on the recorded reference subgoal inputs of both worlds, and on random formulas and token soups --
same formula, or the same error (message and kind) when the text is not a formula."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.envs.behavior.subgoals import STATE_PARAMS, VOCAB_ACTIONS
from eai_gym.envs.behavior.tasks import task_ids as behavior_task_ids
from eai_gym.envs.behavior.tasks import task_record as behavior_record
from eai_gym.envs.virtualhome.subgoals import vocabulary
from eai_gym.envs.virtualhome.tasks import task_ids, task_record
from eai_gym.logic import tl
from eai_gym.logic.tl_reader import plain_error, read_plain
from eai_gym.scoring.behavior.subgoal_decomposition import read_subgoals as behavior_subgoals
from eai_gym.scoring.virtualhome.subgoal_decomposition import gold_subgoals, read_subgoals

DATA = Path(__file__).resolve().parents[1] / "reference" / "data"


def outcome(parse, text: str, preds, acts):
    try:
        return parse(text, preds, acts)
    except tl.TLError as e:
        return ("error", str(e), e.unknown_primitive)
    except RecursionError:
        return ("recursion",)


def same(text: str, preds, acts) -> None:
    lark = outcome(tl.parse_with_lark, text, preds, acts)
    if lark == ("recursion",):  # too deep for lark: parse refuses it before lark runs (tests/logic/test_tl_bounds.py)
        assert outcome(tl.parse, text, preds, acts)[:1] == ("error",), text
        return
    assert outcome(tl.parse, text, preds, acts) == lark, text


def vh_texts() -> list[str]:
    texts = [task_record(t)["tl_goal"] for t in task_ids() if task_record(t)["tl_goal"]]
    for name in ("subgoal_perturbed_inputs", "subgoal_goal_and_split_inputs", "subgoal_goal_then_split_inputs"):
        for item in json.loads((DATA / "virtualhome" / f"{name}.json").read_text()):
            for rng in (None, random.Random(0)):
                try:
                    texts.append(" then ".join(read_subgoals(item["llm_output"], rng)))
                except Exception:  # noqa: BLE001 - unreadable outputs never reach the parser
                    pass
    return texts


def test_virtualhome_goals_and_reference_inputs() -> None:
    v = vocabulary()
    preds, acts = v["tl_predicates"], list(v["subgoal_actions"])
    texts = vh_texts()
    assert len(texts) > 338
    direct = sum(read_plain(t) is not None for t in texts)
    assert direct > 0.85 * len(texts)
    for text in texts:
        same(text, preds, acts)


def test_behavior_reference_inputs() -> None:
    names = sorted(p.name for p in (DATA / "behavior").glob("subgoal_*.json"))
    assert names
    preds = list(STATE_PARAMS) + ["apple.n.01", "table.n.02", "agent.n.01"]
    texts: dict[str, None] = {}  # each distinct text once (the recorded inputs repeat many), in file order
    for name in names:
        items = json.loads((DATA / "behavior" / name).read_text())
        for item in items.get("inputs", []) if isinstance(items, dict) else items:
            if not isinstance(item, dict) or "llm_output" not in item:
                continue
            task = item.get("identifier")
            activity = behavior_record(task)["task"] if task in behavior_task_ids() else ""
            try:
                texts[" then ".join(behavior_subgoals(item["llm_output"], activity, None))] = None
            except Exception:  # noqa: BLE001
                continue
    assert len(texts) > 100
    for text in texts:
        same(text, preds, VOCAB_ACTIONS)


@pytest.mark.parametrize("text", [
    "ON(a.1) and OFF(b.2)", "notON(a.1)", "ON(a.1) andOFF(b.2)", "ON(a.1)then OFF(b.2)", "not(a.1)",
    "forall x. (ON(x))", "forallx. (ON(x))", "forn 2. x. (ON(x))", "exists x.(ON(x) or OFF(x))", "ON(a.1,)",
    "ON(a.1) \u000b and OFF(b.2)", "ON(caf\u00e9.1)", "((ON(a.1)))", "ON()", "and(x)", "ON(and, or)", "",
    "ON(a.1) then", "FLY(a.1)", "(ON(a.1) then OFF(b.2)) and ON(c.3)", "ON(a.1.2)", "ON(a.1) order(b.2)",
    "(" * 400 + "ON(a.1)" + ")" * 400, "(" * 32 + "ON(a.1)" + ")" * 32, "(" * 33 + "ON(a.1)" + ")" * 33,
    "not " * 40 + "ON(a.1)", "not not ON(a.1)", "ON(nothing.1) and not OFF(orange.2)",
])
def test_edge_cases(text: str) -> None:
    same(text, ["ON", "OFF", "and"], ["TYPE"])


NAMES = ["ON", "OFF", "TYPE", "notON", "orX", "and", "or", "then", "not", "x", "a.1", "b.22", "nothing.3",
         "forall", "exists", "forn", "FLY"]
TOKENS = NAMES + ["(", ")", ",", ".", "2", " ", "  ", "\n", "\t"]


@st.composite
def formulas(draw, depth: int = 0) -> str:
    ws = draw(st.sampled_from(["", " ", "  ", "\n"]))
    kind = draw(st.sampled_from(["call", "call", "not", "paren", "bin", "quant"] if depth < 3 else ["call"]))
    if kind == "call":
        args = draw(st.lists(st.sampled_from(NAMES), max_size=3))
        return f"{draw(st.sampled_from(NAMES))}{ws}({(',' + ws).join(args)})"
    if kind == "not":
        return f"not {draw(formulas(depth + 1))}"
    if kind == "paren":
        return f"({ws}{draw(formulas(depth + 1))}{ws})"
    if kind == "bin":
        op = draw(st.sampled_from(["and", "or", "then"]))
        return f"{draw(formulas(depth + 1))} {op}{ws} {draw(formulas(depth + 1))}"
    q = draw(st.sampled_from(["forall x.", "exists y.", "forn 2. z.", "forn 3.z."]))
    return f"{q}{ws}({draw(formulas(depth + 1))})"


@settings(max_examples=400, deadline=None)
@given(formulas())
def test_random_formulas(text: str) -> None:
    same(text, ["ON", "OFF", "and", "x"], ["TYPE"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=14).map("".join))
def test_random_token_soup(text: str) -> None:
    same(text, ["ON", "OFF"], ["TYPE", "not"])


def test_the_gold_subgoal_plans_syntax_errors_are_read_directly_with_lark_s_messages() -> None:
    """The --gold subgoal plans: the malformed ones (a goal split at ``then`` inside a quantifier, an entry cut at
    `` or ``) are an extra ``)`` or an unclosed group after a plain formula, and get lark's message without lark."""
    v = vocabulary()
    preds, acts = v["tl_predicates"], list(v["subgoal_actions"])
    outputs = [json.dumps({"output": g}) for t in task_ids() for g in [gold_subgoals(t)] if g is not None]
    rng = random.Random(0)  # under eai-1.0.5 an entry with " or " is replaced by one of its parts
    plans = [" then ".join(read_subgoals(o, r)) for o in outputs for r in (None, rng, rng)]
    malformed = [p for p in plans if read_plain(p) is None]
    assert len(malformed) >= 20
    for text in malformed:
        assert plain_error(text) is not None, text
        same(text, preds, acts)
    kinds = {plain_error(t).split(" ", 1)[0] for t in malformed}
    assert kinds == {"No", "Unexpected"}  # both kinds occur


@pytest.mark.parametrize("text", [
    "(ON(a.1)", "((ON(a.1)", "exists x. (ON(x)", "not (ON(a.1)", "(ON(a.1) and OFF(b.2)", "ON(a.1) then (OFF(b.2)",
    "forn 2. x. (ON(x) or OFF(x)", "(ON(a.1) \n ", "ON(a.1))", "ON(a.1) )", "ON(a.1)\n  )) FLY", "\tON(a.1)\t)",
    " " * 50 + "ON(a.1)))" + "x" * 60, "(ON(a.1)) and OFF(b.2))\u00e9", "ON(a.1) and\n(OFF(b.2)))", "ON(a.1)\n\n)",
    "(ON(a.1)\u00e9", "ON(a.1", "(ON(a.1),", "(notON(a.1)", "FLY(a.1))", "(FLY(a.1)", "ON(a.1) then)",
])
def test_extra_and_missing_closing_parentheses(text: str) -> None:
    same(text, ["ON", "OFF"], ["TYPE"])


@settings(max_examples=600, deadline=None)
@given(formulas(), st.data())
def test_random_formulas_with_a_parenthesis_added_or_cut(text: str, data) -> None:
    """An extra ``)`` anywhere, or the text cut anywhere (often inside a group): lark's error, or its formula."""
    at = data.draw(st.integers(0, len(text)))
    edit = data.draw(st.sampled_from(["add", "cut", "both"]))
    if edit in ("add", "both"):
        text = text[:at] + ")" + text[at:]
    if edit in ("cut", "both"):
        text = text[:data.draw(st.integers(0, len(text)))] + data.draw(st.sampled_from(["", " ", "\n", ")", "))"]))
    same(text, ["ON", "OFF", "and", "x"], ["TYPE"])

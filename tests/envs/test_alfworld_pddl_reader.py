"""The direct s-expression reader gives lark's tree (pddl.lark) wherever it answers, and leaves every text
lark rejects -- and every text outside its simple character set -- to lark."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.envs.alfworld import pddl

GAMES = Path(__file__).resolve().parents[1] / "reference" / "data" / "alfworld" / "unseen.json.gz"


def lark_tree(text: str):
    """lark's tree, or the exception class it raises."""
    try:
        return pddl.parse_with_lark(text)
    except Exception as e:  # lark's UnexpectedInput family
        return type(e)


def test_every_recorded_game_reads_as_lark_reads_it() -> None:
    games = json.loads(gzip.open(GAMES).read())
    assert len(games) >= 30
    for game in games.values():
        simple = pddl.read_simple_sexp(game["pddl"])
        assert simple is not None
        assert simple == lark_tree(game["pddl"])
        assert pddl.parse_problem(game["pddl"]).init  # the problem is built from it


@pytest.mark.parametrize("text, expected", [
    ("(a (b c) ())", ("a", ("b", "c"), ())), ("atom", "atom"), ("  (x)\n\t\r\f", ("x",)),
    ("(a\"b; c)", None),  # a ';': lark decides (comment or part of an atom)
    ("(a)(b)", None), ("(a", None), ("a)", None), (")", None), ("", None), ("   ", None), ("a b", None),
    ("(caf\u00e9)", None), ("(a\u000bb)", None), ("(a\u00a0b)", None),
])
def test_small_texts(text: str, expected) -> None:
    assert pddl.read_simple_sexp(text) == expected
    if expected is not None:
        assert lark_tree(text) == expected


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet="()ab-:?; \t\n\r\f\u000b\u00e9\"", max_size=40))
def test_reader_agrees_with_lark(text: str) -> None:
    simple = pddl.read_simple_sexp(text)
    reference = lark_tree(text)
    if simple is not None:
        assert simple == reference
    elif not any(c in text for c in ";\u000b\u00e9"):
        assert isinstance(reference, type) and issubclass(reference, Exception)  # None only where lark fails


def test_malformed_text_keeps_lark_message() -> None:
    with pytest.raises(pddl.PddlError, match="not a PDDL s-expression"):
        pddl.parse_problem("(define (problem p)")

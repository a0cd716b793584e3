"""Reading JSON a model wrote: a nesting limit instead of a RecursionError, in one linear pass."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eai_gym.logic import json_text
from eai_gym.logic.json_text import MAX_DEPTH, TooDeep


@pytest.mark.parametrize("text", ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a": ' * 1000 + "1" + "}" * 1000,
                                  "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)])
def test_json_nested_too_deep_is_refused_as_not_json(text):
    with pytest.raises(ValueError, match=f"nested more than {MAX_DEPTH} levels deep"):
        json_text.loads(text)
    with pytest.raises(TooDeep):
        json_text.raw_decode(text)


def test_the_limit_counts_brackets_outside_strings_only():
    text = json.dumps({"a": "[" * 500 + "{" * 500, "b": [[["x"]]]})
    assert json_text.loads(text) == json.loads(text)
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert json_text.loads(deepest) == json.loads(deepest)
    assert json_text.raw_decode('[1, "]"] and then ' + "[" * 5000) == ([1, "]"], 8)


@pytest.mark.parametrize("text", ['"' + "\\" * 99_999, '"' + '\\"' * 50_000 + "[" * 200, "[" + '"' * 99_999])
def test_unterminated_strings_and_stray_escapes_are_read_in_one_pass(text):
    """Each token is matched once (an unterminated string runs to the end): no quadratic rescan."""
    json_text.nesting_exceeds(text)
    with pytest.raises(ValueError):
        json_text.loads(text)


def test_numbers_python_cannot_convert_are_not_json():
    with pytest.raises(ValueError):
        json_text.loads("[" + "9" * 5000 + "]")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                    max_leaves=30)


@given(value=JSON, tail=st.text(max_size=10))
def test_what_python_reads_within_the_limit_is_read_alike(value, tail):
    text = json.dumps(value)
    assert json_text.loads(text) == json.loads(text)
    assert json_text.raw_decode(text + tail) == json.JSONDecoder().raw_decode(text + tail)

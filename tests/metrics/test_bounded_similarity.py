"""The similarity measures give the table's answers in time linear in the longer input (bit-parallel LCS), and
AgentQuest's repetition rate is found without comparing every pair of commands where no comparison can matter."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eai_gym.metrics import alfworld_progress
from eai_gym.metrics.alfworld_progress import levenshtein_ratio, repetition_rate
from eai_gym.metrics.plan_similarity import _lcs, _lcs_table, lcs_length


@given(a=st.text("abc", max_size=60), b=st.text("abc", max_size=60))
def test_bit_parallel_lcs_is_the_tables(a, b):
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    if shorter:
        assert _lcs(a, b) == _lcs_table(longer, shorter)


@given(a=st.lists(st.sampled_from(["WALK", "OPEN", frozenset({"x", "y"}), "x"]), max_size=30),
       b=st.lists(st.sampled_from(["WALK", "OPEN", frozenset({"x", "y"}), "y"]), max_size=30))
def test_bit_parallel_lcs_of_actions_is_the_tables(a, b):
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    if shorter:
        assert _lcs(a, b) == _lcs_table(longer, shorter)


def test_lcs_of_unhashable_elements_uses_the_table():
    assert lcs_length([[1], [2], [3]], [[2], [3], [4]]) == 2


def pairwise_repetition_rate(actions, n, theta):
    """AgentQuest's definition, literally: each action against every unique action before it."""
    unique, repeated = [], 0
    for a in actions:
        if all(levenshtein_ratio(a, u) < theta for u in unique):
            unique.append(a)
        else:
            repeated += 1
    return repeated / (n - 1) if n > 1 else None


@given(actions=st.lists(st.text("ab ", max_size=6), max_size=12),
       theta=st.sampled_from([1.0, 0.0, -1.0, 1.5, 0.5, 0.8, 0.999, float("nan")]) | st.floats(0, 1))
def test_repetition_rate_is_agentquests(actions, theta):
    assert repetition_rate(actions, len(actions), theta) == pairwise_repetition_rate(actions, len(actions), theta)


@pytest.mark.parametrize("actions", [[f"go to shelf {i}" for i in range(2000)],
                                     ["go to " + "x" * 10_000, "open " + "y" * 10_000],
                                     ["go to " + "a b " * 50_000] * 3])
def test_a_theta_of_one_compares_no_pair(monkeypatch, actions):
    """Only an equal command has a ratio of 1: a set finds them, however many and long the commands."""
    def no_ratio(a, b):
        raise AssertionError("a pair was compared")
    monkeypatch.setattr(alfworld_progress, "levenshtein_ratio", no_ratio)
    repeated = len(actions) - len(set(actions))
    assert repetition_rate(actions, len(actions), 1.0) == repeated / (len(actions) - 1)


def test_only_pairs_whose_lengths_allow_the_ratio_are_compared(monkeypatch):
    calls = []

    def counted(a, b):
        calls.append((a, b))
        return levenshtein_ratio(a, b)
    monkeypatch.setattr(alfworld_progress, "levenshtein_ratio", counted)
    actions = ["x" * n for n in (1, 10, 100, 1000, 10_000)]
    assert repetition_rate(actions, 5, 0.5) == 0.0
    assert calls == []  # every two lengths differ too much for a ratio of 0.5

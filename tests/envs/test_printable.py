"""``printable`` (every observation's last step) escapes exactly the characters outside the charset."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.envs.base import CHARSET, printable


def _escaped(text: str) -> str:
    return "".join(ch if ch in CHARSET else ascii(ch)[1:-1] for ch in text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(sorted(CHARSET) + ["\x00", "\x1b", "\x7f", "\x80", "é", "€", "\U0001f600"])))
def test_printable_escapes_exactly_the_characters_outside_the_charset(text):
    out = printable(text)
    assert out == _escaped(text)
    assert set(out) <= CHARSET
    if set(text) <= CHARSET:
        assert out is text


def test_printable_examples():
    assert printable("a b\n\tc") == "a b\n\tc"
    assert printable("café\x00") == "caf\\xe9\\x00"
    assert printable("") == ""

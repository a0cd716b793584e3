"""A direct reader for the plain temporal-logic formulas of ``tl.lark``, for :func:`eai_gym.logic.tl.parse`.

lark's Earley parser took two thirds of scoring the VirtualHome subgoal plans. Most formulas are plain: names
that do not start with a connective word, written with the grammar's own tokens. For those the grammar has
one parse: :func:`read_plain` reads it as a small tree of tuples, and :func:`build_tree` hands that tree to
the builder lark's transformer uses, in the order lark's transformer calls it (children left to right, then
their parent), so even the builder's errors (an unknown primitive) come out the same. ``read_plain`` returns
None -- and lark decides, with lark's error message -- whenever the text is not such a formula:

* a token the grammar's terminals do not give (other whitespace, stray characters);
* a call named by a word that starts with ``not``, ``forall``, ``exists`` or ``forn`` (lark may read
  ``notON(x)`` as ``not ON(x)``), or a word after a formula that is not exactly ``and``, ``or``, ``then``;
* any syntax error;
* nesting deeper than :data:`MAX_DEPTH` (lark may run out of stack on such a text: it must be the one to).

tests/logic/test_tl_reader.py checks it against lark on every packaged goal and on random formulas.
"""

from __future__ import annotations

import re
from typing import Any

#: tl.lark's terminals (WORD_ID before WORD: the longer match where both apply) and its whitespace
_TOKEN = re.compile(r"[ \t\f\r\n]*(?:(?P<id>[a-zA-Z_\-]\w*\.[0-9]+)|(?P<word>[a-zA-Z_\-]\w*)|(?P<count>\d+)"
                    r"|(?P<punct>[().,]))")
_TRAILING_WS = re.compile(r"[ \t\f\r\n]*")
_UNIT_KEYWORDS = ("not", "forall", "exists", "forn")
#: the deepest nesting of parentheses, ``not`` and quantifiers read directly
MAX_DEPTH = 32


class _NotPlain(Exception):
    """The text is not a plain formula: lark must read it."""


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out, pos, n = [], 0, len(text)
    while True:
        end = _TRAILING_WS.match(text, pos).end()
        if end == n:
            return out
        m = _TOKEN.match(text, pos)
        if m is None:
            return None
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks, self.i = tokens, 0
        self.depth = 0

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, kind: str | None = None, value: str | None = None) -> str:
        if self.i >= len(self.toks):
            raise _NotPlain
        k, v = self.toks[self.i]
        if (kind is not None and k != kind) or (value is not None and v != value):
            raise _NotPlain
        self.i += 1
        return v

    def chain(self, word: str, sub: Any) -> Any:
        parts = [sub()]
        while self.peek() == word and self.toks[self.i][0] == "word":
            self.i += 1
            parts.append(sub())
        return parts[0] if len(parts) == 1 else (word, tuple(parts))

    def formula(self) -> Any:
        return self.chain("then", self.choice)

    def choice(self) -> Any:
        return self.chain("or", self.conjunction)

    def conjunction(self) -> Any:
        return self.chain("and", self.unit)

    def unit(self) -> Any:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _NotPlain
        out = self.nested_unit()
        self.depth -= 1
        return out

    def nested_unit(self) -> Any:
        if self.peek() == "(":
            self.i += 1
            inner = self.formula()
            self.take("punct", ")")
            return inner
        word = self.take("word")
        if word == "not":
            return ("not", self.unit())
        if word in ("forall", "exists", "forn"):
            n = self.take("count") if word == "forn" else None
            if n is not None:
                self.take("punct", ".")
            var = self.take("word")
            self.take("punct", ".")
            self.take("punct", "(")
            body = self.formula()
            self.take("punct", ")")
            return (word, n, var, body)
        if word.startswith(_UNIT_KEYWORDS):
            raise _NotPlain
        self.take("punct", "(")
        terms = []
        if self.peek() != ")":
            terms.append(self.term())
            while self.peek() == ",":
                self.i += 1
                terms.append(self.term())
        self.take("punct", ")")
        return ("call", word, tuple(terms))

    def term(self) -> str:
        if self.i < len(self.toks) and self.toks[self.i][0] in ("word", "id"):
            self.i += 1
            return self.toks[self.i - 1][1]
        raise _NotPlain


def read_plain(text: str) -> Any | None:
    """The tree of ``text`` if it is a plain formula (tuples: ``("call", name, terms)``, ``("and" | "or" |
    "then", parts)``, ``("not", part)``, ``(quantifier, count or None, variable, body)``), else None (then
    lark must read it)."""
    tokens = _tokens(text)
    if not tokens:
        return None
    r = _Reader(tokens)
    try:
        out = r.formula()
    except (_NotPlain, RecursionError):
        return None
    return out if r.i == len(tokens) else None


def build_tree(tree: Any, build: Any) -> Any:
    """What ``build`` makes of a :func:`read_plain` tree; its methods ``call``, ``and_``, ``or_``, ``then_``,
    ``not_``, ``forall_``, ``exists_``, ``forn_`` are called as lark's transformer calls them."""
    head = tree[0]
    if head == "call":
        return build.call(tree[1], *tree[2])
    if head == "not":
        return build.not_(build_tree(tree[1], build))
    if head in ("and", "or", "then"):
        parts = [build_tree(p, build) for p in tree[1]]
        return getattr(build, head + "_")(*parts)
    _, n, var, body = tree
    inner = build_tree(body, build)
    return build.forn_(n, var, inner) if head == "forn" else getattr(build, head + "_")(var, inner)

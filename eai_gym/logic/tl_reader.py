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

Two syntax errors are common in subgoal plans (splitting a goal at ``then`` inside a quantifier leaves
unbalanced parentheses): a ``)`` after a complete formula, and the end of the text while a group is open after a
complete formula. :func:`plain_error` gives lark's message for those when what comes before is plain, so that
lark need not be imported for them: there lark's Earley parser has a single live parse, every token before ends
before the error, and the terminals it expects are the ones after a complete unit: ``and``, ``or``, ``then``, and
``)`` inside a group (lark 1.x's ``UnexpectedCharacters`` and ``UnexpectedEOF`` messages, with the expected
terminals sorted as :func:`eai_gym.logic.tl.parse` sorts lark's).

tests/logic/test_tl_reader.py checks both against lark on every packaged goal and on random formulas.
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


class _Unclosed(_NotPlain):
    """The tokens end after a complete formula where a group's (or a quantifier body's) ``)`` is due."""


def _tokens(text: str) -> tuple[list[tuple[str, str, int]], bool]:
    """The tokens ``(kind, text, start)`` from the start of ``text`` on, and whether they reach its end (else the
    next character starts no token)."""
    out, pos, n = [], 0, len(text)
    while True:
        end = _TRAILING_WS.match(text, pos).end()
        if end == n:
            return out, True
        m = _TOKEN.match(text, pos)
        if m is None:
            return out, False
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind), m.start(kind)))
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
        k, v, _ = self.toks[self.i]
        if (kind is not None and k != kind) or (value is not None and v != value):
            raise _NotPlain
        self.i += 1
        return v

    def close_group(self) -> None:
        """The ``)`` after a group's formula (the formula is complete)."""
        if self.i >= len(self.toks):
            raise _Unclosed
        self.take("punct", ")")

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
            self.close_group()
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
            self.close_group()
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
    tokens, whole = _tokens(text)
    if not tokens or not whole:
        return None
    r = _Reader(tokens)
    try:
        out = r.formula()
    except (_NotPlain, RecursionError):
        return None
    return out if r.i == len(tokens) else None


#: what lark expects after a complete unit (sorted), outside any group and inside one
_AFTER_UNIT = ("AND", "OR", "THEN")
_AFTER_UNIT_IN_GROUP = ("AND", "OR", "RPAR", "THEN")


def _expected(names: tuple[str, ...]) -> str:
    return "Expected one of: \n\t* %s\n" % "\n\t* ".join(names)


def plain_error(text: str) -> str | None:
    """lark's syntax-error message for ``text`` when it is a plain formula followed by a ``)`` (lark stops at that
    character), or a plain formula whose text ends inside a group; None for any other text (lark must read it).
    See the module docstring."""
    tokens, whole = _tokens(text)
    r = _Reader(tokens)
    try:
        r.formula()
    except _Unclosed:
        return "Unexpected end-of-input. " + _expected(_AFTER_UNIT_IN_GROUP) if whole else None
    except (_NotPlain, RecursionError):
        return None
    if r.i == len(tokens) or tokens[r.i][:2] != ("punct", ")"):
        return None
    pos = tokens[r.i][2]
    line_start = text.rfind("\n", 0, pos)
    before = text[max(pos - 40, 0):pos].rsplit("\n", 1)[-1]  # lark's context: 40 characters either side
    after = text[pos:pos + 40].split("\n", 1)[0]
    context = before + after + "\n" + " " * len(before.expandtabs()) + "^\n"
    return (f"No terminal matches ')' in the current parser context, at line {text.count(chr(10), 0, pos) + 1} col "
            f"{pos - line_start}\n\n{context}{_expected(_AFTER_UNIT)}")


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

"""Plan similarity: GAICo's ``PlanningLCS`` and ``PlanningJaccard`` (GAICo 0.4.0), plus an edit distance.

A plan is a string of comma-separated actions; ``{a, b}`` is a set of concurrent actions and counts as
one element of the sequence. Two parsers:

* ``structured=False`` (default) is GAICo 0.4.0's parser exactly: a comma splits an item only outside
  braces, so ``stack(A,B)`` becomes the two actions ``stack(A`` and ``B)``; items are stripped, empty
  items dropped; an item that starts with ``{`` and ends with ``}`` becomes a frozenset of its members
  (split on every comma); nothing is normalised (case and inner whitespace count).
* ``structured=True`` keeps commas inside ``()``, ``[]``, ``<>`` and quotes, and writes every action in
  one canonical form, whatever world syntax it came in, so the same action always compares equal:
  ``stack( A , B )`` → ``stack(a,b)``; VirtualHome ``[WALK] <kitchen> (11)`` → ``walk(kitchen.11)``;
  PARTNR ``Navigate[agent_0, table_1]`` → ``navigate(agent_0,table_1)``; PDDL ``(pick agent_0 cup)`` →
  ``pick(agent_0,cup)``; ALFWorld ``go to  Fridge 1`` → ``go to fridge 1`` (case and runs of
  whitespace folded).

Scores (GAICo's formulas): ``plan_lcs`` = LCS length / length of the longer plan (elements compare
equal only if both are the same action or the same set); ``plan_jaccard`` = |G ∩ R| / |G ∪ R| over the
flattened action sets; both are 1.0 when both plans are empty. ``gaico_calculate=True`` reproduces GAICo's
public ``calculate()``: a missing or blank reference is replaced by the generated plan itself (so
``plan_lcs("a, b", "")`` is 1.0), and it raises ``ValueError`` when ``generated`` is None or when both
are empty. The default is the pairwise formula (``_single_calculate``), where an empty reference scores 0.0.

A plan may also be given as a list of action strings (each element one action, nothing split).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Sequence, Union

Element = Union[str, frozenset]
Plan = Union[str, Sequence[str], None]

_OPEN = {"(": ")", "[": "]", "<": ">"}
_BRACE_OR_COMMA = re.compile(r"[{},]")
_CLOSE = {v: k for k, v in _OPEN.items()}


# ---------------------------------------------------------------------------------------------- parsing
def _gaico_items(text: str) -> list[str]:
    if "{" not in text and "}" not in text:
        return text.split(",")  # no braces: every comma splits
    items, depth, start = [], 0, 0
    for m in _BRACE_OR_COMMA.finditer(text):
        ch = m.group()
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif depth == 0:
            items.append(text[start:m.start()])
            start = m.end()
    items.append(text[start:])
    return items


def _structured_items(text: str) -> list[str]:
    """Split at commas outside every bracket pair and outside quotes."""
    if not any(ch in text for ch in "([<{\"'"):
        return text.split(",")
    items, buf, stack, quote = [], [], [], None
    for ch in text:
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in _OPEN or ch == "{":
            stack.append(ch)
        elif ch in _CLOSE or ch == "}":
            want = "{" if ch == "}" else _CLOSE[ch]
            if want in stack:  # close up to the matching opener (tolerates a stray closer)
                while stack.pop() != want:
                    pass
        if ch == "," and not stack and quote is None:
            items.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    items.append("".join(buf))
    return items


_VH_SCRIPT = re.compile(r"^\[\s*([^\]]+?)\s*\]((?:\s*<[^>]*>\s*\(\s*[^)]*\))*)\s*$")
_VH_ARG = re.compile(r"<([^>]*)>\s*\(\s*([^)]*?)\s*\)")
_CALL = re.compile(r"^([^\s(\[]+)\s*[(\[](.*)[)\]]$", re.S)
_PDDL = re.compile(r"^\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)$")


def _fold(text: str) -> str:
    return " ".join(text.split()).lower()


@lru_cache(maxsize=65536)
def canonical_action(action: str) -> str:
    """One action in eai-gym's canonical form (see the module docstring)."""
    a = action.strip()
    m = _VH_SCRIPT.match(a)
    if m:
        args = [f"{_fold(n)}.{_fold(i)}" for n, i in _VH_ARG.findall(m.group(2))]
        return f"{_fold(m.group(1))}({','.join(args)})"
    m = _PDDL.match(a)
    if m:
        return f"{_fold(m.group(1))}({','.join(_fold(x) for x in m.group(2).split())})"
    m = _CALL.match(a)
    if m:
        inner = m.group(2).strip()
        args = [_fold(x) for x in _structured_items(inner)] if inner else []
        return f"{_fold(m.group(1))}({','.join(args)})"
    return _fold(a)


def parse_plan(plan: Plan, structured: bool = False) -> list[Element]:
    """A plan as a list of elements: an action string or a frozenset of concurrent actions."""
    if plan is None:
        return []
    if not isinstance(plan, str):
        if not all(isinstance(a, str) for a in plan):
            raise TypeError(f"a plan is a string or a list of action strings, got {plan!r}")
        return [canonical_action(a) if structured else a for a in plan if a.strip()]
    if not plan or plan.isspace():
        return []
    out: list[Element] = []
    for raw in (_structured_items(plan) if structured else _gaico_items(plan)):
        item = raw.strip()
        if not item:
            continue
        if item.startswith("{") and item.endswith("}"):
            inner = item[1:-1].strip()
            members = _structured_items(inner) if structured else inner.split(",")
            out.append(frozenset((canonical_action(m) if structured else m.strip())
                                 for m in members if m.strip()))
        else:
            out.append(canonical_action(item) if structured else item)
    return out


# ---------------------------------------------------------------------------------------------- scores
def _trim(a: Sequence[Any], b: Sequence[Any]) -> tuple[int, Sequence[Any], Sequence[Any]]:
    """The length of the common prefix and suffix, and what is left of each sequence between them."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    j = 0
    while j < n - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    return i + j, a[i:len(a) - j], b[i:len(b) - j]


def lcs_length(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Length of the longest common subsequence (element equality)."""
    common, a, b = _trim(a, b)  # a common prefix and suffix are part of every longest common subsequence
    if not a or not b:
        return common
    return common + _lcs(a, b)


def _lcs(a: Sequence[Any], b: Sequence[Any]) -> int:
    """The LCS length by the bit-parallel method (Allison and Dix; Hyyro): one row of the table is the bits of
    one integer (bit ``j`` set where the row does not step up at element ``j`` of the shorter sequence), and
    each element of the longer sequence updates all of them with a few integer operations. The table's
    result, in time linear in the longer sequence's length times the shorter's in machine words."""
    if len(a) < len(b):
        a, b = b, a
    masks: dict[Any, int] = {}
    try:
        for j, y in enumerate(b):
            masks[y] = masks.get(y, 0) | (1 << j)
        full = (1 << len(b)) - 1
        row = full
        for x in a:
            match = row & masks.get(x, 0)
            row = ((row + match) | (row - match)) & full
    except TypeError:  # elements that cannot be dictionary keys: the table itself
        return _lcs_table(a, b)
    return len(b) - bin(row).count("1")


def _lcs_table(a: Sequence[Any], b: Sequence[Any]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def edit_distance(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Levenshtein distance between two element sequences (insert, delete, substitute: cost 1 each)."""
    _, a, b = _trim(a, b)  # a common prefix and suffix never need an edit
    if not a or not b:
        return len(a) + len(b)
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def _flatten(elements: Sequence[Element]) -> set[str]:
    out: set[str] = set()
    for e in elements:
        if isinstance(e, frozenset):
            out |= e
        else:
            out.add(e)
    return out


def _missing(plan: Plan) -> bool:
    return plan is None or len(plan) == 0 or (isinstance(plan, str) and plan.isspace())


def _pair(generated: Plan, reference: Plan, gaico_calculate: bool) -> tuple[Plan, Plan]:
    if not gaico_calculate:
        return generated, reference
    if generated is None:
        raise ValueError("`generated` must be provided and cannot be None.")
    if _missing(reference):
        if _missing(generated):
            raise ValueError("`reference` is missing and cannot be derived from `generated`.")
        reference = generated
    return generated, reference


def plan_lcs(generated: Plan, reference: Plan, *, structured: bool = False, gaico_calculate: bool = False) -> float:
    """GAICo ``PlanningLCS``: LCS length over the longer plan's length (1.0 when both are empty)."""
    generated, reference = _pair(generated, reference, gaico_calculate)
    g, r = parse_plan(generated, structured), parse_plan(reference, structured)
    if not g and not r:
        return 1.0
    return lcs_length(g, r) / max(len(g), len(r))


def plan_jaccard(generated: Plan, reference: Plan, *, structured: bool = False,
                 gaico_calculate: bool = False) -> float:
    """GAICo ``PlanningJaccard``: Jaccard index of the flattened action sets (1.0 when both are empty)."""
    generated, reference = _pair(generated, reference, gaico_calculate)
    g, r = _flatten(parse_plan(generated, structured)), _flatten(parse_plan(reference, structured))
    if not g and not r:
        return 1.0
    return len(g & r) / len(g | r)


def plan_edit_distance(generated: Plan, reference: Plan, *, structured: bool = False) -> int:
    """Levenshtein distance between the two parsed plans, counted in elements."""
    return edit_distance(parse_plan(generated, structured), parse_plan(reference, structured))


def similarity_record(generated: Plan, reference: Plan, *, structured: bool = True) -> dict[str, Any]:
    """LCS, Jaccard and edit distance of one plan against a reference (what the scorers record)."""
    g, r = parse_plan(generated, structured), parse_plan(reference, structured)
    fg, fr = _flatten(g), _flatten(r)
    longest = max(len(g), len(r))
    dist = edit_distance(g, r)
    return {"lcs": lcs_length(g, r) / longest if longest else 1.0,
            "jaccard": len(fg & fr) / len(fg | fr) if fg | fr else 1.0,
            "edit_distance": dist,
            "edit_similarity": 1.0 - dist / longest if longest else 1.0,
            "generated_length": len(g), "reference_length": len(r)}

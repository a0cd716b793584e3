"""Plan similarity agrees with GAICo 0.4.0 on every recorded pair (tests/reference/data/gaico/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eai_gym.metrics import plan_jaccard, plan_lcs
from eai_gym.metrics.plan_similarity import parse_plan

DATA = Path(__file__).parent / "data" / "gaico"


def _cases(name: str) -> list[dict]:
    path = DATA / name
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


CASES = _cases("gaico.json") + _cases("unseen.json")


def _jsonable(parsed):
    return [{"set": sorted(e)} if isinstance(e, frozenset) else e for e in parsed]


def _call(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except ValueError as e:
        return f"ERR:ValueError: {e}"


def test_every_shipped_pair_is_there():
    assert len(_cases("gaico.json")) == 297


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.get('source', 'kit')}-{c['id']}")
def test_parse_and_scores_agree(case):
    g, r = case["gen"], case["ref"]
    assert _jsonable(parse_plan(g)) == case["parsed_gen"]
    assert _jsonable(parse_plan(r)) == case["parsed_ref"]
    assert plan_lcs(g, r) == case["lcs_pair"] == case["lcs_batch"]
    assert plan_jaccard(g, r) == case["jaccard_pair"] == case["jaccard_batch"]
    assert _call(plan_lcs, g, r, gaico_calculate=True) == case["lcs"]
    assert _call(plan_jaccard, g, r, gaico_calculate=True) == case["jaccard"]

"""eai-gym ``protocol="eai-1.0.5"`` against eai-eval 1.0.5 on the EAI paper's published action-sequencing and
subgoal-decomposition outputs (15 models, VirtualHome; ``virtualhome-eval==0.1.1``), item by item and summary by
summary. Data: ``tests/reference/data/published_plans/`` (see its README entry; ``tools/published_plans_reference.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from eai_gym.scoring.virtualhome import action_sequencing as vas
from eai_gym.scoring.virtualhome import subgoal_decomposition as vsd
from virtualhome_compare import compare_item, subgoal_problems

DATA = Path(__file__).parent / "data" / "published_plans"


def _load(name: str) -> dict:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
        return json.load(f)


INPUTS = _load("inputs.json.gz")
AS_REF = _load("reference_action_sequencing.json.gz")
SD_REF = _load("reference_subgoal_decomposition.json.gz")
#: whole-model runs where eai-gym and eai-eval 1.0.5 differ, found at the end of a round and not yet explained
#: (kept as strict xfails so a fix shows up): the reference records this item as NotParseable
#: ('list index out of range'), eai-gym's eai-1.0.5 protocol as a Runtime error
KNOWN_SD_DIFFERENCES = {"llama-3-8b-chat": "scene_1_875_1: reference NotParseable, eai-gym Runtime (unexplained)"}
SD_RUNS = [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=KNOWN_SD_DIFFERENCES[r]))
           if r in KNOWN_SD_DIFFERENCES else r
           for r in sorted(SD_REF["models"]) + sorted(SD_REF["subsets"])]


def test_inputs_are_the_published_files():
    assert INPUTS["wheel"] == "virtualhome_eval-0.1.1-py3-none-any.whl"
    assert INPUTS["license"].startswith("MIT")
    for module, n in (("action_sequencing", 342), ("subgoal_decomposition", 338)):
        models = INPUTS["modules"][module]
        assert len(models) == 15
        assert {len(items) for items in models.values()} == {n}


@pytest.mark.parametrize("model", sorted(AS_REF["models"]))
def test_action_sequencing_model(model):
    ref = AS_REF["models"][model]
    res = vas.score_items(INPUTS["modules"]["action_sequencing"][model], "eai-1.0.5")
    assert len(ref["items"]) == len(res["tasks"]) == 342
    bad = {r["identifier"]: p for r in res["tasks"] if (p := compare_item(r, ref["items"][r["identifier"]]))}
    assert not bad, bad
    assert res["summary"] == ref["summary"]
    assert res["counters"] == ref["counters"]


def test_action_sequencing_old_format_is_not_executable():
    """What eai-eval 1.0.5 makes of the published (name-only) action-sequencing outputs: no item is executed;
    37 tasks per model fail its gold test and are skipped; every other item is one parsing error, except
    gemini-1.0-pro's 928_2 (a hallucination: its two names pass as one name/id pair) and cohere-command-r's
    953_1 (two parsing errors: its argument list is not valid JSON)."""
    unusual = set()
    for model, ref in AS_REF["models"].items():
        assert ref["summary"]["goal_evaluation"]["task_success_rate"] == 0
        assert ref["summary"]["trajectory_evaluation"]["execution_success_rate"] == 0
        assert ref["counters"]["program_num"] == 305
        for ident, item in ref["items"].items():
            kind = (item["status"], item.get("error_type"), item["counter_delta"]["all_parsing_wrong"])
            if kind not in {("skipped_gold_test_failed", None, 0), ("evaluated", "parsing error", 1)}:
                unusual.add((model, ident, *kind))
    expected = {("gemini-1.0-pro", "928_2", "evaluated", "hallucination error", 0),
                ("cohere-command-r", "953_1", "evaluated", "parsing error", 2)}
    assert unusual == {e for e in expected if e[0] in AS_REF["models"]}


@pytest.mark.parametrize("run", SD_RUNS)
def test_subgoal_decomposition_run(run):
    ref = SD_REF["models"].get(run) or SD_REF["subsets"][run]
    model = ref.get("model", run)
    items = INPUTS["modules"]["subgoal_decomposition"][model][ref.get("start", 0):ref.get("stop")]
    assert ref["seed"] == 0
    res = vsd.score_items(items, "eai-1.0.5", seed=0)
    by_id = {f"scene_1_{r['task_id']}": r for r in res["tasks"]}
    assert set(ref["items"]) <= set(by_id)
    bad = {k: p for k, e in ref["items"].items() if (p := subgoal_problems(by_id[k], e))}
    assert not bad, bad
    if ref["summary"] is not None:
        assert res["summary"] == ref["summary"]

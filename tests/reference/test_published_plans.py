"""eai-gym ``protocol="eai-1.0.5"`` against eai-eval 1.0.5 on the EAI paper's published action-sequencing and
subgoal-decomposition outputs (15 models, VirtualHome; ``virtualhome-eval==0.1.1``), item by item and summary by
summary. Data: ``tests/reference/data/published_plans/`` (see its README entry; ``tools/reference/published_plans.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from virtualhome_compare import compare_item, subgoal_problems

from eai_gym.scoring.virtualhome import action_sequencing as vas
from eai_gym.scoring.virtualhome import subgoal_decomposition as vsd

DATA = Path(__file__).parent / "data" / "published_plans"


def _load(name: str) -> dict:
    with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
        return json.load(f)


INPUTS = _load("inputs.json.gz")
AS_REF = _load("reference_action_sequencing.json.gz")
SD_REF = _load("reference_subgoal_decomposition.json.gz")
SD_MUTANTS = _load("reference_subgoal_mutants.json.gz")
#: whole-model runs where eai-gym and eai-eval 1.0.5 differ and the cause is not known (strict xfails, so that a
#: fix shows up); none since llama-3-8b-chat's scene_1_875_1 was explained (see the mutant tests below)
KNOWN_SD_DIFFERENCES: dict[str, str] = {}
SD_RUNS = [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=KNOWN_SD_DIFFERENCES[r]))
           if r in KNOWN_SD_DIFFERENCES else r
           for r in sorted(SD_REF["models"]) + sorted(SD_REF["subsets"])]
CRASH = "list index out of range"


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


@pytest.mark.parametrize("batch", sorted(SD_MUTANTS["batches"]))
def test_subgoal_mutants(batch):
    """Published replies rewritten to reach a missing step that names no missing precondition (SIT or LIE on an
    occupied object, CUT without a knife), and controls: eai-eval 1.0.5's subgoal temporal-order check indexes the
    empty list of preconditions and the task becomes NotParseable ('list index out of range'); eai-gym's
    eai-1.0.5 protocol agrees item by item, message included, and summary by summary."""
    ref = SD_MUTANTS["batches"][batch]
    assert ref["seed"] == 0
    res = vsd.score_items(ref["items"], "eai-1.0.5", seed=0)
    by_id = {r["identifier"]: r for r in res["tasks"]}
    assert set(ref["reference"]) == set(by_id)
    bad = {}
    for ident, entry in ref["reference"].items():
        problems = subgoal_problems(by_id[ident], entry)
        if "message" in entry and by_id[ident]["message"] != entry["message"]:
            problems.append(("message", by_id[ident]["message"], entry["message"]))
        if problems:
            bad[ident] = problems
    assert not bad, bad
    assert res["summary"] == ref["summary"]


def test_subgoal_mutants_exercise_the_crash():
    """The rewritten replies reach the crash often, and the controls never."""
    crashes = {name: sum(e.get("message") == CRASH for e in b["reference"].values())
               for name, b in SD_MUTANTS["batches"].items()}
    assert crashes["prepend_free_chair"] == 0
    assert all(crashes[r] >= 10 for r in ("ontop_to_occupied_mat", "prepend_occupied_mat", "prepend_couch",
                                           "prepend_cut"))
    published = SD_REF["models"]["llama-3-8b-chat"]["items"]["scene_1_875_1"]
    assert (published["category"], crashes["llama_875_1_mat.173"]) == ("NotParseable", 1)


def test_subgoal_fixed_protocol_reports_the_missing_step():
    """The fixed protocol does what eai-eval's action-sequencing copy of the check does (an empty list of
    preconditions did not hold before): a missing step, so the task is scored, not NotParseable."""
    seen = 0
    for batch in SD_MUTANTS["batches"].values():
        fixed = {r["identifier"]: r for r in vsd.score_items(batch["items"], "fixed")["tasks"]}
        for ident, entry in batch["reference"].items():
            if entry.get("message") != CRASH:
                continue
            seen += 1
            rec = fixed[ident]
            assert rec["category"] != "NotParseable" and rec["message"] != CRASH, (ident, rec)
            assert rec["goal"] is not None
    assert seen >= 50


def test_subgoal_decomposition_whole_model_runs():
    """A whole-file reference run is stored for every published model."""
    assert sorted(SD_REF["models"]) == sorted(INPUTS["modules"]["subgoal_decomposition"])
    assert {len(r["items"]) for r in SD_REF["models"].values()} == {338}
    assert all(r["summary"] is not None and r["summary_exception"] is None for r in SD_REF["models"].values())

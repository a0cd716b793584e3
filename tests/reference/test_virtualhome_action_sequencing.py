"""Per-item and summary agreement with eai-eval 1.0.5 on every recorded VirtualHome case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from virtualhome_compare import compare_item

from eai_gym.scoring.virtualhome.action_sequencing import score_item, score_items

DATA = Path(__file__).parent / "data" / "virtualhome"
CASES = [
    ("quirk_inputs.json", "quirk_outputs_action_sequencing.json", "summary", True),
    ("gold_inputs.json", "gold_outputs_action_sequencing.json", "summary", True),
    ("perturbed_inputs.json", "perturbed_outputs_action_sequencing.json", "batch_summary", True),
    ("gold_inputs.json", "gold_outputs_action_sequencing_noshortcut.json", "summary", False),
]


def load(name):
    return json.loads((DATA / name).read_text())


@pytest.mark.parametrize("inputs,outputs,summary_key,shortcut", CASES,
                         ids=[c[1].removesuffix(".json") for c in CASES])
def test_reference_cases(inputs, outputs, summary_key, shortcut):
    items = load(inputs)
    ref = load(outputs)
    res = score_items(items, "eai-1.0.5", gold_shortcut=shortcut)
    assert len(res["tasks"]) == len(ref["tasks"]) == len(items)
    mismatches = {}
    for i, (ours, theirs) in enumerate(zip(res["tasks"], ref["tasks"])):
        assert ours["identifier"] == items[i]["identifier"]
        problems = compare_item(ours, theirs)
        if problems:
            mismatches[f"{i}:{ours['identifier']}"] = problems
    assert not mismatches, mismatches
    assert res["summary"] == ref[summary_key]
    if "counters" in ref and summary_key == "summary":
        assert res["counters"] == ref["counters"]


@pytest.mark.parametrize("name", ["lowercase", "putobjback"])
def test_reference_aborts_become_invalid_input(name):
    """Items on which the reference raises are reported as invalid_input; nothing else is lost."""
    item = load(f"quirk_{name}_crash_input.json")[0]
    rec = score_item(item, "eai-1.0.5")
    assert rec["status"] == "invalid_input"
    assert rec["message"]
    assert rec["counts"]["program_num"] == 0
    good = load("gold_inputs.json")[:5]
    res = score_items(good + [item] + good, "eai-1.0.5")
    assert [r["status"] == "invalid_input" for r in res["tasks"]] == [False] * 5 + [True] + [False] * 5
    alone = score_items(good + good, "eai-1.0.5")
    assert res["summary"] == alone["summary"]


def test_greet_is_an_affordance_error():
    item = load("quirk_greet_crash_input.json")[0]
    ref = load("quirk_greet_crash_output.json")["tasks"][0]
    rec = score_item(item, "eai-1.0.5")
    assert not compare_item(rec, ref)


def test_abort_patterns():
    patterns = load("action_sequencing_abort_patterns.json")
    for p in patterns["aborting_patterns_not_in_the_hidden_set"]:
        rec = score_item({"identifier": p["identifier"], "llm_output": p["llm_output"]}, "eai-1.0.5")
        expect = "evaluated" if "GREET" in p["llm_output"] else "invalid_input"
        assert rec["status"] == expect, p
    key = next(k for k in patterns if k.startswith("probed_and_not_aborting"))
    for p in patterns[key]:
        rec = score_item({"identifier": "11_1", "llm_output": p["llm_output"]}, "eai-1.0.5")
        assert (rec["status"], rec["error_type"]) == (p["status"], p["error_type"]), p

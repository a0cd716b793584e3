"""An identifier met again: every mode scores the first item of a task and records each later one as
``duplicate_identifier`` (naming the first), which its summary leaves out; a reference protocol whose evaluator
scores every item (``scores_repeats``) does the same as that evaluator (docs/scoring.md)."""

from __future__ import annotations

import json

import pytest
from hostile_items import IDS, MODES, options_of, units_of, valid_items

from eai_gym import registry
from eai_gym.scoring.jobs import scores_repeats
from eai_gym.scoring.runner import run_items


def score(world: str, mode: str, protocol: str, items: list) -> tuple[list, list, dict]:
    spec = registry.mode(world, mode)
    jobs = registry.load(spec.jobs)(units_of(world, mode, items), protocol, options_of(spec), spec)
    records, texts = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, encode=True)
    return records, [json.loads(t) for t in texts], jobs.summarize(records)


@pytest.mark.parametrize("world,mode,protocol", MODES, ids=IDS)
def test_an_identifier_met_again_is_scored_once(world, mode, protocol):
    first, other = valid_items(world, mode)[:2]
    records, written, fields = score(world, mode, protocol, [first, other, first])
    if scores_repeats(mode, protocol):
        assert written[2] == written[0]  # scored again, as the reference's evaluator does
        return
    assert written[2]["status"] == "duplicate_identifier", written[2]
    message = written[2].get("message") or written[2].get("error")
    assert message.startswith("item 2") and "as item 0, which is the one scored" in message
    _, _, once = score(world, mode, protocol, [first, other])
    assert fields["summary"] == once["summary"]


@pytest.mark.parametrize("world,mode,protocol", [c for c in MODES if scores_repeats(c[1], c[2])],
                         ids=[i for i, c in zip(IDS, MODES) if scores_repeats(c[1], c[2])])
def test_a_reference_that_counts_every_item_is_reproduced(world, mode, protocol):
    """eai-eval 1.0.5's action sequencing and transition modeling count each item; its BEHAVIOR goal
    interpretation counts a demo's last item: under its protocol, repeats are scored."""
    first, other = valid_items(world, mode)[:2]
    _, written, _ = score(world, mode, protocol, [first, other, first])
    assert written[2]["status"] != "duplicate_identifier"


def test_an_item_for_the_same_task_under_another_name_is_a_repeat():
    """VirtualHome's subgoal identifiers ``27_2`` and ``scene_1_27_2`` name one task."""
    first = valid_items("virtualhome", "subgoal_decomposition")[0]
    renamed = dict(first, identifier=f"scene_1_{first['identifier']}")
    _, written, _ = score("virtualhome", "subgoal_decomposition", "fixed", [first, renamed])
    assert written[1]["status"] == "duplicate_identifier"
    assert written[1]["message"] == (f"item 1 (identifier {renamed['identifier']!r}) is for the same task as item 0, "
                                     "which is the one scored")

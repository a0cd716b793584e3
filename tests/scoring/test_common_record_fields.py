"""Every mode's per-item records carry the common fields (``identifier``, ``status``, ``message``) and, in the modes
that replay plans, ``success``, ``executable`` and ``error_type``, next to the reference's own fields: for scored
items and for malformed ones alike."""

from __future__ import annotations

import pytest

from eai_gym import registry
from eai_gym.core.errors import ErrorType
from eai_gym.scoring.runner import run_items

GOLD_MODES = [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.gold is not None]
N_GOLD = 8
#: the error types a plan mode's record may name: the EAI taxonomy, VirtualHome's reference strings ("parsing error")
ERROR_TYPES = {e.value for e in ErrorType} | {f"{e.value.replace('_', ' ')} error" for e in ErrorType} | {
    "unknown", "affordance error", "hallucination error", "parsing error", "wrong arguments error",
    "predicate argument number error", "missing step error", "additional step error", "wrong order error"}


def records_of(world: str, mode: str, protocol: str) -> list[dict]:
    spec = registry.mode(world, mode)
    options = {o.name: o.default for o in spec.options}
    if spec.option("planner"):
        options["planner"] = "none"
    items = spec.gold_items(options)[:N_GOLD] + [{"identifier": "no_such_task", "llm_output": 3}, 7]
    jobs = registry.load(spec.jobs)(items, protocol, options, spec)
    return run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)


@pytest.mark.parametrize("world,mode", GOLD_MODES)
def test_records_carry_the_common_fields(world, mode):
    spec = registry.mode(world, mode)
    wanted = registry.COMMON_RECORD_FIELDS + (registry.PLAN_RECORD_FIELDS if spec.plan_records else ())
    for protocol in spec.protocols:
        records = records_of(world, mode, protocol)
        assert any(r["status"] != "invalid_input" for r in records) and records[-1]["status"] == "invalid_input"
        for r in records:
            assert [f for f in wanted if f not in r] == [], (protocol, r["status"])
            assert isinstance(r["message"], str) and isinstance(r["status"], str)
            if spec.plan_records:
                assert isinstance(r["success"], bool) and isinstance(r["executable"], bool)
                assert r["error_type"] is None or r["error_type"] in ERROR_TYPES, r["error_type"]
                if r["status"] == "invalid_input":
                    assert (r["success"], r["executable"], r["error_type"]) == (False, False, None)


def test_behavior_action_records_say_success_and_executable_as_the_reference_fields_do():
    for r in records_of("behavior", "action_sequencing", "fixed")[:-2]:
        assert r["success"] == r["all_goal_satisfied"] and r["executable"] == r["execution_success"]


def test_alfworld_and_rearrange_records_name_the_first_failure():
    from eai_gym.scoring.alfworld.commands import score_item

    rec = score_item({"game": 0, "commands": ["look", "fly to the moon", "go to fridge 99"]})
    assert rec["executable"] is False and rec["error_type"] == "parsing"
    assert score_item({"game": 0, "commands": ["look"]})["error_type"] is None

    from eai_gym.scoring.rearrange.actions import score_item as score_actions
    from eai_gym.scoring.rearrange.modes import _episodes

    by_id = {e.episode_id: e for e in _episodes(None)}
    eid = next(iter(by_id))
    rec = score_actions({"episode_id": eid, "actions": {"agent_0": ["Pick[no_such_object]"], "agent_1": []}}, by_id)
    assert rec["executable"] is False and rec["error_type"] == next(iter(rec["error_counts"]))


def test_subgoal_records_type_their_outcome():
    from eai_gym.eai.subgoal_output import with_plan_fields

    assert with_plan_fields({"category": "NotParseable"})["error_type"] == "parsing"
    assert with_plan_fields({"category": "Hallucination"})["error_type"] == "hallucination"
    errors = [{"error_type": ["ADDITIONAL_STEP"]}, {"error_type": ["MISSING_STEP"]}]
    assert with_plan_fields({"category": "Runtime", "errors": errors})["error_type"] == "missing_step"
    assert with_plan_fields({"category": "Correct", "errors": errors[:1]})["error_type"] == "additional_step"
    assert with_plan_fields({"category": "Correct", "errors": [{"error_type": "WRONG_TEMPORAL_ORDER"}]})[
        "error_type"] == "wrong_order"
    rec = with_plan_fields({"status": "duplicate_identifier", "errors": [7, {"error_type": 3}]})
    assert (rec["success"], rec["executable"], rec["error_type"]) == (False, False, None)


def test_rearrange_fact_records_carry_identifier_message_and_success():
    from eai_gym.scoring.rearrange.facts import evaluate_case

    bad = evaluate_case({"case_id": "c1"}, "fixed")
    assert bad["identifier"] == "c1" and bad["message"] == bad["error"] and bad["success"] is False

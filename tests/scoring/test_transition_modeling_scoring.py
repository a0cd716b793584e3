"""Transition-modeling scorers: bad input, protocols, planner handling, jobs (reference agreement is in
tests/reference/test_transition_modeling.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eai_gym.eai import transition_modeling as tm
from eai_gym.eai.builtin_planner import BuiltinPlanner
from eai_gym.eai.planner import PLANNER_HINT, FastDownward, fast_downward_script
from eai_gym.eai.transition_modeling import world_scorer
from eai_gym.logic.pddl_logic_score import logic_score
from eai_gym.logic.pddl_operators import OperatorFormatError, complete_domain, extract_operators, parse_condition
from eai_gym.scoring.runner import run_items

bt = world_scorer("behavior")
vt = world_scorer("virtualhome")

needs_fd = pytest.mark.skipif(fast_downward_script() is None, reason="Fast Downward not installed (eai-gym[planner])")


def _reply(ops: str) -> str:
    return "```json\n" + json.dumps({"output": ops}) + "\n```"


def test_gold_operators_score_perfectly_in_both_worlds():
    for mod in (vt, bt):
        items = mod.gold_items()
        assert len(items) == len(mod.data().task_ids)
        for protocol in ("eai-1.0.5", "fixed"):
            records = [mod.score_item(x, protocol) for x in items]
            out = mod.summarize(records, protocol)
            assert out["summary"]["overall"]["precision"] == out["summary"]["overall"]["recall"] == 100.0
            assert out["format_wrong_num"] == 0
            # eai-eval 1.0.5 reads the gold BEHAVIOR operator slice-carvingknife as "slice", a hallucination
            expected = 3 if mod is bt and protocol == "eai-1.0.5" else 0
            assert out["hallucination_num"] == expected, protocol


def test_malformed_items_are_error_records_and_the_rest_is_scored():
    good = vt.gold_items()[0]
    items = [good, "not an object", {"llm_output": "x"}, {"identifier": "975_2", "llm_output": 5},
             {"identifier": "no_such_item", "llm_output": "(:action x)"}]
    records = [vt.score_item(x, "fixed") for x in items]
    assert [r["status"] for r in records] == ["scored"] + ["invalid_input"] * 4
    assert "llm_output" in records[3]["message"] and "no_such_item" in records[4]["message"]
    out = vt.summarize(records, "fixed")
    assert out["items"] == {"total": 5, "scored": 1, "format_error": 0, "error": [],
                            "invalid_input": ["975_2", "None", "None", "no_such_item"]}
    assert out["summary"]["overall"]["f1"] == 100.0


def test_unreadable_replies_are_format_errors():
    ident = vt.data().task_ids[0]
    for text in ['{"answer": "(:action walk_towards"}', '[1, 2]',
                 "(:action walk_towards :parameters (?c - character :precondition (a) :effect (b)"]:
        rec = vt.score_item({"identifier": ident, "llm_output": text}, "eai-1.0.5")
        assert rec["status"] == "format_error", text
    # no operator at all is not a format error in eai-eval 1.0.5: nothing is predicted
    rec = vt.score_item({"identifier": ident, "llm_output": "I do not know."}, "eai-1.0.5")
    assert rec["status"] == "scored" and rec["counts"]["total_predict_action_num"] == 0


def test_hallucinated_operators_are_counted_and_not_scored():
    ident = "975_2"  # gold operators: walk_towards only
    ops = vt.data().gold_operators
    text = "".join(f"(:action {n} :parameters {ops[n]['action_parameters']} :precondition "
                   f"{ops[n]['action_preconditions']} :effect {ops[n]['action_effects']})"
                   for n in ("walk_towards", "grab"))
    rec = vt.score_item({"identifier": ident, "llm_output": _reply(text)}, "eai-1.0.5")
    assert [(o["name"], o["hallucinated"]) for o in rec["operators"]] == [("walk_towards", False), ("grab", True)]
    assert rec["counts"]["hallucination_num"] == 1 and rec["counts"]["total_predict_action_num"] == 2


def test_fixed_protocol_reports_a_matched_argument_as_matched():
    pred, gold = "(and (a ?x) (b ?x) (c ?x))", "(and (c ?x))"
    ref = logic_score(pred, gold, "eai-1.0.5")
    fixed = logic_score(pred, gold, "fixed")
    assert ref.matched == fixed.matched == {"c"}
    assert ref.unmatched_predicted == {"a", "b", "c"}  # row 2 is matched, but 2 is no matched column
    assert fixed.unmatched_predicted == {"a", "b"}


def test_fixed_protocol_counts_each_item_once_in_the_overall_planner_rate():
    def rec(ident, cats, solved):
        return {"identifier": ident, "status": "scored", "planner": {"verdict": "solved" if solved else "unsolved"},
                "counts": {"precond_predicate_type_res": {"object_states": [1, 0, 0]},
                           "success_by_task_type": {c: [int(solved), 1] for c in cats}}}
    records = [rec("a", ["object_states", "spatial_relations", "object_affordance"], True), rec("b", ["object_states"], False)]
    assert tm.summarize(records, "eai-1.0.5")["summary"]["overall"]["planner_success_rate"] == 75.0
    assert tm.summarize(records, "fixed")["summary"]["overall"]["planner_success_rate"] == 50.0


def test_without_a_planner_the_planner_columns_are_marked_not_computed():
    records = [vt.score_item(x, "eai-1.0.5", planner="none") for x in vt.gold_items()[:3]]
    out = vt.summarize(records, "eai-1.0.5", planner="none")
    assert all(v["planner_success_rate"] is None for v in out["summary"].values())
    assert out["planner"]["computed"] is False and out["planner"]["hint"] == PLANNER_HINT
    assert out["planner"]["name"] == "none"


def test_unknown_protocol_and_planner_are_refused():
    with pytest.raises(ValueError, match="protocol"):
        vt.score_item(vt.gold_items()[0], "eai-2")
    with pytest.raises(ValueError, match="planner"):
        vt.score_item(vt.gold_items()[0], "fixed", planner="ff")


def test_jobs_on_two_workers_equal_the_serial_records():
    items = [x for x in json.loads(json.dumps(bt.gold_items()[:6]))]
    items[2]["llm_output"] = "{}"
    jobs = bt.jobs(items, "eai-1.0.5", "none")
    serial = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=1)
    parallel = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=2)
    assert serial == parallel
    assert jobs.summarize(serial) == bt.summarize(serial, "eai-1.0.5", planner="none")


@pytest.mark.parametrize("planner,version", [pytest.param("fast-downward", "Fast Downward", marks=needs_fd),
                                             ("builtin", "builtin")])
def test_planner_solves_gold_domains_and_names_its_version(planner, version):
    for mod in (vt, bt):
        items = mod.gold_items()[:2]
        jobs = mod.jobs(items, "fixed", planner)
        records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=2)
        out = jobs.summarize(records)
        assert [r["planner"]["verdict"] for r in records] == ["solved", "solved"]
        assert out["summary"]["overall"]["planner_success_rate"] == 100.0
        assert out["planner"]["name"] == planner and version in out["planner"]["version"]


@needs_fd
def test_fast_downward_timeout_and_unreadable_domain_are_item_verdicts():
    data = vt.data()
    ident = data.task_ids[0]
    fd = FastDownward()
    slow = fd.solve(data.base_domain + ")", data.problems[ident], timeout=0.001)
    assert slow["verdict"] == "timeout"
    broken = fd.solve("(define (domain broken", data.problems[ident], timeout=60)
    assert broken["verdict"] == "unsolved"
    rec = vt.score_item({"identifier": ident, "llm_output": vt.gold_items()[0]["llm_output"]}, "fixed",
                        planner=fd, timeout=0.001)
    assert rec["planner"]["verdict"] == "timeout"
    assert vt.summarize([rec], "fixed", planner=fd)["planner"]["timed_out"] == [ident]


def test_condition_parser_shapes():
    assert parse_condition("(and (next_to ?c ?o) (not (open ?o)))") == ("and", "next_to ?c ?o", ("not", "open ?o"))
    assert parse_condition("()") == "()"
    assert parse_condition(" ( ") == "("
    for bad in ["", "(a", "a)", "(a)(b)", "(not (a) (b))", "((and (a)) b)"]:
        with pytest.raises(ValueError):
            parse_condition(bad)


_PIECES = list("() ;:-?\nabnotdrwhexisfl_") + ["(:action ", ":parameters", ":precondition", ":effect", "(and ", "(not "]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_no_reply_crashes_the_scorer(text):
    try:
        ops = extract_operators(text)
    except OperatorFormatError:
        return
    for op in ops.values():
        logic_score(op["action_preconditions"], "(and (a ?x) (not (b ?x)))", "eai-1.0.5")
        logic_score(op["action_effects"], "(forall (?o - object) (when (a ?o) (b ?o)))", "fixed")
    rec = vt.score_item({"identifier": "975_2", "llm_output": text}, "eai-1.0.5")
    assert rec["status"] in ("scored", "format_error")


def test_builtin_planner_verdicts_unreadable_unsolvable_and_timeout():
    data = vt.data()
    ident = data.task_ids[0]
    planner = BuiltinPlanner()
    gold = complete_domain(data.base_domain, {}, data.gold_operators)
    assert planner.solve(gold, data.problems[ident], 60)["verdict"] == "solved"
    broken = gold[:-1] + "(:action walk :parameters (?c) :effect (flying ?c)))"
    out = planner.solve(broken, data.problems[ident], 60)
    assert out["verdict"] == "unsolved" and "undefined predicate" in out["message"]
    no_ops = gold[: gold.index("(:action")] + ")"
    assert planner.solve(no_ops, data.problems[ident], 60)["verdict"] == "unsolved"
    assert planner.solve(gold, data.problems[ident], 0)["verdict"] == "timeout"

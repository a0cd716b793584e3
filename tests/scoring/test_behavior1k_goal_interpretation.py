"""BEHAVIOR-1K goal interpretation: the :goal grounded as EAI grounds BEHAVIOR goals, scored by EAI's BEHAVIOR scorer."""

from __future__ import annotations

import json

import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.envs.behavior1k import interpretation as I
from eai_gym.envs.behavior1k.data import activity_names
from eai_gym.scoring.behavior1k import goal_interpretation as GI


def reply(node: list, edge: list) -> str:
    return json.dumps({"node goals": node, "edge goals": edge})


def item(activity: str, text: str) -> dict:
    return {"identifier": activity, "llm_output": text}


@pytest.mark.parametrize("protocol", ["fixed", "eai-1.0.5"])
def test_gold_scores_perfectly_over_all_activities(tmp_path, protocol):
    out = tmp_path / "gold.json"
    assert main(["score", "behavior1k", "--gold", "--mode", "goal_interpretation", "--protocol", protocol,
                 "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    summary = result["summary"]
    assert result["n_items"] == len(activity_names()) == 1016
    for section, key in (("overall", "overall_confusion_metrics"), ("state_goal", "state_goal_confusion_metrics"),
                         ("relation_goal", "relation_goal_confusion_metrics")):
        assert summary[section][key] == {"precision": 1.0, "recall": 1.0, "f1_score": 1.0}, section
        assert summary[section]["num_false_positive_conditions"] == 0
    assert summary["overall"]["num_GT_conditions"] == summary["overall"]["num_satisfied_conditions"] > 5000
    errors = summary["grammatical_errors"]
    assert errors["grammatically_valid_rate"] == 1.0 and errors["object_hallucination_num"] == 0
    assert result["counters"]["evaluated"] == 1016 and result["counters"]["missing"] == 0


def test_quantifiers_ground_into_every_option():
    # forpairs over 4 baskets and 4 candles: all 4! pairings (bddl's capped grounding keeps 10)
    pairs = I.gold_conditions("assembling_gift_baskets")["1"]
    assert len(pairs) == 24 and all(len(o) == 4 for o in pairs)
    assert len({json.dumps(sorted(o)) for o in pairs}) == 24
    # forall: one option over every instance, future ones included
    goal = I.gold_conditions("picking_fruit_and_vegetables")
    assert [len(opts) for opts in goal.values()][3] == 1  # (forall mango: inside mango basket)
    assert goal["4"][0] == [["inside", "mango.n.02_1", "shopping_basket.n.01_1"],
                            ["inside", "mango.n.02_2", "shopping_basket.n.01_1"]]


def test_double_negation_is_written_without_it():
    goal = I.gold_conditions("picking_fruit_and_vegetables")
    conditions = [c for opts in goal.values() for o in opts for c in o]
    assert ["covered", "eggplant.n.01_1", "stain.n.01_1"] in conditions
    assert not any(c[0] == "not" and c[1][0] == "not" for c in conditions)


def test_capped_conjuncts_are_the_documented_ones():
    assert I.capped_conjuncts() == {"make_fish_and_chips": [1], "make_lemon_pepper_wings": [4], "make_nachos": [6],
                                    "stacking_wood": [0, 2], "store_firewood_outdoors": [0]}


def test_any_pairing_the_goal_admits_scores_perfectly():
    other = []  # candle i in basket (i+1 mod 4), for each of the four kinds of gift
    for kind in ("candle.n.01", "swiss_cheese.n.01", "butter_cookie.n.01", "bow.n.08"):
        other += [["inside", f"{kind}_{i}", f"wicker_basket.n.01_{i % 4 + 1}"] for i in range(1, 5)]
    rec = GI.score_item(item("assembling_gift_baskets", reply([], other)))
    assert rec["status"] == "evaluated"
    assert rec["counts"]["satisfied"] == 16 and rec["counts"]["unsatisfied"] == 0
    assert rec["counts"]["false_positive"] == 0


def test_partial_reply_counts_and_node_edge_split():
    # clean_rubber: (not (covered hose stain)) (not (covered hose mud))
    text = reply([["cooked", "hose.n.03_1"]], [["not", ["covered", "hose.n.03_1", "stain.n.01_1"]],
                                                 ["ontop", "hose.n.03_1", "ghost.n.01_1"]])
    rec = GI.score_item(item("clean_rubber", text))
    c = rec["counts"]
    assert (c["predicted"], c["satisfied"], c["unsatisfied"], c["false_positive"]) == (3, 1, 1, 2)
    assert (c["node_predicted"], c["edge_predicted"], c["edge_satisfied"]) == (1, 2, 1)
    assert c["object_hallucination"] == 1 and c["state_hallucination"] == 0
    metrics = rec["detail"]["overall"]["overall_confusion_metrics"]
    assert metrics["precision"] == pytest.approx(1 / 3) and metrics["recall"] == 0.5


def test_bad_items_get_records_and_the_rest_is_scored():
    good = next(it for it in GI.gold_items() if it["identifier"] == "store_rugs")
    items = [good, "not an item", {"identifier": "clean_rubber"}, item("clean_rubber", 5),
             item("no_such_activity", reply([], [])), item("adding_chemicals_to_hot_tub", "no json here"),
             item("assembling_gift_baskets", reply([[]], [])), item("clean_rubber", '{"node goals": 5}')]
    records = [GI.score_item(it) for it in items]
    assert [r["status"] for r in records] == ["evaluated", "invalid_input", "invalid_input", "invalid_input",
                                              "ignored", "format_error", "invalid_input", "evaluated"]
    assert records[7]["skipped_keys"] == ["node goals"]  # fixed: a value that is not a list is skipped
    assert GI.score_item(items[7], "eai-1.0.5")["status"] == "invalid_input"  # the reference raises there
    assert "1,016 BEHAVIOR-1K activities" in records[4]["message"]
    assert records[6]["counts"]["predicted"] == 0  # scored as predicting nothing
    final, tally = GI.final_records(records)
    assert len(final) == 1016 and tally["missing"] == 1016 - 4 and tally["superseded"] == 2
    summary = GI.summarize(records)
    assert summary["overall"]["num_satisfied_conditions"] == records[0]["counts"]["satisfied"] > 0


def test_string_values_are_conditions_only_under_eai():
    text = json.dumps({"node goals": [], "edge goals": [], "explanation": "ok"})
    eai = GI.score_item(item("clean_rubber", text), "eai-1.0.5")
    fixed = GI.score_item(item("clean_rubber", text), "fixed")
    assert eai["counts"]["predicted"] == 2 and eai["counts"]["format_error"] == 2
    assert fixed["counts"]["predicted"] == 0 and fixed["skipped_keys"] == ["explanation"]


def test_registry_mode_and_jobs():
    mode = registry.mode("behavior1k", "goal_interpretation")
    assert mode.protocols == ("fixed", "eai-1.0.5") and mode.prompts and mode.gold
    jobs = registry.load(mode.jobs)(GI.gold_items()[:3], "eai-1.0.5", {}, mode)
    records = [jobs.fn(jobs.init(*jobs.init_args), u) for u in jobs.units]
    out = jobs.summarize(records)
    assert out["counters"]["evaluated"] == 3 and out["counters"]["missing"] == 1013
    with pytest.raises(ValueError, match="unknown protocol"):
        GI.goal_interpretation_jobs([], "bddl-3.6.0")

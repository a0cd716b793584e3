"""``eai-gym score WORLD --mode similarity`` and the similarity block in every action scorer's records."""

from __future__ import annotations

import json

import pytest

from eai_gym.cli import main
from eai_gym.metrics import plan_edit_distance, plan_jaccard, plan_lcs
from eai_gym.scoring.similarity import gold_items, score_items

WORLDS = ("virtualhome", "behavior", "rearrange", "alfworld")


@pytest.mark.parametrize("world", WORLDS)
def test_gold_against_gold_is_identical(world):
    items = gold_items(world)[:25]
    res = score_items(world, items)
    assert res["summary"]["plans"] == 25 and res["summary"]["exact_match_rate"] == 1.0
    assert all(r["lcs"] == r["jaccard"] == 1.0 and r["edit_distance"] == 0 for r in res["tasks"])


def test_virtualhome_values_are_the_metric_functions():
    item = gold_items("virtualhome")[3]
    ident = item["identifier"]
    lines = json.loads(item["llm_output"], object_pairs_hook=list)  # EAI outputs repeat keys
    script = [f"[{k}]" + "".join(f" <{v[i]}> ({v[i + 1]})" for i in range(0, len(v), 2)) for k, v in lines]
    mutated = script[1:] + [script[0], "[SLEEP]"]
    llm = "{" + ", ".join(f'"{k}": {json.dumps(v)}' for k, v in lines[1:] + [lines[0], ("SLEEP", [])]) + "}"
    rec = score_items("virtualhome", [{"identifier": ident, "llm_output": llm}])["tasks"][0]
    assert rec["lcs"] == plan_lcs(mutated, script, structured=True)
    assert rec["jaccard"] == plan_jaccard(mutated, script, structured=True)
    assert rec["edit_distance"] == plan_edit_distance(mutated, script, structured=True) == 3


def test_reference_file_and_bad_items_stay_alone(tmp_path):
    gold = gold_items("alfworld")[:3]
    mine = [{"game": 0, "commands": gold[0]["commands"][:-1]},  # one command short
            {"game": 1, "commands": "not a list"},              # malformed
            {"game": 2, "commands": []},
            {"game": 99, "commands": ["look"]}]                 # no reference for this game
    res = score_items("alfworld", mine, reference=gold)
    recs = res["tasks"]
    n = len(gold[0]["commands"])
    assert recs[0]["status"] == "evaluated" and recs[0]["lcs"] == (n - 1) / n and recs[0]["edit_distance"] == 1
    assert recs[1]["status"] == "invalid_input" and "list of strings" in recs[1]["message"]
    assert recs[2]["lcs"] == 0.0 and recs[2]["edit_distance"] == len(gold[2]["commands"])
    assert recs[3]["status"] == "invalid_input" and "no plan" in recs[3]["message"]
    assert res["summary"]["plans"] == 2 and res["summary"]["invalid_input"] == 2


def test_rearrange_is_per_agent_without_waits():
    item = gold_items("rearrange")[0]
    acts = dict(item["actions"])
    acts["agent_1"] = list(reversed(acts["agent_1"])) + ["Wait[]"] * 5
    rec = score_items("rearrange", [{"episode_id": item["episode_id"], "actions": acts}])["tasks"][0]
    assert rec["agents"]["agent_0"]["lcs"] == 1.0 and rec["agents"]["agent_1"]["jaccard"] == 1.0
    assert rec["agents"]["agent_1"]["lcs"] < 1.0
    assert rec["lcs"] == (1.0 + rec["agents"]["agent_1"]["lcs"]) / 2


@pytest.mark.parametrize("world", WORLDS)
def test_cli_similarity_mode(world, tmp_path, capsys):
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps(gold_items(world)[:4] + [{"oops": 1}]))
    out = tmp_path / "out.json"
    assert main(["score", world, str(plans), "--mode", "similarity", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["mode"] == "similarity" and data["reference"] == "gold"
    assert [t["status"] for t in data["tasks"]] == ["evaluated"] * 4 + ["invalid_input"]
    assert main(["score", world, str(plans), "--mode", "similarity", "--reference", str(tmp_path / "nope.json")]) == 2


def test_action_scorers_carry_similarity(tmp_path):
    from eai_gym.scoring.behavior import score_item as beh
    from eai_gym.scoring.virtualhome.action_sequencing import score_item as vh

    item = gold_items("virtualhome")[0]
    assert vh(item)["similarity"]["lcs"] == 1.0
    item = gold_items("behavior")[0]
    assert beh(item)["similarity"]["edit_distance"] == 0


def test_subgoal_scorers_carry_similarity():
    from eai_gym.envs.behavior.subgoals import gold_subgoal_plan
    from eai_gym.envs.behavior.tasks import task_ids, task_record
    from eai_gym.scoring.behavior.subgoal_decomposition import score_items

    t = task_ids()[5]
    gold = gold_subgoal_plan(task_record(t))
    recs = score_items([{"identifier": t, "llm_output": json.dumps({"output": gold[1:]})}])["tasks"]
    n = len(gold)
    assert recs[0]["similarity"]["edit_distance"] == 1 and recs[0]["similarity"]["lcs"] == (n - 1) / n

"""``eai-gym evaluate`` end to end against the fake server: every registered mode, resume, refusals."""

from __future__ import annotations

import json
import os

import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.evaluate.targets import modes_of
from eai_gym.scoring.score import score

from .test_episodes import oracle_answer

PROMPT_MODES = [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.prompts]


def evaluate(*args: str) -> int:
    return main(["evaluate", *args])


def test_alfworld_episodes_then_resume_asks_nothing(tmp_path, fake_server, capsys):
    server = fake_server(answer=oracle_answer(), transient={"server_error": 0.2})
    run = str(tmp_path / "run")
    common = ["alfworld", "--mode", "episodes", "--model", "fake-model", "--base-url", server.base_url,
              "--run-dir", run, "--task", "0", "--task", "2", "--max-steps", "30", "--concurrency", "2"]
    assert evaluate(*common) == 0
    result = json.load(open(os.path.join(run, "results.json")))
    assert [t["identifier"] for t in result["tasks"]] == ["0", "2"] and result["summary"]["success_rate"] == 1.0
    settings = json.load(open(os.path.join(run, "settings.json")))
    assert settings["model"] == ["fake-model"] and settings["endpoint"] == server.base_url
    assert settings["sampling"] == {"temperature": 0.0, "max_tokens": None, "seed": None}
    asked = server.requests
    assert evaluate(*common) == 2  # an existing run needs --resume
    assert "--resume" in capsys.readouterr().err
    os.unlink(os.path.join(run, "results.json"))
    assert evaluate(*common, "--resume") == 0 and server.requests == asked
    assert json.load(open(os.path.join(run, "results.json"))) == result


def test_api_key_comes_from_the_environment_only(tmp_path, fake_server, monkeypatch):
    server = fake_server(answer=oracle_answer(), api_key="sk-test-secret")
    monkeypatch.setenv("MY_KEY", "sk-test-secret")
    run = tmp_path / "run"
    args = ["alfworld", "--mode", "episodes", "--model", "m", "--base-url", server.base_url, "--run-dir", str(run),
            "--task", "1", "--api-key-env", "MY_KEY"]
    assert evaluate(*args) == 0
    for root, _, files in os.walk(run):
        for f in files:
            assert "sk-test-secret" not in open(os.path.join(root, f), encoding="utf-8").read()
    monkeypatch.setenv("MY_KEY", "wrong")
    assert evaluate(*args[:-4], "--run-dir", str(tmp_path / "other"), "--task", "1", "--api-key-env", "MY_KEY") == 2


def test_two_models_play_rearrange(tmp_path, fake_server):
    seen = []

    def answer(messages):
        seen.append(messages)
        return "Done[]"
    server = fake_server(answer=answer)
    run = tmp_path / "run"
    assert evaluate("rearrange", "--mode", "episodes", "--model", "agent_0=robot-model", "--model", "agent_1=human-model",
                    "--base-url", server.base_url, "--run-dir", str(run), "--limit", "1") == 0
    result = json.load(open(run / "results.json"))
    assert result["tasks"][0]["models"] == {"agent_0": "robot-model", "agent_1": "human-model"}
    log = [json.loads(line) for line in open(run / "requests.jsonl")]
    assert {x["item"].split("#")[1] for x in log} == {"agent_0", "agent_1"}


@pytest.mark.parametrize("args,message", [
    (["alfworld", "--mode", "episodes", "--model", "a", "--model", "b"], "one --model"),
    (["rearrange", "--mode", "episodes", "--model", "agent_7=x"], "unknown agent"),
    (["alfworld", "--mode", "episodes", "--model", "m", "--task", "9999"], "unknown task"),
    (["alfworld", "--mode", "commands", "--model", "m"], "invalid choice"),
])
def test_bad_options_exit_2_before_any_call(tmp_path, fake_server, capsys, args, message):
    server = fake_server()
    try:
        code = evaluate(*args, "--base-url", server.base_url, "--run-dir", str(tmp_path / "run"))
    except SystemExit as e:  # argparse
        code = e.code
    assert code == 2 and message in capsys.readouterr().err and server.requests == 0


def test_unwritable_run_dir_exits_2_before_any_call(fake_server, capsys):
    server = fake_server()
    assert evaluate("alfworld", "--mode", "episodes", "--model", "m", "--base-url", server.base_url,
                    "--run-dir", "/proc/eai-gym-run") == 2
    assert "cannot" in capsys.readouterr().err and server.requests == 0


def test_every_world_lists_episodes():
    assert {w.name for w in registry.worlds() if "episodes" in modes_of(w)} >= {
        "alfworld", "virtualhome", "behavior", "rearrange"}


@pytest.mark.parametrize("world,mode", PROMPT_MODES)
def test_prompt_mode_end_to_end_equals_scoring_the_replies(tmp_path, fake_server, world, mode):
    """A model that answers every prompt with the gold output scores what `eai-gym score --gold` scores."""
    spec = registry.mode(world, mode)
    options = {o.name: o.default for o in spec.options}
    prompts = spec.prompt_items(spec.default_protocol, options)[:8]
    gold = {it["identifier"]: it["llm_output"] for it in spec.gold_items(options)}
    plain = {p["identifier"]: p["identifier"].removeprefix("scene_1_") for p in prompts}  # VirtualHome subgoal ids
    by_prompt = {p["llm_prompt"]: gold[plain[p["identifier"]]] for p in prompts}
    server = fake_server(answer=lambda messages: by_prompt[messages[-1]["content"]])
    run = tmp_path / "run"
    assert evaluate(world, "--mode", mode, "--model", "m", "--base-url", server.base_url, "--run-dir", str(run),
                    "--limit", "8") == 0
    result = json.load(open(run / "results.json"))
    replies = json.load(open(run / "replies.json"))
    expected = score(spec, spec.default_protocol, options, items=replies, paths=["replies.json"])[0]
    assert result["summary"] == expected["summary"] and len(result["tasks"]) == len(prompts)
    assert all(t["status"] not in ("invalid_input", "evaluation_error") for t in result["tasks"])


def test_behavior1k_episode_with_a_model_that_follows_the_gold_plan(tmp_path, fake_server):
    from eai_gym.envs.behavior1k.gold import gold_plan

    activity = "adding_chemicals_to_hot_tub"
    plan = list(gold_plan(activity))

    def answer(messages):
        task = messages[-1]["content"].split("Your task:", 1)[1]
        done = sum(1 for line in task.splitlines() if line.startswith("> "))
        return plan[done] if done < len(plan) else "WAIT()"
    server = fake_server(answer=answer)
    run = tmp_path / "run"
    assert evaluate("behavior1k", "--mode", "episodes", "--model", "m", "--base-url", server.base_url,
                    "--run-dir", str(run), "--task", activity, "--admissible") == 0
    rec = json.load(open(run / "results.json"))["tasks"][0]
    assert rec["success"] and [a["action"] for a in rec["actions"]] == plan


def test_task_ids_resolve_exactly_or_by_their_last_part():
    from eai_gym.evaluate.command import resolve_task_ids

    known = ["scene_1_27_2", "scene_1_417_1", "7_2"]
    assert resolve_task_ids(known, ["417_1", "scene_1_27_2"]) == ["scene_1_27_2", "scene_1_417_1"]
    assert resolve_task_ids(known, ["7_2"]) == ["7_2"]  # exact first: not scene_1_27_2
    with pytest.raises(ValueError, match="'nope'"):
        resolve_task_ids(known, ["27_2", "nope"])


def test_virtualhome_subgoal_evaluate_takes_plain_task_ids(tmp_path, fake_server):
    server = fake_server(answer=lambda messages: '{"output": []}')
    run = tmp_path / "run"
    assert evaluate("virtualhome", "--mode", "subgoal_decomposition", "--model", "m", "--base-url", server.base_url,
                    "--run-dir", str(run), "--task", "27_2") == 0
    assert [t["identifier"] for t in json.load(open(run / "replies.json"))] == ["scene_1_27_2"]


@pytest.mark.parametrize("mode", ["action_sequencing", "goal_interpretation"])
def test_behavior1k_evaluate_equals_eai_gym_score_on_its_replies(tmp_path, fake_server, mode):
    """Gold, wrong and unreadable answers: evaluate's summary is what ``eai-gym score`` gives on replies.json."""
    spec = registry.mode("behavior1k", mode)
    prompts = {p["llm_prompt"]: p["identifier"] for p in spec.prompt_items(spec.default_protocol, {})[:6]}
    gold = {it["identifier"]: it["llm_output"] for it in spec.gold_items({})}
    wrong = {"action_sequencing": '[{"action": "OPEN", "object": "no_such.n.01_1"}]',
             "goal_interpretation": '{"node goals": [["cooked", "ghost.n.01_1"]], "edge goals": [[]]}'}[mode]

    def answer(messages):
        ident = prompts[messages[-1]["content"]]
        k = list(prompts.values()).index(ident)
        return [gold[ident], wrong, "I cannot answer that."][k % 3]
    server = fake_server(answer=answer)
    run = tmp_path / "run"
    assert evaluate("behavior1k", "--mode", mode, "--model", "m", "--base-url", server.base_url,
                    "--run-dir", str(run), "--limit", "6") == 0
    result = json.load(open(run / "results.json"))
    assert [t["identifier"] for t in result["tasks"]] == list(prompts.values())
    out = tmp_path / "scored.json"
    assert main(["score", "behavior1k", str(run / "replies.json"), "--mode", mode, "--out", str(out)]) == 0
    scored = json.load(open(out))
    assert scored["summary"] == result["summary"]
    assert [t.get("status") for t in scored["tasks"]] == [t.get("status") for t in result["tasks"]]
    if mode == "goal_interpretation":
        assert [t["status"] for t in result["tasks"]][:3] == ["evaluated", "invalid_input", "format_error"]
    else:
        assert [t["success"] for t in result["tasks"]][:3] == [bool(json.loads(gold[i])) for i in
                                                               list(prompts.values())[:1]] + [False, False]

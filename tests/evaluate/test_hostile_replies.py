"""No model reply crashes ``eai-gym evaluate`` or its ``--resume``, in any world and mode: lone surrogates are
stored losslessly, an exception from an env step or a scorer is that step's or item's error record, a huge
reply is clipped in the history and the log (the cache keeps it whole)."""

from __future__ import annotations

import json
import os

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.evaluate.client import ChatReply, ChatRequest, ModelClient
from eai_gym.evaluate.episodes import EpisodePlayer, history_text, run_episodes, without_echo
from eai_gym.evaluate.offline import score_isolated
from eai_gym.evaluate.rundir import RunDir
from eai_gym.evaluate.targets import modes_of

from .conftest import read_json
from .test_episodes import SETTINGS, alfworld_player

EVALUATE_MODES = [(w.name, m) for w in registry.worlds() for m in modes_of(w)]
EPISODE_WORLDS = [w.name for w in registry.worlds() if "episodes" in modes_of(w)]
#: replies that broke a parser or an encoder somewhere (each is also a fault of the fake server)
HOSTILE = ["surrogate", "nested", "digits"]


def evaluate(server, run, world, mode, *extra: str) -> int:
    return main(["evaluate", world, "--mode", mode, "--model", "fake-model", "--base-url", server.base_url,
                 "--run-dir", str(run), "--limit", "2", "--max-steps", "3", *extra])


def cached_contents(run) -> list[str]:
    out = []
    for root, _, files in os.walk(os.path.join(run, "cache")):
        for f in files:
            if f.endswith(".json") and not f.startswith(".tmp"):
                out.append(read_json(os.path.join(root, f))["reply"]["content"])
    return out


@pytest.mark.parametrize("world,mode", EVALUATE_MODES)
@pytest.mark.parametrize("fault", HOSTILE)
def test_hostile_reply_is_recorded_and_resume_asks_nothing(tmp_path, fake_server, world, mode, fault):
    server = fake_server(answer=lambda messages: "[WALK] <kitchen> (1)", content={fault: 1.0})
    run = tmp_path / "run"
    assert evaluate(server, run, world, mode) == 0
    result = read_json(run / "results.json")
    assert result["n_items"] == len(result["tasks"]) > 0
    log = [json.loads(line) for line in open(run / "requests.jsonl", encoding="utf-8")]
    assert log and all(x["error"] is None for x in log)
    if fault == "surrogate":  # kept exactly as the model sent it: in the log, the cache and (offline) replies.json
        assert all(x["reply"].endswith("\ud800") for x in log)
        assert cached_contents(run) and all(c.endswith("\ud800") for c in cached_contents(run))
        if mode != "episodes":
            assert all(r["llm_output"].endswith("\ud800") for r in read_json(run / "replies.json"))
    asked = server.requests
    os.unlink(run / "results.json")
    assert evaluate(server, run, world, mode, "--resume") == 0
    assert server.requests == asked  # every reply came from the cache
    again = read_json(run / "results.json")  # (transition modeling records carry the planner's timings)
    assert again["summary"] == result["summary"]
    assert [(t["identifier"], t.get("status")) for t in again["tasks"]] == [
        (t["identifier"], t.get("status")) for t in result["tasks"]]


class _Exploding(gym.Wrapper):
    """An env whose step raises on one action (any exception an env or a parser might raise)."""

    def step(self, action):
        if "explode" in action:
            raise RecursionError("maximum recursion depth exceeded")
        return self.env.step(action)


def test_an_env_that_raises_is_the_steps_error_record_and_the_run_goes_on(tmp_path, fake_server):
    base = alfworld_player()

    def make_env(task):
        if task == "2":
            raise ValueError("no such game")
        env, options = base.make_env(task)
        return _Exploding(env), options

    player = EpisodePlayer(make_env, base.legal_actions, base.feedback, base.instructions, base.examples)
    # the second reply of every game makes its env raise
    server = fake_server(answer=lambda messages: "explode" if "History" in messages[-1]["content"] else "look")

    def play(resume):
        client = ModelClient(server.base_url, "k", backoff_s=0.01, timeout_s=5)
        with RunDir(str(tmp_path), SETTINGS, resume) as run:
            return run_episodes(run, client, player, ["0", "1", "2"], model="fake-model",
                                sampling={"temperature": 0.0}, system_prompt=None, concurrency=2, max_steps=4,
                                admissible=False)
    result = play(False)
    by_task = {r["identifier"]: r for r in result["tasks"]}
    assert [r["identifier"] for r in result["tasks"]] == ["0", "1", "2"]
    exploded = [r for r in result["tasks"] if r["status"] == "env_error" and r["actions"]]
    assert [r["identifier"] for r in exploded] == ["0", "1"]
    for r in exploded:
        assert [a["action"] for a in r["actions"]] == ["look", "explode"]
        last = r["actions"][-1]
        assert last["error_type"] == "env_error" and "RecursionError" in last["message"] and last["ok"] is False
        assert "RecursionError" in r["error"]
    assert by_task["2"]["status"] == "env_error" and "no such game" in by_task["2"]["error"]
    assert result["summary"]["env_errors"] == len(exploded) + 1
    asked = server.requests
    assert play(True) == result and server.requests == asked  # the cached reply replays to the same record


def test_a_scorer_that_raises_on_one_reply_loses_only_that_reply():
    def score(items):
        if any("bomb" in it["llm_output"] for it in items):
            raise RecursionError("deep")
        return {"summary": {"n": len(items)}, "tasks": [{"identifier": it["identifier"], "status": "evaluated"}
                                                        for it in items]}
    items = [{"identifier": "a", "llm_output": "fine"}, {"identifier": "b", "llm_output": "bomb"},
             {"identifier": "c", "llm_output": "fine"}]
    scored = score_isolated(score, items)
    assert scored["summary"] == {"n": 3} and [t["identifier"] for t in scored["tasks"]] == ["a", "b", "c"]
    assert "RecursionError" in scored["tasks"][1]["scoring_error"]
    assert "scoring_error" not in scored["tasks"][0] and "scoring_error" not in scored["tasks"][2]


@pytest.mark.parametrize("world", EPISODE_WORLDS)
def test_a_huge_reply_is_clipped_in_the_history_the_log_and_the_results(tmp_path, fake_server, world):
    size = 2_000_000
    seen: list[int] = []

    def answer(messages):
        seen.append(len(messages[-1]["content"]))
        return "ok"
    server = fake_server(answer=answer, content={"huge": 1.0}, huge_chars=size)
    run = tmp_path / "run"
    assert main(["evaluate", world, "--mode", "episodes", "--model", "fake-model", "--base-url", server.base_url,
                 "--run-dir", str(run), "--limit", "1", "--max-steps", "5", "--max-reply-chars", "1000"]) == 0
    assert len(seen) >= 5
    growth = max(b - a for a, b in zip(seen, seen[1:]))
    assert growth < 30_000, f"a prompt grew by {growth} characters in one step"
    prompts = [x["prompt"][-1]["content"] for x in map(json.loads, open(run / "requests.jsonl", encoding="utf-8"))]
    assert any("characters left out" in p for p in prompts)
    for x in map(json.loads, open(run / "requests.jsonl", encoding="utf-8")):
        assert x["reply_chars"] == size and len(x["reply"]) < 60_000 and "more characters not shown" in x["reply"]
    assert os.path.getsize(run / "requests.jsonl") < 2_000_000 and os.path.getsize(run / "results.json") < 500_000
    assert all(len(c) == size for c in cached_contents(run))  # the cache keeps the whole reply


def test_history_text_and_echo_clipping():
    assert history_text("short", 10) == "short"
    clipped = history_text("a" * 50 + "b" * 50, 20)
    assert clipped.startswith("a" * 10) and clipped.endswith("b" * 10) and "80 characters left out" in clipped
    assert history_text("x\ud800y", 10) == "x\ufffdy"
    action = "z" * 5000
    echoed = without_echo(f"Feedback: {action[:4000]}!", action, 100)  # an echo cut short by the env
    assert len(echoed) < 300 and echoed.startswith("Feedback: zzz") and echoed.endswith("!")
    assert without_echo("plain feedback", action, 100) == "plain feedback"
    assert without_echo(f"said {action}", action, 10_000) == f"said {action}"


def test_a_cache_entry_that_is_not_a_reply_is_asked_again(tmp_path):
    request = ChatRequest.of("m", [{"role": "user", "content": "a"}])
    with RunDir(str(tmp_path), SETTINGS, False) as run:
        run.store(request, ChatReply("yes\ud800", 3, 1, "stop"))
        assert run.cached(request).content == "yes\ud800"
        path = run._cache_path(request.key())
        for junk in ("[1, 2]", '{"reply": []}', '{"reply": {"content": 7}}', "[" * 100_000, "\xff"):
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(junk)
            assert run.cached(request) is None


def test_a_surrogate_in_an_episode_reply_reaches_the_env_and_later_prompts_can_be_sent(tmp_path, fake_server):
    server = fake_server(answer=lambda messages: "go to desk 1\ud800")
    client = ModelClient(server.base_url, "k", backoff_s=0.01, timeout_s=5)
    with RunDir(str(tmp_path), SETTINGS, False) as run:
        result = run_episodes(run, client, alfworld_player(), ["0"], model="fake-model", sampling={},
                              system_prompt=None, concurrency=1, max_steps=3, admissible=False)
    rec = result["tasks"][0]
    assert rec["status"] == "max_steps" and [a["action"] for a in rec["actions"]] == ["go to desk 1\ud800"] * 3
    assert all("request_error" not in a for a in rec["actions"])


ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=300)  # lone surrogates included


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reply=ANY_TEXT)
def test_any_reply_round_trips_through_the_cache_and_the_log(tmp_path, reply):
    request = ChatRequest.of("m", [{"role": "user", "content": reply}])
    path = tmp_path / str(abs(hash(reply)))
    with RunDir(str(path), SETTINGS, False) as run:
        run.store(request, ChatReply(reply, 1, 1, "stop"))
        assert run.cached(request).content == reply
        run.log("x", request, ChatReply(reply, 1, 1, "stop"), False)
    line = json.loads(open(path / "requests.jsonl", encoding="utf-8").read())
    assert line["reply"] == reply and line["prompt"][0]["content"] == reply


@settings(max_examples=200, deadline=None)
@given(text=ANY_TEXT, action=ANY_TEXT, limit=st.integers(1, 50))
def test_what_a_prompt_carries_is_bounded_and_encodable(text, action, limit):
    shown = history_text(text, limit)
    assert len(shown) <= min(len(text), limit + 60)
    shown.encode("utf-8")  # no lone surrogate left
    echoed = text + action + text
    assert len(without_echo(echoed, action, limit)) <= len(echoed)

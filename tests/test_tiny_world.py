"""A world is added in one place: this module defines a tiny world (a box, a key, a door; one scoring mode
with packaged gold plans), registers it with :func:`eai_gym.registry.register_world`, and runs ``eai-gym
list``, ``eai-gym score tiny --gold``, ``eai-gym report`` and the registry's env and mode checks on it —
without touching any package file."""

from __future__ import annotations

import json
import string
from types import SimpleNamespace
from typing import Any, Mapping

import gymnasium as gym
import pytest
import test_registry
import test_registry_modes
from gymnasium import spaces

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.scoring.jobs import Jobs, same

HERE = __name__  # entry points name this module
ENV_ID = "eai_gym_tests/Tiny-v0"
# ------------------------------------------------------------------------------ the world
#: action -> (facts it needs, fact it adds)
RULES = {"open box": ((), "box open"), "take key": (("box open",), "holding key"),
         "unlock door": (("holding key",), "door unlocked"), "open door": (("door unlocked",), "door open")}
TASKS = {"open_the_door": ("Open the door.", "door open"), "find_the_key": ("Take the key.", "holding key")}
GOLD = {"open_the_door": ["open box", "take key", "unlock door", "open door"], "find_the_key": ["open box", "take key"]}


def step_facts(facts: frozenset, action: Any) -> tuple[frozenset, str | None]:
    """The facts after ``action`` and the error (None: it executed)."""
    text = action.strip().lower() if isinstance(action, str) else None
    if text not in RULES:
        return facts, "unknown action"
    needs, adds = RULES[text]
    missing = [f for f in needs if f not in facts]
    return (facts, f"needs {missing[0]}") if missing else (facts | {adds}, None)


class TinyEnv(gym.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, task_id: str | None = None, protocol: str = "fixed", render_mode: str | None = None):
        chars = frozenset(string.printable)
        self.observation_space = spaces.Text(max_length=400, min_length=0, charset=chars)
        self.action_space = spaces.Text(max_length=200, min_length=0, charset=chars)
        self.task_id, self.protocol, self.render_mode = task_id, protocol, render_mode
        self.facts: frozenset = frozenset()
        self.current = task_id or "open_the_door"

    def _obs(self, note: str = "") -> str:
        return f"{TASKS[self.current][0]} You see: {', '.join(sorted(self.facts)) or 'a closed box, a locked door'}." + note

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        ids = sorted(TASKS)
        self.current = (options or {}).get("task_id") or self.task_id or ids[int(self.np_random.integers(len(ids)))]
        self.facts = frozenset()
        return self._obs(), {"task_id": self.current}

    def step(self, action: str):
        self.facts, error = step_facts(self.facts, action)
        done = TASKS[self.current][1] in self.facts
        return self._obs(f" ({error})" if error else ""), float(done), done, False, {"error": error}

    def render(self) -> str | None:
        return self._obs() if self.render_mode == "ansi" else None


# ------------------------------------------------------------------------------ its scoring mode
def score_unit(ctx: tuple, item: Any) -> dict:
    ident = item.get("identifier") if isinstance(item, Mapping) else None
    rec: dict[str, Any] = {"identifier": ident, "status": "evaluated", "message": ""}
    if ident not in TASKS or not isinstance(item.get("actions"), list):
        return {**rec, "status": "invalid_input", "message": "an item is {identifier: a task, actions: [...]}"}
    facts, executed = frozenset(), 0
    for a in item["actions"]:
        facts, error = step_facts(facts, a)
        if error:
            break
        executed += 1
    return {**rec, "task_id": ident, "success": TASKS[ident][1] in facts, "executed": executed,
            "actions": list(item["actions"])}


def summarize(records: list) -> dict:
    done = [r for r in records if r["status"] == "evaluated"]
    return {"summary": {"plans": len(done), "success_rate": sum(r["success"] for r in done) / len(done) if done else None}}


def plans_jobs(items: list, protocol: str, options: Mapping[str, Any], mode: Any) -> Jobs:
    return Jobs(score_unit, list(items), summarize, same, (protocol,))


def plans_gold(options: Mapping[str, Any], mode: Any = None) -> list:
    return [{"identifier": t, "actions": list(GOLD[t])} for t in sorted(TASKS)]


TASK_SET = SimpleNamespace(
    ids=lambda: sorted(TASKS), names=lambda: [TASKS[t][0] for t in sorted(TASKS)],
    card=lambda t: {"id": t, "name": t, "instruction": TASKS[t][0], "goal": [TASKS[t][1]],
                    "objects": ["box", "key", "door"], "gold_plan": GOLD[t], "gold_plan_source": "annotated"},
    play=lambda t, p: (ENV_ID, {"task_id": t, "protocol": p}, None), legal_actions=lambda env: sorted(RULES),
    category=lambda t: None)

WORLD = registry.WorldSpec(
    name="tiny", title="a box, a key and a door (2 tasks)",
    envs=(registry.EnvSpec(ENV_ID, f"{HERE}:TinyEnv", max_episode_steps=20),),
    task_set=f"{HERE}:TASK_SET",
    modes=(registry.ModeSpec("plans", "replay each plan's actions", ("fixed",), f"{HERE}:plans_jobs",
                             gold=f"{HERE}:plans_gold", inputs="one JSON file of {identifier, actions} items",
                             summary_keys=(registry.SummaryKey("success_rate"),)),),
)


@pytest.fixture
def tiny():
    registry.register_world(WORLD)
    yield WORLD
    registry.unregister_world("tiny")


# ------------------------------------------------------------------------------ the tests
def test_list_and_show_name_the_tiny_world(tiny, capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and ENV_ID in out and "tiny plans" in out
    assert main(["list", "tiny"]) == 0
    assert capsys.readouterr().out.splitlines() == ["find_the_key\tTake the key.", "open_the_door\tOpen the door."]
    assert main(["show", "tiny", "open_the_door", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["gold_plan"] == GOLD["open_the_door"]


def test_score_gold_and_a_plans_file_then_report(tiny, tmp_path, capsys):
    out = tmp_path / "gold.json"
    assert main(["score", "tiny", "--gold", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert (res["world"], res["mode"], res["protocol"], res["n_items"]) == ("tiny", "plans", "fixed", 2)
    assert json.loads(capsys.readouterr().out) == res["summary"] == {"plans": 2, "success_rate": 1.0}
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps([{"identifier": "open_the_door", "actions": ["open door"]}, 7,
                                 {"identifier": "find_the_key", "actions": ["open box", "take key"]}]))
    mine = tmp_path / "mine.json"
    assert main(["score", "tiny", str(plans), "--out", str(mine)]) == 0
    tasks = json.loads(mine.read_text())["tasks"]
    assert [t["status"] for t in tasks] == ["evaluated", "invalid_input", "evaluated"]
    assert [t.get("success") for t in tasks] == [False, None, True]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["score", "tiny", "--gold", "--seed", "1"])
    assert "--seed does not apply to tiny --mode plans" in capsys.readouterr().err
    pytest.importorskip("matplotlib")
    html = tmp_path / "report.html"
    assert main(["report", str(out), str(mine), "--out", str(html)]) == 0
    page = html.read_text()
    assert "<td>tiny</td><td>plans</td>" in page and "open_the_door" in page


def test_the_registry_env_checks_pass_on_the_tiny_world(tiny):
    assert ENV_ID in gym.registry
    test_registry.test_check_env_no_warnings(ENV_ID, {})
    test_registry.test_make_with_module_prefix(ENV_ID)
    test_registry.test_seeded_determinism_and_pickle(ENV_ID)


def test_the_registry_mode_checks_pass_on_the_tiny_world(tiny):
    test_registry_modes.check_mode_entry_points("tiny", "plans")
    test_registry_modes.check_cli_offers("tiny", "plans")
    test_registry_modes.check_gold_scores("tiny", "plans")
    test_registry_modes.check_summary_fields("tiny", "plans")


def test_the_tiny_world_leaves_with_its_fixture():
    assert "tiny" not in registry.world_names()

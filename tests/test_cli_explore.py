"""eai-gym list / show / play / report."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import time

import pytest

from eai_gym import registry
from eai_gym.cli import main

WORLDS = registry.world_names()


def test_list_worlds(capsys):
    assert main(["list", "--json"]) == 0
    rows = {r["world"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(WORLDS)
    assert rows["virtualhome"]["tasks"] == 342 and rows["behavior"]["tasks"] == 100
    assert rows["rearrange"]["tasks"] == 336 and rows["alfworld"]["tasks"] == 134
    assert rows["behavior1k"]["tasks"] == 1016
    assert "eai_gym/rearrange-v0" in rows["rearrange"]["env_ids"]
    assert main(["list"]) == 0
    assert "eai_gym/AlfWorld-v0" in capsys.readouterr().out


@pytest.mark.parametrize("world", WORLDS)
def test_list_world_and_show_first_task(world, capsys):
    assert main(["list", world, "--json"]) == 0
    tasks = json.loads(capsys.readouterr().out)
    assert main(["show", world, tasks[0]["id"], "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["id"] == tasks[0]["id"] and card["instruction"] and card["goal"] and card["objects"]
    assert card["gold_plan"]
    assert main(["show", world, tasks[-1]["id"]]) == 0
    assert "Gold plan" in capsys.readouterr().out


def test_unknown_task_and_world(capsys):
    assert main(["show", "behavior", "no_such_task"]) == 2
    assert "eai-gym list behavior" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["show", "minecraft", "1"])
    assert e.value.code == 2


def _play(args: list[str], lines: list[str], timeout: float = 60.0) -> tuple[int, str]:
    """Run ``eai-gym play`` on a pseudo-terminal, typing each line after a prompt."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "eai_gym.cli", "play", *args], stdin=slave, stdout=slave,
                            stderr=slave, close_fds=True)
    os.close(slave)
    out = b""
    pending = list(lines)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
                if out.rstrip().endswith(b">") and pending:
                    os.write(master, (pending.pop(0) + "\n").encode())
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=10)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return code, out.decode(errors="replace").replace("\r\n", "\n")


def test_play_alfworld_on_a_terminal():
    code, out = _play(["alfworld", "--task", "1"], ["fly to the moon", ":metrics", ":help", "go to countertop 1",
                                                    ":quit"])
    assert code == 0, out
    assert "errors: parsing 1" in out and ":actions" in out and "You arrive at countertop 1" in out


def test_play_virtualhome_to_the_goal():
    from eai_gym.tasksets import task_sets

    plan = task_sets()["virtualhome"].show("11_1")["gold_plan"]
    code, out = _play(["virtualhome", "--task", "11_1"], plan + [":quit"])
    assert code == 0, out
    assert "Episode over after 5 steps: goal reached" in out and "progress 1.00" in out


def test_play_bad_task_exits_2():
    code, out = _play(["rearrange", "--task", "nope"], [])
    assert code == 2 and "no task 'nope'" in out


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs")
    gold = d / "gold.json"
    assert main(["score", "alfworld", "--gold", "--out", str(gold)]) == 0
    plans = json.loads(json.dumps([{"game": i, "commands": ["look", "go to countertop 1"]} for i in range(20)]))
    mine = d / "plans.json"
    mine.write_text(json.dumps(plans + [{"game": "broken"}]))
    walk = d / "walk.json"
    assert main(["score", "alfworld", str(mine), "--out", str(walk)]) == 0
    vh = d / "vh.json"
    assert main(["score", "virtualhome", "--gold", "--out", str(vh)]) == 0
    return d, [gold, walk, vh]


def test_report_page(results):
    d, files = results
    out = d / "report.html"
    assert main(["report", *map(str, files), "--out", str(out), "--name", "oracle", "--name", "walk",
                 "--name", "vh"]) == 0
    page = out.read_text()
    for section in ("Summary", "Error types", "Success by task category", "Progress over steps", "Per-task drill-down"):
        assert f"<h2>{section}</h2>" in page
    assert page.count("data:image/png;base64,") >= 3 and "pick_heat_then_place_in_recep" in page
    assert "<script" not in page and "http" not in page.split("<body>")[1].split("eai-gym")[0]
    assert main(["report", str(d / "nope.json"), "--out", str(d / "x.html")]) == 2
    assert main(["report", *map(str, files), "--out", str(out), "--name", "one"]) == 2


def test_report_renders_in_a_headless_browser(results):
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        if os.environ.get("EAI_GYM_REQUIRE_BROWSER"):
            pytest.fail("no headless browser (chromium) on this machine")
        pytest.skip("no headless browser (chromium) on this machine")
    import matplotlib.image as mpimg

    d, files = results
    page = d / "report.html"
    assert main(["report", *map(str, files), "--out", str(page)]) == 0
    shot = d / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1280,9000", f"--screenshot={shot}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    img = mpimg.imread(shot)
    assert img.shape[0] >= 8000 and img.shape[1] >= 1200
    rgb = img[..., :3]
    ink = (rgb.mean(axis=2) < 0.9).mean()  # share of pixels that are not (near) white
    colour = ((rgb.max(axis=2) - rgb.min(axis=2)) > 0.3).mean()  # the plots' coloured bars and lines
    assert ink > 0.02 and colour > 0.002


def _play_lines(world: str, task: str, lines: list[str]) -> str:
    """``eai-gym play`` in this process, reading ``lines``; its output."""
    import argparse
    import io

    from eai_gym.cli_explore import cmd_play

    out = io.StringIO()
    args = argparse.Namespace(world=world, task=task, seed=0, protocol="fixed")
    assert cmd_play(args, io.StringIO("".join(line + "\n" for line in lines)), out) == 0
    return out.getvalue()


def test_play_refuses_an_unknown_command_and_sends_nothing():
    out = _play_lines("alfworld", "1", [":helpp", ":look_around now", ":metrics", ":quit"])
    assert "unknown command ':helpp'; the commands are :help, :look, :actions, :metrics, :reset, :quit" in out
    assert "unknown command ':look_around'" in out and "[metrics] actions 0 executed 0" in out


def test_play_sends_no_action_after_the_episode_ended():
    from eai_gym.tasksets import task_sets

    plan = task_sets()["virtualhome"].show("11_1")["gold_plan"]
    out = _play_lines("virtualhome", "11_1", plan + [plan[0], ":actions", ":metrics", ":reset", plan[0], ":metrics",
                                                     ":quit"])
    assert "Episode over after 5 steps: goal reached" in out
    assert f"The episode is over (after 5 steps: goal reached, terminated); {plan[0]!r} was not sent" in out
    assert "Type :reset to play the task again, :quit to leave." in out
    metrics = [line for line in out.splitlines() if line.startswith("[metrics]") or "] [metrics]" in line]
    assert "actions 5 executed 5" in metrics[-2] and "actions 1 executed 1" in metrics[-1]


def _words(text: str) -> str:
    return " ".join(text.replace("_", " ").lower().split())


@pytest.mark.parametrize("world", WORLDS)
def test_show_and_play_phrase_the_goal_alike(world):
    from eai_gym.tasksets import task_sets

    s = task_sets()[world]
    for task in s.ids()[:3]:
        card = s.show(task)
        env, options = s.play_env(task, s.protocols[0])
        obs, _ = env.reset(seed=0, options=options)
        env.close()
        assert _words(card["instruction"]).rstrip(".") in _words(obs), (world, task)

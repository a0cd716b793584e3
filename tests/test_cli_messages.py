"""What ``eai-gym`` tells a user where it used to leave them guessing: gold plans that do not reach their goal,
named with where the docs explain them; a missing optional extra, named with its install command; the docs say
things themselves, never "the issue"."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from eai_gym import registry
from eai_gym.cli import main

ROOT = Path(__file__).parents[1]
NOTED = [(w.name, m.name) for w in registry.worlds() for m in w.modes if getattr(m, "gold_notes", None)]


def test_virtualhome_gold_names_688_1_and_its_explanation(capsys):
    assert main(["score", "virtualhome", "--gold"]) == 0
    err = capsys.readouterr().err
    assert ("1 of 342 gold plans does not reach its goal under fixed: 688_1 (why: docs/virtualhome.md, "
            "'Offline scoring and the two protocols')") in err


def test_eai_1_0_5_gold_names_the_plans_it_does_not_simulate(capsys):
    assert main(["score", "virtualhome", "--gold", "--protocol", "eai-1.0.5"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"37 of 342 gold plans do not reach their goal under eai-1\.0\.5: (\w+, ){7}\w+ and 29 more", err)
    assert "not simulated under eai-1.0.5: 260 identical_to_gold_shortcut, 37 skipped_gold_test_failed" in err


def test_a_gold_run_that_reaches_every_goal_says_nothing_more(capsys):
    assert main(["score", "alfworld", "--gold"]) == 0
    assert "gold plans" not in capsys.readouterr().err


@pytest.mark.parametrize("world,mode", NOTED)
def test_gold_notes_point_to_a_section_that_exists(world, mode):
    notes = registry.mode(world, mode).gold_notes
    m = re.fullmatch(r"(docs/[\w.]+\.md), '(.+)'", notes or "")
    assert m, notes
    page = (ROOT / m.group(1)).read_text(encoding="utf-8")
    assert re.search(rf"^#+ {re.escape(m.group(2))}$", page, re.M), notes


def test_the_gold_line_bounds_what_it_names():
    from eai_gym.cli_score import _gold_line

    mode = registry.mode("virtualhome", "action_sequencing")
    records = [{"identifier": f"t{i}", "status": "evaluated", "success": False} for i in range(1000)]
    line = _gold_line(mode, "fixed", records)
    assert line.startswith("1000 of 1000 gold plans do not reach their goal under fixed: t0, t1") and "992 more" in line
    assert len(line) < 300
    assert _gold_line(mode, "fixed", [{"identifier": "a", "status": "evaluated"}]) == ""


def test_serve_without_its_extra_names_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "alfworld", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'eai-gym[server]'" in err and "uvicorn" in err


ISSUE_WORDS = re.compile(r"\bthe issue\b|\bissue'?s? (?:\d|target)|\bissues \d|\(issue\b", re.I)


def test_docs_and_package_never_point_to_the_issue():
    files = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "eai_gym").rglob("*.py"))
    hits = [f"{f.relative_to(ROOT)}:{n}: {line.strip()}" for f in files
            for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) if ISSUE_WORDS.search(line)]
    assert hits == []

"""Every mode declares the unit of each figure of its summary, and everything shown to a reader puts rates on one
scale (percent, unit named), whatever scale the reference's own summary uses."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.report.units import leaves, show
from eai_gym.scoring.runner import run_items

GOLD_MODES = [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.gold is not None]
N_GOLD = 6


def gold_summary(world: str, mode: str, protocol: str) -> dict:
    spec = registry.mode(world, mode)
    options = {o.name: o.default for o in spec.options}
    if spec.option("planner"):
        options["planner"] = "builtin"  # planner_success_rate has a value (with none it is null)
    items = spec.gold_items(options)[:N_GOLD]
    jobs = registry.load(spec.jobs)(items, protocol, options, spec)
    records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)
    return jobs.summarize(records)["summary"]


@pytest.mark.parametrize("world,mode", GOLD_MODES)
def test_every_summary_figure_has_a_declared_unit_that_fits_it(world, mode):
    spec = registry.mode(world, mode)
    layout = spec.summary_layout
    for protocol in spec.protocols:
        figures = dict(leaves(gold_summary(world, mode, protocol)))
        assert figures
        for path, value in figures.items():
            if value is None or isinstance(value, (dict, list)):
                continue
            unit = layout.declared_unit(path)
            assert unit is not None, f"{world} {mode}: no unit declared for {path}"
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (path, value)
            if unit == "percent":
                assert 0 <= value <= 100, (path, value)
            elif unit == "fraction":
                assert 0 <= value <= 1, (path, value)
            elif unit == "count":
                assert value >= 0 and float(value).is_integer(), (path, value)
        for key in spec.summary_keys:
            assert key.key in figures and layout.declared_unit(key.key) is not None, key


def test_episode_summaries_have_declared_units():
    from eai_gym.evaluate.episodes import summarize_episodes

    records = [{"identifier": "0", "status": "finished", "success": True, "steps": 4, "progress": 1.0,
                "error_counts": {"parsing": 1}},
               {"identifier": "1", "status": "max_steps", "success": False, "steps": 9, "progress": 0.5,
                "error_counts": {"parsing": 2}}]
    summary = summarize_episodes(records)
    for path, value in leaves(summary):
        assert registry.EPISODES_SUMMARY.declared_unit(path) is not None, path
    assert show(summary["success_rate"], registry.EPISODES_SUMMARY.unit("success_rate")) == "50.00 %"


def test_units_are_checked():
    with pytest.raises(registry.RegistryError, match="unknown unit"):
        registry.SummaryKey("x", unit="percentage")
    with pytest.raises(registry.RegistryError, match="unknown unit"):
        registry.SummaryLayout(units=(("*", "ratio"),))


@given(st.floats(0, 1))
def test_a_fraction_and_the_same_percent_show_the_same(v):
    assert show(v, "fraction") == show(v * 100, "percent") or math.isclose(
        float(show(v, "fraction")[:-2]), float(show(v * 100, "percent")[:-2]), abs_tol=0.011)
    assert show(v, "fraction").endswith(" %")


@pytest.mark.parametrize("value,unit,shown", [
    (0.91, "fraction", "91.00 %"), (99.7076, "percent", "99.71 %"), (673, "count", "673"), (5.99, "steps", "5.99 steps"),
    (None, "fraction", "n/a"), (float("nan"), "fraction", "nan"), (True, "count", "True"), ({}, "count", "none"),
    ("text", "percent", "text"), (0.5, "number", "0.5")])
def test_show(value, unit, shown):
    assert show(value, unit) == shown


@pytest.fixture(scope="module")
def two_worlds(tmp_path_factory):
    d = tmp_path_factory.mktemp("two_worlds")
    for world in ("virtualhome", "behavior"):
        assert main(["score", world, "--gold", "--out", str(d / f"{world}.json")]) == 0
    return d


def test_a_two_world_report_puts_both_on_one_scale(two_worlds, capsys):
    capsys.readouterr()
    assert main(["report", str(two_worlds / "virtualhome.json"), str(two_worlds / "behavior.json")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"goal_evaluation\.task_success_rate\s+99\.71 %\s+91\.00 %", out)
    assert re.search(r"trajectory_evaluation\.execution_success_rate\s+100\.00 %\s+96\.00 %", out)
    summary = out.split("Summary")[1].split("Error types")[0]
    assert not re.search(r"\s0\.91\b|\s99\.7076\b", summary)


def test_the_score_line_names_the_scale(two_worlds, capsys):
    capsys.readouterr()
    assert main(["score", "virtualhome", "--gold"]) == 0
    err = capsys.readouterr().err
    assert "task_success_rate 99.71 %, execution_success_rate 100.00 % (the summary above gives rates in percent" in err
    assert main(["score", "behavior", "--gold"]) == 0
    err = capsys.readouterr().err
    assert "task_success_rate 91.00 %, execution_success_rate 96.00 % (the summary above gives rates as fractions" in err

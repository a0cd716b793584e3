"""Every registered world and mode, read from the registry: its entry points load, its options agree, the CLI
offers it, and its packaged gold items score with the summary keys it declares.

The checks are plain functions so that a world registered later (``tests/test_tiny_world.py``) runs them too.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from eai_gym import registry
from eai_gym.cli import build_parser
from eai_gym.scoring.results import RECORD_FIELDS
from eai_gym.scoring.runner import run_items

MODES = [(w.name, m.name) for w in registry.worlds() for m in w.modes]
#: gold items scored per mode (the checks are about the plumbing; the scorers' own tests cover the numbers)
N_GOLD = 3


def check_mode_entry_points(world: str, mode: str) -> None:
    spec = registry.mode(world, mode)
    assert spec.world == world and spec.protocols and spec.default_protocol == spec.protocols[0]
    for field in ("jobs", "gold", "load_items", "result", "similarity_actions", "gold_actions", "prompts",
                  "reply_to_item"):
        entry = getattr(spec, field)
        if entry is not None:
            assert callable(registry.load(entry)), f"{world} {mode}: {field} {entry!r} is not callable"
    if mode == "similarity":
        assert spec.similarity_actions and spec.gold_actions
    assert set(spec.record_options) <= {o.name for o in spec.options}
    hooks = registry.load(registry.world(world).task_set)
    for name in ("ids", "names", "card", "play", "legal_actions", "category"):
        assert callable(getattr(hooks, name)), f"{world}: the task set has no {name}()"


def check_cli_offers(world: str, mode: str) -> None:
    parser = build_parser()
    args = parser.parse_args(["score", world, "--gold", "--mode", mode])
    assert (args.world, args.mode) == (world, mode)
    text = io.StringIO()
    with contextlib.redirect_stdout(text), pytest.raises(SystemExit):
        parser.parse_args(["score", "--help"])
    for opt in registry.mode(world, mode).options:
        assert opt.flag in text.getvalue() and f"{world} {mode}" in " ".join(text.getvalue().split())


def summary_value(summary: dict, dotted: str):
    value = summary
    for part in dotted.split("."):
        assert isinstance(value, dict) and part in value, f"summary has no {dotted!r}: {sorted(summary)}"
        value = value[part]
    return value


def check_gold_scores(world: str, mode: str) -> None:
    spec = registry.mode(world, mode)
    if spec.gold is None:
        pytest.skip(f"{world} {mode} has no packaged gold")
    options = {o.name: o.default for o in spec.options}
    items = spec.gold_items(options)[:N_GOLD]
    assert items
    for protocol in spec.protocols:
        jobs = registry.load(spec.jobs)(items, protocol, options, spec)
        records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)
        assert len(records) == len(items)
        assert all(r["status"] != "invalid_input" for r in records), records
        summary = jobs.summarize(records)["summary"]
        for key in spec.summary_keys:
            summary_value(summary, key.key)


class _OnlyKept(dict):
    """A kept record that fails a test when the summary reads a field that was not kept."""

    allowed: frozenset = frozenset()

    def _check(self, key):
        assert key in self.allowed, f"the summary reads {key!r}, which the mode's summary_fields do not name"

    def __getitem__(self, key):
        self._check(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._check(key)
        return dict.get(self, key, default)

    def __contains__(self, key):
        self._check(key)
        return dict.__contains__(self, key)


def check_summary_fields(world: str, mode: str) -> None:
    """Where a mode names the fields its summary reads, the summary of the kept fields is the summary of the whole
    records (gold items and malformed ones), and it reads no other field."""
    spec = registry.mode(world, mode)
    if spec.gold is None:
        pytest.skip(f"{world} {mode} has no packaged gold")
    options = {o.name: o.default for o in spec.options}
    items = spec.gold_items(options)[:4 * N_GOLD]
    first = items[0]
    bad = [7, {}, {**first, "llm_output": "garbage{"} if isinstance(first, dict) and "llm_output" in first else []]
    for protocol in spec.protocols:
        jobs = registry.load(spec.jobs)(items + bad, protocol, options, spec)
        records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)
        keep = jobs.keep()
        if keep is None:
            continue
        allowed = frozenset(jobs.summary_fields + RECORD_FIELDS)
        kept = [_OnlyKept(keep(r)) for r in records]
        for view, whole in zip(kept, records):
            assert list(view) == [k for k in whole if k in allowed]
            view.allowed = allowed
        assert jobs.summarize(kept) == jobs.summarize(records)


@pytest.mark.parametrize("world,mode", MODES)
def test_mode_entry_points_load(world, mode):
    check_mode_entry_points(world, mode)


@pytest.mark.parametrize("world,mode", MODES)
def test_cli_offers_every_mode(world, mode):
    check_cli_offers(world, mode)


@pytest.mark.parametrize("world,mode", MODES)
def test_gold_scores_with_the_declared_summary_keys(world, mode):
    check_gold_scores(world, mode)


@pytest.mark.parametrize("world,mode", MODES)
def test_summary_reads_only_the_fields_the_mode_keeps(world, mode):
    check_summary_fields(world, mode)


def test_options_agree_across_modes():
    names = [o.name for o, _ in registry.options()]
    assert len(names) == len(set(names))
    assert names[-len(registry.SIMILARITY_OPTIONS):] == [o.name for o in registry.SIMILARITY_OPTIONS]


def test_unknown_world_and_mode_name_what_exists():
    with pytest.raises(registry.RegistryError, match="unknown world 'nope'"):
        registry.world("nope")
    with pytest.raises(registry.RegistryError, match="has mode"):
        registry.mode(MODES[0][0], "nope")
    with pytest.raises(registry.RegistryError, match="cannot be loaded"):
        registry.load("eai_gym.no_such_module:f")


def test_a_contradicting_option_is_refused():
    spec = registry.WorldSpec("clash", "clash", (), "eai_gym.envs.virtualhome.taskset", (
        registry.ModeSpec("m", "", ("fixed",), "x:y", options=(registry.Option("seed", "", type="str"),)),))
    with pytest.raises(registry.RegistryError, match="--seed"):
        registry.register_world(spec)
    assert "clash" not in registry.world_names()  # a refused world is not half registered

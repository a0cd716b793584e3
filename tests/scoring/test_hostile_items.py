"""One bad item never loses the run: every scorer of every registered world and mode gives one record per input
item, in input order, whatever the items hold (``hostile_items``), in bounded time; the valid item among them is
scored as it is alone; the command exits 0 with its results file, serially and with two workers alike.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hostile_items import (
    BOUNDARY,
    IDS,
    MODES,
    dumps,
    flags_of,
    hostile_batch,
    hostile_values,
    options_of,
    units_of,
    valid_items,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.scoring.runner import run_items


def score(world: str, mode: str, protocol: str, items: list, workers: int = 1) -> tuple[list, list, dict]:
    """``(records, their JSON texts, summary fields)`` of the mode's jobs over ``items``, through the runner."""
    spec = registry.mode(world, mode)
    jobs = registry.load(spec.jobs)(units_of(world, mode, items), protocol, options_of(spec), spec)
    records, texts = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=workers,
                               encode=True, log=lambda msg: None)
    return records, list(texts), jobs.summarize(records)


def batch(world: str, mode: str) -> list:
    """A valid item, then every hostile variant (each made from another valid item where there are enough)."""
    valid = valid_items(world, mode)
    return [valid[0]] + [item for _, item in hostile_batch(list(valid[1:]))]


@pytest.mark.parametrize("world,mode,protocol", MODES, ids=IDS)
def test_hostile_items_give_one_record_each_and_leave_the_valid_one_alone(world, mode, protocol):
    items = batch(world, mode)
    records, texts, fields = score(world, mode, protocol, items)
    assert len(records) == len(texts) == len(items)
    for i, (record, text) in enumerate(zip(records, texts)):
        assert isinstance(record.get("status"), str), (i, record)
        assert BOUNDARY not in str(json.loads(text).get("message") or json.loads(text).get("error")), \
            f"item {i}: the scorer raised: {json.loads(text)}"
    json.dumps(fields)
    alone, alone_texts, _ = score(world, mode, protocol, items[:1])
    assert texts[0] == alone_texts[0]


@pytest.mark.parametrize("world,mode,protocol", MODES, ids=IDS)
def test_the_command_scores_a_hostile_plans_file_serially_and_with_two_workers_alike(tmp_path, world, mode,
                                                                                     protocol):
    items = batch(world, mode)[::3]  # every third: each kind of hostile value, at every level, a few times
    plans = tmp_path / "plans.json"
    plans.write_text(dumps(items), encoding="utf-8")
    spec = registry.mode(world, mode)
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"out{workers}.json"
        assert main(["score", world, str(plans), "--mode", mode, "--protocol", protocol, "--out", str(out),
                     "--workers", workers, *flags_of(spec)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    records = json.loads(outs[0])["tasks"]
    assert len(records) == len(items)
    assert all(isinstance(r.get("status"), str) for r in records)


# --------------------------------------------------------------------------- property: arbitrary JSON items
def hostile_value(name: str):
    """The hostile value of that name (drawn by name: hypothesis describes what it draws from, and the text of a
    5,000-digit number cannot be made)."""
    return dict(hostile_values())[name]


#: JSON values, the hostile ones among them (a 5,000-digit number, nesting 100,000 deep, a megabyte of text...)
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
                    | st.sampled_from([name for name, _ in hostile_values()]).map(hostile_value),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=4),
                    max_leaves=12)


@lru_cache(maxsize=None)
def item_keys(world: str, mode: str) -> tuple[str, ...]:
    """The keys the mode's valid items have (what an arbitrary item is most often made of)."""
    valid = valid_items(world, mode)
    return tuple(sorted({k for it in valid[:20] if isinstance(it, dict) for k in it}))


@pytest.mark.parametrize("world,mode,protocol", MODES, ids=IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_json_item_gives_one_record_and_no_exception(world, mode, protocol, data):
    keys = item_keys(world, mode)
    shaped = st.fixed_dictionaries({}, optional={k: JSON for k in keys}) if keys else JSON
    valid = st.sampled_from(valid_items(world, mode)[:20])
    items = data.draw(st.lists(shaped | JSON | valid, min_size=1, max_size=4))
    spec = registry.mode(world, mode)
    jobs = registry.load(spec.jobs)(units_of(world, mode, items), protocol, options_of(spec), spec)
    records, texts = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, encode=True,
                               keep=jobs.keep())
    assert len(records) == len(texts) == len(items)
    for text in texts:
        record = json.loads(text)
        assert isinstance(record.get("status"), str)
        assert BOUNDARY not in str(record.get("message") or record.get("error")), record
    json.dumps(jobs.summarize(records))


@pytest.mark.parametrize("world", sorted({w for w, m, _ in MODES if m == "similarity"}))
def test_a_hostile_reference_file_for_similarity_costs_only_its_bad_plans(tmp_path, world):
    items = batch(world, "similarity")[::7]
    reference = tmp_path / "reference.json"
    reference.write_text(dumps(items[1:] + items[:1]), encoding="utf-8")  # the valid plan last
    plans, out = tmp_path / "plans.json", tmp_path / "out.json"
    plans.write_text(dumps(items[:1]), encoding="utf-8")
    assert main(["score", world, str(plans), "--mode", "similarity", "--reference", str(reference),
                 "--out", str(out)]) == 0
    record, = json.loads(out.read_text())["tasks"]
    assert record["status"] == "evaluated" and record["edit_distance"] == 0, record

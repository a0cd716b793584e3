"""The runner's per-item boundary, the mode records it writes, and ``--resume`` over results files that are not
one of the run's."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hostile_items import IDS, MODES, flags_of, nested_list, options_of, units_of, valid_items

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.scoring.results import ScoreRun
from eai_gym.scoring.runner import run_items


def _boom_on_odd(context, item):
    if item % 2:
        raise RuntimeError(f"boom {item}")
    return {"identifier": f"t{item}", "status": "evaluated", "message": "", "value": item + context}


def _ten() -> int:
    return 10


def _deep_on_3(context, item):
    return {"identifier": item["identifier"], "status": "evaluated",
            "value": nested_list(5000) if item["identifier"] == "t3" else 0}


@pytest.mark.parametrize("workers", [1, 2])
def test_an_item_that_raises_gets_a_record_naming_it_and_the_run_goes_on(workers):
    records, texts = run_items(_boom_on_odd, list(range(8)), init=_ten, workers=workers, chunk_size=3,
                               encode=True)
    assert [r["status"] for r in records] == ["evaluated", "invalid_input"] * 4
    assert records[3] == {"identifier": None, "status": "invalid_input",
                          "message": "item 3 cannot be scored: RuntimeError: boom 3"}
    assert [json.loads(t) for t in texts] == records
    assert records[4]["value"] == 14


def test_a_record_that_cannot_be_written_is_replaced_by_one_that_can():
    records, texts = run_items(_deep_on_3, [{"identifier": f"t{i}"} for i in range(5)], encode=True)
    assert [r["status"] for r in records] == ["evaluated"] * 3 + ["invalid_input"] + ["evaluated"]
    assert records[3]["identifier"] == "t3"
    assert records[3]["message"].startswith("item 3 (identifier 't3') cannot be scored: RecursionError")
    assert json.loads(list(texts)[3]) == records[3]


@pytest.mark.parametrize("world,mode,protocol", MODES, ids=IDS)
def test_the_record_of_an_item_that_raises_has_the_fields_of_its_mode(world, mode, protocol):
    """A scorer that raises on an item: the item gets the mode's own record of an item it does not score (named
    by its index and identifier), and the summary and the results file are made as for any other run."""
    spec = registry.mode(world, mode)
    valid = list(valid_items(world, mode)[:3])
    jobs = registry.load(spec.jobs)(units_of(world, mode, valid), protocol, options_of(spec), spec)
    fn = jobs.fn

    def raising(context, unit, real=fn.fn):
        if unit is jobs.units[1]:
            raise ZeroDivisionError("division by zero")
        return real(context, unit)
    jobs.fn = dataclasses.replace(fn, fn=raising)
    records, texts = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, encode=True)
    bad = records[1]
    assert bad["status"] == "invalid_input"
    message = bad.get("message") or bad.get("error")
    assert message.startswith("item 1") and message.endswith("cannot be scored: ZeroDivisionError: division by zero")
    ident = fn.identifier(jobs.units[1])
    if ident is not None:
        assert f"(identifier {ident!r})" in message
    assert set(fn.blank(None, "invalid_input", "")) <= set(bad)  # the mode's fields
    fields = jobs.summarize(records)
    run = ScoreRun(world, spec, protocol, ["plans.json"], False, options_of(spec), records, fields, "test", texts)
    result, shown = registry.load(spec.result)(run)
    assert len(shown) == len(valid) and shown[1]["status"] == "invalid_input"
    json.dumps(result["summary"])


# --------------------------------------------------------------------------- --resume
def _journal(tmp_path, world: str, mode: str, protocol: str, extra: list[str]):
    spec = registry.mode(world, mode)
    items = list(valid_items(world, mode)[:4])
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps(items))
    jsonl = tmp_path / "run.jsonl"
    cmd = ["score", world, str(plans), "--mode", mode, "--protocol", protocol, "--jsonl", str(jsonl),
           *flags_of(spec), *extra]
    assert main(cmd) == 0
    return cmd, jsonl


BAD_RECORDS = [("a number", 7), ("a list", [1, 2]), ("no status", {"identifier": "x"}),
               ("a status that is not text", {"identifier": "x", "status": 3}),
               ("an invalid record without the mode's fields", {"status": "invalid_input"}),
               ("a deep record", "DEEP")]


@pytest.mark.parametrize("what,record", BAD_RECORDS, ids=[w for w, _ in BAD_RECORDS])
@pytest.mark.parametrize("world,mode,protocol", [("virtualhome", "action_sequencing", "fixed"),
                                                 ("rearrange", "facts", "fixed"),
                                                 ("alfworld", "commands", "fixed")])
def test_resume_over_records_of_another_kind_is_a_clear_error(tmp_path, capsys, world, mode, protocol, what,
                                                             record):
    cmd, jsonl = _journal(tmp_path, world, mode, protocol, [])
    header, first, *rest = jsonl.read_text().splitlines()
    line = (json.dumps({"index": 2, "record": record}) if record != "DEEP"
            else '{"index": 2, "record": ' + "[" * 5000 + "]" * 5000 + "}")
    jsonl.write_text("\n".join([header, line, first]) + "\n")  # (a bad last line is taken for one cut short)
    capsys.readouterr()
    assert main(cmd + ["--resume"]) == 2
    err = capsys.readouterr().err
    assert f"{jsonl}, line 2" in err and "remove the file or drop --resume" in err, err


def test_resume_over_a_record_missing_a_field_its_summary_reads(tmp_path, capsys):
    """A run's records, those of the items it could not score too, resume; a record without a field the mode's
    summary reads is an error naming its line."""
    valid = valid_items("virtualhome", "action_sequencing")[:2]
    items = [7, {"identifier": "no such task", "llm_output": "[]"}, *valid]
    plans = tmp_path / "plans.json"
    plans.write_text(json.dumps(items))
    jsonl, out = tmp_path / "r.jsonl", tmp_path / "out.json"
    cmd = ["score", "virtualhome", str(plans), "--jsonl", str(jsonl), "--out", str(out)]
    assert main(cmd) == 0
    first = out.read_bytes()
    assert main(cmd + ["--resume"]) == 0
    assert out.read_bytes() == first
    header, *lines = jsonl.read_text().splitlines()
    line = json.loads(lines[0])
    del line["record"]["counts"]
    jsonl.write_text("\n".join([header, json.dumps(line), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert main(cmd + ["--resume"]) == 2
    assert f"{jsonl}, line 2: the record has no 'counts'" in capsys.readouterr().err


def test_resume_over_a_run_line_that_is_not_an_object(tmp_path, capsys):
    cmd, jsonl = _journal(tmp_path, "alfworld", "commands", "fixed", [])
    lines = jsonl.read_text().splitlines()
    jsonl.write_text("\n".join(['{"run": [1, 2]}'] + lines[1:]) + "\n")
    capsys.readouterr()
    assert main(cmd + ["--resume"]) == 2
    assert f"{jsonl}, line 1: not a results line" in capsys.readouterr().err

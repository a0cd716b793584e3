"""Parallel and resumable scoring: ``eai-gym score --workers/--backend/--jsonl/--resume`` and the runner."""

from __future__ import annotations

import gzip
import json
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from eai_gym.cli import main
from eai_gym.scoring import runner
from eai_gym.scoring.runner import RunnerError, run_items

PARTNR = Path(__file__).parents[1] / "reference" / "data" / "partnr"
N = 24  # items per world and mode


def with_or(plan_json: str) -> str:
    """A subgoal output whose first entry becomes an ``or`` with a made-up alternative: eai-1.0.5 draws
    one from its RNG, and the outcome depends on the draw."""
    out = json.loads(plan_json)["output"]
    out = [f"{out[0]} or BOGUS(x.1) or {out[-1]}"] + out[1:]
    return json.dumps({"output": out})


@lru_cache(maxsize=None)
def gold(world: str, mode: str) -> tuple:
    """A few dozen gold plans (as ``--gold`` makes them), some varied, as a plans file's content."""
    if (world, mode) == ("virtualhome", "action_sequencing"):
        from eai_gym.envs.virtualhome.tasks import gold_plan_json, task_ids

        return tuple({"identifier": t, "llm_output": gold_plan_json(t)} for t in task_ids()[:N])
    if (world, mode) == ("virtualhome", "subgoal_decomposition"):
        from eai_gym.envs.virtualhome.subgoals import goal_subgoal_plan
        from eai_gym.envs.virtualhome.tasks import task_ids, task_record

        ids = [t for t in task_ids() if task_record(t)["tl_goal"]][:N]
        items = [{"identifier": t, "llm_output": json.dumps({"output": goal_subgoal_plan(task_record(t))})}
                 for t in ids]
        for it in items[::3]:
            it["llm_output"] = with_or(it["llm_output"])
        return tuple(items + [dict(items[1])])  # and a duplicate identifier
    if (world, mode) == ("behavior", "action_sequencing"):
        from eai_gym.envs.behavior.tasks import task_ids, task_record

        return tuple({"identifier": t, "llm_output": json.dumps(task_record(t)["gold_plan"])} for t in task_ids()[:N])
    if (world, mode) == ("behavior", "subgoal_decomposition"):
        from eai_gym.envs.behavior.subgoals import gold_subgoal_plan
        from eai_gym.envs.behavior.tasks import task_ids, task_record

        items = [{"identifier": t, "llm_output": json.dumps({"output": gold_subgoal_plan(task_record(t))})}
                 for t in task_ids()[:N]]
        for it in items[::3]:
            it["llm_output"] = with_or(it["llm_output"])
        return tuple(items + [dict(items[2])])
    if (world, mode) == ("rearrange", "facts"):
        with gzip.open(PARTNR / "recorded_cases.json.gz", "rt", encoding="utf-8") as f:
            return tuple(c["input"] for c in json.load(f)[:N])
    if (world, mode) == ("rearrange", "actions"):
        from eai_gym.envs.rearrange.episode import shipped_episodes
        from eai_gym.envs.rearrange.oracle import oracle_scripts

        return tuple({"episode_id": e.episode_id, "actions": oracle_scripts(e)} for e in shipped_episodes("val")[:N])
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game
    from eai_gym.envs.alfworld.oracle import Oracle

    out = []
    for i in range(N):
        engine = Engine(eval_game(i), "0.4")
        out.append({"game": i, "commands": Oracle(engine).plan(engine.initial_state()) or []})
    return tuple(out)


#: a malformed item that names no task (mid-list), per world
UNKNOWN = {"virtualhome": {"identifier": "no_such_task", "llm_output": "[]"},
           "behavior": {"identifier": "no_such_task", "llm_output": "[]"},
           "rearrange": {"episode_id": "no_such_episode", "actions": {"agent_0": []}},
           "alfworld": {"game": 10**6, "commands": []}}
CASES = [("virtualhome", "action_sequencing", "fixed"), ("virtualhome", "action_sequencing", "eai-1.0.5"),
         ("virtualhome", "subgoal_decomposition", "fixed"), ("virtualhome", "subgoal_decomposition", "eai-1.0.5"),
         ("behavior", "action_sequencing", "eai-1.0.5"), ("behavior", "subgoal_decomposition", "fixed"),
         ("behavior", "subgoal_decomposition", "eai-1.0.5"), ("rearrange", "facts", "partnr"),
         ("rearrange", "actions", "fixed"), ("alfworld", "commands", "fixed")]


def plans_file(tmp_path: Path, world: str, mode: str, malformed: bool = True) -> tuple[Path, list]:
    items = list(gold(world, mode))
    if malformed:
        bad = {"propositions": "nope", "worlds": [{}]} if world == "rearrange" and mode == "facts" else UNKNOWN[world]
        items = items[:5] + [bad] + items[5:] + [7]  # 7: not even an object (last: see the reference's scan)
    path = tmp_path / f"{world}-{mode}-{malformed}.json"
    path.write_text(json.dumps(items))
    return path, items


def unindexed(records: list) -> list:
    """The records without the messages of repeated identifiers (which name items by their index)."""
    return [{k: v for k, v in r.items() if k != "message" or r["status"] != "duplicate_identifier"} for r in records]


def score(path: Path, world: str, mode: str, protocol: str, out: Path, *extra: str) -> dict:
    assert main(["score", world, str(path), "--mode", mode, "--protocol", protocol, "-o", str(out), *extra]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("world,mode,protocol", CASES)
def test_two_workers_give_the_serial_results(tmp_path, world, mode, protocol):
    path, items = plans_file(tmp_path, world, mode)
    serial = score(path, world, mode, protocol, tmp_path / "serial.json")
    score(path, world, mode, protocol, tmp_path / "parallel.json", "--workers", "2")
    assert (tmp_path / "parallel.json").read_bytes() == (tmp_path / "serial.json").read_bytes()
    # the malformed items cost only themselves
    tasks = serial["tasks"]
    assert len(tasks) == len(items)
    assert all(tasks[i]["status"] == "invalid_input" for i in (5, len(items) - 1))
    clean, _ = plans_file(tmp_path, world, mode, malformed=False)
    alone = score(clean, world, mode, protocol, tmp_path / "clean.json")["tasks"]
    assert unindexed(tasks[:5] + tasks[6:-1]) == unindexed(alone)
    assert any(t["status"] == "evaluated" for t in alone)


def test_eai_subgoal_draws_are_those_of_one_rng_in_order(tmp_path):
    """The per-item RNG states found up front give the records of one RNG drawn item after item
    (virtualhome: in input order; behavior: in the reference's task order)."""
    import random

    from eai_gym.eai.subgoal_output import with_plan_fields
    from eai_gym.envs.behavior.world import BehaviorWorld
    from eai_gym.envs.virtualhome.world import VirtualHomeWorld
    from eai_gym.scoring.behavior import subgoal_decomposition as bs
    from eai_gym.scoring.virtualhome import subgoal_decomposition as vs

    path, items = plans_file(tmp_path, "virtualhome", "subgoal_decomposition")
    got = score(path, "virtualhome", "subgoal_decomposition", "eai-1.0.5", tmp_path / "v.json", "--workers", "2",
                "--seed", "3")["tasks"]
    rng, world = random.Random(3), VirtualHomeWorld("eai-1.0.5")
    want = [with_plan_fields(vs.score_item(it, "eai-1.0.5", rng, world)) for it in items[:-2]]
    assert got[:-2] == json.loads(json.dumps(want))
    assert got[-2]["status"] == "duplicate_identifier"
    categories = {seed: [t.get("category") for t in score(path, "virtualhome", "subgoal_decomposition", "eai-1.0.5",
                                                        tmp_path / "s.json", "--seed", str(seed))["tasks"]]
                  for seed in (0, 1)}
    assert categories[0] != categories[1]  # the draws matter

    path, items = plans_file(tmp_path, "behavior", "subgoal_decomposition")
    got = score(path, "behavior", "subgoal_decomposition", "eai-1.0.5", tmp_path / "b.json", "--workers", "2",
                "--seed", "3")["tasks"]
    rng, world = random.Random(3), BehaviorWorld("eai-1.0.5")
    for t, (i, _) in bs.reference_assignment(items).items():
        if i is not None and isinstance(items[i], dict) and "llm_output" in items[i]:
            want = with_plan_fields(bs.score_task(items[i], t, "eai-1.0.5", "calibrated", rng, world))
            assert got[i] == json.loads(json.dumps(want))


def test_jsonl_streams_every_record(tmp_path):
    path, items = plans_file(tmp_path, "virtualhome", "subgoal_decomposition")
    jsonl = tmp_path / "run.jsonl"
    res = score(path, "virtualhome", "subgoal_decomposition", "eai-1.0.5", tmp_path / "r.json", "--workers", "2",
                "--jsonl", str(jsonl))
    text = jsonl.read_text()
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["run"]["world"] == "virtualhome" and lines[0]["run"]["n_items"] == len(items)
    assert sorted(line["index"] for line in lines[1:]) == list(range(len(items)))
    assert all(set(line) == {"index", "record"} for line in lines[1:])
    assert {line["index"]: line["record"] for line in lines[1:]} == dict(enumerate(res["tasks"]))


class Counter:
    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_resume_after_an_interrupted_run(tmp_path, monkeypatch, workers):
    import eai_gym.scoring.virtualhome.subgoal_decomposition as vs

    path, items = plans_file(tmp_path, "virtualhome", "subgoal_decomposition")
    args = ("virtualhome", "subgoal_decomposition", "eai-1.0.5")
    full_jsonl = tmp_path / "full.jsonl"
    score(path, *args, tmp_path / "full.json", "--jsonl", str(full_jsonl))
    header, *lines = full_jsonl.read_text().splitlines(keepends=True)
    # what a crash leaves: some finished lines (in finishing order, not input order) and half a line
    kept = lines[3:11] + lines[14:17]
    jsonl = tmp_path / "run.jsonl"
    jsonl.write_text(header + "".join(kept) + lines[20][: len(lines[20]) // 2])
    counter = Counter(vs.score_job)
    monkeypatch.setattr(vs, "score_job", counter)
    score(path, *args, tmp_path / "resumed.json", "--jsonl", str(jsonl), "--resume", "--workers", workers)
    assert (tmp_path / "resumed.json").read_bytes() == (tmp_path / "full.json").read_bytes()
    if workers == "1":
        assert counter.calls == len(items) - len(kept)  # the finished items are not scored again
    done = [json.loads(line) for line in jsonl.read_text().splitlines()[1:]]
    assert sorted(d["index"] for d in done) == list(range(len(items)))  # each once: the fragment is gone


def test_resume_refuses_another_run_and_a_damaged_file(tmp_path, capsys):
    path, _ = plans_file(tmp_path, "virtualhome", "action_sequencing")
    jsonl = tmp_path / "run.jsonl"
    score(path, "virtualhome", "action_sequencing", "fixed", tmp_path / "r.json", "--jsonl", str(jsonl))
    capsys.readouterr()
    cmd = ["score", "virtualhome", str(path), "--jsonl", str(jsonl), "--resume"]
    assert main(cmd + ["--protocol", "eai-1.0.5"]) == 2
    assert "another run (different protocol)" in capsys.readouterr().err
    lines = jsonl.read_text().splitlines(keepends=True)
    jsonl.write_text("".join(lines[:3] + ["{not json\n"] + lines[4:]))
    assert main(cmd) == 2
    assert "line 4: not a results line" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["score", "virtualhome", str(path), "--resume"])
    assert e.value.code == 2


def test_resume_of_a_missing_file_starts_afresh(tmp_path):
    path, _ = plans_file(tmp_path, "alfworld", "commands", malformed=False)
    full = score(path, "alfworld", "commands", "fixed", tmp_path / "a.json")
    again = score(path, "alfworld", "commands", "fixed", tmp_path / "b.json", "--jsonl", str(tmp_path / "x.jsonl"),
                  "--resume")
    assert again == full


# --- the runner on its own -------------------------------------------------------------------------

def _square(context, item):
    if item == "boom":
        raise RuntimeError("boom")
    if item == "interrupt":
        raise KeyboardInterrupt  # what stops a run (not an item's own failure)
    return {"value": item * item + context}


def _offset(k):
    return k


def test_runner_backends_agree_and_keep_order():
    items = list(range(300))
    expected = [{"value": i * i + 5} for i in items]
    assert run_items(_square, items, init=_offset, init_args=(5,)) == expected
    assert run_items(_square, items, init=_offset, init_args=(5,), workers=2) == expected
    assert run_items(_square, items, init=_offset, init_args=(5,), workers=2, chunk_size=7) == expected
    assert run_items(_square, [], workers=2) == []


def test_items_are_sent_to_workers_that_do_not_inherit_them(monkeypatch):
    import multiprocessing

    items = list(range(50))
    expected = [{"value": i * i + 5} for i in items]
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: "spawn")
    assert run_items(_square, items, init=_offset, init_args=(5,), workers=2, chunk_size=4) == expected


def test_encoded_results_are_made_with_each_result_and_kept_on_resume(tmp_path):
    items = list(range(40))
    records = [{"value": i * i + 5} for i in items]
    texts = [json.dumps(r) for r in records]

    def check(out, expected_records=records, expected_texts=texts):
        got_records, got_texts = out
        assert got_records == expected_records
        assert list(got_texts) == expected_texts and len(got_texts) == len(expected_texts)
        assert got_texts.join(",\n") == ",\n".join(expected_texts)

    check(run_items(_square, items, init=_offset, init_args=(5,), encode=True))
    check(run_items(_square, items, init=_offset, init_args=(5,), workers=2, chunk_size=3, encode=True))
    jsonl = str(tmp_path / "r.jsonl")
    run_items(_square, items[:10], init=_offset, init_args=(5,), jsonl=jsonl, run_info={"k": 1})
    lines = Path(jsonl).read_text().splitlines()
    assert lines[1:] == [json.dumps({"index": i, "record": records[i]}) for i in range(10)]  # written from texts
    Path(jsonl).write_text("\n".join(lines[:6]) + "\n")  # the run line and 5 records
    check(run_items(_square, items[:10], init=_offset, init_args=(5,), jsonl=jsonl, resume=True,
                    run_info={"k": 1}, encode=True, log=lambda msg: None), records[:10], texts[:10])
    assert [json.loads(line)["record"] for line in Path(jsonl).read_text().splitlines()[1:]] == records[:10]


def _big(ctx, item):
    return {"value": item, "bulk": [item] * 50, "text": f"line\n{item}"}


def test_keep_sends_back_only_what_is_kept_and_the_texts_stay_whole(tmp_path):
    """``keep`` (e.g. the fields a summary reads) is applied where the result is made; the texts, the JSONL
    lines and the results are those of the whole records, serially and with workers, also on resume."""
    from functools import partial

    from eai_gym.scoring.jobs import keep_fields

    items = list(range(30))
    whole = [_big(None, i) for i in items]
    keep = partial(keep_fields, frozenset({"value", "absent"}))
    for workers in (1, 2):
        jsonl = str(tmp_path / f"k{workers}.jsonl")
        kept, texts = run_items(_big, items, workers=workers, chunk_size=4, encode=True, keep=keep, jsonl=jsonl)
        assert kept == [{"value": i} for i in items]
        assert list(texts) == [json.dumps(r) for r in whole]
        lines = sorted(map(json.loads, Path(jsonl).read_text().splitlines()[1:]), key=lambda line: line["index"])
        assert [line["record"] for line in lines] == whole  # in finishing order
        assert run_items(_big, items, workers=workers, chunk_size=4, keep=keep) == kept  # no texts asked
    lines = Path(jsonl).read_text().splitlines()
    Path(jsonl).write_text("\n".join(lines[:1] + lines[3:9:2]) + "\n")  # records 1, 3, 5 kept: not consecutive
    kept, texts = run_items(_big, items, workers=2, chunk_size=4, encode=True, keep=keep, jsonl=jsonl, resume=True,
                            log=lambda msg: None)
    assert kept == [{"value": i} for i in items] and list(texts) == [json.dumps(r) for r in whole]


def test_record_texts_refuse_a_gap_or_an_overlap():
    from eai_gym.scoring.results import RecordTexts

    texts = RecordTexts(4)
    texts.add([2, 3], "c\nd")
    texts.add([0], "a")
    with pytest.raises(ValueError, match="missing or given twice at record 1"):
        texts.join(",")
    short = RecordTexts(4)
    short.add([0, 1], "a\nb")
    with pytest.raises(ValueError, match="for 2 of 4 records"):
        list(short)
    texts.add([1], "b")
    assert texts.join(", ") == "a, b, c, d" and list(texts) == ["a", "b", "c", "d"]
    texts.add([3], "d")
    with pytest.raises(ValueError, match="given twice"):
        texts.join(",")
    with pytest.raises(ValueError, match="2 records but 1 texts"):
        RecordTexts(4).add([0, 2], "a")


def _dies_on_13(ctx, item):
    if item == 13:
        import os

        os._exit(3)  # what a worker killed by the system looks like to the pool
    return {"value": item}


def test_a_worker_that_dies_is_a_clear_error_and_writes_no_results(tmp_path, monkeypatch, capsys):
    with pytest.raises(runner.WorkerError, match="worker process ended abruptly"):
        run_items(_dies_on_13, list(range(40)), workers=2, chunk_size=4)
    import multiprocessing

    from eai_gym.scoring.virtualhome import action_sequencing

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the patched scorer reaches the workers only when they are forked")

    def dying(ctx, item):  # the scorer, crashing the worker that meets the item that names no task
        crash = isinstance(item, dict) and item.get("identifier") == "no_such_task"
        return _dies_on_13(ctx, 13) if crash else real(ctx, item)
    real = action_sequencing._unit
    monkeypatch.setattr(action_sequencing, "_unit", dying)
    path, _ = plans_file(tmp_path, "virtualhome", "action_sequencing")
    out = tmp_path / "out.json"
    assert main(["score", "virtualhome", str(path), "-o", str(out), "--workers", "2"]) == 1
    assert "worker process ended abruptly" in capsys.readouterr().err
    assert not out.exists()


def test_results_file_uses_the_records_texts_and_equals_plain_encoding():
    from eai_gym.scoring.io import dumps_results
    from eai_gym.scoring.results import EncodedRecords

    records = [{"a": i, "b": [i, "x"]} for i in range(5)]
    plain = {"summary": {"n": 5}, "tasks": records}
    encoded = {"summary": {"n": 5}, "tasks": EncodedRecords(records, [json.dumps(r) for r in records])}
    assert dumps_results(encoded) == dumps_results(plain)
    marked = EncodedRecords(records, [f'{{"text": {k}}}' for k in range(5)])  # the texts are what is written
    assert json.loads(dumps_results({"tasks": marked}))["tasks"] == [{"text": k} for k in range(5)]


def test_an_interrupted_run_keeps_the_finished_records(tmp_path):
    jsonl = str(tmp_path / "r.jsonl")
    items = [1, 2, 3, "interrupt", 5]
    with pytest.raises(KeyboardInterrupt):
        run_items(_square, items, init=_offset, init_args=(0,), jsonl=jsonl, run_info={"k": 1})
    lines = [json.loads(line) for line in Path(jsonl).read_text().splitlines()]
    assert [line.get("index") for line in lines[1:]] == [0, 1, 2]
    items[3] = 4
    counter = Counter(_square)
    out = run_items(counter, items, init=_offset, init_args=(0,), jsonl=jsonl, resume=True, run_info={"k": 1},
                    log=lambda msg: None)
    assert out == [{"value": i * i} for i in range(1, 6)] and counter.calls == 2
    with pytest.raises(RunnerError, match="different k"):
        run_items(_square, items, jsonl=jsonl, resume=True, run_info={"k": 2})


def test_ray_missing_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    path, _ = plans_file(tmp_path, "virtualhome", "action_sequencing", malformed=False)
    assert main(["score", "virtualhome", str(path), "--backend", "ray"]) == 2
    assert "pip install 'eai-gym[ray]'" in capsys.readouterr().err
    with pytest.raises(RunnerError, match="eai-gym\\[ray\\]"):
        runner.check_backend("ray")


def test_ray_backend_gives_the_serial_results(tmp_path):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for world, mode, protocol in [("virtualhome", "subgoal_decomposition", "eai-1.0.5"),
                                      ("behavior", "action_sequencing", "fixed")]:
            path, _ = plans_file(tmp_path, world, mode)
            score(path, world, mode, protocol, tmp_path / "serial.json")
            score(path, world, mode, protocol, tmp_path / "ray.json", "--backend", "ray", "--workers", "2",
                  "--jsonl", str(tmp_path / "ray.jsonl"))
            assert (tmp_path / "ray.json").read_bytes() == (tmp_path / "serial.json").read_bytes()
    finally:
        ray.shutdown()


def test_fewer_collections_raises_the_young_threshold_and_leaves_no_young_backlog():
    import gc

    from eai_gym.scoring.runner import YOUNG_GC_THRESHOLD, fewer_collections

    before = gc.get_threshold()
    kept = []
    with fewer_collections():
        assert gc.get_threshold()[0] == max(before[0], YOUNG_GC_THRESHOLD)
        kept.extend([i] for i in range(5000))  # long-lived young objects
        assert gc.get_count()[0] >= 5000
    assert gc.get_threshold() == before
    assert gc.get_count()[0] < 100  # made old without a collection walking them
    assert gc.get_freeze_count() == 0 and gc.is_tracked(kept[-1])
    gc.freeze()  # objects frozen by someone else stay frozen
    try:
        frozen = gc.get_freeze_count()
        with fewer_collections():
            kept.extend([i] for i in range(10))
        # still frozen (an unfreeze would leave 0), nothing young frozen with them; frozen objects that died
        # meanwhile (other tests' garbage) leave the count
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


def test_the_one_scoring_path_scores_items_given_in_process():
    """``scoring.score.score`` with items and no file (as a library user calls it) names its source."""
    from eai_gym import registry
    from eai_gym.scoring.score import score

    mode = registry.mode("virtualhome", "action_sequencing")
    item = {"identifier": "11_1", "llm_output": '{"WALK": ["living_room", "336"]}'}
    result, shown = score(mode, "fixed", {"gold_shortcut": None}, items=[item])
    assert result["source"] == "items given in process" and [r["identifier"] for r in shown] == ["11_1"]
    assert result["summary"] == score(mode, "fixed", {"gold_shortcut": None}, items=[item])[0]["summary"]

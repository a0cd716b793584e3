"""The one scoring path (``eai_gym.scoring.score.score``) gives the records ``eai-gym score`` writes, whether it is
called in process with items in hand (as ``evaluate`` calls it) or by the command line with a plan file."""

from __future__ import annotations

import json

import pytest

from eai_gym import registry
from eai_gym.cli import main
from eai_gym.scoring.score import score

GOLD_MODES = [(w.name, m.name) for w in registry.worlds() for m in w.modes if m.gold is not None
              and m.inputs]


def steady(obj):
    """``obj`` without what depends on the run's timing: a planner call's seconds and its log line."""
    if isinstance(obj, dict):
        drop = {"seconds"} | ({"message"} if "verdict" in obj else set())
        return {k: steady(v) for k, v in obj.items() if k not in drop}
    if isinstance(obj, list):
        return [steady(v) for v in obj]
    return obj


@pytest.mark.parametrize("world,mode", GOLD_MODES)
def test_in_process_records_are_the_command_line_s(tmp_path, world, mode):
    spec = registry.mode(world, mode)
    options = {o.name: o.default for o in spec.options}
    items = spec.gold_items(options)[:3]
    if isinstance(items[0], dict) and "llm_output" in items[0]:
        items.append({**items[0], "identifier": "no-such-task"})  # an invalid_input record too
        items.append({**items[1], "llm_output": "garbage{"})  # a reply that does not parse
    path, out = tmp_path / "plans.json", tmp_path / "results.json"
    path.write_text(json.dumps(items))
    assert main(["score", world, str(path), "--mode", mode, "--out", str(out)]) == 0
    written = json.loads(out.read_text())
    result, _ = score(spec, spec.protocols[0], options, items=items, paths=[str(path)])
    in_process = steady(json.loads(json.dumps(result)))
    written = steady(written)
    assert in_process["tasks"] == written["tasks"]
    assert in_process["summary"] == written["summary"]

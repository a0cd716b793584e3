"""Hostile plan files through ``eai-gym score``, every world and mode of the registry, the way a user runs it.

For each mode with packaged gold items, the file holds each gold item with one field replaced by a hostile value
(wrong JSON types, deep nesting, digit bombs, a lone surrogate, NUL, 1 MB strings, long lists; a different gold item
for each value, so that no item repeats an identifier), then the hostile values as bare items. The command must
exit 0 and write one record per item, with no traceback; the table gives each run's records and wall time::

    python -m tools.checks.hostile_sweep                 # every world and mode
    python -m tools.checks.hostile_sweep --only behavior1k

Exit status 1 when any run breaks that rule. The in-process property tests are
``tests/scoring/test_hostile_items.py``; this is the same promise, checked through the command line.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

#: one field's hostile values (the same kinds the property tests draw from)
HOSTILE: tuple[Any, ...] = (
    None, True, 1e308, -1, 2 ** 70, [], {}, [[[[]]]], "[" * 100_000, '{"a":' * 100_000, "(" * 100_000, "\ud800",
    "\x00", "a" * 2_000_000, "9" * 6000, {"WALK": ["kitchen", "9" * 5000]}, ["x"] * 100_000,
)


def hostile_items(gold: list[Any]) -> list[Any]:
    """Each field of the first gold item replaced by each hostile value in turn (on successive gold items), then
    the hostile values themselves as items."""
    base = gold[0] if gold and isinstance(gold[0], dict) else {"identifier": "x", "llm_output": "x"}
    items: list[Any] = []
    for key in base:
        for value in HOSTILE:
            source = gold[len(items) % len(gold)] if gold else base
            items.append({**source, key: value})
    return items + list(HOSTILE)


def sweep_mode(world: str, mode: Any, folder: str) -> tuple[bool, str]:
    """Score the mode's hostile file; (whether the rule held, one line saying what happened)."""
    options = {o.name: o.default for o in mode.options}
    items = hostile_items(mode.gold_items(options)[:64])
    path = os.path.join(folder, f"{world}_{mode.name}.json")
    out = path + ".results.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(items, f)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "eai_gym.cli", "score", world, path, "--mode", mode.name,
                           "--out", out], capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - t0
    try:
        with open(out, encoding="utf-8") as f:
            records = len(json.load(f)["tasks"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        records = -1
        proc.stderr += f"\n(no results file: {e})"
    ok = proc.returncode == 0 and records == len(items) and "Traceback" not in proc.stderr
    line = (f"{world:12s} {mode.name:24s} items {len(items):3d}  records {records:3d}  exit {proc.returncode}  "
            f"{wall:5.1f} s" + ("" if ok else f"  FAILED\n{proc.stderr[-2000:]}"))
    return ok, line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="", help="worlds whose name starts with this")
    args = ap.parse_args(argv)
    from eai_gym import registry

    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for w in registry.worlds():
            if not w.name.startswith(args.only):
                continue
            for m in w.modes:
                if m.gold is None:
                    continue
                ok, line = sweep_mode(w.name, m, folder)
                failed += not ok
                print(line, flush=True)
    print("every run: exit 0, one record per item" if not failed else f"{failed} runs broke the rule")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

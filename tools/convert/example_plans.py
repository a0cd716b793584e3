"""Write ``examples/plans/``: small plan files in each world's input format, taken from real LLM outputs and
recorded reference inputs, so that the README and the quickstart score real files as written.

    python -m tools.convert.example_plans [--out examples/plans] [--n 20]

* ``virtualhome_action_sequencing.json`` and ``virtualhome_subgoal_decomposition.json``: ``n`` plans of the
  reference kit's VirtualHome perturbation inputs (gold plans with one mistake each, of every kind in turn:
  ``tests/reference/data/virtualhome/perturbed_inputs.json``, ``subgoal_perturbed_inputs.json``), on tasks that
  both protocols evaluate (under ``eai-1.0.5`` a task whose gold plan fails the reference's own check is skipped);
* ``behavior_action_sequencing.json``: the first ``n`` plans of the reference kit's BEHAVIOR perturbation inputs
  (gold plans with two steps swapped; ``tests/reference/data/behavior/pert_swap.json``);
* ``rearrange_facts.json``: the first ``n // 4`` PARTNR evaluation cases (``tests/reference/data/partnr``).

The output is deterministic (same inputs, same bytes); ``README.md`` in the folder says where each file comes from.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from tools.common import REFERENCE_DATA, ROOT

README = """# Example plan files

Small files in each world's plans format, for the README and the quickstart (`eai-gym score WORLD FILE`).
Written by `python -m tools.convert.example_plans`; do not edit by hand.

| file | what | source |
|---|---|---|
| `virtualhome_action_sequencing.json` | {n} VirtualHome gold scripts with one mistake each (a dropped, swapped, duplicated or reversed step, a made-up object or action, broken syntax, a wrong argument count, a truncated plan), in EAI's output format | the eai-gym reference kit's perturbation inputs (`tests/reference/data/virtualhome/perturbed_inputs.json`) |
| `virtualhome_subgoal_decomposition.json` | {n} VirtualHome subgoal plans with one mistake each (reversed, last subgoal dropped, a made-up object or predicate, prose instead of JSON, a wrong arity) | the kit's `subgoal_perturbed_inputs.json` |
| `behavior_action_sequencing.json` | {n} BEHAVIOR gold plans with two steps swapped | the eai-gym reference kit's perturbation inputs (`tests/reference/data/behavior/pert_swap.json`) |
| `rearrange_facts.json` | {k} PARTNR evaluation cases (propositions, dependencies, constraints, per-step world facts) | the eai-gym reference kit's generated cases (`tests/reference/data/partnr/recorded_cases.json.gz`) |

Only tasks that both VirtualHome protocols evaluate are taken (under `--protocol eai-1.0.5` the reference skips a
task whose gold plan fails its own check).
"""


def _both_protocols(world: str, mode: str) -> set[str]:
    """The task ids whose gold item is evaluated (not skipped) under every protocol of the mode."""
    from eai_gym import registry
    from eai_gym.scoring.runner import run_items

    spec = registry.mode(world, mode)
    options = {o.name: o.default for o in spec.options}
    items = spec.gold_items(options)
    keep: set[str] | None = None
    for protocol in spec.protocols:
        jobs = registry.load(spec.jobs)(items, protocol, options, spec)
        records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args)
        ok = {r["identifier"] for r in records if r["status"] == "evaluated"}
        keep = ok if keep is None else keep & ok
    return keep or set()


def _round_robin(items: list[dict], n: int) -> list[dict]:
    """``n`` items taking each ``perturbation`` kind in turn (first seen first), in their order within a kind."""
    kinds: dict[str, list[dict]] = {}
    for it in items:
        kinds.setdefault(it["perturbation"], []).append(it)
    out: list[dict] = []
    while len(out) < n and any(kinds.values()):
        for queue in kinds.values():
            if queue and len(out) < n:
                out.append(queue.pop(0))
    return out


def _task_of(identifier: str) -> str:
    return identifier[len("scene_1_"):] if identifier.startswith("scene_1_") else identifier


def _dump(path: Path, obj: object) -> None:
    path.write_text(json.dumps(obj, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "examples" / "plans"))
    ap.add_argument("--n", type=int, default=20, help="items per file (default 20)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for mode, name in (("action_sequencing", "perturbed_inputs.json"),
                       ("subgoal_decomposition", "subgoal_perturbed_inputs.json")):
        evaluated = {_task_of(t) for t in _both_protocols("virtualhome", mode)}
        with open(REFERENCE_DATA / "virtualhome" / name, encoding="utf-8") as f:
            inputs = [it for it in json.load(f) if _task_of(it["identifier"]) in evaluated]
        _dump(out / f"virtualhome_{mode}.json", [{"identifier": it["identifier"], "llm_output": it["llm_output"]}
                                                 for it in _round_robin(inputs, args.n)])
    with open(REFERENCE_DATA / "behavior" / "pert_swap.json", encoding="utf-8") as f:
        behavior = json.load(f)["inputs"][:args.n]
    _dump(out / "behavior_action_sequencing.json", [{"identifier": it["identifier"], "llm_output": it["llm_output"]}
                                                    for it in behavior])
    with gzip.open(REFERENCE_DATA / "partnr" / "recorded_cases.json.gz", "rt", encoding="utf-8") as f:
        cases = [c["input"] for c in json.load(f)][:max(1, args.n // 4)]
    _dump(out / "rearrange_facts.json", cases)
    (out / "README.md").write_text(README.format(n=args.n, k=len(cases)), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Generate PARTNR evaluation cases aimed at the reference's edge behaviour, record the reference's
output for each, and compare eai-gym's ``partnr`` protocol against it.

The random cases of reference/harness/partnr/gen_cases.py rarely reach some behaviours; these
cases go for them on purpose: ``number`` above the candidate count or on single-handle lists, a
satisfied last pair with the count not reached, ``is_same_*`` over several receptacles,
``is_clustered`` without ``number`` or with a plain int, handles and rooms missing from the scene,
empty handle lists, worlds whose state snapshot lacks an object, self-dependencies, unrolled
propositions under every constraint type, and truth-mode infos holding lists.

Needs the reference venv and checkout (reference/harness/setup-partnr.sh):

    PARTNR_SRC=<checkout> <venv>/bin/python -m tools.reference.partnr_edge_cases \\
        --harness ../shared/reference/harness/partnr --n 400 --seed 7 --out edge.json.gz
    .venv/bin/python -m tools.reference.partnr_edge_cases --compare edge.json.gz

The first command writes a bundle, a gzipped JSON list of ``{"name", "input", "expected"}`` with
expected = the reference's output (tests/reference/data/partnr/edge_cases.json.gz was made with
``--n 400 --seed 7``); the second scores every case with eai-gym (protocol partnr) and prints each
disagreement. ``--compare`` also takes a folder of ``*.input.json`` / ``*.expected.json`` pairs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys

from tools.common import add_import_path

OBJS = ["cup_0", "cup_1", "plate_0", "book_0"]
FURN = ["table_0", "shelf_0", "sink_0"]
ROOMS = ["kitchen_0", "bedroom_0"]
STATES = ["is_clean", "is_powered_on", "is_filled"]
STATE_PREDS = ["is_clean", "is_dirty", "is_powered_on", "is_powered_off", "is_filled", "is_empty"]
REL = ["while_satisfied", "after_satisfied", "after_unsatisfied", "before_satisfied"]


def _handles(rng: random.Random, pool: list[str], lo: int, hi: int) -> list[str]:
    out = rng.sample(pool, rng.randint(lo, min(hi, len(pool))))
    if rng.random() < 0.05:
        out.append("ghost_0")  # not in the scene
    if rng.random() < 0.03:
        out = []
    return out


def _prop(rng: random.Random) -> tuple[dict, list[str]]:
    kind = rng.choice(["is_on_top"] * 3 + ["is_inside", "is_in_room", "is_on_floor", "is_next_to", "is_next_to",
                                            "is_clustered"] + STATE_PREDS)
    if kind in ("is_on_top", "is_inside", "is_in_room"):
        second = "room_ids" if kind == "is_in_room" else "receptacle_handles"
        b_pool = ROOMS + (["attic_9"] if rng.random() < 0.05 else []) if kind == "is_in_room" else FURN
        args = {"object_handles": _handles(rng, OBJS, 1, 3), second: _handles(rng, b_pool, 1, 3)}
        if rng.random() < 0.6:
            args["number"] = rng.randint(1, 4)
        if rng.random() < 0.4:
            args["is_same_room" if kind == "is_in_room" else "is_same_receptacle"] = True
        return {"function_name": kind, "args": args}, ["object_handles", second]
    if kind == "is_next_to":
        args = {"entity_handles_a": _handles(rng, OBJS, 1, 2), "entity_handles_b": _handles(rng, OBJS + FURN, 1, 2)}
        if rng.random() < 0.5:
            args["number"] = rng.randint(1, 3)
        if rng.random() < 0.3:
            args["is_same_b"] = True
        return {"function_name": kind, "args": args}, ["entity_handles_a", "entity_handles_b"]
    if kind == "is_clustered":
        pool = list(OBJS)
        rng.shuffle(pool)
        groups = [sorted(pool[:2]), sorted(pool[2:3])] + ([sorted(pool[3:4])] if rng.random() < 0.5 else [])
        args: dict = {"*args": groups}
        r = rng.random()
        if r < 0.7:
            args["number"] = [rng.randint(1, len(g)) for g in groups]
        elif r < 0.8:
            args["number"] = rng.randint(1, 2)
        return {"function_name": kind, "args": args}, ["*args_0", "*args_1"]
    args = {"object_handles": _handles(rng, OBJS, 1, 3)}
    if rng.random() < 0.5:
        args["number"] = rng.randint(1, 3)
    return {"function_name": kind, "args": args}, ["object_handles"]


def _world(rng: random.Random, prev: dict | None) -> dict:
    if prev is not None and rng.random() < 0.5:
        w = json.loads(json.dumps(prev))
        o = rng.choice(OBJS)
        for key in ("on_top", "inside", "in_room"):
            w[key] = [f for f in w[key] if f[0] != o]
        w["on_floor"] = [x for x in w["on_floor"] if x != o]
        w["next_to"] = [p for p in w["next_to"] if o not in p]
        _place(rng, w, o)
        w["states"][rng.choice(STATES)][o] = rng.random() < 0.5
        return w
    w: dict = {"on_top": [], "inside": [], "in_room": [], "on_floor": [], "next_to": [], "states": {s: {} for s in STATES}}
    for o in OBJS:
        _place(rng, w, o)
        for s in STATES:
            if rng.random() < 0.97:  # now and then an object is not registered for a state
                w["states"][s][o] = rng.random() < 0.5
    return w


def _place(rng: random.Random, w: dict, o: str) -> None:
    # an object can be above several receptacles at once (stacking), which pair counting sees
    for f in FURN:
        if rng.random() < 0.3:
            w["on_top"].append([o, f])
    if rng.random() < 0.2:
        w["inside"].append([o, rng.choice(FURN)])
    if rng.random() < 0.25:
        w["on_floor"].append(o)
    if rng.random() < 0.8:
        w["in_room"].append([o, rng.choice(ROOMS)])
    for other in OBJS + FURN:
        if other != o and rng.random() < 0.25:
            w["next_to"].append(sorted([o, other]))


def make_case(rng: random.Random, idx: int) -> dict:
    n = rng.randint(1, 5)
    props, names = zip(*[_prop(rng) for _ in range(n)])
    deps = []
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        tgt = sorted(rng.sample(range(n), rng.randint(1, min(2, n))))
        src = sorted(rng.sample(range(n), rng.randint(1, min(2, n))))  # may include tgt: self-gating
        deps.append({"proposition_indices": tgt, "depends_on": src, "relation_type": rng.choice(REL),
                     "dependency_mode": rng.choice(["all", "any"])})
    cons = []
    with_n = rng.random() < 0.7
    extra = {"n_propositions": n} if with_n else {}
    if rng.random() < 0.6:
        edges = sorted({(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.4})
        cons.append({"type": "TemporalConstraint", "args": {"dag_edges": [list(e) for e in edges], **extra}})
    for ctype in ("SameArgConstraint", "DifferentArgConstraint"):
        if rng.random() < 0.4 and n >= 2:
            idxs = sorted(rng.sample(range(n), rng.randint(2, min(3, n))))
            cons.append({"type": ctype, "args": {"proposition_indices": idxs,
                                                 "arg_names": [rng.choice(names[i]) for i in idxs], **extra}})
    if rng.random() < 0.5:
        cons.append({"type": "TerminalSatisfactionConstraint",
                     "args": {"proposition_indices": sorted(rng.sample(range(n), rng.randint(1, n))), **extra}})
    case = {"case_id": idx, "propositions": list(props), "dependencies": deps, "constraints": cons,
            "final_extra_update": rng.random() < 0.6}
    steps = rng.randint(1, 8)
    if rng.random() < 0.25:
        rows = []
        for _ in range(steps):
            row = []
            for i, p in enumerate(props):
                sat = rng.random() < 0.5
                info: dict = {}
                if sat:
                    for nm in names[i]:
                        if nm.startswith("*args"):
                            info["*args"] = [[rng.choice(g)] for g in p["args"]["*args"]]
                        elif p["args"][nm]:
                            pick = rng.choice(p["args"][nm])
                            info[nm] = [pick] if rng.random() < 0.1 else pick
                row.append({"is_satisfied": sat, "info": info} if rng.random() < 0.8 else sat)
            rows.append(row)
        case["truths"] = rows
    else:
        worlds, prev = [], None
        for _ in range(steps):
            prev = _world(rng, prev)
            worlds.append(prev)
        case.update(entities=OBJS + FURN, rooms=ROOMS, worlds=worlds)
    return case


def generate(harness: str, n: int, seed: int, out: str) -> None:
    add_import_path(harness)
    import ref_partnr_eval  # the reference harness (imports the reference from $PARTNR_SRC)

    rng = random.Random(seed)
    bundle = []
    for i in range(n):
        case = make_case(rng, i)
        try:
            expected = ref_partnr_eval.run_case(json.loads(json.dumps(case)))
        except Exception as e:  # noqa: BLE001 - the harness itself failed (outside the measures)
            expected = {"harness_error": f"{type(e).__name__}: {e}"}
        expected.pop("traceback_tail", None)
        bundle.append({"name": f"edge_{seed}_{i:03d}", "input": case, "expected": expected})
    data = json.dumps(bundle, separators=(",", ":"), sort_keys=True).encode("utf-8")
    with open(out, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:  # reproducible bytes
        f.write(data)
    errors = sum("error" in b["expected"] for b in bundle)
    print(f"{n} cases written to {out}; the reference raised on {errors}")


def read_cases(path: str) -> list[dict]:
    """A bundle file, or a folder of NAME.input.json / NAME.expected.json pairs."""
    if not os.path.isdir(path):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    out = []
    for name in sorted(n for n in os.listdir(path) if n.endswith(".input.json")):
        with open(os.path.join(path, name)) as f:
            case = json.load(f)
        with open(os.path.join(path, name.replace(".input.", ".expected."))) as f:
            out.append({"name": name[: -len(".input.json")], "input": case, "expected": json.load(f)})
    return out


def compare(folder: str) -> int:
    from eai_gym.scoring.rearrange.facts import evaluate_case

    cases = read_cases(folder)
    bad = skipped = 0
    for c in cases:
        name, case, expected = c["name"], c["input"], c["expected"]
        if "harness_error" in expected:
            skipped += 1
            continue
        got = evaluate_case(case, "partnr")
        keys = ["per_step", "final_extra_update_step", "task_percent_complete", "task_state_success", "error"]
        diff = [k for k in keys if got.get(k) != expected.get(k)]
        if "task_evaluation_log" in expected:
            for k in ("proposition_satisfied_at", "constraint_satisfaction", "dependencies", "state_sequence"):
                if got["task_evaluation_log"][k] != expected["task_evaluation_log"][k]:
                    diff.append("log." + k)
        if diff:
            bad += 1
            print(f"{name}: {diff}\n  ours: {got.get('error')}\n  reference: {expected.get('error')}")
    print(f"{len(cases)} cases, {skipped} the harness could not run, {bad} disagreements")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--harness", help="reference/harness/partnr (holds ref_partnr_eval.py)")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", help="bundle file to write (.json.gz)")
    ap.add_argument("--compare", metavar="BUNDLE", help="score a bundle's (or folder's) cases with eai-gym and report "
                                                        "disagreements")
    a = ap.parse_args()
    if a.compare:
        return compare(a.compare)
    if not (a.harness and a.out):
        ap.error("give --harness and --out to generate, or --compare FOLDER")
    generate(a.harness, a.n, a.seed, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

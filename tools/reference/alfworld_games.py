#!/usr/bin/env python
"""ALFWorld agreement cases for listing order and for commands after a win, run through the reference.

    python -m tools.reference.alfworld_games prefix-pairs --kit <kit> --reference 0.4=<venv>/bin/python \
        --reference 0.3=<venv033>/bin/python --out tests/reference/data/alfworld/prefix_pairs.json.gz
    python -m tools.reference.alfworld_games after-win --n 30 --seed 16 --kit <kit> --reference 0.4=... \
        --reference 0.3=... --out tests/reference/data/alfworld/after_win.json.gz
    python -m tools.reference.alfworld_games compare tests/reference/data/alfworld/prefix_pairs.json.gz

``prefix-pairs`` asks the reference for ALFWorld's classes (``OBJECTS``, ``RECEPTACLES`` and the
classes of its receptacle and action tables) and, for every pair where one lower-cased class name is a
prefix of another (``toilet`` / ``toiletpaperhanger``, ``pen`` / ``pencil``, ``pot`` / ``potato``,
``apple`` / ``applesliced``...), builds a game with both classes as receptacles (two of each, one of
each pair sharing a location: the welcome text and ``look`` list them) and, where neither class is a
fixed receptacle, a game with both as objects (in a surface, a closed drawer and an open cabinet:
``On the X`` and ``In it`` list them), plus one game with every such receptacle class in one room
and one with every such object class in one receptacle. Each game is played with a seeded command
walk (every receptacle visited and opened, then takes, moves, looks, examines, inventories).
``after-win`` builds ``--n`` random games (``tools.reference.alfworld_walks.make_spec``), walks each to a
win (oracle commands with detours) and sends 1–5 more commands (admissible ones, invalid ones, look,
inventory, help). Both run every walk in both dialects: alfworld 0.4.2 (``--reference 0.4=``) and
alfworld 0.3.3 (``--reference 0.3=``), through ``tools/reference/alfworld_play.py``, and store spec,
PDDL problem, traj data and per dialect the transcript (obs, score, done, won, admissible, planner
plan, handcoded expert's next command, the facts that change and a digest of all facts).
``compare`` replays every transcript through eai-gym's env and counts mismatching steps.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile

from tools.common import checkout_env
from tools.reference.alfworld_walks import make_spec, walk

#: the module that plays one game on a reference venv's alfworld
PLAY = "tools.reference.alfworld_play"
#: the facts a command can change (the rest of the problem is static)
DYNAMIC = ("atlocation(", "inreceptacle(", "objectatlocation(", "holds(", "opened(", "ishot(", "iscool(", "isclean(",
           "istoggled(", "ison(", "issliced(")
CLASSES = """import json, alfworld.gen.constants as C
s = set(C.OBJECTS) | set(C.RECEPTACLES)
for k, v in C.VAL_RECEPTACLE_OBJECTS.items(): s |= {k} | set(v)
for v in C.VAL_ACTION_OBJECTS.values(): s |= set(v)
print(json.dumps({"classes": sorted(s), "fixed": sorted(set(C.RECEPTACLES) - set(C.MOVABLE_RECEPTACLES)),
                  "contain": {k: sorted(v) for k, v in sorted(C.VAL_RECEPTACLE_OBJECTS.items())}}))"""


def prefix_pairs(classes: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for a in classes for b in classes if a != b and b.lower().startswith(a.lower())]


def _key(rng: random.Random) -> str:
    """An id suffix in ALFRED's mangled-coordinate style (``_plus_00_dot_68_bar__minus_02_dot_20``)."""
    def c() -> str:
        v = rng.uniform(-3, 3)
        return ("_plus_" if v >= 0 else "_minus_") + f"{abs(v):05.2f}".replace(".", "_dot_")
    return f"{c()}_bar_{c()}_bar_{c()}"


def _task(objects: list[str], recs: list[str], info: dict) -> tuple[dict, list[str]]:
    """A pick-and-place task on one of ``objects`` with a receptacle type that can hold it (added to
    ``recs`` when missing)."""
    for o in objects:
        for r in sorted(info["contain"]):
            if o in info["contain"][r] and r in info["fixed"]:
                return {"object_target": o, "parent_target": r, "toggle_target": "", "mrecep_target": "",
                        "object_sliced": False}, ([] if r in recs else [r])
    return {"object_target": "Book", "parent_target": "Shelf", "toggle_target": "", "mrecep_target": "",
            "object_sliced": False}, ([] if "Shelf" in recs else ["Shelf"])


def receptacle_spec(name: str, classes: list[str], rng: random.Random, info: dict) -> dict:
    """``classes`` as receptacles (two of each; the two firsts share a location, as do the two seconds)."""
    recs: list[dict] = []
    for n in range(2):
        first = None
        for cls in classes:
            r = {"key": _key(rng), "type": cls}
            if first is None:
                first = r["key"]
            else:
                r["same_loc_as"] = first
            recs.append(r)
    objects = [{"key": _key(rng), "type": "Book", "in": recs[0]["key"]},
               {"key": _key(rng), "type": "Book", "in": recs[-1]["key"]}]
    params, extra = _task(["Book"], [r["type"] for r in recs], info)
    recs += [{"key": _key(rng), "type": t} for t in extra]
    return {"name": name, "task_type": "pick_and_place_simple", "pddl_params": params, "receptacles": recs,
            "objects": objects, "start_key": None}


def object_spec(name: str, classes: list[str], rng: random.Random, info: dict) -> dict:
    """``classes`` as objects: two of each on a countertop, one of each in a closed drawer and in an
    open cabinet."""
    recs = [{"key": _key(rng), "type": "CounterTop"}, {"key": _key(rng), "type": "Drawer"},
            {"key": _key(rng), "type": "Cabinet", "opened": True}]
    objects = []
    for r, n in ((recs[0], 2), (recs[1], 1), (recs[2], 1)):
        for _ in range(n):
            for cls in classes:
                objects.append({"key": _key(rng), "type": cls, "in": r["key"]})
    rng.shuffle(objects)  # the listing order must not depend on the order of the problem's facts
    params, extra = _task(classes, [r["type"] for r in recs], info)
    recs += [{"key": _key(rng), "type": t} for t in extra]
    if params["object_target"] == "Book":
        objects.append({"key": _key(rng), "type": "Book", "in": recs[0]["key"]})
    return {"name": name, "task_type": "pick_and_place_simple", "pddl_params": params, "receptacles": recs,
            "objects": objects, "start_key": None}


def listing_walk(engine, rng: random.Random, extra: int = 25) -> list[str]:
    """Visit (and open) every receptacle, with ``look`` where several share a location; then ``extra``
    commands drawn from the admissible ones, weighted towards those that list things or move them."""
    state = engine.initial_state()
    cmds: list[str] = []

    def send(cmd: str) -> None:
        cmds.append(cmd)
        engine.step(state, cmd)
    for r in engine.game.receptacles:
        name = engine.name[r]
        if f"go to {name}" in engine.admissible(state):
            send(f"go to {name}")
            send("look")
        if f"open {name}" in engine.admissible(state):
            send(f"open {name}")
        send(f"examine {name}")
    weights = {"take": 4, "move": 3, "put": 3, "open": 2, "go": 2, "examine": 2, "inventory": 1, "look": 1}
    for _ in range(extra):
        adm = engine.admissible(state)
        send(rng.choices(adm, [weights.get(c.split()[0], 0.3) for c in adm])[0])
    return cmds


def after_win_walk(engine, rng: random.Random, k: int) -> list[str] | None:
    """A walk that wins, then ``k`` more commands (None when the game cannot be won)."""
    from eai_gym.envs.alfworld.oracle import Oracle
    cmds = walk(engine, rng, rng.randint(4, 16))
    state = engine.initial_state()
    for c in cmds:
        engine.step(state, c)
    if not engine.won(state):
        plan = Oracle(engine).plan(state)
        if not plan:
            return None
        for c in plan:
            engine.step(state, c)
        cmds += plan
    adm = engine.admissible(state)
    pool = adm + ["jump", "look", "inventory", "help", "go to nowhere 1", adm[0] + "."]
    return cmds + [rng.choice(pool) for _ in range(k)]


def _reference(args: argparse.Namespace) -> dict[str, str]:
    refs = dict(r.split("=", 1) for r in args.reference)
    if set(refs) != {"0.4", "0.3"}:
        raise SystemExit("--reference 0.4=<python> and --reference 0.3=<python> are both needed")
    return refs


def _run(spec: dict, cmds: list[str], python: str, kit: str, tmp: str) -> list[dict]:
    sp, cf, out = (os.path.join(tmp, n) for n in ("spec.json", "cmds.txt", "out.jsonl"))
    with open(sp, "w") as f:
        json.dump(spec, f)
    with open(cf, "w") as f:
        f.write("\n".join(cmds) + "\n")
    subprocess.run([python, "-m", PLAY, sp, "--kit", os.path.abspath(kit), "--commands-file", cf, "--out", out],
                   check=True, capture_output=True, text=True, env=checkout_env())
    rows = []
    with open(out) as f:
        for line in f:
            r = json.loads(line)
            facts = r.pop("facts")
            if facts is not None:
                r["facts"] = [x for x in facts if x.startswith(DYNAMIC)]
                r["facts_sha256"] = hashlib.sha256("\n".join(facts).encode()).hexdigest()
            rows.append(r)
    return rows


def _record(specs: list[tuple[dict, dict]], args: argparse.Namespace, extra: dict) -> None:
    """Run every (spec, {dialect: commands}) through both references; write the bundle."""
    from eai_gym.envs.alfworld.game import game_from_pddl  # noqa: F401 - fail early without eai-gym
    refs = _reference(args)
    harness = os.path.join(args.kit, "harness", "alfworld", "ref_alfworld.py")
    out = {"_meta": extra}
    with tempfile.TemporaryDirectory() as tmp:
        for spec, walks in specs:
            sp = os.path.join(tmp, "dump.json")
            with open(sp, "w") as f:
                json.dump(spec, f)
            pddl = subprocess.run([refs["0.4"], harness, sp, "--dump-pddl"], capture_output=True, text=True,
                                  check=True).stdout
            traj = {"task_type": spec["task_type"], "pddl_params": spec["pddl_params"]}
            case = {"spec": spec, "pddl": pddl, "traj": traj, "transcripts": {}}
            for dialect, cmds in sorted(walks.items()):
                case["transcripts"][f"{dialect}/walk"] = _run(spec, cmds, refs[dialect], args.kit, tmp)
            out[spec["name"]] = case
            print(spec["name"], {d: len(c) for d, c in walks.items()}, file=sys.stderr)
    with open(args.out, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:
        f.write(json.dumps(out, sort_keys=True, separators=(",", ":")).encode())


def _walks(spec: dict, pddl_python: str, kit: str, make) -> dict[str, list[str]] | None:
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.game import game_from_pddl
    with tempfile.TemporaryDirectory() as tmp:
        sp = os.path.join(tmp, "spec.json")
        with open(sp, "w") as f:
            json.dump(spec, f)
        pddl = subprocess.run([pddl_python, os.path.join(kit, "harness", "alfworld", "ref_alfworld.py"), sp,
                               "--dump-pddl"], capture_output=True, text=True, check=True).stdout
    game = game_from_pddl(pddl, {"task_type": spec["task_type"], "pddl_params": spec["pddl_params"]}, spec["name"])
    walks = {}
    for dialect in ("0.4", "0.3"):
        cmds = make(Engine(game, dialect))
        if cmds is None:
            return None
        walks[dialect] = cmds
    return walks


def cmd_prefix_pairs(args: argparse.Namespace) -> None:
    refs = _reference(args)
    info = json.loads(subprocess.run([refs["0.4"], "-c", CLASSES], capture_output=True, text=True,
                                     check=True).stdout)
    pairs = prefix_pairs(info["classes"])
    rng = random.Random(args.seed)
    specs = []
    as_objects = sorted({c for p in pairs for c in p if not set(p) & set(info["fixed"])})
    for i, (a, b) in enumerate(pairs):
        specs.append(receptacle_spec(f"prefix_{i:02d}_receptacles_{a}_{b}", [a, b], rng, info))
        if not {a, b} & set(info["fixed"]):
            specs.append(object_spec(f"prefix_{i:02d}_objects_{a}_{b}", [a, b], rng, info))
    specs.append(receptacle_spec("prefix_all_receptacles", sorted({c for p in pairs for c in p}), rng, info))
    specs.append(object_spec("prefix_all_objects", as_objects, rng, info))
    todo = []
    for spec in specs:
        seed = rng.randrange(2**31)
        todo.append((spec, _walks(spec, refs["0.4"], args.kit, lambda e, s=seed: listing_walk(e, random.Random(s)))))
    _record(todo, args, {"pairs": [list(p) for p in pairs], "seed": args.seed})


def cmd_after_win(args: argparse.Namespace) -> None:
    refs = _reference(args)
    rng = random.Random(args.seed)
    todo = []
    i = 0
    while len(todo) < args.n:
        spec = make_spec(rng, i)
        spec["name"] = f"after_win_{i:03d}"
        k = len(todo) % 5 + 1
        seed = rng.randrange(2**31)
        walks = _walks(spec, refs["0.4"], args.kit, lambda e, s=seed, k=k: after_win_walk(e, random.Random(s), k))
        i += 1
        if walks is not None:
            todo.append((spec, walks))
    _record(todo, args, {"n": args.n, "seed": args.seed})


def cmd_compare(args: argparse.Namespace) -> None:
    from tests.reference.alfworld_replay import replay_env
    data = json.loads(gzip.decompress(open(args.bundle, "rb").read()))
    games = steps = bad = after = 0
    for name, c in sorted(data.items()):
        if name.startswith("_"):
            continue
        games += 1
        for run, rows in sorted(c["transcripts"].items()):
            for row, problems in replay_env(c, run):
                steps += 1
                after += bool(row.get("after_win"))
                if problems:
                    bad += 1
                    print(name, run, row["step"], row["command"], problems)
    print(f"{games} games, {steps} steps ({after} after a win), {bad} mismatching steps")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("prefix-pairs", "after-win"):
        g = sub.add_parser(name)
        g.add_argument("--kit", required=True)
        g.add_argument("--reference", action="append", default=[], help="DIALECT=PYTHON (0.4 and 0.3)")
        g.add_argument("--seed", type=int, default=16)
        g.add_argument("--out", required=True)
        if name == "after-win":
            g.add_argument("--n", type=int, default=30)
    c = sub.add_parser("compare")
    c.add_argument("bundle")
    args = p.parse_args()
    {"prefix-pairs": cmd_prefix_pairs, "after-win": cmd_after_win, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Unseen ALFWorld agreement cases: random games and command walks, run through the reference.

    python -m tools.reference.alfworld_walks generate --n 30 --seed 11 --kit <kit> \
        --reference-python <alfworld venv>/bin/python --out tests/reference/data/alfworld/unseen.json.gz
    python -m tools.reference.alfworld_walks compare tests/reference/data/alfworld/unseen.json.gz

``generate`` builds ``--n`` seeded games in the kit harness's spec format (5–14 receptacles, some
sharing a location, closed and open containers, 3–10 objects with the goal objects among them, all
six task types), chooses a walk of 12–30 commands with eai-gym's engine (mostly admissible commands,
some invalid ones: wrong numbers, the other dialect's put, unknown verbs), runs the reference
(alfworld 0.4.2 + textworld 1.7.0 via ``harness/alfworld/ref_alfworld.py``) on the same commands, and
stores spec, PDDL problem and transcript. ``compare`` replays every transcript through eai-gym and
counts mismatches in observation, admissible commands, won, and oracle plan length.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile

RECEPTACLES = ["CounterTop", "Cabinet", "Drawer", "Fridge", "Microwave", "SinkBasin", "GarbageCan", "Shelf",
               "SideTable", "DiningTable", "Desk", "Dresser", "Bed", "Sofa", "ArmChair", "CoffeeMachine",
               "StoveBurner", "Toilet", "Safe", "TowelHolder", "Cart"]
TASKS = {
    "pick_and_place_simple": [("Pen", "Drawer"), ("Book", "Shelf"), ("Apple", "CounterTop"), ("KeyChain", "Safe"),
                              ("CellPhone", "Bed"), ("Bowl", "Cabinet")],
    "pick_clean_then_place_in_recep": [("Mug", "CoffeeMachine"), ("Plate", "Cabinet"), ("Fork", "Drawer"),
                                       ("Cloth", "Toilet")],
    "pick_heat_then_place_in_recep": [("Apple", "CounterTop"), ("Mug", "Cabinet"), ("Potato", "Fridge"),
                                      ("Egg", "GarbageCan")],
    "pick_cool_then_place_in_recep": [("Tomato", "GarbageCan"), ("Lettuce", "CounterTop"), ("Pan", "StoveBurner"),
                                      ("Bread", "DiningTable")],
    "pick_two_obj_and_place": [("SoapBar", "GarbageCan"), ("Pen", "Drawer"), ("CD", "Shelf"), ("Pencil", "Desk")],
    "look_at_obj_in_light": [("Book", "DeskLamp"), ("CellPhone", "DeskLamp"), ("KeyChain", "FloorLamp")],
}
DISTRACTORS = ["Knife", "Spoon", "Cup", "Vase", "Statue", "CreditCard", "Watch", "Candle", "Pillow", "Newspaper"]
APPLIANCE = {"pick_clean_then_place_in_recep": "SinkBasin", "pick_heat_then_place_in_recep": "Microwave",
             "pick_cool_then_place_in_recep": "Fridge"}


def make_spec(rng: random.Random, i: int) -> dict:
    task = sorted(TASKS)[i % len(TASKS)]
    obj, second = rng.choice(TASKS[task])
    need = [second if task != "look_at_obj_in_light" else "SideTable"]
    if task in APPLIANCE:
        need.append(APPLIANCE[task])
    kinds = need + rng.sample(RECEPTACLES, rng.randint(3, 9)) + [rng.choice(["Cabinet", "Drawer", "StoveBurner"])] * rng.randint(0, 3)
    recs = []
    for k, t in enumerate(kinds):
        r = {"key": chr(97 + k), "type": t}
        if t in ("Cabinet", "Drawer", "Fridge", "Microwave", "Safe") and rng.random() < 0.25:
            r["opened"] = True
        if recs and t in ("StoveBurner", "Drawer", "Cabinet") and recs[-1]["type"] == t and rng.random() < 0.6:
            r["same_loc_as"] = recs[-1].get("same_loc_as") or recs[-1]["key"]
        recs.append(r)
    keys = [r["key"] for r in recs]
    objects = []
    n_goal = 2 + (task == "pick_two_obj_and_place") + rng.randint(0, 1)
    for _ in range(n_goal):
        objects.append({"type": obj, "in": rng.choice(keys[1:] if len(keys) > 1 else keys)})
    if task == "look_at_obj_in_light":
        objects.append({"type": second, "in": keys[0]})
    for _ in range(rng.randint(1, 5)):
        objects.append({"type": rng.choice(DISTRACTORS), "in": rng.choice(keys)})
    for k, o in enumerate(objects):
        o["key"] = chr(97 + k)
    params = {"object_target": obj, "parent_target": "" if task == "look_at_obj_in_light" else second,
              "toggle_target": second if task == "look_at_obj_in_light" else "", "mrecep_target": "",
              "object_sliced": False}
    return {"name": f"unseen_{i:03d}", "task_type": task, "pddl_params": params, "receptacles": recs,
            "objects": objects, "start_key": rng.choice([None, None, keys[-1]])}


def walk(engine, rng: random.Random, steps: int) -> list[str]:
    from eai_gym.envs.alfworld.oracle import Oracle
    state = engine.initial_state()
    oracle = Oracle(engine)
    cmds = []
    for _ in range(steps):
        adm = engine.admissible(state)
        roll = rng.random()
        if roll < 0.35:
            plan = oracle.plan(state) or ["look"]
            cmd = plan[0]
        elif roll < 0.85:
            cmd = rng.choice(adm)
        else:
            base = rng.choice(adm)
            cmd = rng.choice([base.replace(" 1", " 9"), base.replace("move ", "put ").replace(" to ", " in/on "),
                              "jump", base.upper(), base + "."])
        cmds.append(cmd)
        engine.step(state, cmd)
        if engine.won(state):
            break
    return cmds


def generate(args: argparse.Namespace) -> None:
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.game import game_from_pddl
    harness = os.path.join(args.kit, "harness", "alfworld", "ref_alfworld.py")
    rng = random.Random(args.seed)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.n):
            spec = make_spec(rng, i)
            sp = os.path.join(tmp, "spec.json")
            with open(sp, "w") as f:
                json.dump(spec, f)
            pddl = subprocess.run([args.reference_python, harness, sp, "--dump-pddl"], capture_output=True,
                                  text=True, check=True).stdout
            traj = {"task_type": spec["task_type"], "pddl_params": spec["pddl_params"]}
            engine = Engine(game_from_pddl(pddl, traj, spec["name"]))
            cmds = walk(engine, rng, rng.randint(12, 30))
            cf = os.path.join(tmp, "cmds.txt")
            with open(cf, "w") as f:
                f.write("\n".join(cmds) + "\n")
            res = os.path.join(tmp, "out.jsonl")
            run = subprocess.run([args.reference_python, harness, sp, "--commands-file", cf, "--out", res],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                tail = run.stderr.strip().splitlines()[-1:]
                print(spec["name"], "reference error:", tail, file=sys.stderr)
                out[spec["name"]] = {"spec": spec, "pddl": pddl, "traj": traj, "commands": cmds,
                                     "reference_error": tail, "transcripts": {}}
                continue
            with open(res) as f:
                rows = [json.loads(line) for line in f if line.strip()]
            keep = ("step", "command", "obs", "won", "admissible", "planner_plan", "aq_progress")
            out[spec["name"]] = {"spec": spec, "pddl": pddl, "traj": traj,
                                 "transcripts": {"0.4/walk": [{k: r[k] for k in keep if k in r} for r in rows]}}
            print(spec["name"], spec["task_type"], len(rows) - 1, "steps", file=sys.stderr)
    with open(args.out, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as f:
        f.write(json.dumps(out, sort_keys=True, separators=(",", ":")).encode())


def compare(args: argparse.Namespace) -> None:
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.game import game_from_pddl
    from eai_gym.envs.alfworld.oracle import Oracle
    data = json.loads(gzip.decompress(open(args.bundle, "rb").read()))
    steps = bad = 0
    errors = sorted(n for n, c in data.items() if c.get("reference_error"))
    for name, c in sorted(data.items()):
        game = game_from_pddl(c["pddl"], c["traj"], name)
        for run, rows in c["transcripts"].items():
            engine = Engine(game, run.split("/")[0])
            oracle, state = Oracle(engine), engine.initial_state()
            task = rows[0]["obs"].split("Your task is to: ")[1][:-1]
            tpl = [game.task_text(k) for k in (0, 1)].index(task)
            for r in rows:
                obs = engine.intro(game.task_text(tpl)) if r["command"] is None else engine.step(state, r["command"])[0]
                steps += 1
                diff = [k for k, ok in (("obs", obs == r["obs"]), ("admissible", engine.admissible(state) == r["admissible"]),
                                        ("won", engine.won(state) == r["won"]),
                                        ("plan", len(oracle.plan(state) or []) == len(r["planner_plan"]))) if not ok]
                if diff:
                    bad += 1
                    print(name, r["step"], r["command"], diff)
    print(f"{len(data)} games ({len(errors)} on which the reference raised: {', '.join(errors) or '-'}), "
          f"{steps} steps, {bad} mismatching steps")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--n", type=int, default=30)
    g.add_argument("--seed", type=int, default=11)
    g.add_argument("--kit", required=True)
    g.add_argument("--reference-python", required=True)
    g.add_argument("--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("bundle")
    args = p.parse_args()
    generate(args) if args.cmd == "generate" else compare(args)


if __name__ == "__main__":
    main()

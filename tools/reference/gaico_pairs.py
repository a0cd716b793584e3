"""Unseen plan pairs for the GAICo agreement test, and their scoring by the reference.

    python -m tools.reference.gaico_pairs make --seed 7 --n 400 -o /tmp/pairs.json
    <gaico venv>/bin/python ../shared/reference/harness/gaico/ref_gaico.py /tmp/pairs.json -o /tmp/scored.json
    python -m tools.reference.gaico_pairs import /tmp/scored.json -o tests/reference/data/gaico/unseen.json

Pairs are built from real actions of every world's gold plans (VirtualHome script lines, BEHAVIOR calls,
PARTNR skills, ALFWorld commands) plus punctuation hazards (nested and unbalanced braces, commas inside
brackets, blanks, case and whitespace changes), mutated by shuffling, dropping, inserting, duplicating
and grouping actions into concurrent sets. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

HAZARDS = ["", " ", "{}", "{ , }", "{a, {b}}", "x}", "{y", "f(a, b)", "g[a,b]", '"q, r"', "A", "a", "a ",
           "A  b", "ä", "\t", "(walk agent_0 kitchen)"]


def world_actions() -> list[str]:
    from eai_gym.envs.alfworld.engine import Engine
    from eai_gym.envs.alfworld.generator import eval_game
    from eai_gym.envs.alfworld.oracle import Oracle
    from eai_gym.envs.behavior.tasks import task_ids as beh_ids
    from eai_gym.envs.behavior.tasks import task_record
    from eai_gym.envs.rearrange.episode import shipped_episodes
    from eai_gym.envs.rearrange.oracle import oracle_scripts
    from eai_gym.envs.virtualhome.tasks import gold_plan_json
    from eai_gym.envs.virtualhome.tasks import task_ids as vh_ids

    acts: list[str] = []
    for t in vh_ids()[:20]:
        for name, args in json.loads(gold_plan_json(t), object_pairs_hook=list):
            acts.append(f"[{name}]" + "".join(f" <{args[i]}> ({args[i + 1]})" for i in range(0, len(args), 2)))
    for t in beh_ids()[:10]:
        acts += [f"{s['action']}({s['object']})" for s in task_record(t)["gold_plan"]]
    for ep in shipped_episodes("val")[:6]:
        for script in oracle_scripts(ep).values():
            acts += list(script)
    for i in range(6):
        engine = Engine(eval_game(i))
        acts += Oracle(engine).plan(engine.initial_state()) or []
    return sorted(set(acts))


def make_pairs(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    atoms = world_actions()

    def item() -> str:
        r = rng.random()
        if r < 0.15:
            return "{" + ", ".join(rng.choice(atoms) for _ in range(rng.randint(0, 3))) + "}"
        if r < 0.25:
            return rng.choice(HAZARDS)
        return rng.choice(atoms)

    def plan() -> list[str]:
        return [item() for _ in range(rng.randint(0, 8))]

    def mutate(p: list[str]) -> list[str]:
        p = list(p)
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(7)
            if op == 0:
                rng.shuffle(p)
            elif op == 1 and p:
                p.pop(rng.randrange(len(p)))
            elif op == 2:
                p.insert(rng.randint(0, len(p)), item())
            elif op == 3 and p:
                i = rng.randrange(len(p))
                p[i] = p[i].upper() if rng.random() < 0.5 else p[i].replace(" ", "  ")
            elif op == 4 and p:
                i = rng.randrange(len(p))
                p.insert(i, p[i])
            elif op == 5 and len(p) > 1:
                i = rng.randrange(len(p) - 1)
                p[i:i + 2] = ["{" + p[i] + ", " + p[i + 1] + "}"]
        return p

    out = []
    for _ in range(n):
        ref = plan()
        gen = mutate(ref) if rng.random() < 0.75 else plan()
        sep_g, sep_r = rng.choice([", ", ",", " , "]), rng.choice([", ", ","])
        out.append([sep_g.join(gen), sep_r.join(ref)])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--seed", type=int, default=7)
    mk.add_argument("--n", type=int, default=400)
    mk.add_argument("-o", "--output", required=True)
    im = sub.add_parser("import")
    im.add_argument("scored")
    im.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "make":
        with open(a.output, "w", encoding="utf-8") as f:
            json.dump(make_pairs(a.n, a.seed), f, ensure_ascii=False, indent=0)
        return 0
    with open(a.scored, encoding="utf-8") as f:
        data = json.load(f)
    keep = ("id", "gen", "ref", "parsed_gen", "parsed_ref", "lcs", "jaccard", "lcs_pair", "jaccard_pair",
            "lcs_batch", "jaccard_batch")
    data["cases"] = [{**{k: c[k] for k in keep}, "source": "unseen"} for c in data["cases"]]
    with open(a.output, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"wrote {len(data['cases'])} cases to {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

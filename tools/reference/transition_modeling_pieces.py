#!/usr/bin/env python
"""New inputs for the transition-modeling ports, scored by eai-eval 1.0.5's own functions.

Generates (seeded) precondition/effect pairs and replies from the published replies (as they are and
mutated: characters deleted, swapped, parentheses and formulas inserted, replies cut short) and random
0/1 matrices, runs :mod:`tools.reference.transition_modeling_ref_pieces` on them with the reference venv's
python, and writes inputs and reference results to ``tests/reference/data/transition_modeling/pieces.json.gz``.
Usage: python -m tools.reference.transition_modeling_pieces --ref-python /work/refvenvs/<name>/bin/python
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

from eai_gym.eai import transition_modeling as tm
from tools.common import REFERENCE_DATA, checkout_env, write_gz

DATA = os.path.join(REFERENCE_DATA, "transition_modeling")


def generate(seed: int = 18) -> dict:
    rng = random.Random(seed)
    pairs, replies, mats = [], [], []
    for world in ("virtualhome", "behavior"):
        outs = json.load(gzip.open(f'{DATA}/outputs_{world}.json.gz'))
        data = tm.load_data(world, 1.0)
        gold = data.gold_operators
        texts = []
        for model, items in sorted(outs.items()):
            for it in items[:40]:
                try:
                    ops = tm.read_reply(it['llm_output'])
                except ValueError:
                    continue
                for name, op in ops.items():
                    if name in gold:
                        texts.append((op['action_preconditions'], gold[name]['action_preconditions']))
                        texts.append((op['action_effects'], gold[name]['action_effects']))
        def mutate(s):
            s = list(s)
            for _ in range(rng.randint(1, 3)):
                k = rng.random()
                i = rng.randrange(len(s) + 1)
                if k < 0.3 and s:
                    del s[min(i, len(s) - 1)]
                elif k < 0.5:
                    s.insert(i, rng.choice(['(', ')', ' ', '()', 'and ', 'not ', '(or ', '(when ', '(exists (?x - obj) ',
                                            '-', '\t']))
                elif k < 0.7 and s:
                    j = rng.randrange(len(s))
                    s[i % len(s)], s[j] = s[j], s[i % len(s)]
                else:
                    s.insert(i, rng.choice(['(next_to ?char ?obj)', '(not (open ?obj))', '(and (a) (b))',
                                            '(forall (?o - object) (when (x ?o) (y ?o)))']))
            return ''.join(s)
        sample = rng.sample(texts, min(600, len(texts)))
        for p, g in sample:
            pairs.append([p, g])
            pairs.append([mutate(p), g])
            pairs.append([p, mutate(g)])
        # replies: published ones (cleaned) and mutated
        for model, items in sorted(outs.items()):
            for it in rng.sample(items, 6):
                text = it['llm_output']
                replies.append(text)
                replies.append(mutate(text))
                replies.append(text[: rng.randrange(len(text) + 1)])
    for _ in range(400):
        r, c = rng.randint(0, 6), rng.randint(0, 6)
        mats.append([[int(rng.random() < 0.5) for _ in range(c)] for _ in range(r)])
    return {"replies": replies, "pairs": pairs, "matrices": mats}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref-python", required=True, help="python of a venv with eai-eval 1.0.5 (setup-transition-modeling.sh)")
    a = ap.parse_args(argv)
    inputs = generate()
    with tempfile.TemporaryDirectory() as tmp:
        i, o = os.path.join(tmp, "in.json"), os.path.join(tmp, "out.json")
        with open(i, "w") as f:
            json.dump(inputs, f)
        subprocess.run([a.ref_python, "-m", "tools.reference.transition_modeling_ref_pieces", i, o], check=True,
                       env=checkout_env())
        with open(o) as f:
            ref = json.load(f)
    write_gz(os.path.join(DATA, "pieces.json.gz"), {"inputs": inputs, "reference": ref}, sort_keys=True)
    print(f"{len(inputs['pairs'])} pairs, {len(inputs['replies'])} replies, {len(inputs['matrices'])} matrices")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Convert BEHAVIOR-1K's activity definitions and knowledge base (the ``bddl==3.6.0`` sdist) into eai-gym's data.

Reads the published sdist as data (BDDL text, JSON and one Python set literal read with ``ast``; none of its
code is run) and writes ``eai_gym/data/behavior1k/behavior1k.json.gz``, ``PROVENANCE.md`` and the licence:

* ``predicates``: name -> arity, from ``activity_definitions/domain_omnigibson.bddl``;
* ``activities``: per activity (``activity_definitions/<name>/problem0.bddl``, parsed with eai-gym's lark BDDL
  grammar) ``objects`` (category -> instances in declaration order: bddl's ``parsed_objects``), ``init`` (the
  ``:init`` literals as nested token lists) and ``goal`` (the top-level conjuncts of ``:goal`` as nested token
  lists: bddl's ``parsed_goal_conditions``);
* ``synsets``: for every synset an activity declares or a transition rule names (and their derivative synsets),
  its properties with parameters (``generated_data/propagated_annots_params.json``), leaving out the surface
  properties no action reads (:data:`SURFACE`: which substances may settle on an object);
* ``rules``: the transition rules (``generated_data/transition_map/tm_jsons/*.json``), keyed by file stem;
  ``washer`` is the substance -> solvents map;
* ``attachments``: the valid (child, parent) attachment pairs (``trivial_backend.py``'s ``VALID_ATTACHMENTS``).

Usage: python -m tools.convert.behavior1k [--sdist PATH] [--out DIR]
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile

from eai_gym.logic.bddl import BDDLError, goal_conjuncts, parse_problem
from tools.common import PACKAGE_DATA, write_gz

VERSION = "3.6.0"
FORMAT = 1
#: properties that only say which substances may settle on an object (no action or rule reads them)
SURFACE = frozenset({"disinfectable", "dustyable", "grassyable", "moldyable", "rustable", "scratchable", "stainable",
                     "stickyable", "tarnishable", "wetable", "wrinkleable"})
DERIVATIVE_KEYS = ("sliceable_derivative_synset", "uncooked_diceable_derivative_synset",
                   "substance_cooking_derivative_synset", "meltable_derivative_synset")


def fetch(dest: str) -> str:
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    f"bddl=={VERSION}", "-d", dest, "-q"], check=True)
    return os.path.join(dest, f"bddl-{VERSION}.tar.gz")


class Sdist:
    def __init__(self, path: str):
        self.tar = tarfile.open(path)
        self.members = {m.name.split("/", 1)[1]: m for m in self.tar.getmembers() if "/" in m.name}

    def read(self, name: str) -> str:
        f = self.tar.extractfile(self.members[name])
        assert f is not None, name
        return f.read().decode("utf-8")

    def listdir(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        return sorted({n[len(prefix):].split("/")[0] for n in self.members if n.startswith(prefix)})


def domain_predicates(text: str) -> dict[str, int]:
    """``(:predicates (name ?a - t ?b - t) ...)`` -> {name: arity} (domain files are plain s-expressions)."""
    body = text.lower().split("(:predicates", 1)[1]
    depth, out, current = 1, {}, ""
    for ch in body:
        if ch == "(":
            depth += 1
            current = ""
        elif ch == ")":
            depth -= 1
            if depth == 1:
                words = current.split()
                out[words[0]] = sum(1 for w in words[1:] if w.startswith("?"))
            if depth == 0:
                break
        else:
            current += ch
    return out


def convert_activity(text: str) -> tuple[dict, str]:
    """The activity's objects, init and goal; the second value says why it was read leniently (or '')."""
    note = ""
    try:
        problem = parse_problem(text)
    except BDDLError as err:
        problem = parse_problem(text, lenient=True)
        note = str(err).split("\n")[0]
    assert problem.goal is not None
    return {"objects": problem.objects,
            "init": [lit.to_list() for lit in problem.init],
            "goal": [c.to_list() for c in goal_conjuncts(problem.goal)]}, note


def rule_synsets(rules: dict) -> set[str]:
    out: set[str] = set()
    for kind, items in rules.items():
        if kind == "washer":
            out.update(items)
            out.update(s for v in items.values() for s in (v or ()))
            continue
        for r in items:
            for key in ("input_synsets", "output_synsets", "container", "heat_source", "machine", "washed_item"):
                out.update((r.get(key) or {}).keys())
    return out


def attachments(source: str) -> list[list[str]]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "VALID_ATTACHMENTS" for t in node.targets):
            value = node.value
            if isinstance(value, ast.Call):  # set([...])
                value = value.args[0]
            return sorted([list(p) for p in ast.literal_eval(value)])
    raise SystemExit("VALID_ATTACHMENTS not found in trivial_backend.py")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sdist", help=f"bddl-{VERSION}.tar.gz (default: pip download it)")
    ap.add_argument("--out", default=os.path.join(PACKAGE_DATA, "behavior1k"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.sdist or fetch(tmp)
        sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
        sd = Sdist(path)
        predicates = domain_predicates(sd.read("bddl/activity_definitions/domain_omnigibson.bddl"))
        activities, lenient = {}, {}
        for name in sd.listdir("bddl/activity_definitions"):
            if name.endswith(".bddl"):
                continue
            problems = sd.listdir(f"bddl/activity_definitions/{name}")
            assert problems == ["problem0.bddl"], (name, problems)
            activities[name], note = convert_activity(sd.read(f"bddl/activity_definitions/{name}/problem0.bddl"))
            if note:
                lenient[name] = note
        tm = "bddl/generated_data/transition_map/tm_jsons"
        rules = {f[:-5]: json.loads(sd.read(f"{tm}/{f}")) for f in sd.listdir(tm) if f.endswith(".json")}
        params = json.loads(sd.read("bddl/generated_data/propagated_annots_params.json"))
        wanted = {c for a in activities.values() for c in a["objects"]} | rule_synsets(rules)
        synsets: dict[str, dict] = {}
        todo = sorted(wanted)
        while todo:
            s = todo.pop()
            if s in synsets or s not in params:
                continue
            synsets[s] = {k: v for k, v in params[s].items() if k not in SURFACE}
            for prop in params[s].values():
                todo.extend(prop[k] for k in DERIVATIVE_KEYS if isinstance(prop, dict) and prop.get(k))
        missing = sorted(c for a in activities.values() for c in a["objects"] if c not in params)
        data = {"format": FORMAT, "source": {"package": "bddl", "version": VERSION, "sha256": sha, "licence": "MIT"},
                "predicates": predicates, "activities": activities,
                "synsets": dict(sorted(synsets.items())), "rules": rules,
                "attachments": attachments(sd.read("bddl/trivial_backend.py"))}
        os.makedirs(args.out, exist_ok=True)
        write_gz(os.path.join(args.out, "behavior1k.json.gz"), data)
        with open(os.path.join(args.out, "LICENSE-bddl.txt"), "w") as f:
            f.write(sd.read("LICENSE"))
        with open(os.path.join(args.out, "PROVENANCE.md"), "w") as f:
            f.write(PROVENANCE.format(version=VERSION, sha=sha, n=len(activities), nsyn=len(synsets),
                                      nrules=sum(len(v) for v in rules.values() if isinstance(v, list)),
                                      missing=", ".join(missing) or "none",
                                      lenient="\n".join(f"- `{k}`: {v}" for k, v in sorted(lenient.items()))))
    print(f"{len(activities)} activities, {len(synsets)} synsets -> {args.out}")


PROVENANCE = """# BEHAVIOR-1K data — provenance

Generated by `tools/convert/behavior1k.py` from the published source distribution `bddl-{version}.tar.gz`
(`pip download --no-deps --no-binary :all: bddl=={version}`, sha256 `{sha}`), BEHAVIOR's BDDL package
(https://github.com/StanfordVL/bddl), MIT licence (`LICENSE-bddl.txt`, copied from the sdist). Read as data only.

`behavior1k.json.gz` holds {n} activities (`activity_definitions/<name>/problem0.bddl`: objects, `:init`,
`:goal` conjuncts as bddl's nested token lists), the predicate arities of `domain_omnigibson.bddl`, {nsyn}
synsets with their knowledge-base properties and parameters (`generated_data/propagated_annots_params.json`,
restricted to the synsets the activities declare, the transition rules name, and their derivatives, without the
surface properties `dustyable`, `stainable`, ... that no action reads), the
{nrules} transition rules of `generated_data/transition_map/tm_jsons/` plus the washer solvent map, and the
valid attachment pairs (`trivial_backend.py`'s `VALID_ATTACHMENTS`).

Declared synsets missing from the knowledge base: {missing}.

Problem files read as bddl's own reader reads them (a stray top-level token skipped, only the first `:goal`
expression kept), because the strict grammar rejects them:
{lenient}

Regenerate with `python -m tools.convert.behavior1k` (same output byte for byte). The gold plans beside it
(`gold_plans.json.gz`) are eai-gym's own, written by `tools/convert/behavior1k_gold_plans.py`: see `GOLD_PLANS.md`.
"""

if __name__ == "__main__":
    main()

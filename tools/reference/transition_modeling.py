#!/usr/bin/env python
"""Test data for the transition-modeling scorers, in ``tests/reference/data/transition_modeling/``.

``outputs``: the published LLM replies of the EAI paper's 15 models, from the wheel
``virtualhome_eval-0.1.1-py3-none-any.whl`` (``pip download --no-deps virtualhome-eval==0.1.1``;
downloaded when ``--wheel`` is not given), folders ``virtualhome_eval/llm_response/transition_modeling``
(VirtualHome) and ``.../transition_modeling_behavior`` (BEHAVIOR), written as
``outputs_<world>.json.gz`` = ``{model: [{"identifier", "llm_output"}, ...]}`` in the published order.

``reference``: the results of eai-eval 1.0.5's evaluator on those replies, as written by the reference
harness (``ref_tm_eval.py``; ``--logic-only`` runs come from the same harness with the planner replaced
by one that always fails, see ``docs/transition_modeling.md``), gathered into
``reference_<world>.json.gz`` = ``{"models": {model: {"summary", "items": {id: {"result", "planner"}},
"planner_run"}}, "subsets": {"<model>.<label>": {"model", "summary", "items", ...}}}``
(a subset: the harness run on the first replies of a model, when the whole file takes too long).

``domains``: the PDDL domain the reference writes for each readable reply (``complete_pddl_domain``, left
in ``virtualhome_eval/resources/<world>/pddl_files/predicted_<model>/<id>.pddl`` of the reference venv),
stored as a hash of its canonical form (base domain and predicted operators as written, then the gold
operators it completes them with, sorted, since the reference adds those in set order) in
``reference_<world>.json.gz`` under ``"domains"``: ``{model: {id: sha256[:16]}}``.

Usage:
  python -m tools.reference.transition_modeling outputs [--wheel PATH]
  python -m tools.reference.transition_modeling reference WORLD DIR [--logic-only]
  python -m tools.reference.transition_modeling domains WORLD PDDL_FILES_DIR
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

from tools.common import REFERENCE_DATA, read_gz, write_gz

OUT = os.path.join(REFERENCE_DATA, "transition_modeling")
FOLDERS = {"virtualhome": "transition_modeling", "behavior": "transition_modeling_behavior"}
VERSION = "0.1.1"


def outputs(wheel: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        if wheel is None:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", f"virtualhome-eval=={VERSION}",
                            "-d", tmp, "-q"], check=True)
            wheel = next(os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl"))
        sha = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
        with zipfile.ZipFile(wheel) as z:
            names = z.namelist()
            for world, folder in FOLDERS.items():
                pat = re.compile(rf"virtualhome_eval/llm_response/{folder}/(.+)_outputs\.json$")
                models = {m.group(1): json.loads(z.read(n)) for n in sorted(names) if (m := pat.match(n))}
                write_gz(os.path.join(OUT, f"outputs_{world}.json.gz"), models, sort_keys=True)
                print(f"{world}: {len(models)} models, {sum(len(v) for v in models.values())} replies")
    with open(os.path.join(OUT, "PROVENANCE.md"), "w", encoding="utf-8") as f:
        f.write(PROVENANCE.format(version=VERSION, sha=sha))


def reference(world: str, directory: str, logic_only: bool) -> None:
    path = os.path.join(OUT, f"reference_{world}.json.gz")
    doc = read_gz(path)
    models = doc.setdefault("models", {})
    outputs_models = set(read_gz(os.path.join(OUT, f"outputs_{world}.json.gz")))
    for name in sorted(os.listdir(directory)):  # one harness output file per model
        if not name.endswith(".json.gz"):
            continue
        run = read_gz(os.path.join(directory, name))
        if run.get("dataset") != world:
            raise SystemExit(f"{name}: a {run.get('dataset')} run, not {world}")
        model = run["model"]
        if model not in outputs_models:
            # a run on some of a model's replies, named "<model>.<label>"
            base = model.rsplit(".", 1)[0]
            if base not in outputs_models:
                raise SystemExit(f"{name}: {model} is neither a published model nor <model>.<subset>")
            doc.setdefault("subsets", {})[model] = {
                "model": base, "summary": run["summary"], "planner_run": not logic_only, "wall_s": run.get("wall_s"),
                **({"planner_timeout": run["planner_timeout"]} if run.get("planner_timeout") else {}),
                "items": {it["identifier"]: _item(it, with_planner=True) for it in run["items"]}}
            print(f"{world} {model}: subset of {len(run['items'])} items of {base}")
            continue
        entry = models.get(model, {})
        if run.get("planner_timeout"):
            raise SystemExit(f"{name}: a run with the planner timeout lowered is stored as a subset, <model>.<label>")
        items = {it["identifier"]: _item(it, with_planner=not logic_only) for it in run["items"]}
        if logic_only and entry.get("planner_run"):
            continue  # a full run already holds the same logic scores and the planner verdicts
        summary = run["summary"]
        if logic_only:
            summary = {c: {k: v for k, v in s.items() if k != "planner_success_rate"} for c, s in summary.items()}
        models[model] = {"summary": summary, "items": items, "planner_run": not logic_only,
                      "wall_s": run.get("wall_s"), "workers": run.get("workers")}
        print(f"{world} {model}: {len(items)} items{' (logic only)' if logic_only else ''}")
    write_gz(path, doc, sort_keys=True)


def _item(it: dict, with_planner: bool) -> dict:
    """One item of a harness run as stored: its result, and its planner verdict (with the call's seconds and
    whether it hit the timeout, when the timed harness ran it)."""
    out = {"result": it["result"], "format_wrong": it["format_wrong"]}
    if with_planner:
        out["planner"] = it["planner"]
        out.update({k: it[k] for k in ("planner_seconds", "timed_out") if k in it})
    return out


ACTION_SEP = "\n\n    (:action "


def canonical_domain_hash(text: str, n_predicted: int) -> str:
    """sha256[:16] of a completed domain with the operators after the first ``n_predicted`` sorted."""
    body = text[:-1].split(ACTION_SEP) if text.endswith(")") else [text]
    ops = body[1:]
    canon = ACTION_SEP.join([body[0], *ops[:n_predicted], *sorted(ops[n_predicted:])]) + ")"
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:16]


def domains(world: str, directory: str) -> None:
    from eai_gym.eai.transition_modeling import read_reply

    path = os.path.join(OUT, f"reference_{world}.json.gz")
    doc = read_gz(path)
    outs = read_gz(os.path.join(OUT, f"outputs_{world}.json.gz"))
    hashes = doc.setdefault("domains", {})
    for model, items in sorted(outs.items()):
        folder = os.path.join(directory, f"predicted_{model}")
        found = {}
        for it in items:
            try:
                n = len(read_reply(it["llm_output"]))
            except ValueError:
                continue
            f = os.path.join(folder, f"{it['identifier']}.pddl")
            if os.path.exists(f):
                found[it["identifier"]] = canonical_domain_hash(open(f, encoding="utf-8").read(), n)
        hashes[model] = found
        print(f"{world} {model}: {len(found)} domains")
    write_gz(path, doc, sort_keys=True)


PROVENANCE = """# Transition-modeling reference data — provenance

- `outputs_virtualhome.json.gz`, `outputs_behavior.json.gz`: the published transition-modeling replies of
  the EAI paper's 15 models, from `virtualhome_eval-{version}-py3-none-any.whl`
  (`pip download --no-deps virtualhome-eval=={version}`, sha256 `{sha}`), licence MIT, folders
  `virtualhome_eval/llm_response/transition_modeling{{,_behavior}}/<model>_outputs.json`; written by
  `python -m tools.reference.transition_modeling outputs`.
- `reference_virtualhome.json.gz`, `reference_behavior.json.gz`: eai-eval 1.0.5's transition-modeling
  evaluator (`virtualhome_eval`'s `evaluate_results`, unmodified, Fast Downward 26.6 from
  up-fast-downward 1.0.0, `--alias lama-first`) run on those replies with the reference harness
  `ref_tm_eval.py`; models marked `"planner_run": false` were run with the planner replaced by one that
  always fails (logic scores only; their summaries have no `planner_success_rate`). Gathered by
  `python -m tools.reference.transition_modeling reference WORLD DIR [--logic-only]`.
- BEHAVIOR subsets `<model>.rest-t10` (replies 26–100 of the 9 models whose first 25 ran before, as
  `<model>.first25`) and `<model>.all-t10` (all 100 replies of the other 6): the same harness through
  `python -m tools.reference.transition_modeling_timed --planner-timeout 10` (eai-eval 1.0.5's `FD.plan_from_pddl`
  wrapped, not changed: each call's seconds, `timed_out`, and the reference's 200 s timeout lowered to 10 s
  for this first pass). A call that ended within 10 s has the verdict it has under 200 s; a call that hit
  10 s has no verdict here (`"timed_out": true`, and its `"failed"` is not a verdict on the task).
  `<model>.retry200`: the replies whose reference call hit 10 s while eai-gym's Fast Downward call ended
  within 10 s, run again through the timed harness with the reference's own 200 s timeout.
- `"domains"` in those files: a hash of each PDDL domain the reference wrote for a readable reply
  (`python -m tools.reference.transition_modeling domains WORLD <refvenv>/.../resources/WORLD/pddl_files`).
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    o = sub.add_parser("outputs")
    o.add_argument("--wheel")
    r = sub.add_parser("reference")
    r.add_argument("world", choices=sorted(FOLDERS))
    r.add_argument("directory")
    r.add_argument("--logic-only", action="store_true")
    d = sub.add_parser("domains")
    d.add_argument("world", choices=sorted(FOLDERS))
    d.add_argument("directory")
    a = ap.parse_args(argv)
    os.makedirs(OUT, exist_ok=True)
    if a.cmd == "outputs":
        outputs(a.wheel)
    elif a.cmd == "domains":
        domains(a.world, a.directory)
    else:
        reference(a.world, a.directory, a.logic_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())

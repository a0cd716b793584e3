#!/usr/bin/env python
"""The EAI paper's tables beside eai-eval 1.0.5 and eai-gym on the paper's published outputs (docs/reproduce.md).

* ``--paper-html index.html``: reads the result tables of the EAI project page (``index.html`` of
  github.com/embodied-agent-interface/embodied-agent-interface.github.io; the paper's tables with later models
  added) for action sequencing, subgoal decomposition and transition modeling, and writes the rows of the paper's
  15 models to ``tests/reference/data/eai_paper/tables.json`` (goal interpretation's table is
  ``tests/reference/data/goal_interpretation/paper_table.json``, from ``tools/tables/goal_interpretation.py``);
* ``--markdown``: prints the combined table (one headline figure per module and world: paper / eai-eval 1.0.5 /
  eai-gym ``--protocol eai-1.0.5``), then, per module, how many of the paper's figures eai-eval 1.0.5 reproduces
  and how many of eai-eval's eai-gym reproduces, with every figure that differs. eai-eval's figures are the
  stored reference runs (``tests/reference/data/{goal_interpretation,published_plans,transition_modeling}/``);
  eai-gym's are computed now (transition modeling's planner column only with ``--planner fast-downward``).

Usage: python -m tools.tables.eai_paper [--paper-html PATH] [--markdown] [--differences] [--update-doc docs/reproduce.md]
                                     [--planner none|fast-downward]
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import sys

from tools.common import REFERENCE_DATA, read_gz
from tools.tables.goal_interpretation import GROUPS, METRICS, MODELS

REF = str(REFERENCE_DATA)
PAPER = os.path.join(REF, "eai_paper", "tables.json")
#: table key -> the caption it starts with on the project page
CAPTIONS = {
    "action_sequencing_trajectory": "Trajectory evaluation results (%) for <i>action sequencing</i>",
    "goal_success": "All goal success results (%) for action sequencing and subgoal decomposition",
    "subgoal_trajectory": "All trajectory evaluation results (%) for subgoal decomposition",
    "transition_logic_virtualhome": "Full results of logic form accuracy for <em>transition modeling</em> in VHO",
    "transition_logic_behavior": "Full results of logic form accuracy for <em>transition modeling</em> in BH",
    "transition_planner": "Full results of planner success rate for <em>transition modeling</em> (%)",
}
#: the names other tables give two of the 15 models (goal interpretation's table names them "... Instruct")
ALIASES = {"Llama 3 8b": "Llama 3 8B Instruct", "Llama 3 70b": "Llama 3 70B Instruct",
           "Llama 3 8B": "Llama 3 8B Instruct", "Llama 3 70B": "Llama 3 70B Instruct"}


def _cells(row: str) -> list[tuple[str, int, int]]:
    out = []
    for attrs, body in re.findall(r"<t[dh]([^>]*)>(.*?)</t[dh]>", row, re.S):
        span = [int(m.group(1)) if (m := re.search(rf'{k}="(\d+)"', attrs)) else 1 for k in ("colspan", "rowspan")]
        out.append((html.unescape(re.sub(r"<[^>]+>", "", body)).strip(), span[0], span[1]))
    return out


def read_table(text: str, caption: str) -> dict:
    """``{"caption", "columns": [label, ...], "models": {model: [value or None, ...]}}``: column labels join
    the header cells above each column (``"Goal SR / V"``), spans expanded; only the paper's 15 models."""
    seg = text[text.index(caption):]
    seg = seg[:seg.index("</table>")]
    grid: dict[tuple[int, int], str] = {}
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", seg, re.S)
    for r, row in enumerate(rows):
        c = 0
        for label, colspan, rowspan in _cells(row):
            while (r, c) in grid:
                c += 1
            for dr in range(rowspan):
                for dc in range(colspan):
                    grid[(r + dr, c + dc)] = label
            c += colspan
    names = set(MODELS.values())
    first = next(r for r in range(len(rows)) if re.fullmatch(r"[\d.]+|-", grid.get((r, 1), "")))  # first data row
    width = max(c for (_, c) in grid) + 1
    columns = []
    for c in range(1, width):
        parts = [grid[(r, c)] for r in range(first) if (r, c) in grid]
        columns.append(" / ".join(p for i, p in enumerate(parts) if p and (i == 0 or p != parts[i - 1])))
    models = {}
    for r in range(first, len(rows)):
        name = ALIASES.get(grid.get((r, 0)), grid.get((r, 0)))
        if name in names:
            models[name] = [None if grid[(r, c)] in ("-", "") else float(grid[(r, c)]) for c in range(1, width)]
    if len(models) != len(names):
        raise ValueError(f"table {caption!r}: found {len(models)} of the paper's {len(names)} models")
    return {"caption": html.unescape(re.sub(r"<[^>]+>", "", caption)), "columns": columns, "models": models}


def write_paper(path: str, commit: str) -> None:
    text = open(path, encoding="utf-8").read()
    doc = {"source": "github.com/embodied-agent-interface/embodied-agent-interface.github.io index.html "
                     f"(commit {commit}), the EAI paper's result tables (NeurIPS 2024 D&B) as the project page shows them",
           "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "units": "percent",
           "tables": {key: read_table(text, cap) for key, cap in CAPTIONS.items()}}
    os.makedirs(os.path.dirname(PAPER), exist_ok=True)
    with open(PAPER, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


TRAJECTORY = (("Goal SR", "Goal Evaluation / Goal SR", ("goal_evaluation", "task_success_rate")),
              ("Execution SR", "Trajectory Evaluation / Execution SR", ("trajectory_evaluation", "execution_success_rate")),
              ("Parsing", "Trajectory Evaluation / Grammar Error (↓) / Parsing", ("trajectory_evaluation", "grammar_error", "parsing")),
              ("Hallucination", "Trajectory Evaluation / Grammar Error (↓) / Hallucination",
               ("trajectory_evaluation", "grammar_error", "hallucination")),
              ("Action-Arg Num", "Trajectory Evaluation / Grammar Error (↓) / Action-Arg Num",
               ("trajectory_evaluation", "grammar_error", "predicate_argument_number")),
              ("Wrong Order", "Trajectory Evaluation / Runtime Error (↓) / Wrong Order", ("trajectory_evaluation", "runtime_error", "wrong_order")),
              ("Missing Step", "Trajectory Evaluation / Runtime Error (↓) / Missing Step", ("trajectory_evaluation", "runtime_error", "missing_step")),
              ("Affordance", "Trajectory Evaluation / Runtime Error (↓) / Affordance", ("trajectory_evaluation", "runtime_error", "{affordance}")),
              ("Additional Step", "Trajectory Evaluation / Runtime Error (↓) / Additional Step",
               ("trajectory_evaluation", "runtime_error", "additional_step")))
GOALS = (("State Goal", "state_goal"), ("Relation Goal", "relation_goal"), ("Action Goal", "action_goal"), ("Total", "{total}"))
CATEGORIES = (("Object States", "object_states"), ("Object Orientation", "object_orientation"),
              ("Object Affordance", "object_affordance"), ("Spatial Relations", "spatial_relations"),
              ("Non-Spatial Relations", "non-spatial_relations"))
#: module -> (summary scale to percent, words the summary keys differ in)
PLAN_MODULES = {"action_sequencing": ("action_sequencing_trajectory", "Action Sequencing", 1.0,
                                      {"affordance": "affordance_error", "total": "total_goal"}),
                "subgoal_decomposition": ("subgoal_trajectory", "Subgoal Decomposition", 100.0,
                                          {"affordance": "affordance", "total": "overall_goal"})}


def metrics() -> list[tuple]:
    """Every figure of the paper's tables for the 15 models: ``(module, world, metric, paper column getter,
    summary path, scale)``; a world whose column is absent (e.g. BEHAVIOR object orientation) is skipped."""
    out = [("goal_interpretation", w, f"{g} {m}", ("gi", f"{g}_{m}", w), (f"{k}_{m}",), 1.0)
           for w in ("virtualhome", "behavior") for g, k in GROUPS for m in METRICS]
    for module, (traj, head, scale, words) in PLAN_MODULES.items():
        for w, tag in (("virtualhome", "V"), ("behavior", "B")):
            for label, col, path in TRAJECTORY:
                out.append((module, w, label, (traj, f"{col} / {tag}"), tuple(x.format(**words) for x in path), scale))
            for label, key in GOALS:
                out.append((module, w, label, ("goal_success", f"{head} / {label} / {tag}"),
                            ("goal_evaluation", key.format(**words)), scale))
    for w, tag in (("virtualhome", "V"), ("behavior", "B")):
        for label, key in CATEGORIES:
            for m in ("Precision", "Recall", "F1"):
                out.append(("transition_modeling", w, f"{label} {m}", (f"transition_logic_{w}", f"{label} / {m}"),
                            (key, m.lower()), 1.0))
            out.append(("transition_modeling", w, f"{label} planner SR", ("transition_planner", f"{label} / {tag}"),
                        (key, "planner_success_rate"), 1.0))
    return out


def paper_value(tables: dict, gi: dict, name: str, where: tuple) -> float | None:
    if where[0] == "gi":
        return gi[name][where[1]][where[2]]
    table = tables[where[0]]
    if where[1] not in table["columns"]:
        return None
    return table["models"][name][table["columns"].index(where[1])]


def _get(summary: dict | None, path: tuple, scale: float) -> float | None:
    for key in path:
        if not isinstance(summary, dict) or key not in summary:
            return None
        summary = summary[key]
    return None if summary is None else summary * scale


def reference_summaries() -> dict:
    """``{(module, world): {model file: summary}}`` of the stored eai-eval 1.0.5 runs on all of a model's items."""
    out: dict = {}
    gi = read_gz(os.path.join(REF, "goal_interpretation", "virtualhome_reference.json.gz"))["models"]
    out[("goal_interpretation", "virtualhome")] = {m: gi[f"published/{m}"]["summary"] for m in MODELS}
    for module in PLAN_MODULES:
        doc = read_gz(os.path.join(REF, "published_plans", f"reference_{module}.json.gz"))
        out[(module, "virtualhome")] = {m: r["summary"] for m, r in doc.get("models", {}).items() if r["summary"]}
    for w in ("virtualhome", "behavior"):
        doc = read_gz(os.path.join(REF, "transition_modeling", f"reference_{w}.json.gz"))
        out[("transition_modeling", w)] = {m: r["summary"] for m, r in doc["models"].items()}
    return out


def gym_summaries(planner: str) -> dict:
    """The same, computed now by eai-gym with ``protocol="eai-1.0.5"`` on the published outputs."""
    from eai_gym.eai.transition_modeling import world_scorer
    from eai_gym.scoring.runner import run_items
    from eai_gym.scoring.virtualhome import goal_interpretation as gi
    from tools.reference.published_runs import inputs, score

    bt, vt = world_scorer("behavior"), world_scorer("virtualhome")

    out: dict = {}
    gi_inputs = read_gz(os.path.join(REF, "goal_interpretation", "published_virtualhome_inputs.json.gz"))["models"]
    out[("goal_interpretation", "virtualhome")] = {
        m: gi.summarize([gi.score_item(it, "eai-1.0.5") for it in items], "eai-1.0.5") for m, items in gi_inputs.items()}
    for module in PLAN_MODULES:
        out[(module, "virtualhome")] = {m: score(module, items)["summary"] for m, items in inputs(module).items()}
    for w, mod in (("virtualhome", vt), ("behavior", bt)):
        outputs = read_gz(os.path.join(REF, "transition_modeling", f"outputs_{w}.json.gz"))
        out[("transition_modeling", w)] = {}
        for m, items in outputs.items():
            jobs = mod.jobs(items, "eai-1.0.5", planner)
            records = run_items(jobs.fn, jobs.units, init=jobs.init, init_args=jobs.init_args, workers=1)
            out[("transition_modeling", w)][m] = jobs.summarize(records)["summary"]
    return out


HEADLINE = (("goal_interpretation", "overall f1"), ("subgoal_decomposition", "Goal SR"), ("action_sequencing", "Goal SR"),
            ("transition_modeling", "Object States F1"), ("transition_modeling", "Object States planner SR"))
MARKERS = ("<!-- eai paper table -->", "<!-- end eai paper table -->")
SHORT = {"goal_interpretation": "GI", "subgoal_decomposition": "SD", "action_sequencing": "AS", "transition_modeling": "TM"}


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.1f}"


def figures(planner: str) -> list[dict]:
    """Every figure: module, world, metric, model and its paper / eai-eval / eai-gym values."""
    doc = json.load(open(PAPER))
    gi = json.load(open(os.path.join(REF, "goal_interpretation", "paper_table.json")))["models"]
    ref, gym = reference_summaries(), gym_summaries(planner)
    rows = []
    for module, world, metric, where, path, scale in metrics():
        for file_name, name in MODELS.items():
            row = {"module": module, "world": world, "metric": metric, "model": name,
                   "paper": paper_value(doc["tables"], gi, name, where),
                   "eai-eval": _get(ref.get((module, world), {}).get(file_name), path, scale),
                   "eai-gym": _get(gym.get((module, world), {}).get(file_name), path, scale)}
            if row["paper"] is not None or row["eai-eval"] is not None:
                rows.append(row)
    return rows


def markdown(planner: str) -> tuple[str, str]:
    """The two tables of docs/reproduce.md, and the table of every figure that differs."""
    rows = figures(planner)
    by = {(r["module"], r["world"], r["metric"], r["model"]): r for r in rows}
    cols = [(m, w, metric) for m, metric in HEADLINE for w in ("virtualhome", "behavior")]
    out = ["| model | " + " | ".join(f"{SHORT[m]} {w[0].upper()} {metric}" for m, w, metric in cols) + " |",
           "|---|" + "---|" * len(cols)]
    for name in sorted(MODELS.values(), key=str.lower):
        cells = []
        for m, w, metric in cols:
            r = by.get((m, w, metric, name))
            cells.append("–" if r is None else " / ".join(_fmt(r[k]) for k in ("paper", "eai-eval", "eai-gym")))
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += ["", "| module | world | paper figures | eai-eval 1.0.5 figures | paper = eai-eval (±0.05) | largest difference | "
            "eai-gym = eai-eval (exact) | paper = eai-gym (±0.05) |", "|---|---|---|---|---|---|---|---|"]
    diffs = []
    for m, kind in [(m, k) for m in SHORT for k in ("", " planner")]:
        if kind and m != "transition_modeling":
            continue
        for w in ("virtualhome", "behavior"):
            sel = [r for r in rows if r["module"] == m and r["world"] == w and
                   (m != "transition_modeling" or r["metric"].endswith("planner SR") == bool(kind))]
            both = [r for r in sel if r["paper"] is not None and r["eai-eval"] is not None]
            close = [r for r in both if abs(r["paper"] - r["eai-eval"]) <= 0.05 + 1e-9]
            worst = max(both, key=lambda r: abs(r["paper"] - r["eai-eval"]), default=None)
            ref_rows = [r for r in sel if r["eai-eval"] is not None and r["eai-gym"] is not None]
            same = [r for r in ref_rows if abs(r["eai-eval"] - r["eai-gym"]) < 1e-9]
            gym = [r for r in sel if r["paper"] is not None and r["eai-gym"] is not None]
            gym_close = [r for r in gym if abs(r["paper"] - r["eai-gym"]) <= 0.05 + 1e-9]
            diffs += [r for r in both if r not in close] + [r for r in ref_rows if r not in same]
            diffs += [r for r in gym if r not in gym_close and r["eai-eval"] is None]
            worst_txt = "–" if worst is None else (f"{abs(worst['paper'] - worst['eai-eval']):.1f} ({worst['model']} "
                                                   f"{worst['metric']}: paper {worst['paper']}, eai-eval {_fmt(worst['eai-eval'])})")
            out.append(f"| {SHORT[m]}{kind} | {w} | {sum(r['paper'] is not None for r in sel)} | "
                       f"{sum(r['eai-eval'] is not None for r in sel)} | {len(close)} of {len(both)} | {worst_txt} | "
                       f"{len(same)} of {len(ref_rows)} | {len(gym_close)} of {len(gym)} |")
    listing = ["| module | world | metric | model | paper | eai-eval | eai-gym |", "|---|---|---|---|---|---|---|"]
    listing += [f"| {SHORT[r['module']]} | {r['world']} | {r['metric']} | {r['model']} | {_fmt(r['paper'])} | "
                f"{_fmt(r['eai-eval'])} | {_fmt(r['eai-gym'])} |" for r in diffs]
    return "\n".join(out), "\n".join(listing)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--paper-html")
    ap.add_argument("--commit", default="04acc09d390cac0f755c442124c98f29293fe2c7",
                    help="the project-page commit the html comes from (recorded as provenance)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--planner", choices=["none", "fast-downward"], default="none")
    ap.add_argument("--differences", action="store_true", help="also list every figure that differs")
    ap.add_argument("--update-doc", help="also write the two tables between the markers of this markdown file "
                                         "(docs/reproduce.md)")
    args = ap.parse_args(argv)
    if args.paper_html:
        write_paper(args.paper_html, args.commit)
    if args.markdown or args.update_doc:
        text, listing = markdown(args.planner)
        if args.update_doc:
            doc = open(args.update_doc, encoding="utf-8").read()
            start, end = doc.index(MARKERS[0]) + len(MARKERS[0]), doc.index(MARKERS[1])
            with open(args.update_doc, "w", encoding="utf-8") as f:
                f.write(doc[:start] + "\n" + text + "\n" + doc[end:])
        if args.markdown:
            print(text + ("\n\n" + listing if args.differences else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

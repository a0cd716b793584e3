"""One activity's instances with their knowledge-base properties, and the transition rules that can apply to it.

Everything the world's preconditions ask about an object ("is it openable?", "which substances does this remover
take off, and on what condition?") is read from the knowledge base (``propagated_annots_params.json``, packaged
by ``tools/convert/behavior1k.py``) through :class:`ActivityKB`; there are no per-category lists in code.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .data import activity_record, raw
from .intermediates import activity_intermediates

AGENT = "agent.n.01"
#: transition-rule files whose rules fire by themselves at the fixpoint (the others fire from an action)
RULE_KINDS = ("heat_cook", "single_toggleable_machine", "substance_cooking", "substance_watercooking", "melting",
              "mixing_stick", "slicing", "dicing", "washer_particleremover", "washer_nonparticleremover")


def synset_of(instance: str) -> str:
    return instance.rsplit("_", 1)[0]


class ActivityKB:
    """The static facts of one activity: its instances, their synsets and properties, rooms and rules."""

    def __init__(self, activity: str):
        rec = activity_record(activity)
        self.activity = activity
        declared: dict[str, list[str]] = rec["objects"]
        #: undeclared instances the rules pass through (:mod:`.intermediates`); they start ``future``
        self.hidden: dict[str, list[str]] = activity_intermediates(rec)
        self.objects: dict[str, list[str]] = {**declared, **self.hidden}
        self.synset: dict[str, str] = {i: c for c, names in self.objects.items() for i in names}
        self.instances: tuple[str, ...] = tuple(self.synset)
        synsets = raw()["synsets"]
        self.props: dict[str, dict[str, Any]] = {i: synsets.get(c, {}) for i, c in self.synset.items()}
        self.substances = frozenset(i for i, p in self.props.items() if "substance" in p)
        self.agent = next((i for i, c in self.synset.items() if c == AGENT), None)
        self.room: dict[str, str] = {}
        for lit in rec["init"]:
            if lit[0] == "inroom":
                self.room.setdefault(lit[1], lit[2])
        #: per room, its floor: an instance of a floor synset placed there, else the scene object the agent
        #: starts on there (bddl puts the agent on the ground: a lawn in a garden without a floor)
        self.floor_of_room: dict[str, str] = {}
        for inst, room in self.room.items():
            if "floor" in self.synset[inst].split(".")[0]:
                self.floor_of_room.setdefault(room, inst)
        for lit in rec["init"]:
            if lit[0] == "ontop" and lit[1] == self.agent and lit[2] in self.room:
                self.floor_of_room.setdefault(self.room[lit[2]], lit[2])
        self.rules = self._rules()
        self.sources = {prop: tuple(i for i in self.instances if prop in self.props[i])
                        for prop in ("heatSource", "coldSource")}
        attach = raw()["attachments"]
        self.attach_pairs = frozenset((a, b) for a, b in attach)

    # ------------------------------------------------------------------ properties
    def has(self, inst: str, prop: str) -> bool:
        return prop in self.props.get(inst, {})

    def param(self, inst: str, prop: str) -> dict[str, Any]:
        value: dict[str, Any] = self.props.get(inst, {}).get(prop) or {}
        return value

    def flag(self, inst: str, prop: str, key: str) -> bool:
        return bool(self.param(inst, prop).get(key))

    def is_object(self, inst: str) -> bool:
        """A physical object an action may target (not a substance, not the agent)."""
        return inst in self.synset and inst not in self.substances and inst != self.agent

    def remover_conditions(self, tool: str, substance: str) -> list | None:
        """The conditions under which ``tool`` removes (and absorbs) ``substance``, as OmniGibson's ParticleRemover
        reads the knowledge base: the substance's own entry of ``conditions`` (None: never), else the default for
        its kind (``default_fluid_conditions`` for a liquid, ``default_non_fluid_conditions`` for another physical
        substance, ``default_visual_conditions`` for a visual one; None: never). None when ``tool`` is no remover."""
        params = self.param(tool, "particleRemover")
        if not params:
            return None
        conds = params.get("conditions") or {}
        syn = self.synset.get(substance, substance)
        if syn in conds:
            explicit: list | None = conds[syn]
            return explicit
        kind = self.props.get(substance) or raw()["synsets"].get(syn, {})
        key = ("default_fluid_conditions" if "liquid" in kind else "default_non_fluid_conditions"
               if "physicalSubstance" in kind else "default_visual_conditions" if "visualSubstance" in kind else None)
        default: list | None = params.get(key) if key else None
        return default

    def substance_instance(self, synset: str) -> str | None:
        """The declared instance of a substance synset (bddl declares exactly one), or None."""
        names = self.objects.get(synset)
        return names[0] if names else None

    # ------------------------------------------------------------------ rules
    def _rules(self) -> dict[str, list[dict[str, Any]]]:
        """Per rule file, the rules whose every named synset is declared in this activity."""
        declared = set(self.objects)
        out: dict[str, list[dict[str, Any]]] = {}
        for kind, index in _rule_index().items():
            candidates = sorted({i for syn in declared for i in index["by_synset"].get(syn, ())})
            out[kind] = [index["rules"][i] for i in candidates if index["named"][i] <= declared]
        if "cooked__water.n.01" not in declared and "water.n.06" in declared:
            # boiling water is cooked water: without a declared cooked__water, the water itself takes its place
            for rule in raw()["rules"]["substance_watercooking"]:
                inputs = {("water.n.06" if k == "cooked__water.n.01" else k): v for k, v in rule["input_synsets"].items()}
                if set(inputs) | set(rule["output_synsets"]) <= declared:
                    out["substance_watercooking"].append({**rule, "input_synsets": inputs})
        return out

    def washer_solvents(self, substance_synset: str) -> list[str] | None:
        """Substances a washer cycle needs to remove ``substance_synset`` (``[]``: none; None: it cannot)."""
        table: dict[str, Any] = raw()["rules"]["washer"]
        if substance_synset not in table:
            return []
        value: list[str] | None = table[substance_synset]
        return value


@lru_cache(maxsize=1)
def _rule_index() -> dict[str, dict[str, Any]]:
    """Per rule file: the rules, the synsets each names (water excepted for the washer: it wets only if water is
    declared, checked when it fires) and, per synset, the rules naming it."""
    out: dict[str, dict[str, Any]] = {}
    for kind in RULE_KINDS:
        rules = raw()["rules"][kind]
        named = []
        by_synset: dict[str, list[int]] = {}
        for i, rule in enumerate(rules):
            syns = set(rule.get("input_synsets") or {}) | set(rule.get("output_synsets") or {})
            for key in ("container", "heat_source", "machine", "washed_item"):
                syns |= set(rule.get(key) or {})
            if kind.startswith("washer"):
                syns.discard("water.n.06")
            named.append(syns)
            for syn in syns:
                by_synset.setdefault(syn, []).append(i)
        out[kind] = {"rules": rules, "named": named, "by_synset": by_synset}
    return out


@lru_cache(maxsize=256)  # (small; at least as many as an env keeps masks of: env.KEPT_ACTIVITIES)
def activity_kb(activity: str) -> ActivityKB:
    return ActivityKB(activity)

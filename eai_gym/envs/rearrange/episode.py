"""Rearrange episodes: a house, objects placed in it, an instruction and PARTNR's evaluation spec.

An episode is stored under PARTNR's ``CollaborationEpisode`` field names where PARTNR has one
(``episode_id``, ``scene_id``, ``instruction``, ``evaluation_propositions``,
``evaluation_proposition_dependencies``, ``evaluation_constraints``, ``object_states``,
``name_to_receptacle``) and eai-gym's symbolic fields otherwise:

* ``object_classes``: ``{handle: class}`` (classes from :func:`~.objects.object_classes`);
* ``name_to_receptacle``: ``{handle: furniture or floor}`` — where each object starts (PARTNR maps
  object handles to receptacle handles the same way); ``within`` or ``on`` follows the furniture;
* ``agent_start``: ``{agent: furniture, floor or room}`` where each agent starts;
* ``capabilities``: ``{agent: [skill, ...]}`` when an agent lacks skills (heterogeneous tasks);
  an agent not listed has every skill;
* ``task_kind``: ``constraint_free``, ``spatial``, ``temporal`` or ``heterogeneous``;
* ``info``: free-form provenance (generator, seed).

A file is ``{"config": ..., "episodes": [...]}`` (PARTNR's dataset layout), optionally gzipped.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping

from ...logic.propositions import EvaluationSpec, SpecError

AGENTS = ("agent_0", "agent_1")
TASK_KINDS = ("constraint_free", "spatial", "temporal", "heterogeneous")
_SPEC_FIELDS = ("evaluation_propositions", "evaluation_proposition_dependencies", "evaluation_constraints",
                "object_states")


class EpisodeError(ValueError):
    """A malformed episode; the message names the episode and the field."""


@dataclass
class RearrangeEpisode:
    episode_id: str
    scene_id: str
    instruction: str
    object_classes: dict[str, str]
    name_to_receptacle: dict[str, str]
    evaluation: dict[str, Any]  #: the four evaluation fields, under PARTNR's names
    agent_start: dict[str, str] = field(default_factory=dict)
    capabilities: dict[str, list[str]] = field(default_factory=dict)
    task_kind: str = "constraint_free"
    info: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "RearrangeEpisode":
        if not isinstance(data, Mapping):
            raise EpisodeError(f"an episode must be a JSON object, got {type(data).__name__}")
        eid = str(data.get("episode_id", "?"))
        for key in ("scene_id", "instruction", "object_classes", "name_to_receptacle", "evaluation_propositions"):
            if key not in data:
                raise EpisodeError(f"episode {eid}: missing field {key!r}")
        for key in ("object_classes", "name_to_receptacle"):
            m = data[key]
            if not isinstance(m, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in m.items()):
                raise EpisodeError(f"episode {eid}: {key} must map handles to strings")
        missing = sorted(set(data["object_classes"]) ^ set(data["name_to_receptacle"]))
        if missing:
            raise EpisodeError(f"episode {eid}: objects without both a class and a receptacle: {', '.join(missing)}")
        kind = data.get("task_kind", "constraint_free")
        if kind not in TASK_KINDS:
            raise EpisodeError(f"episode {eid}: unknown task_kind {kind!r}; expected one of {', '.join(TASK_KINDS)}")
        caps = data.get("capabilities") or {}
        if not isinstance(caps, Mapping) or any(a not in AGENTS or not isinstance(v, list) for a, v in caps.items()):
            raise EpisodeError(f"episode {eid}: capabilities must map agent_0/agent_1 to lists of skill names")
        return cls(eid, str(data["scene_id"]), str(data["instruction"]), dict(data["object_classes"]),
                   dict(data["name_to_receptacle"]), {k: data[k] for k in _SPEC_FIELDS if k in data},
                   dict(data.get("agent_start") or {}), {a: list(v) for a, v in caps.items()}, kind,
                   dict(data.get("info") or {}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"episode_id": self.episode_id, "scene_id": self.scene_id,
                               "instruction": self.instruction, **self.evaluation,
                               "object_classes": self.object_classes, "name_to_receptacle": self.name_to_receptacle,
                               "agent_start": self.agent_start, "task_kind": self.task_kind}
        if self.capabilities:
            out["capabilities"] = self.capabilities
        if self.info:
            out["info"] = self.info
        return out

    def spec(self, protocol: str = "fixed") -> EvaluationSpec:
        """The evaluation spec, built once per protocol and shared (a spec is a value: nothing changes it; an
        episode whose ``evaluation`` is replaced builds it again)."""
        built = self.__dict__.setdefault("_specs", {})  # (not a dataclass field: equality and repr ignore it)
        hit = built.get(protocol)
        if hit is not None and hit[0] is self.evaluation:
            return hit[1]
        try:
            spec = EvaluationSpec.from_json(self.evaluation, protocol)
        except SpecError as e:
            raise EpisodeError(f"episode {self.episode_id}: {e}") from None
        built[protocol] = (self.evaluation, spec)
        return spec


def load_episodes(path: str | Path) -> list[RearrangeEpisode]:
    """Episodes from a PARTNR-layout file (``.json`` or ``.json.gz``): ``{"episodes": [...]}`` or a list."""
    p = Path(path)
    opener = gzip.open if p.name.endswith(".gz") else open
    with opener(p, "rt", encoding="utf-8") as f:
        data = json.load(f)
    rows = data.get("episodes") if isinstance(data, Mapping) else data
    if not isinstance(rows, list):
        raise EpisodeError(f"{p}: expected {{'episodes': [...]}} or a list of episodes")
    return [RearrangeEpisode.from_json(r) for r in rows]


def save_episodes(episodes: Iterable[RearrangeEpisode], path: str | Path, config: Mapping[str, Any] | None = None) -> None:
    p = Path(path)
    data = {"config": dict(config or {}), "episodes": [e.to_json() for e in episodes]}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    if p.name.endswith(".gz"):
        with open(p, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(text.encode())  # no name or time in the header: the same bytes on every run
    else:
        p.write_text(text)


SPLITS = ("val",)


@lru_cache(maxsize=None)
def _shipped(split: str) -> tuple[RearrangeEpisode, ...]:
    if split not in SPLITS:
        raise KeyError(f"unknown episode split {split!r}; expected one of {', '.join(SPLITS)}")
    ref = resources.files("eai_gym.data") / "rearrange" / f"episodes_{split}.json.gz"
    with resources.as_file(ref) as path:
        return tuple(load_episodes(path))


def shipped_episodes(split: str = "val") -> list[RearrangeEpisode]:
    """The packaged, validated episodes (``eai_gym/data/rearrange/episodes_<split>.json.gz``)."""
    return list(_shipped(split))


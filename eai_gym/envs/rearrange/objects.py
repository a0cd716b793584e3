"""Object classes of the rearrange world and their affordances, from ALFWorld 0.4.2's constants.

Converted by ``tools/convert/rearrange_houses.py`` into ``eai_gym/data/rearrange/layouts.json``:

* the object classes are the classes ALFWorld lets a receptacle hold (``VAL_RECEPTACLE_OBJECTS``),
  without sliced variants and static receptacles, named in snake case (``CellPhone`` → ``cell_phone``);
* ``receptacles``: the furniture classes that can hold the class (the same table);
* ``states``: ``is_clean`` for ALFWorld's ``Cleanable`` classes; ``is_filled`` for the classes that hold
  liquid (bottle, bowl, cup, kettle, mug, pot, vase, watering can, wine bottle); ``is_powered_on``
  for the pickupable electronics (alarm clock, cell phone, desk lamp, laptop). PARTNR registers
  object states per class the same way; querying an unregistered state is the reference's KeyError.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class ObjectClass:
    name: str
    source: str  #: the ALFWorld class
    states: tuple[str, ...]
    receptacles: tuple[str, ...]  #: furniture classes that can hold it


@lru_cache(maxsize=None)
def layouts() -> dict[str, Any]:
    """The converted ALFWorld layout data (``eai_gym/data/rearrange/layouts.json``)."""
    ref = resources.files("eai_gym.data") / "rearrange" / "layouts.json"
    return json.loads(ref.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def object_classes() -> dict[str, ObjectClass]:
    return {name: ObjectClass(name, v["source"], tuple(v["states"]), tuple(v["receptacles"]))
            for name, v in sorted(layouts()["object_classes"].items())}

"""EAI's BEHAVIOR prompt data, which the BEHAVIOR prompts use as eai-eval 1.0.5 ships them and the BEHAVIOR-1K
prompts adapt: the four modules' templates, the goal-interpretation inputs and the prompts the reference ships
(packaged as ``eai_gym/data/behavior/prompts.json.gz``, see its ``PROVENANCE-prompts.md``)."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def prompt_data() -> dict:
    """The packaged templates, goal-interpretation inputs and shipped prompts (``prompts.json.gz``)."""
    ref = resources.files("eai_gym.data") / "behavior" / "prompts.json.gz"
    with ref.open("rb") as f:
        return json.loads(gzip.decompress(f.read()))

"""Rewrite ``eai_gym/data/task_index.json``: every packaged world's task ids and the digest of the data they
were read from (see :mod:`eai_gym.task_index`). Run it after changing a world's packaged task data.

    python tools/build_task_index.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eai_gym import registry  # noqa: E402
from eai_gym.task_index import INDEX, build  # noqa: E402


def main() -> int:
    index = build(registry.worlds())
    INDEX.write_text(json.dumps(index, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(INDEX, {w: len(e["ids"]) for w, e in index.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())

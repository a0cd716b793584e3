"""Rewrite ``eai_gym/data/task_index.json``: every packaged world's task ids and the digest of the data they
were read from (see :mod:`eai_gym.task_index`). Run it after changing a world's packaged task data.

    python -m tools.convert.task_index
"""

from __future__ import annotations

import argparse
import json
import sys

from eai_gym import registry
from eai_gym.task_index import INDEX, build


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    index = build(registry.worlds())
    INDEX.write_text(json.dumps(index, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(INDEX, {w: len(e["ids"]) for w, e in index.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())

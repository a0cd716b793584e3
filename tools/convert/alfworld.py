#!/usr/bin/env python
"""Convert ALFWorld 0.4.2's floor-plan data and constants into ``eai_gym/data/alfworld/floorplans.json``.

    pip download --no-deps alfworld==0.4.2 -d /tmp/alf
    python -m tools.convert.alfworld /tmp/alf/alfworld-0.4.2-py3-none-any.whl

Reads (MIT licence): ``alfworld/gen/layouts/FloorPlan<N>-openable.json`` (the big receptacles with
their ids, which encode positions, and the agent's interaction pose; receptacles sharing a pose share
a location, as in ALFWorld's games), ``FloorPlan<N>-objects.json`` (the classes present, lamps included: the
appliances the openable file leaves out — coffee machine, toaster, garbage can, stove burners — are
added from it) and the literal tables of ``alfworld/gen/constants.py`` (parsed, not executed):
``VAL_RECEPTACLE_OBJECTS`` (which receptacle type holds which object type), ``VAL_ACTION_OBJECTS``
(heatable, coolable, cleanable, toggleable, sliceable), ``OPENABLE_CLASS_LIST``, ``GOALS_VALID``
(which task type fits which room), ``MOVABLE_RECEPTACLES``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from tools.common import PACKAGE_DATA
from tools.convert.rearrange_houses import KINDS, Wheel, constants  # the same wheel reader

OUT = PACKAGE_DATA / "alfworld" / "floorplans.json"
ROOM = {"kitchen": "Kitchen", "living_room": "LivingRoom", "bedroom": "Bedroom", "bathroom": "Bathroom"}
#: appliances listed in objects.json but not in openable.json, and how many instances a game gets
APPLIANCES = {"CoffeeMachine": 1, "Toaster": 1, "GarbageCan": 1, "StoveBurner": 4}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("wheel", type=Path)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    wheel = Wheel(args.wheel)
    c = constants(wheel)
    holds = {r: sorted(v) for r, v in c["VAL_RECEPTACLE_OBJECTS"].items()}
    movable = set(c["MOVABLE_RECEPTACLES"])
    static = sorted(r for r in holds if r not in movable)
    pickup = sorted({o for r in holds for o in holds[r] if "Sliced" not in o} - set(static))
    plans = {}
    for kind, numbers in KINDS:
        for n in numbers:
            fp = f"FloorPlan{n}"
            recs = json.loads(wheel.read(f"alfworld/gen/layouts/{fp}-openable.json"))
            present = set(json.loads(wheel.read(f"alfworld/gen/layouts/{fp}-objects.json")))
            rows = []
            for rid in sorted(recs):
                parts = rid.split("|")
                cls = parts[-1] if len(parts) == 5 else parts[0]
                if cls not in static:
                    continue
                pose = recs[rid]
                rows.append([cls, rid, round(pose[0], 2), round(pose[1], 2)])  # Sink|x|y|z|SinkBasin kept whole
            have = {r[0] for r in rows}
            extra = [[cls, k] for cls, k in sorted(APPLIANCES.items()) if cls in present and cls not in have]
            plans[fp] = {"room": ROOM[kind], "receptacles": rows, "appliances": extra,
                         "objects": sorted(o for o in present if o in pickup),
                         "lamps": sorted(o for o in present if o in ("DeskLamp", "FloorLamp"))}
    data = {
        "provenance": {"source": "alfworld 0.4.2 wheel (PyPI), MIT licence",
                       "wheel_sha256": hashlib.sha256(args.wheel.read_bytes()).hexdigest() if args.wheel.is_file() else None,
                       "converter": "tools/convert/alfworld.py"},
        "can_contain": {r: holds[r] for r in static},
        "actions": {k: sorted(v) for k, v in c["VAL_ACTION_OBJECTS"].items()},
        "openable": sorted(c["OPENABLE_CLASS_LIST"]), "movable_receptacles": sorted(movable),
        "goals_valid": {k: sorted(v) for k, v in c["GOALS_VALID"].items()}, "pickupable": pickup,
        "floorplans": plans}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{args.out}: {len(plans)} floor plans, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Convert ALFWorld 0.4.2's per-floor-plan layouts into eai-gym's rearrange room data.

    pip download --no-deps alfworld==0.4.2 -d /tmp/alf
    python -m tools.convert.rearrange_houses /tmp/alf/alfworld-0.4.2-py3-none-any.whl

Reads, from the wheel (MIT licence): ``alfworld/gen/layouts/FloorPlan<N>-openable.json`` (the
receptacles of each AI2-THOR floor plan, ids ``Class|x|y|z`` with their positions),
``FloorPlan<N>-layout.npy`` (reachable floor points: the room's extent), ``FloorPlan<N>-objects.json``
(the object classes the floor plan holds) and ``alfworld/gen/constants.py`` (which receptacle class
can hold which object class, the openable classes, the cleanable and toggleable classes). Writes
``eai_gym/data/rearrange/layouts.json``: per floor plan its room kind, bounds, receptacles (eai-gym
furniture class and position) and object classes; the furniture and object class tables; provenance.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import json
import zipfile
from pathlib import Path

import numpy as np

from tools.common import PACKAGE_DATA

OUT = PACKAGE_DATA / "rearrange" / "layouts.json"
KINDS = [("kitchen", range(1, 31)), ("living_room", range(201, 231)), ("bedroom", range(301, 331)),
         ("bathroom", range(401, 431))]
#: ALFWorld receptacle class -> (eai-gym furniture class, relation, articulated, water source)
FURNITURE = {
    "ArmChair": ("armchair", "on"), "Bed": ("bed", "on"), "BathtubBasin": ("bathtub", "within"),
    "Cabinet": ("cabinet", "within"), "Cart": ("cart", "on"), "CoffeeMachine": ("coffee_machine", "on"),
    "CoffeeTable": ("coffee_table", "on"), "CounterTop": ("counter", "on"), "Desk": ("desk", "on"),
    "DiningTable": ("table", "on"), "Drawer": ("drawer", "within"), "Dresser": ("chest_of_drawers", "on"),
    "Fridge": ("fridge", "within"), "GarbageCan": ("trash_can", "within"),
    "HandTowelHolder": ("hand_towel_holder", "on"), "LaundryHamper": ("hamper", "within"),
    "Microwave": ("microwave", "within"), "Ottoman": ("ottoman", "on"), "Safe": ("safe", "within"),
    "Shelf": ("shelves", "on"), "SideTable": ("side_table", "on"), "SinkBasin": ("sink", "within"),
    "Sofa": ("couch", "on"), "StoveBurner": ("stove", "on"), "TVStand": ("tv_stand", "on"),
    "Toaster": ("toaster", "on"), "Toilet": ("toilet", "on"), "ToiletPaperHanger": ("toilet_paper_holder", "on"),
    "TowelHolder": ("towel_rack", "on"),
}
WATER = {"SinkBasin", "BathtubBasin"}
#: object classes that hold liquid (PARTNR's is_filled); toggleable, pickupable electronics (is_powered_on)
FILLABLE = {"Bottle", "Bowl", "Cup", "Kettle", "Mug", "Pot", "Vase", "WateringCan", "WineBottle"}
POWERED = {"AlarmClock", "CellPhone", "DeskLamp", "Laptop"}


def snake(name: str) -> str:
    out = ""
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out += "_"
        out += ch.lower()
    return out


class Wheel:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.zip = zipfile.ZipFile(path) if path.is_file() else None

    def read(self, name: str) -> bytes:
        if self.zip is not None:
            return self.zip.read(name)
        return (self.path / name).read_bytes()


def constants(wheel: Wheel) -> dict:
    """The literal assignments of constants.py (parsed, never executed), with the module's later
    ``D['k'] = D['j']`` copies and ``del D['j']`` deletions applied (the table rows)."""
    tree = ast.parse(wheel.read("alfworld/gen/constants.py"))
    out: dict = {}

    def entry(node: ast.AST) -> tuple[str, str] | None:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant):
            return node.value.id, node.slice.value
        return None

    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and entry(node.targets[0]):
            (d, k), src = entry(node.targets[0]), entry(node.value)
            if d in out and src and src[0] in out:
                out[d][k] = out[src[0]][src[1]]
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                e = entry(t)
                if e and e[0] in out:
                    out[e[0]].pop(e[1], None)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("wheel", type=Path, help="alfworld-0.4.2-py3-none-any.whl or an unpacked copy")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args()
    wheel = Wheel(args.wheel)
    c = constants(wheel)
    holds = {r: sorted(v) for r, v in c["VAL_RECEPTACLE_OBJECTS"].items()}
    static = {r for r in holds if r not in c["MOVABLE_RECEPTACLES"] and r in FURNITURE}
    openable = set(c["OPENABLE_CLASS_LIST"])
    pickup = sorted({o for r in holds for o in holds[r] if "Sliced" not in o and o not in static})
    cleanable = c["VAL_ACTION_OBJECTS"]["Cleanable"]
    furniture = {cls: {"name": FURNITURE[cls][0], "relation": FURNITURE[cls][1], "articulated": cls in openable,
                       "water_source": cls in WATER} for cls in sorted(static)}
    objects = {}
    for o in pickup:
        states = [s for s, members in (("is_clean", cleanable), ("is_filled", FILLABLE), ("is_powered_on", POWERED))
                  if o in members]
        recs = sorted(furniture[r]["name"] for r in static if o in holds[r])
        if recs:
            objects[snake(o)] = {"source": o, "states": states, "receptacles": recs}
    plans = {}
    for kind, numbers in KINDS:
        for n in numbers:
            fp = f"FloorPlan{n}"
            recs = json.loads(wheel.read(f"alfworld/gen/layouts/{fp}-openable.json"))
            present = json.loads(wheel.read(f"alfworld/gen/layouts/{fp}-objects.json"))
            pts = np.load(io.BytesIO(wheel.read(f"alfworld/gen/layouts/{fp}-layout.npy")))
            rows = []
            for rid in sorted(recs):
                parts = rid.split("|")
                cls, x, y, z = parts[-1] if len(parts) == 5 else parts[0], *parts[1:4]  # Sink|x|y|z|SinkBasin
                if cls in static:
                    rows.append([cls, round(float(x), 2), round(float(y), 2), round(float(z), 2)])
            xs = list(pts[:, 0]) + [r[1] for r in rows]
            zs = list(pts[:, 1]) + [r[3] for r in rows]
            bounds = [round(float(min(xs)) - 0.5, 2), round(float(min(zs)) - 0.5, 2),
                      round(float(max(xs)) + 0.5, 2), round(float(max(zs)) + 0.5, 2)]
            objs = sorted(snake(o) for o in set(present) if snake(o) in objects)
            plans[fp] = {"kind": kind, "bounds": bounds, "receptacles": rows, "objects": objs}
    digest = hashlib.sha256(args.wheel.read_bytes()).hexdigest() if args.wheel.is_file() else None
    data = {"provenance": {"source": "alfworld 0.4.2 wheel (PyPI), MIT licence", "wheel_sha256": digest,
                           "files": ["alfworld/gen/constants.py", "alfworld/gen/layouts/FloorPlan*-openable.json",
                                     "alfworld/gen/layouts/FloorPlan*-objects.json",
                                     "alfworld/gen/layouts/FloorPlan*-layout.npy"],
                           "converter": "tools/convert/rearrange_houses.py"},
            "furniture_classes": furniture, "object_classes": objects, "floorplans": plans}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{args.out}: {len(plans)} floor plans, {sum(len(v['receptacles']) for v in plans.values())} receptacles, "
          f"{len(furniture)} furniture classes, {len(objects)} object classes, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()

"""Houses from ALFWorld floor plans: shipped set, generator, object classes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest

from eai_gym.envs.rearrange.houses import (
    KINDS,
    UnknownHouseError,
    generate_house,
    house_ids,
    load_house,
    objects_for_room,
)
from eai_gym.envs.rearrange.objects import layouts, object_classes


def test_shipped_houses_are_distinct_and_consistent():
    ids = house_ids()
    assert len(ids) >= 10
    plans = [tuple(load_house(h).meta["floorplans"]) for h in ids]
    assert len({p for ps in plans for p in ps}) == 4 * len(ids)  # no room shared between houses
    for h in ids:
        house = load_house(h)
        assert [r.kind for r in house.rooms] == list(KINDS)
        names = [f.name for f in house.furniture] + [r.name for r in house.rooms] + list(house.floors)
        assert len(names) == len(set(names))
        for a, b in zip(house.rooms, house.rooms[1:]):
            assert a.bounds[2] < b.bounds[0]
        for f in house.furniture:
            x0, z0, x1, z1 = house.room_by_name[f.room].bounds
            assert x0 <= f.position[0] <= x1 and z0 <= f.position[2] <= z1, f
            assert f.relation in ("on", "within")
        assert any(f.water_source for f in house.furniture)
        assert any(f.articulated for f in house.furniture)


def test_generator_is_seeded_and_hash_independent():
    assert load_house("gen:5") == generate_house(5)
    assert generate_house(5) != generate_house(6)
    two = generate_house(9, ("bedroom", "bedroom", "kitchen"))
    assert [r.name for r in two.rooms] == ["bedroom_1", "bedroom_2", "kitchen_1"]
    assert load_house("gen:9:bedroom+bedroom+kitchen") == two
    code = ("import hashlib,json;from eai_gym.envs.rearrange.houses import generate_house as g;"
            "print(hashlib.sha256(json.dumps([repr(g(s)) for s in range(5)]).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={"PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(digests) == 1
    assert hashlib.sha256(json.dumps([repr(generate_house(s)) for s in range(5)]).encode()).hexdigest() + "\n" in digests


def test_unknown_houses():
    with pytest.raises(UnknownHouseError, match="house_00 ... house_11"):
        load_house("house_99")
    with pytest.raises(UnknownHouseError, match="gen:<seed>"):
        load_house("gen:x")
    with pytest.raises(ValueError, match="rooms must be"):
        generate_house(1, ("garage",))


def test_object_classes_and_provenance():
    classes = object_classes()
    present = {f.cls for h in house_ids() for f in load_house(h).furniture}
    assert len(classes) >= 40
    for c in classes.values():
        assert set(c.states) <= {"is_clean", "is_filled", "is_powered_on"}
        assert c.receptacles
    assert sum(bool(set(c.receptacles) & present) for c in classes.values()) >= 40
    assert classes["mug"].states == ("is_clean", "is_filled") and classes["laptop"].states == ("is_powered_on",)
    assert "MIT" in layouts()["provenance"]["source"]
    house = load_house("house_00")
    kitchen = objects_for_room(house, "kitchen_1")
    assert "apple" in kitchen and all(
        set(classes[o].receptacles) & {f.cls for f in house.furniture_in("kitchen_1")} for o in kitchen)

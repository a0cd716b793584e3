"""The rearrange world: skills, their preconditions and texts, ticks, conflicts, capabilities, perception."""

from __future__ import annotations

import pytest

from eai_gym.envs.rearrange.episode import RearrangeEpisode
from eai_gym.envs.rearrange.houses import load_house
from eai_gym.envs.rearrange.objects import object_classes
from eai_gym.envs.rearrange.rollout import run_scripts
from eai_gym.envs.rearrange.skills import PLACE_API, SUCCESS
from eai_gym.envs.rearrange.world import RearrangeWorld

HOUSE = load_house("house_00")


def _furniture(relation: str, articulated: bool | None = None, water: bool | None = None):
    for f in HOUSE.furniture:
        if f.relation == relation and (articulated is None or f.articulated == articulated) and (
                water is None or f.water_source == water):
            return f
    pytest.skip(f"house_00 has no {relation} furniture with articulated={articulated}")


def _cls(*states: str) -> str:
    for name, c in sorted(object_classes().items()):
        if all(s in c.states for s in states):
            return name
    pytest.skip(f"no object class affords {states}")


SURFACE = _furniture("on")
OTHER = next(f for f in HOUSE.furniture if f.relation == "on" and f.room != SURFACE.room)
BOX = _furniture("within", articulated=True)


def episode(props: list, objects: dict, start: dict | None = None, caps: dict | None = None, states=None):
    return RearrangeEpisode.from_json({
        "episode_id": "t", "scene_id": "house_00", "instruction": "test",
        "object_classes": {h: c for h, (c, _) in objects.items()},
        "name_to_receptacle": {h: r for h, (_, r) in objects.items()},
        "evaluation_propositions": props, "object_states": states or {},
        "agent_start": start or {"agent_0": SURFACE.name, "agent_1": SURFACE.name},
        "capabilities": caps or {}, "task_kind": "heterogeneous" if caps else "constraint_free"})


CUP = _cls()
ON_OTHER = {"function_name": "is_on_top", "args": {"object_handles": ["cup_1"], "receptacle_handles": [OTHER.name]}}


def test_pick_navigate_place_reaches_the_goal():
    ep = episode([ON_OTHER], {"cup_1": (CUP, SURFACE.name)})
    w = RearrangeWorld(ep)
    assert w.metrics.task_percent_complete == 0.0
    fb = w.step({"agent_0": "Pick[cup_1]"})
    assert fb["agent_0"].ok and fb["agent_0"].message == SUCCESS and w.state.agents["agent_0"].held == "cup_1"
    fb = w.step({"agent_0": f"Place[cup_1, on, {OTHER.name}, None, None]"})
    assert not fb["agent_0"].ok and "Not close enough" in fb["agent_0"].message
    ticks = 0
    fb = w.step({"agent_0": f"Navigate[{OTHER.name}]"})
    while not fb["agent_0"].finished:
        ticks += 1
        fb = w.step({"agent_0": "Wait[]"})  # ignored while busy
        assert ticks < 50
    assert w.state.agents["agent_0"].room == OTHER.room
    fb = w.step({"agent_0": f"Place[cup_1, on, {OTHER.name}, None, None]"})
    assert fb["agent_0"].ok and w.state.on_top("cup_1", OTHER.name) and w.success


def test_pick_texts_in_partnr_order():
    ep = episode([ON_OTHER], {"cup_1": (CUP, SURFACE.name), "cup_2": (CUP, OTHER.name), "cup_3": (CUP, BOX.name)},
                 start={"agent_0": SURFACE.name, "agent_1": BOX.name})
    w = RearrangeWorld(ep)
    assert w.step({"agent_0": "Pick[cup_2]"})["agent_0"].message == \
        "Unexpected failure! - Failed to pick! Not close enough to the object."
    assert "not a movable object" in w.step({"agent_0": f"Pick[{SURFACE.name}]"})["agent_0"].message
    assert "Node with name mug_99 not present in the graph" in w.step({"agent_0": "Pick[mug_99]"})["agent_0"].message
    assert "closed furniture" in w.step({"agent_1": "Pick[cup_3]"})["agent_1"].message
    assert w.step({"agent_1": f"Open[{BOX.name}]"})["agent_1"].ok
    assert w.step({"agent_1": "Pick[cup_3]"})["agent_1"].ok
    w.step({"agent_0": "Pick[cup_1]"})
    msg = w.step({"agent_0": "Pick[cup_1]"})["agent_0"].message
    assert msg.startswith("Unexpected failure! - The arm is already grasping cup_1.")


def test_place_syntax_errors():
    w = RearrangeWorld(episode([ON_OTHER], {"cup_1": (CUP, SURFACE.name)}))
    w.step({"agent_0": "Pick[cup_1]"})
    assert w.step({"agent_0": f"Place[cup_1, on, {SURFACE.name}]"})["agent_0"].message.endswith(PLACE_API)
    msg = w.step({"agent_0": f"Place[cup_1, on, {SURFACE.name}, next_to, None]"})["agent_0"].message
    assert "spatial_constraint was valid, but corresponding reference_object was none" in msg
    assert w.step({"agent_0": "Fly[cup_1]"})["agent_0"].message == 'Unexpected failure! - Tool "Fly" not found'
    assert w.step({"agent_0": "gibberish"})["agent_0"].error.value == "parsing"


def test_same_tick_conflict_goes_to_agent_0():
    w = RearrangeWorld(episode([ON_OTHER], {"cup_1": (CUP, SURFACE.name)}))
    fb = w.step({"agent_0": "Pick[cup_1]", "agent_1": "Pick[cup_1]"})
    assert fb["agent_0"].ok and w.state.agents["agent_0"].held == "cup_1"
    assert fb["agent_1"].message == "Unexpected failure! - Failed! This object is held by another agent."


def test_capabilities_and_multi_tick_clean():
    cls = _cls("is_clean")
    ep = episode([{"function_name": "is_clean", "args": {"object_handles": ["x_1"]}}], {"x_1": (cls, SURFACE.name)},
                 caps={"agent_0": ["Navigate", "Pick", "Place", "Wait"]}, states={"is_clean": {"x_1": False}})
    w = RearrangeWorld(ep)
    assert w.step({"agent_0": "Clean[x_1]"})["agent_0"].message == 'Unexpected failure! - Tool "Clean" not found'
    assert not w.step({"agent_1": "Clean[x_1]"})["agent_1"].finished
    assert not w.step({})["agent_1"].finished
    assert w.step({})["agent_1"].ok and w.state.state("is_clean", "x_1") is True and w.success
    solo = RearrangeWorld(ep, agents=("agent_0",))  # a lone robot has every skill
    assert not solo.step({"agent_0": "Clean[x_1]"})["agent_0"].finished


def test_next_to_placement_and_clustered():
    props = [{"function_name": "is_next_to", "args": {"entity_handles_a": ["cup_1"], "entity_handles_b": ["cup_2"]}}]
    w = RearrangeWorld(episode(props, {"cup_1": (CUP, SURFACE.name), "cup_2": (CUP, SURFACE.name),
                                       "cup_3": (CUP, SURFACE.name)}))
    assert not w.state.next_to("cup_1", "cup_2") or not w.state.next_to("cup_1", "cup_3")
    w.step({"agent_0": "Pick[cup_1]"})
    assert w.step({"agent_0": f"Place[cup_1, on, {SURFACE.name}, next_to, cup_3]"})["agent_0"].ok
    assert w.state.next_to("cup_1", "cup_3")
    w.step({"agent_0": "Pick[cup_1]"})
    w.step({"agent_0": f"Place[cup_1, on, {SURFACE.name}, next_to, cup_2]"})
    assert w.state.next_to("cup_1", "cup_2") and w.success


def test_partial_observability_and_find_tools():
    w = RearrangeWorld(episode([ON_OTHER], {"cup_1": (CUP, OTHER.name)}), observability="partial")
    assert "cup_1" not in w.describe("agent_0")
    assert "No objects" in w.step({"agent_0": f"FindObjectTool[{CUP}]"})["agent_0"].message
    while not w.step({"agent_0": f"Navigate[{OTHER.name}]"})["agent_0"].finished:
        pass
    assert f"cup_1: {OTHER.name}" in w.describe("agent_0")
    assert "cup_1" in w.step({"agent_0": f"FindObjectTool[{CUP.replace('_', ' ')}]"})["agent_0"].message
    assert OTHER.name in w.step({"agent_1": f"FindReceptacleTool[{OTHER.cls.replace('_', ' ')}]"})["agent_1"].message
    assert "FindObjectTool" in w.step({"agent_1": "FindAgentActionTool[]"})["agent_1"].message


def test_scripts_done_and_final_update():
    ep = episode([ON_OTHER], {"cup_1": (CUP, SURFACE.name)})
    r = run_scripts(ep, {"agent_0": [f"Rearrange[cup_1, on, {OTHER.name}, None, None]"], "agent_1": []})
    assert r.success and r.percent_complete == 1.0 and not r.failures
    r = run_scripts(ep, {"agent_0": ["Pick[cup_1]"], "agent_1": ["Wait[]"]})
    assert not r.success and r.world.done and r.percent_complete == 0.0
    assert "is_on_top" in r.world.tracker.explain()

"""SearchObject: finds objects by id or fuzzy type name, nearest first, and its view pose
really sees them (checked with the simulator's own visibility rule)."""

from __future__ import annotations

import pytest
from test_tasks_definitions import Kitchen

from simulator.scenes import to_cell
from simulator.sim import FOLLOWER, Simulator
from simulator.spawn import random_start
from simulator.tasks import search_object
from simulator.tasks.search import HORIZONS


def sees(world, pose, object_id) -> bool:
    agent = world.agents[FOLLOWER]
    saved = agent.pose()
    agent.x, agent.z, agent.rotation, agent.horizon = pose
    try:
        return object_id in world.visible_ids(FOLLOWER)
    finally:
        agent.x, agent.z, agent.rotation, agent.horizon = saved


def world_for(scene: str, seed: int):
    sim = Simulator()
    sim.reset(random_start(scene, seed))
    return sim.world


@pytest.mark.parametrize(("scene", "seed"), [("FloorPlan1", 0), ("FloorPlan201", 1), ("FloorPlan301", 2), ("FloorPlan401", 3)])
def test_search_by_type_finds_the_nearest_instance_and_a_pose_that_sees_it(scene, seed):
    world = world_for(scene, seed)
    agent = world.agents[FOLLOWER]
    types = sorted({o.object_type for o in world.objects.values() if not o.fixed})
    assert types
    for object_type in types:
        result = search_object(world, object_type)
        assert result["success"] and result["objectType"] == object_type
        same = [o for o in world.objects.values() if o.object_type == object_type]
        nearest = min(((o.position[0] - agent.x) ** 2 + (o.position[2] - agent.z) ** 2) ** 0.5 for o in same)
        chosen = world.objects[result["objectId"]].position
        assert ((chosen[0] - agent.x) ** 2 + (chosen[2] - agent.z) ** 2) ** 0.5 == pytest.approx(nearest)
        view = result["view"]
        assert view is not None and view["mask"] is None, object_type
        x, z, rotation, horizon = view["pose"]
        assert to_cell(x, z) in world.scene.navigable and rotation in (0, 90, 180, 270) and horizon in HORIZONS
        assert sees(world, tuple(view["pose"]), view["shown_objectId"])
        if view["shown_objectId"] != result["objectId"]:  # shut inside something: its container is shown
            assert view["shown_objectId"] in world.container_chain(result["objectId"])
            assert world.is_hidden(result["objectId"])


def test_search_by_object_id_and_fixed_objects():
    world = world_for("FloorPlan1", 0)
    for object_id in ("CoffeeMachine|-02.00|+00.90|-00.17", "Sink|-01.90|+00.97|-01.50|SinkBasin",
                      "Fridge|-02.10|+00.00|+01.09"):
        result = search_object(world, object_id)
        assert result["success"] and result["objectId"] == object_id
        assert result["position"] == dict(zip("xyz", world.objects[object_id].position, strict=True))
        assert sees(world, tuple(result["view"]["pose"]), object_id)
    assert search_object(world, "CoffeeMachine|-02.00|+00.90|-00.18")["objectId"] == "CoffeeMachine|-02.00|+00.90|-00.17"
    assert not search_object(world, "Mug|+09.00|+09.00|+09.00")["success"]


def test_fuzzy_queries():
    world = world_for("FloorPlan1", 0)
    assert search_object(world, "coffee machine")["objectType"] == "CoffeeMachine"
    assert search_object(world, "mugs")["objectType"] == "Mug"
    assert search_object(world, "  Mug ")["objectType"] == "Mug"
    assert search_object(world, "tomatoe")["objectType"] == "Tomato"
    assert search_object(world, "silverware")["objectType"] in ("Fork", "Spoon", "ButterKnife")
    for nonsense in ("xyzzy", "", "   "):
        result = search_object(world, nonsense)
        assert result["success"] is False and result["view"] is None


def test_object_in_a_closed_fridge_shows_the_fridge_and_held_objects_are_skipped():
    k = Kitchen(Apple=2)
    fridge = "Fridge|-02.10|+00.00|+01.09"
    first, second = k.ids["Apple"]
    k.put(first, fridge)
    k.world.objects[fridge].is_open = False
    by_id = search_object(k.world, first)
    assert by_id["success"] and by_id["view"]["shown_objectId"] == fridge
    assert by_id["parentReceptacles"] == [fridge]
    assert sees(k.world, tuple(by_id["view"]["pose"]), fridge)
    k.hold(second)
    assert search_object(k.world, "apple")["objectId"] == first  # in hand: skipped by a type search
    held = search_object(k.world, second)  # by id: the holder's own view
    assert held["held_by"] == FOLLOWER and held["view"]["pose"] == list(k.world.agents[FOLLOWER].pose())

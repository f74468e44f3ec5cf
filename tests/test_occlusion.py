"""Symbolic occlusion (World.visible_ids): what stands in front hides, containers do not."""

from __future__ import annotations

from simulator.objects import SimObject
from simulator.scenes import cell_center
from simulator.sim import FOLLOWER, Simulator
from simulator.spawn import random_start


def _world():
    sim = Simulator()
    sim.reset(random_start("FloorPlan1", 0))
    world = sim.world
    world.occlusion = True
    agent = world.agents[FOLLOWER]
    agent.x, agent.z = cell_center(sorted(world.scene.navigable)[len(world.scene.navigable) // 2])
    agent.rotation, agent.horizon = 0, 30.0
    return world, agent


def _place(world, oid: str, kind: str, position, size, parent: str | None = None) -> SimObject:
    obj = SimObject(oid, kind, tuple(position), tuple(size))
    world.add(obj)
    if parent is not None:
        world.put_in(oid, parent, tuple(position))
    return obj


def test_an_apple_behind_a_closed_cabinet_is_hidden_and_seen_without_it():
    world, agent = _world()
    x, z = agent.x, agent.z
    _place(world, "Apple|test", "Apple", (x, 1.0, z + 0.9), (0.1, 0.1, 0.1))
    assert "Apple|test" in world.visible_ids(FOLLOWER)
    _place(world, "Cabinet|test", "Cabinet", (x, 1.0, z + 0.5), (0.8, 1.2, 0.2))
    assert "Cabinet|test" in world.visible_ids(FOLLOWER)
    assert "Apple|test" not in world.visible_ids(FOLLOWER)
    world.remove("Cabinet|test")
    assert "Apple|test" in world.visible_ids(FOLLOWER)


def test_an_apple_on_a_counter_and_in_an_open_fridge_is_seen():
    world, agent = _world()
    x, z = agent.x, agent.z
    _place(world, "CounterTop|test", "CounterTop", (x, 0.45, z + 0.9), (1.0, 0.9, 0.6))
    _place(world, "Apple|test", "Apple", (x, 0.95, z + 0.9), (0.1, 0.1, 0.1), parent="CounterTop|test")
    assert {"CounterTop|test", "Apple|test"} <= set(world.visible_ids(FOLLOWER))
    world.remove("Apple|test")
    world.remove("CounterTop|test")
    fridge = _place(world, "Fridge|test", "Fridge", (x, 0.9, z + 1.0), (0.7, 1.8, 0.7))
    _place(world, "Apple|test", "Apple", (x, 0.9, z + 1.0), (0.1, 0.1, 0.1), parent="Fridge|test")
    assert "Apple|test" not in world.visible_ids(FOLLOWER)  # closed: hidden inside
    fridge.is_open = True
    assert "Apple|test" in world.visible_ids(FOLLOWER)


def test_something_under_a_table_is_seen_between_the_legs():
    world, agent = _world()
    x, z = agent.x, agent.z
    agent.horizon = 30.0
    _place(world, "DiningTable|test", "DiningTable", (x, 0.4, z + 1.2), (1.0, 0.8, 0.8))
    _place(world, "Box|test", "Box", (x, 0.1, z + 1.2), (0.2, 0.2, 0.2))
    assert "Box|test" in world.visible_ids(FOLLOWER)  # seen under the top, between the legs


def test_visibility_is_cached_per_pose_and_refreshed_on_change():
    world, agent = _world()
    x, z = agent.x, agent.z
    _place(world, "Apple|test", "Apple", (x, 1.0, z + 0.9), (0.1, 0.1, 0.1))
    first = world.visible_ids(FOLLOWER)
    assert world.visible_ids(FOLLOWER) == first
    world.move_to("Apple|test", (x, 1.0, z - 0.9))  # now behind the camera
    assert "Apple|test" not in world.visible_ids(FOLLOWER)


def test_a_receptacles_walls_hide_what_it_holds_and_its_opening_shows_it():
    world, agent = _world()
    x, z = agent.x, agent.z
    _place(world, "GarbageCan|test", "GarbageCan", (x, 0.45, z + 0.9), (0.3, 0.9, 0.3))
    _place(world, "Apple|test", "Apple", (x, 0.06, z + 0.9), (0.1, 0.1, 0.1), parent="GarbageCan|test")
    assert "Apple|test" not in world.visible_ids(FOLLOWER)  # the far side of a deep can's wall
    world.remove("Apple|test")
    world.remove("GarbageCan|test")
    _place(world, "GarbageCan|test", "GarbageCan", (x, 0.15, z + 0.9), (0.5, 0.3, 0.5))
    _place(world, "Apple|test", "Apple", (x, 0.06, z + 0.9), (0.1, 0.1, 0.1), parent="GarbageCan|test")
    assert "Apple|test" in world.visible_ids(FOLLOWER)  # seen through a shallow can's opening


def test_a_poster_hung_into_its_wall_is_seen():
    world, agent = _world()
    x, z = agent.x, agent.z
    agent.horizon = 0.0
    _place(world, "Box|board", "Box", (x, 1.5, z + 1.2), (1.0, 1.0, 0.2))
    _place(world, "Painting|test", "Painting", (x, 1.5, z + 1.09), (0.5, 0.5, 0.04))
    assert "Painting|test" in world.visible_ids(FOLLOWER)  # its back half inside the board
    world.move_to("Painting|test", (x, 1.5, z + 1.2))
    assert "Painting|test" not in world.visible_ids(FOLLOWER)  # deep inside: hidden

"""The oracle actor completes multi-step chores through ordinary simulator actions."""

from __future__ import annotations

from simulator.expert.actor import OracleActor
from simulator.expert.views import visible_poses
from simulator.scenes import cell_center
from simulator.sim import FOLLOWER, Simulator
from simulator.spawn import random_start


def test_view_poses_really_see_the_object():
    sim = Simulator()
    sim.reset(random_start("FloorPlan1", 0))
    world = sim.world
    mug = next(o for o in world.objects.values() if o.object_type == "Mug")
    poses = visible_poses(world, mug.object_id)
    assert poses
    agent = world.agents[FOLLOWER]
    for cell, rotation, horizon in poses[:: max(1, len(poses) // 25)]:
        agent.x, agent.z = cell_center(cell)
        agent.rotation, agent.horizon = rotation, horizon
        if not world.is_hidden(mug.object_id):
            assert mug.object_id in world.visible_ids(FOLLOWER)


def test_wash_chill_and_slice_in_several_kitchens():
    for scene in ("FloorPlan1", "FloorPlan12"):
        sim = Simulator()
        sim.reset(random_start(scene, 3))
        actor = OracleActor(sim)
        mug = actor.nearest_of(("Mug", "Cup"))[0]
        sink, faucet = actor.nearest_of(("SinkBasin",))[0], actor.nearest_of(("Faucet",))[0]
        fridge = actor.nearest_of(("Fridge",))[0]
        sim.world.objects[mug].is_dirty = True
        actor.put(mug, sink)
        actor.switch(faucet, True)
        assert not sim.world.objects[mug].is_dirty
        actor.put(mug, fridge)
        actor.close(fridge)
        assert mug in sim.world.cooled
        pieces = actor.slice(actor.nearest_of(("Tomato", "Apple", "Potato", "Bread", "Lettuce"))[0])
        assert pieces and actor.failed == 0
        assert all(result != "" for result, _ in actor.actions)

"""An open drawer is pulled out, and what lies in it moves with it, as in AI2-THOR."""

from __future__ import annotations

import pytest
from sim_helpers import go_to, kitchen, obj, place

from simulator.objects import DRAWER_SLIDE, slide_offset
from simulator.sim import FOLLOWER

DRAWER = "Drawer|-01.56|+00.84|-00.20"  # FloorPlan1, facing the room


def test_what_lies_in_a_drawer_moves_out_with_it_and_back_in_when_it_closes():
    sim = kitchen()
    drawer = sim.world.objects[DRAWER]
    apple = obj(sim, "Apple")
    place(sim, apple.object_id, DRAWER)
    before = apple.position
    dx, _, dz = slide_offset(drawer)
    depth = drawer.size[0] if drawer.front[0] else drawer.size[2]
    assert abs(dx) + abs(dz) == pytest.approx(DRAWER_SLIDE * depth)
    assert (dx, dz) == pytest.approx((drawer.front[0] * abs(dx + dz), drawer.front[1] * abs(dx + dz)))
    go_to(sim, DRAWER)
    assert sim.step(FOLLOWER, "OpenObject", objectId=DRAWER).success
    assert apple.position == pytest.approx((before[0] + dx, before[1], before[2] + dz))
    assert sim.step(FOLLOWER, "CloseObject", objectId=DRAWER).success
    assert apple.position == pytest.approx(before)


def test_a_put_into_an_open_drawer_lands_in_its_pulled_out_part_and_goes_in_with_it():
    sim = kitchen()
    drawer = sim.world.objects[DRAWER]
    go_to(sim, DRAWER)
    assert sim.step(FOLLOWER, "OpenObject", objectId=DRAWER).success
    egg = obj(sim, "Egg")
    sim.world.agents[FOLLOWER].held, egg.held_by = egg.object_id, FOLLOWER
    assert sim.step(FOLLOWER, "PutObject", objectId=egg.object_id, receptacleObjectId=DRAWER).success
    dx, _, dz = slide_offset(drawer)
    axis, shift = (0, dx) if dx else (2, dz)
    assert (egg.position[axis] - drawer.position[axis]) * shift > 0  # out in front of the closed box's centre
    assert sim.step(FOLLOWER, "CloseObject", objectId=DRAWER).success
    assert abs(egg.position[axis] - drawer.position[axis]) <= drawer.size[axis] / 2  # inside the box
    assert slide_offset(obj(sim, "Apple")) == (0.0, 0.0, 0.0)  # only drawers slide

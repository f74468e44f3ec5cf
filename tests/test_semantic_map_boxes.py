"""The semantic mapper's boxes: a container seen in parts, opened, or seen near after far."""

from __future__ import annotations

import numpy as np
from test_semantic_map import CAMERA, _wall_detection, mapper, observe, room_depth

from contracts.geometry import Pose
from contracts.planning import ActionOutcome, LowLevelAction


def test_a_container_seen_cut_by_the_frames_side_joins_the_one_it_overlaps():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 90), slice(20, 80))])
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 90), slice(0, 35))])  # its left end, cut
    assert len(m.memory.of_type("Cabinet")) == 1 and m.memory.instances["Cabinet#1"].times_seen == 2
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(70, 90), slice(5, 15))])  # whole, beside it
    assert len(m.memory.of_type("Cabinet")) == 2  # not cut by the frame: a cabinet of its own


def test_an_opened_cabinet_grows_to_hold_its_open_door():
    m = mapper()
    here = Pose(0.0, 0.0, 0.0, 0.0)
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(50, 70))])
    (cabinet,) = m.memory.of_type("Cabinet")
    width = cabinet.extent[0]
    door = _wall_detection("Cabinet", slice(30, 90), slice(50, 100))  # body and the door swung out to its right
    opened = ActionOutcome(LowLevelAction("Open", {"x": 0.5, "y": 0.5}, cabinet.key), True)
    m.update(observe(here, room_depth()), [door], opened)
    assert len(m.memory.of_type("Cabinet")) == 1 and cabinet.extent[0] > width + 0.5
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(80, 100))])  # the door alone
    assert len(m.memory.of_type("Cabinet")) == 1
    failed = ActionOutcome(LowLevelAction("Open", {"x": 0.5, "y": 0.5}, cabinet.key), False, "already open")
    m.update(observe(here, room_depth()), [_wall_detection("Cabinet", slice(30, 90), slice(105, 118))], failed)
    assert len(m.memory.of_type("Cabinet")) == 2  # a failed open fuses nothing


def test_a_drawer_seen_near_is_its_own_box_not_the_column_a_far_view_blurred_it_into():
    """TATC 0265: one far box took in the top and the middle drawer; the middle one, which
    held the knife, was never opened."""
    m = mapper()

    def wall(distance: float) -> np.ndarray:
        return np.full((CAMERA.height, CAMERA.width), distance, dtype=np.float32)

    far, near = Pose(0.0, 0.0, 0.0, 0.0), Pose(0.0, 2.0, 0.0, 0.0)  # the wall 3 m and 1 m ahead
    m.update(observe(far, wall(3.0)), [_wall_detection("Drawer", slice(64, 77), slice(50, 70))])  # y 0.65-1.3 m
    assert len(m.memory.of_type("Drawer")) == 1
    m.update(observe(near, wall(1.0)), [_wall_detection("Drawer", slice(90, 110), slice(30, 90))])  # y 0.67-1.0 m
    (lower,) = m.memory.of_type("Drawer")
    assert 0.75 < lower.position[1] < 0.9 and lower.extent[1] < 0.35
    m.update(observe(near, wall(1.0)), [_wall_detection("Drawer", slice(72, 88), slice(30, 90))])  # y 1.03-1.3 m
    upper = [d for d in m.memory.of_type("Drawer") if d is not lower]
    assert len(upper) == 1 and upper[0].position[1] > 1.05

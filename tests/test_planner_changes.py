"""Where a put landed: the receptacle's believed footprint counts as on it where its mask
does not show (``planner.changes.landed_off`` with ``over_footprint``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from planner_scenes import CAMERA, detection, observation

from contracts.geometry import Pose, depth_to_points
from planner.changes import landed_off, over_footprint


def framed(rgb: np.ndarray, depth: np.ndarray):
    return replace(observation(), rgb=rgb, depth=depth)


def test_a_slice_put_beside_what_hides_the_plate_landed_on_the_plate():
    """TATC valid_unseen 0241: a lettuce on the plate hid all but a sliver of it; the potato
    slice put on the plate stood beside the lettuce, above the sliver's pixels, and was taken
    back and put again 15 times."""
    depth = np.full((CAMERA.height, CAMERA.width), 1.0, np.float32)
    before = np.full((CAMERA.height, CAMERA.width, 3), 90, np.uint8)
    after = before.copy()
    after[40:60, 45:55] = (150, 90, 40)  # the slice, well above the plate's sliver
    sliver = detection("Plate", (40, 88, 60, 100))
    points = depth_to_points(depth, Pose(0.0, 0.0, 0.0, 0.0), CAMERA)
    plate = over_footprint(points, (0.0, 0.95, 1.0), (0.4, 0.05, 0.4))  # the plate's believed box, 1 m ahead
    counter = over_footprint(points, (0.0, 0.95, 2.0), (0.4, 0.05, 0.4))  # a box 2 m ahead: no pixel over it
    assert plate[50, 50] and not plate[50, 5] and not counter.any()
    assert landed_off(framed(before, depth), framed(after, depth), sliver) is not None  # by the mask alone: off
    assert landed_off(framed(before, depth), framed(after, depth), sliver, plate) is None
    assert landed_off(framed(before, depth), framed(after, depth), sliver, counter) is not None


def test_no_depth_no_point_is_over_a_footprint():
    points = depth_to_points(np.zeros((CAMERA.height, CAMERA.width), np.float32), Pose(0.0, 0.0, 0.0, 0.0), CAMERA)
    assert not over_footprint(points, (0.0, 0.95, 1.0), (0.4, 0.05, 0.4)).any()

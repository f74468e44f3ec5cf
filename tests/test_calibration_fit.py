"""The calibration's maths and its use: Euler angles, box fitting, placed boxes."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import random_views

from simulator.calibration.boxfit import fit_box, shape_points
from simulator.calibration.table import field_of_view, object_box, placed_box
from simulator.render.rotation import euler_matrix


def test_euler_angles_follow_unity():
    assert np.allclose(euler_matrix(0, 90, 0) @ [0, 0, 1], [1, 0, 0])  # yaw 90: +z -> +x
    assert np.allclose(euler_matrix(90, 0, 0) @ [0, 0, 1], [0, -1, 0])  # pitch down
    r = euler_matrix(10, 20, 30)
    assert np.allclose(r @ r.T, np.eye(3))


def test_fit_recovers_a_known_box_from_its_projections():
    _, _, _, _, views = random_views(0, 40, (0.8, 1.0))
    shape = shape_points("Mug")
    truth_size, truth_offset = np.array([0.12, 0.1, 0.09]), np.array([0.0, 0.05, 0.0])
    boxes, ok = views.project(shape, truth_size, truth_offset)
    assert ok.all()
    views.boxes = boxes
    size, offset, err = fit_box(views, shape, np.array([0.1, 0.1, 0.1]), np.zeros(3))
    assert err < 0.05
    assert np.allclose(size, truth_size, atol=0.004) and np.allclose(offset, truth_offset, atol=0.004)


def test_packaged_calibration_has_alfreds_camera_and_pivots():
    assert field_of_view() == 60.0
    size, offset = object_box("Mug")
    assert offset[1] == pytest.approx(size[1] / 2, abs=0.01)  # a mug's pivot is at its bottom
    center, aabb, extent = placed_box("Mug", (1.0, 0.9, 2.0), (0.0, 90.0, 0.0))
    assert center[1] == pytest.approx(0.9 + offset[1])
    assert aabb[0] == pytest.approx(extent[2], abs=1e-4) and aabb[2] == pytest.approx(extent[0], abs=1e-4)
    spawned, _, _ = placed_box("Mug", (1.0, 0.9, 2.0), at_pivot=False)
    assert spawned == (1.0, 0.9, 2.0)
    assert placed_box("NoSuchType", (0, 0, 0), default_size=(0.2, 0.2, 0.2))[2] is None


def test_alfred_start_states_carry_rotation_and_asset():
    from simulator.alfred.trajectories import _from_record

    record = {
        "task_type": "pick_and_place_simple", "pddl_params": {}, "floor_plan": "FloorPlan1",
        "init_action": {"x": 0.0, "z": 0.0, "rotation": 0, "horizon": 30},
        "object_poses": [{"objectName": "Mug_abc", "position": {"x": 1, "y": 0.9, "z": 2},
                          "rotation": {"x": 0, "y": 90, "z": 0}}],
        "expert_low_actions": [],
    }
    placement = _from_record(record, "test").start_state().objects[0]
    assert placement.rotation == (0.0, 90.0, 0.0) and placement.asset == "Mug_abc" and placement.at_pivot
    assert placement.resolved_id == "Mug|+01.00|+00.90|+02.00"

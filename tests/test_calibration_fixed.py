"""The fixed objects' calibration: per-instance boxes, collapsed extents, surface tops."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.calibration import fixedfit
from simulator.calibration.fixedfit import _restore_collapsed, clamp_surfaces
from simulator.calibration.table import fixed_box


def test_a_collapsed_depth_gets_the_builders_back_behind_the_seen_face():
    pivot = np.array([0.0, 0.5, 0.0])
    size, offset = _restore_collapsed(np.array([0.5, 0.6, 0.03]), np.array([0.0, 0.0, 0.2]),
                                      np.array([0.5, 0.5, 0.4]), pivot, eye=np.array([0.0, 1.576, 2.0]))
    assert size.tolist() == [0.5, 0.6, 0.4]
    front = pivot[2] + offset[2] + size[2] / 2
    assert front == pytest.approx(0.2 + 0.015)  # the face towards the camera stays
    kept, same = _restore_collapsed(np.array([0.4, 0.6, 0.3]), np.zeros(3), np.array([0.5, 0.5, 0.4]),
                                    pivot, eye=np.zeros(3))
    assert kept.tolist() == [0.4, 0.6, 0.3] and same.tolist() == [0, 0, 0]


def test_a_surface_top_is_lowered_to_what_stands_on_it(monkeypatch):
    oid = "CounterTop|+01.00|+00.90|+02.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {oid: {"type": "CounterTop"}})
    fixed = {"FloorPlanX": {oid: {"size": [1.0, 0.2, 0.6], "offset": [0.0, 0.0, 0.0]}}}  # top at 1.0
    bottoms = {"FloorPlanX": [(1.0, 0.95, 2.0), (1.2, 0.96, 2.1), (0.9, 0.95, 1.9), (3.0, 0.5, 2.0)]}
    assert clamp_surfaces(fixed, bottoms) == 1
    entry = fixed["FloorPlanX"][oid]
    top = 0.9 + entry["offset"][1] + entry["size"][1] / 2
    bottom = 0.9 + entry["offset"][1] - entry["size"][1] / 2
    assert top == pytest.approx(0.95, abs=1e-3) and bottom == pytest.approx(0.8, abs=1e-3)
    assert clamp_surfaces(fixed, bottoms) == 0  # already below: unchanged


def test_packaged_fixed_boxes_are_applied_to_scenes():
    from simulator.scenes import _raw, load_scene

    scene = load_scene("FloorPlan1")
    fitted = [oid for oid in scene.fixed_objects if fixed_box("FloorPlan1", oid) is not None]
    assert fitted, "FloorPlan1 has fitted fixed objects"
    oid = fitted[0]
    centre, size = fixed_box("FloorPlan1", oid)
    assert scene.fixed_objects[oid].position == pytest.approx(centre)
    assert scene.fixed_objects[oid].size == pytest.approx(size)
    # the navigable grid is the builder's, whatever the fitted boxes
    assert scene.navigable == frozenset(tuple(c) for c in _raw()["FloorPlan1"]["navigable"])
    assert fixed_box("FloorPlan1", "Nothing|+00.00|+00.00|+00.00") is None

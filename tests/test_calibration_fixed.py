"""The fixed objects' calibration: per-instance boxes, collapsed extents, surface tops."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.calibration import fixedfit
from simulator.calibration.fixedfit import _restore_collapsed
from simulator.calibration.supports import fit_supports, support_level
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


def test_a_box_that_would_hide_another_targets_clicks_counts_them_as_stolen():
    """A microwave fitted a metre deep over a sink intercepts the ray through a recorded
    click on the basin; one of a microwave's depth does not."""
    eye, basin = np.array([0.0, 1.576, 0.0]), np.array([0.0, 0.7, 1.0])
    ray = (basin - eye) / np.linalg.norm(basin - eye)
    rays = {"Basin": (eye[None, :], ray[None, :])}
    boxes = {"Basin": (basin, np.array([0.5, 0.2, 0.4]))}
    built = {"Basin": {"type": "SinkBasin", "position": basin.tolist(), "size": [0.5, 0.2, 0.4]},
             "Oven": {"type": "Microwave", "position": [0.0, 1.4, 1.0], "size": [0.5, 0.3, 0.4]}}
    deep = (np.array([0.0, 1.4, 0.7]), np.array([0.5, 0.3, 0.9]))
    shallow = (np.array([0.0, 1.4, 1.0]), np.array([0.5, 0.3, 0.4]))
    assert fixedfit.stolen_views(deep, "Oven", rays, boxes, built) == 1
    assert fixedfit.stolen_views(shallow, "Oven", rays, boxes, built) == 0
    assert fixedfit.stolen_views(deep, "Basin", rays, boxes, built) == 0  # its own views are not stolen


def _top_and_bottom(oid: str, entry: dict) -> tuple[float, float]:
    y = float(oid.split("|")[2])
    return y + entry["offset"][1] + entry["size"][1] / 2, y + entry["offset"][1] - entry["size"][1] / 2


def test_a_surface_top_moves_to_what_rests_on_it(monkeypatch):
    oid = "CounterTop|+01.00|+00.90|+02.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        oid: {"type": "CounterTop", "position": [1.0, 0.9, 2.0], "size": [1.0, 0.2, 0.6]}})
    fixed = {"FloorPlanX": {oid: {"size": [1.0, 0.2, 0.6], "offset": [0.0, 0.0, 0.0]}}}  # top at 1.0
    bottoms = {"FloorPlanX": [(1.0, 0.95, 2.0), (1.2, 0.96, 2.1), (0.9, 0.95, 1.9), (3.0, 0.5, 2.0)]}
    assert fit_supports(fixed, bottoms) == 1
    top, bottom = _top_and_bottom(oid, fixed["FloorPlanX"][oid])
    assert top == pytest.approx(0.95, abs=2e-3) and bottom == pytest.approx(0.8, abs=1e-3)
    assert fit_supports(fixed, bottoms) == 0  # already there: unchanged


def test_an_unfitted_surface_gets_its_top_from_the_objects_and_drawers_do_not_count(monkeypatch):
    dresser, drawer = "Dresser|+00.00|+00.00|+00.00", "Drawer|+00.00|+00.40|+00.20"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        dresser: {"type": "Dresser", "position": [0.0, 0.6, 0.0], "size": [1.0, 1.2, 0.5]},  # top 1.2: too tall
        drawer: {"type": "Drawer", "position": [0.0, 0.4, 0.1], "size": [0.8, 0.2, 0.3]}})
    on_top = [(-0.3, 0.80, 0.0), (0.1, 0.81, -0.1), (0.3, 0.80, 0.1)]
    in_drawer = [(0.0, 0.31, 0.1), (0.2, 0.31, 0.1), (-0.2, 0.32, 0.1), (0.1, 0.31, 0.15)]
    fixed: dict = {}
    assert fit_supports(fixed, {"FloorPlanX": on_top + in_drawer}) == 1
    entry = fixed["FloorPlanX"][dresser]
    assert entry["choice"] == "builder" and drawer not in fixed["FloorPlanX"]
    top, bottom = _top_and_bottom(dresser, entry)
    assert top == pytest.approx(0.80, abs=2e-3) and bottom == pytest.approx(0.0, abs=1e-3)


def test_the_support_level_is_the_highest_band_that_holds_enough():
    assert support_level(np.array([0.30, 0.71, 0.72, 0.72, 0.73, 1.1])) == pytest.approx(0.71, abs=5e-3)
    lower_shelf_fuller = [0.16] * 6 + [0.74, 0.74, 0.75]  # a TV stand: its top holds less than its shelf
    assert support_level(np.array(lower_shelf_fuller)) == pytest.approx(0.74, abs=2e-3)
    assert support_level(np.array([0.16] * 9 + [0.74])) == pytest.approx(0.16, abs=2e-3)  # one stray thing on top


def test_a_thin_shelf_moves_whole_down_to_what_rests_on_it(monkeypatch):
    oid = "Shelf|+00.00|+00.93|+00.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        oid: {"type": "Shelf", "position": [0.0, 0.93, 0.0], "size": [0.8, 0.05, 0.35]}})  # 0.905 .. 0.955
    fixed: dict = {}
    assert fit_supports(fixed, {"FloorPlanX": [(0.1, 0.85, 0.0), (-0.2, 0.85, 0.1), (0.2, 0.851, -0.1)]}) == 1
    entry = fixed["FloorPlanX"][oid]
    top, bottom = _top_and_bottom(oid, entry)
    assert top == pytest.approx(0.85, abs=2e-3) and top - bottom == pytest.approx(0.05, abs=1e-3)


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


def test_a_counter_recorded_with_its_pivot_on_the_floor_gets_its_top_where_things_rest_below_the_eye(monkeypatch):
    counter, shelf = "CounterTop|-00.81|+00.09|+00.29", "Shelf|+01.31|+00.05|+02.30"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        counter: {"type": "CounterTop", "position": [-0.81, 0.081, 0.29], "size": [1.5, 0.05, 0.65]},
        shelf: {"type": "Shelf", "position": [1.31, 0.025, 2.3], "size": [0.8, 0.05, 0.35]}})
    on_counter = [(-0.9, 1.12, 0.3), (-0.6, 1.121, 0.2), (-1.2, 1.12, 0.4), (-0.5, 1.13, 0.3)]
    shelf_above = [(-0.8, 1.64, 0.3), (-0.7, 1.64, 0.25), (-1.0, 1.65, 0.3)]  # a wall shelf over it: above the eye
    on_floor = [(-0.7, 0.0, 0.3), (1.3, 0.0, 2.3)]
    on_bookshelf = [(1.3, 0.9, 2.3), (1.2, 0.9, 2.2), (1.4, 0.9, 2.3)]  # far above a floor shelf: not its top
    fixed: dict = {}
    fit_supports(fixed, {"FloorPlanX": on_counter + shelf_above + on_floor + on_bookshelf})
    top, _ = _top_and_bottom(counter, fixed["FloorPlanX"][counter])
    assert top == pytest.approx(1.12, abs=3e-3)
    assert shelf not in fixed["FloorPlanX"] or _top_and_bottom(shelf, fixed["FloorPlanX"][shelf])[0] < 0.2

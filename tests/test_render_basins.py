"""Basins set in counters and sinks: the tops are cut open where the basin is, as in AI2-THOR;
counters are hollow over the cabinets under them, and a cabinet's floor lies under its box."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import kitchen

from simulator.render.styles import object_rows
from simulator.render.types import RenderObject
from simulator.render.world_view import basin_holes, render_objects

BOUNDS = (-3.0, 3.0, -3.0, 3.0)


def _covers(rows: dict, x: float, z: float, y_above: float) -> bool:
    """Does any drawn part of these rows cover the vertical line at (x, z) above ``y_above``?"""
    for parts in rows.values():
        for row in parts:
            affine = row[:12].reshape(3, 4)
            half = np.abs(affine[:, :3]).sum(axis=1) / 2
            centre = affine[:, 3]
            if abs(x - centre[0]) < half[0] and abs(z - centre[2]) < half[2] and centre[1] + half[1] > y_above:
                return True
    return False


def test_a_counter_with_a_basin_is_open_over_it_and_solid_elsewhere():
    counter = RenderObject("CounterTop|+00.00|+00.90|+00.00", "CounterTop", (0.0, 0.45, 0.0), (2.0, 0.9, 0.6),
                           holes=((-0.2, 0.2, -0.2, 0.2),))
    rows = object_rows(counter, BOUNDS)
    assert not _covers(rows, 0.0, 0.0, 0.3)  # looking down into the basin: nothing of the counter
    assert _covers(rows, 0.6, 0.0, 0.85) and _covers(rows, 0.0, 0.25, 0.85)  # around it, the top is there
    solid = object_rows(RenderObject(counter.object_id, "CounterTop", counter.center, counter.size), BOUNDS)
    assert _covers(solid, 0.0, 0.0, 0.85)


def test_the_kitchen_cuts_its_counters_and_sinks_where_the_basin_is():
    world = kitchen().world
    holes = basin_holes(world)
    basin = next(o for o in world.objects.values() if o.object_type == "SinkBasin")
    cut = [oid for oid, hs in holes.items() if any(h[0] < basin.position[0] < h[1] and h[2] < basin.position[2] < h[3]
                                                   for h in hs)]
    assert cut and all(world.objects[oid].object_type in ("CounterTop", "Sink") for oid in cut)
    drawn = {o.object_id: o for o in render_objects(world)}
    assert all(drawn[oid].holes[: len(holes[oid])] == holes[oid] for oid in cut)  # then the agent's places


def test_a_basin_opening_is_recovered_where_its_mask_edges_meet_the_rim_plane():
    from simulator.calibration.basins import rim_footprint
    from simulator.calibration.boxfit import FRAME, camera_axes

    height, fov, rim = 1.576, 60.0, 0.9
    corners = np.array([[x, rim, z] for x in (-0.3, 0.3) for z in (0.2, 0.6)])
    views = []
    for x, rotation, horizon in ((0.0, 0.0, 45.0), (0.25, 0.0, 30.0), (-0.25, 0.0, 60.0)):
        right, up, forward = (a[0] for a in camera_axes(np.array([rotation]), np.array([horizon])))
        d = corners - np.array([x, height, -0.6])
        focal = FRAME / 2 / np.tan(np.radians(fov) / 2)
        px = FRAME / 2 + focal * (d @ right) / (d @ forward) - 0.5
        py = FRAME / 2 - focal * (d @ up) / (d @ forward) - 0.5
        views.append({"camera": [x, -0.6, rotation, horizon], "bbox": [px.min(), py.min(), px.max(), py.max()]})
    x0, x1, z0, z1 = rim_footprint(views, height, fov, rim)
    assert (x0, x1, z0, z1) == pytest.approx((-0.3, 0.3, 0.2, 0.6), abs=0.02)


def test_a_basin_reaches_down_to_where_things_rest_in_it():
    from simulator.calibration.basins import deepen_basins

    oid = "Sink|+00.00|+00.97|+00.00|SinkBasin"  # rim at 0.97
    fixed = {"FloorPlanX": {oid: {"choice": "rim", "offset": [0.0, -0.075, 0.0], "size": [0.4, 0.15, 0.5]}}}
    in_it = [(0.0, 0.74, 0.0), (0.1, 0.73, 0.1), (-0.1, 0.74, -0.1), (0.5, 0.2, 0.0)]  # the last: elsewhere
    assert deepen_basins(fixed, {"FloorPlanX": in_it}) == 1
    entry = fixed["FloorPlanX"][oid]
    assert 0.97 + entry["offset"][1] + entry["size"][1] / 2 == pytest.approx(0.97)
    assert 0.97 + entry["offset"][1] - entry["size"][1] / 2 == pytest.approx(0.722, abs=0.005)


def test_a_counter_is_hollow_over_the_cabinets_under_it_and_a_cabinet_floor_holds_what_rests_on_it():
    counter = RenderObject("CounterTop|+00.00|+00.90|+00.00", "CounterTop", (0.0, 0.45, 0.0), (2.0, 0.9, 0.6),
                           body_holes=((-0.25, 0.25, -0.3, 0.3),))
    rows = object_rows(counter, BOUNDS)
    assert _covers(rows, 0.0, 0.0, 0.85)  # the top is whole
    body = [r for parts in rows.values() for r in parts if r[:12].reshape(3, 4)[1, 3] < 0.8]
    assert body and not any(abs(r[:12].reshape(3, 4)[0, 3]) < 0.25 for r in body)  # no body where the cabinet is
    cabinet = RenderObject("Cabinet|+00.00|+00.38|+00.00", "Cabinet", (0.0, 0.38, 0.0), (0.4, 0.5, 0.5), is_open=True)
    tops = [r[:12].reshape(3, 4) for parts in object_rows(cabinet, BOUNDS).values() for r in parts]
    floor = min(a[1, 3] + np.abs(a[1, :3]).sum() / 2 for a in tops if np.abs(a[1, :3]).sum() < 0.05)
    assert floor <= 0.13 + 1e-6  # a plate lying 2 cm above the box's bottom (0.15) is above the floor


def test_the_kitchen_cuts_its_counters_over_the_cabinets_below_them():
    from simulator.render.world_view import counter_cuts

    world = kitchen().world
    cuts = counter_cuts(world)
    assert cuts and all(world.objects[oid].object_type == "CounterTop" for oid in cuts)
    drawn = {o.object_id: o for o in render_objects(world)}
    assert all(drawn[oid].body_holes[: len(cuts[oid])] == cuts[oid] for oid in cuts)  # then the agent's places


def test_a_pedestal_sinks_basin_has_its_rim_where_the_rays_pass_over_its_foot():
    from simulator.calibration.basins import PEDESTAL, pedestal_rim
    from simulator.calibration.boxfit import FRAME, camera_axes

    height, fov, rim = 1.576, 60.0, 0.8  # the pivot on the floor, the rim 0.8 m above it
    corners = np.array([[x, rim, z] for x in (-0.2, 0.2) for z in (0.2, 0.5)])  # centred over the foot (0, 0.35)
    views = []
    for x, horizon in ((0.0, 45.0), (0.25, 30.0), (-0.25, 60.0)):
        right, up, forward = (a[0] for a in camera_axes(np.array([0.0]), np.array([horizon])))
        d = corners - np.array([x, height, -0.6])
        focal = FRAME / 2 / np.tan(np.radians(fov) / 2)
        px = FRAME / 2 + focal * (d @ right) / (d @ forward) - 0.5
        py = FRAME / 2 - focal * (d @ up) / (d @ forward) - 0.5
        views.append({"camera": [x, -0.6, 0.0, horizon], "bbox": [px.min(), py.min(), px.max(), py.max()]})
    groups = {("FloorPlanX", "Sink|+00.00|+00.00|+00.35|SinkBasin"): views}
    assert 0.0 < PEDESTAL and pedestal_rim(groups, height, fov) == pytest.approx(rim, abs=0.05)
    assert pedestal_rim({("FloorPlanX", "Sink|+00.00|+00.90|+00.35|SinkBasin"): views}, height, fov) is None


def test_a_bathtub_and_its_basin_move_whole_to_where_things_rest_in_them(monkeypatch):
    from simulator.calibration import fixedfit
    from simulator.calibration.basins import TUB_FLOOR, fit_tubs, type_floors
    from simulator.calibration.observations import id_position

    tub = "Bathtub|+00.00|+00.53|+00.00"  # the pivot says 0.53; things rest at 0.05
    built = {tub: {"type": "Bathtub", "position": [0.0, 0.83, 0.0], "size": [1.6, 0.6, 0.8]},
             f"{tub}|BathtubBasin": {"type": "BathtubBasin", "position": [0.0, 0.53, 0.0], "size": [1.4, 0.4, 0.6]}}
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: built)
    resting = [(0.1, 0.05, 0.0), (-0.3, 0.052, 0.1), (0.4, 0.05, -0.1), (0.6, 0.58, 0.25), (0.55, 0.58, 0.2)]
    fixed: dict = {}
    assert fit_tubs(fixed, {"FloorPlanX": resting}) == 2
    for oid, entry in fixed["FloorPlanX"].items():
        bottom = id_position(oid)[1] + entry["offset"][1] - entry["size"][1] / 2
        assert bottom + TUB_FLOOR == pytest.approx(0.05, abs=0.002)  # not the soap on the rim
        assert entry["size"] == built[oid]["size"]
    assert type_floors(fixed) == {}  # one fitted tub is too few for a type's floor


def test_a_counter_is_cut_where_the_agent_can_stand():
    from types import SimpleNamespace

    from simulator.render.world_view import standing_cuts

    counter = SimpleNamespace(object_id="CounterTop|a", object_type="CounterTop", position=(0.0, 0.9, 0.0),
                              size=(2.0, 0.05, 2.0))  # an L's box: its inner corner is floor
    world = SimpleNamespace(objects={"CounterTop|a": counter},
                            scene=SimpleNamespace(recorded_reachable=frozenset({(3, 3), (10, 10)})))
    cuts = standing_cuts(world)["CounterTop|a"]
    assert cuts == ((0.55, 0.95, 0.55, 0.95),)  # the cell at (0.75, 0.75), 0.2 around it, clipped to the box
    rows = object_rows(RenderObject("CounterTop|a", "CounterTop", (0.0, 0.45, 0.0), (2.0, 0.9, 2.0), holes=cuts,
                                    body_holes=cuts), (-5.0, 5.0, -5.0, 5.0))
    centres = np.concatenate(list(rows.values()))[:, [3, 11]]  # x and z of every part's centre
    assert not any(0.55 < x < 0.95 and 0.55 < z < 0.95 for x, z in centres)

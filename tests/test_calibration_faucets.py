"""Faucets: the box fitted to recorded views, the builder's rule, AI2-THOR's ids resolved; sinks."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import FAUCET, kitchen

from simulator.calibration.boxfit import Views, shape_points
from simulator.calibration.faucets import back_direction, drawn_box, fit_drawn, reference, yaw
from simulator.render.rotation import euler_matrix
from simulator.scenes.layout import faucets_for_basins
from simulator.targeting import lookup

BOUNDS = (-3.0, 3.0, -3.0, 3.0)


def _basin(x: float, z: float, rotation: int) -> dict:
    return {"type": "SinkBasin", "position": [x, 0.9, z], "size": [0.5, 0.15, 0.4],
            "interaction_pose": [x, z, rotation, 45], "receptacle": True}


def test_the_back_is_away_from_the_agent_and_the_front_faces_it():
    basin = _basin(-2.0, 0.0, 270)  # the agent looks along -x at it
    assert back_direction(basin, BOUNDS, "pose") == (-1, 0)
    assert back_direction(basin, BOUNDS, "wall") == (-1, 0)  # x = -3 is the nearest wall
    front = euler_matrix(0.0, yaw((-1, 0)), 0.0) @ np.array([0.0, 0.0, 1.0])
    assert front == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)


def test_the_drawn_box_is_recovered_from_its_projections():
    rng = np.random.default_rng(3)
    size, offset = np.array([0.22, 0.3, 0.35]), np.array([0.0, 1.0, -0.2])
    instances = []
    for k, rotation in enumerate((0, 90, 180, 270, 0, 90)):
        x, z = rng.uniform(-1, 1), rng.uniform(-1, 1)
        basin = _basin(x, z, rotation)
        back = back_direction(basin, BOUNDS, "pose")
        n = 8
        cams = np.column_stack([x - back[0] * rng.uniform(1.0, 1.4, n) + rng.uniform(-0.2, 0.2, n),
                                z - back[1] * rng.uniform(1.0, 1.4, n) + rng.uniform(-0.2, 0.2, n),
                                np.full(n, float(rotation)), rng.choice([30.0, 45.0, 60.0], n)])
        views = Views(cams, np.tile(reference(basin["position"], "absolute"), (n, 1)),
                      np.tile([0.0, yaw(back), 0.0], (n, 1)), np.zeros((n, 4)), 1.576, 60.0)
        boxes, ok = views.project(shape_points("Faucet"), size, offset)
        assert ok.all()
        obs = [{"camera": list(c), "bbox": list(np.floor(b[:2])) + list(np.ceil(b[2:]) - 1), "point": [0, 0]}
               for c, b in zip(cams, boxes, strict=True)]
        basin_id = f"Sink|{x:+.2f}|+00.90|{z:+.2f}|SinkBasin"
        basin["position"] = [float(v) for v in basin_id.split("|")[1:4]]
        instances.append({"floor_plan": f"FloorPlan{k + 1}", "basin_id": basin_id, "basin": basin,
                          "bounds": BOUNDS, "views": obs})
    rule = fit_drawn(instances, "pose", "absolute", 1.576, 60.0)
    assert np.array(rule["offset"]) == pytest.approx(offset, abs=0.03)
    assert np.array(rule["size"]) == pytest.approx(size, rel=0.15)


def test_the_builder_puts_a_faucet_where_the_fitted_rule_says():
    basin = _basin(-2.0, 0.5, 270)
    fixed = {"Sink|-02.00|+00.90|+00.50|SinkBasin": basin}
    rule = {"back": "pose", "height": "absolute", "size": [0.2, 0.3, 0.4], "offset": [0.0, 1.0, -0.25]}
    (fid, faucet), = faucets_for_basins(fixed, {"Faucet"}, BOUNDS, {"SinkBasin": rule}).items()
    centre, size = drawn_box(reference([-2.0, 0.9, 0.5], "absolute"), (-1, 0), rule)
    assert faucet["position"] == pytest.approx([-2.25, 1.0, 0.5]) and centre == pytest.approx([-2.25, 1.0, 0.5])
    assert faucet["size"] == pytest.approx([0.4, 0.3, 0.2]) and size == pytest.approx([0.4, 0.3, 0.2])
    assert fid == "Faucet|-02.25|+01.00|+00.50"
    (_, old), = faucets_for_basins(fixed, {"Faucet"}).items()  # no rule: the basin's back edge
    assert old["position"] == pytest.approx([-2.25, 1.1, 0.5]) and old["size"] == [0.1, 0.25, 0.1]


def test_ai2thors_faucet_id_resolves_to_ours():
    sim = kitchen()
    assert lookup(sim.world, "Faucet|-02.07|+01.13|-01.51").object_id == FAUCET  # AI2-THOR's, in ALFRED


def test_a_sink_hangs_below_its_pivot_unless_its_pivot_is_its_foot():
    from simulator.scenes.layout import box_center

    assert box_center("Sink", (1.0, 0.9, 2.0), (0.7, 0.2, 0.5)) == pytest.approx((1.0, 0.8, 2.0))  # rim at the pivot
    assert box_center("Sink", (1.0, 0.0, 2.0), (0.7, 0.2, 0.5)) == pytest.approx((1.0, 0.1, 2.0))  # a pedestal's foot

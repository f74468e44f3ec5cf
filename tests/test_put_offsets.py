"""Per-receptacle put offsets: fitted from where AI2-THOR's experts took put things out again."""

from __future__ import annotations

import json

import numpy as np
from sim_helpers import KITCHEN, SINK, go_to, kitchen, obj

from simulator.calibration import table
from simulator.calibration.putfit import MIN_PUTS, offset, plane_point
from simulator.episodes.splits import split_floor_plans
from simulator.objects import encloses_type
from simulator.placement import landing
from simulator.sim import FOLLOWER


def test_a_ray_through_the_frame_centre_looking_45_degrees_down_meets_a_plane_a_metre_lower_a_metre_ahead():
    x, z = plane_point((0.0, 0.0, 0, 45.0), (150.0, 150.0), 1.576, 60.0, 0.576)
    assert abs(x) < 1e-6 and abs(z - 1.0) < 1e-6
    x, z = plane_point((0.0, 0.0, 90, 45.0), (150.0, 150.0), 1.576, 60.0, 0.576)  # facing +x
    assert abs(x - 1.0) < 1e-6 and abs(z) < 1e-6
    assert plane_point((0.0, 0.0, 0, -10.0), (150.0, 150.0), 1.576, 60.0, 0.576) is None  # looking up


def test_a_receptacle_whose_puts_land_consistently_elsewhere_gets_the_median_and_scatter_gets_none():
    consistent = [[0.10, -0.05], [0.11, -0.04], [0.09, -0.06], [0.12, -0.05], [0.10, -0.03]]
    entry = offset(consistent)
    assert entry is not None and entry["offset"] == [0.1, -0.05] and entry["puts"] == 5
    assert entry["error"] < entry["rule_error"]
    scatter = [[0.1, 0.0], [-0.1, 0.0], [0.0, 0.1], [0.0, -0.1], [0.07, 0.07], [-0.07, -0.07]]
    assert offset(scatter) is None  # the median predicts a held-out one no better than no offset
    assert offset(consistent[: MIN_PUTS - 1]) is None


def test_a_put_from_where_the_experts_stood_lands_moved_by_the_fitted_offset_and_from_elsewhere_by_the_rule(monkeypatch):
    sim = kitchen()
    world = sim.world
    go_to(sim, SINK)
    agent = world.agents[FOLLOWER]
    fitted = {KITCHEN: {SINK: {"offset": [-0.03, -0.02], "puts": 5, "pose": [agent.x, agent.z]}}}
    monkeypatch.setattr(table, "_put_offsets", lambda: fitted)
    egg = obj(sim, "Egg")

    def lands() -> tuple[float, float, float]:
        return landing(world, world.objects[SINK], egg, agent.camera(world.field_of_view))

    moved = lands()
    with table.put_offsets_off():
        rule = lands()
    assert np.allclose(np.subtract(moved, rule), (-0.03, 0.0, -0.02), atol=1e-3)
    assert table.put_offset(KITCHEN, SINK, (agent.x, agent.z)) == (-0.03, -0.02)
    agent.x += 0.25  # a grid step aside: the experts never put from there
    assert table.put_offset(KITCHEN, SINK, (agent.x, agent.z)) == (0.0, 0.0)
    aside = lands()
    with table.put_offsets_off():
        assert lands() == aside
    assert table.put_offset("FloorPlan10", SINK, (agent.x, agent.z)) == (0.0, 0.0)  # no data there


def test_the_shipped_offsets_are_basins_of_train_floor_plans_each_better_than_the_rule_on_held_out_puts():
    path = table.resources.files("simulator") / "data" / "put_offsets.json"
    assert path.is_file(), "simulator/data/put_offsets.json is shipped (python -m simulator.calibration.putfit)"
    plans = json.loads(path.read_text(encoding="utf-8"))["floor_plans"]
    entries = [e for receptacles in plans.values() for e in receptacles.values()]
    assert entries and all(e["puts"] >= MIN_PUTS and e["error"] < e["rule_error"] for e in entries)
    assert all(np.hypot(*e["offset"]) < 0.5 and len(e["pose"]) == 2 for e in entries)
    assert not any(encloses_type(key.split("|")[0]) for receptacles in plans.values() for key in receptacles)
    assert set(plans) <= set(split_floor_plans("train"))  # fitted on train floor plans only

"""Shelves inside fridges and cabinets: fitted from where things rest, drawn, and used by puts."""

from __future__ import annotations

import numpy as np
import pytest
from sim_helpers import COUNTER, FRIDGE, go_to, kitchen, meta, obj

from simulator.calibration import fixedfit
from simulator.calibration.supports import fit_levels, shelf_levels
from simulator.render.styles import object_rows
from simulator.render.types import RenderObject
from simulator.sim import FOLLOWER


def test_shelves_are_the_bands_that_hold_enough_of_the_resting_bottoms():
    bottoms = [0.19, 0.20, 0.20, 0.50, 0.50, 0.51, 0.52, 0.76, 0.77, 0.77, 1.1]  # 1.1: one stray thing
    assert shelf_levels(np.array(bottoms)) == pytest.approx([0.192, 0.50, 0.762], abs=1e-3)
    assert shelf_levels(np.array([])) == []


def test_a_fridge_gets_its_shelves_and_what_rests_on_top_of_it_does_not_count(monkeypatch):
    fridge = "Fridge|+00.00|+00.00|+00.00"
    monkeypatch.setattr(fixedfit, "builder_boxes", lambda plan: {
        fridge: {"type": "Fridge", "position": [0.0, 0.9, 0.0], "size": [0.7, 1.8, 0.7]}})
    inside = [(0.1, 0.5, 0.0), (0.0, 0.5, 0.1), (-0.1, 0.51, 0.0), (0.1, 1.2, 0.0), (0.0, 1.21, 0.1), (0.2, 1.2, 0.2)]
    on_top = [(0.0, 1.8, 0.0), (0.1, 1.8, 0.1), (0.2, 1.81, 0.0)]
    fixed: dict = {}
    assert fit_levels(fixed, {"FloorPlanX": inside + on_top}) == 1
    assert fixed["FloorPlanX"][fridge]["levels"] == pytest.approx([0.5, 1.2], abs=2e-3)


def _box_tops(rows: dict) -> list[float]:
    tops = []
    for parts in rows.values():
        for row in parts:
            affine = row[:12].reshape(3, 4)
            tops.append(round(float(affine[1, 3] + abs(affine[1, :3]).sum() / 2), 3))
    return tops


def test_an_open_fridge_draws_its_shelves_at_the_calibrated_levels():
    fridge = RenderObject("Fridge|+00.00|+00.00|+00.00", "Fridge", (0.0, 0.9, 0.0), (0.7, 1.8, 0.7), is_open=True,
                          levels=(0.5, 1.2))
    tops = _box_tops(object_rows(fridge, (-3.0, 3.0, -3.0, 3.0)))
    assert 0.5 in tops and 1.2 in tops
    default = _box_tops(object_rows(RenderObject(fridge.object_id, "Fridge", fridge.center, fridge.size, is_open=True),
                                    (-3.0, 3.0, -3.0, 3.0)))
    assert 0.5 not in default and 1.2 not in default


@pytest.mark.parametrize("levels", [(), (0.5, 0.9, 1.3)])
def test_a_put_into_a_fridge_lands_on_the_shelf_the_agent_looks_at(levels):
    sim = kitchen()
    sim.world.objects[FRIDGE].levels = levels
    apple = obj(sim, "Apple")
    go_to(sim, COUNTER)
    assert sim.step(FOLLOWER, "PickupObject", objectId=apple.object_id).success
    go_to(sim, FRIDGE)
    assert sim.step(FOLLOWER, "OpenObject", objectId=FRIDGE).success
    assert sim.step(FOLLOWER, "PutObject", objectId=apple.object_id, receptacleObjectId=FRIDGE).success
    bottom = apple.position[1] - apple.size[1] / 2
    fridge = sim.world.objects[FRIDGE]
    if levels:
        assert min(abs(bottom - level) for level in levels) < 1e-3
        assert bottom > fridge.position[1] - fridge.size[1] / 2 + 0.1  # not on the floor of the fridge
    else:
        assert bottom == pytest.approx(fridge.position[1] - fridge.size[1] / 2 + 0.01, abs=1e-3)
    assert meta(sim, apple.object_id)["parentReceptacles"] == [FRIDGE]

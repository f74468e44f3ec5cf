"""SearchObject from the Simulator: a Commander call; with rendering on, the view's mask."""

from __future__ import annotations

import types

import pytest

from simulator import render
from simulator.sim import COMMANDER, FOLLOWER, Simulator


def test_search_object_is_a_commander_call_and_finds_a_view():
    sim = Simulator()
    sim.reset("FloorPlan1", seed=2)
    found = sim.search_object("Mug")
    assert found["success"] and found["view"]["mask"] is None
    assert not sim.search_object("Mug", agent_id=FOLLOWER)["success"]


@pytest.mark.skipif(not render.available(), reason="EGL rendering is not available here")
def test_search_object_mask_when_rendering():
    sim = Simulator(types.SimpleNamespace(render="egl", width=128, height=128))
    sim.reset("FloorPlan1", seed=2)
    for query in ("Mug", "Fridge", "Apple"):
        found = sim.search_object(query, COMMANDER)
        view = found["view"]
        assert view["mask"].shape == (128, 128) and view["mask"].any(), query
        assert view["rgb"].shape == (128, 128, 3)
    sim.close()

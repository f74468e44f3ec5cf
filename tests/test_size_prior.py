"""The size prior: the points of a detection farther from their median than an object of its
type can reach are not the object's (``mapping.size_prior``, the mapper's ``size_prior``
parameter)."""

from __future__ import annotations

import numpy as np
import pytest

from contracts.errors import NesyError
from contracts.geometry import Pose
from mapping import size_prior
from mapping.semantic import SemanticMapper
from tests.test_semantic_map import CAMERA, _wall_detection, observe, room_depth


def test_the_table_knows_the_small_things_the_planner_picks_up():
    sides = size_prior.largest_sides()
    assert 0.2 < sides["Knife"] < 0.5 and 0.05 < sides["Egg"] < 0.2 and sides["Pan"] > sides["Knife"]
    assert "CounterTop" not in sides and "Fridge" not in sides  # fixed furniture is seen in parts and merged
    fixed = size_prior.fixed_sides()
    assert 0.2 < fixed["Toaster"] < 0.5 and fixed["Fridge"] > 1.5 and "Knife" not in fixed


def test_a_box_is_capped_at_its_types_largest_side():
    toaster = size_prior.capped("Toaster", (1.81, 0.2, 2.69))
    assert toaster[1] == 0.2 and toaster[0] == toaster[2] == pytest.approx(size_prior.fixed_sides()["Toaster"] + 0.1)
    assert size_prior.capped("Knife", (0.9, 0.1, 0.05))[0] < 0.6
    assert size_prior.capped("NoSuchType", (5.0, 5.0, 5.0)) == (5.0, 5.0, 5.0)
    cabinet = size_prior.fixed_sides()["Cabinet"]  # open, its box holds the door swung out beside it
    assert size_prior.capped("Cabinet", (3.0, 0.5, 0.5), opened=True)[0] == pytest.approx(2 * cabinet + 0.1)


def test_a_knife_seen_with_the_floor_below_the_counter_keeps_only_its_own_points():
    blade = np.column_stack([np.linspace(0.0, 0.3, 30), np.full(30, 0.92), np.full(30, 1.0)])
    floor = np.column_stack([np.linspace(0.0, 0.3, 10), np.zeros(10), np.full(10, 1.1)])  # 0.9 m below
    kept = size_prior.trim("Knife", np.vstack([blade, floor]))
    assert len(kept) == 30 and np.all(kept[:, 1] > 0.9)
    assert len(size_prior.trim("CounterTop", np.vstack([blade, floor]))) == 40  # a type the table does not know


def test_a_missing_table_says_how_to_rebuild_it(tmp_path, monkeypatch):
    monkeypatch.setattr(size_prior, "SIZES_PATH", tmp_path / "object_sizes.json")
    size_prior.largest_sides.cache_clear()
    try:
        with pytest.raises(NesyError, match="python -m mapping.prior_build"):
            size_prior.trim("Knife", np.zeros((1, 3)))
    finally:
        size_prior.largest_sides.cache_clear()


@pytest.mark.parametrize("on", [True, False])
def test_the_mapper_boxes_a_knife_without_what_its_mask_bled_onto(on):
    from contracts.observation import ModuleContext

    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, size_prior=on, size_cap=False))
    m.reset(ModuleContext(CAMERA, True))
    here = Pose(0.0, 0.0, 0.0, 0.0)
    wide = _wall_detection("Knife", slice(40, 44), slice(30, 90))  # 60 pixels of wall 3 m away: about 3 m wide
    m.update(observe(here, room_depth()), [wide])
    (knife,) = m.memory.of_type("Knife")
    assert (knife.extent[0] < 1.0) == on  # with the prior, only the points within reach of the middle (0.43 m)
    assert knife.position[0] == pytest.approx(0.0, abs=0.1)


@pytest.mark.parametrize("on", [True, False])
def test_the_mapper_caps_a_toaster_seen_with_the_wall_behind_it_but_not_a_counter(on):
    from contracts.observation import ModuleContext

    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, size_cap=on))
    m.reset(ModuleContext(CAMERA, True))
    wide = [_wall_detection(kind, rows, slice(30, 90))  # 60 pixels of wall 3 m away: about 3 m wide
            for kind, rows in (("Toaster", slice(40, 44)), ("CounterTop", slice(50, 54)))]
    m.update(observe(Pose(0.0, 0.0, 0.0, 0.0), room_depth()), wide)
    (toaster,), (counter,) = m.memory.of_type("Toaster"), m.memory.of_type("CounterTop")
    assert (toaster.extent[0] < 0.5) == on and counter.extent[0] > 2.0

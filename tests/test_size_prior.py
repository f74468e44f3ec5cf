"""The size prior: a detection whose points span more than an object of its type can is not
remembered (``mapping.size_prior``, the mapper's ``size_prior`` parameter)."""

from __future__ import annotations

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


def test_a_knife_box_of_half_a_metre_and_more_is_too_big():
    assert size_prior.too_big("Knife", (0.49, 0.77, 0.53))
    assert not size_prior.too_big("Knife", (0.30, 0.03, 0.05))
    assert not size_prior.too_big("CounterTop", (3.0, 0.1, 0.6))  # a type the table does not know


def test_a_missing_table_says_how_to_rebuild_it(tmp_path, monkeypatch):
    monkeypatch.setattr(size_prior, "SIZES_PATH", tmp_path / "object_sizes.json")
    size_prior.largest_sides.cache_clear()
    try:
        with pytest.raises(NesyError, match="python -m mapping.prior_build"):
            size_prior.too_big("Knife", (0.1, 0.1, 0.1))
    finally:
        size_prior.largest_sides.cache_clear()


@pytest.mark.parametrize("on", [True, False])
def test_the_mapper_leaves_out_a_detection_wider_than_its_type(on):
    from contracts.observation import ModuleContext

    m = SemanticMapper(SemanticMapper.Params(cell_size=0.1, map_size=12.0, stride=1, size_prior=on))
    m.reset(ModuleContext(CAMERA, True))
    here = Pose(0.0, 0.0, 0.0, 0.0)
    wide = _wall_detection("Knife", slice(40, 44), slice(30, 90))  # 60 pixels of wall 3 m away: about 3 m wide
    narrow = _wall_detection("Egg", slice(40, 43), slice(58, 61))
    m.update(observe(here, room_depth()), [wide, narrow])
    assert len(m.memory.of_type("Egg")) == 1
    assert len(m.memory.of_type("Knife")) == (0 if on else 1)

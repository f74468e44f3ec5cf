"""Tests for simulator.scenes: packaged floor plans, navigable grid, loader, rebuild."""

from pathlib import Path

import pytest

from contracts.errors import NesyError
from simulator.scenes import (
    GRID,
    FixedObject,
    Scene,
    UnknownSceneError,
    UnsupportedSceneError,
    _raw,
    all_scenes,
    cell_center,
    layout,
    load_scene,
    supported_scenes,
    to_cell,
)

DATA = Path("/work/shared/data")
PACKAGE_DATA = Path(__file__).resolve().parent.parent / "simulator" / "data"
UNSUPPORTED = {9, 29, 211, 215, 217, 221, 226, 228, 315, 325, 404, 421, 425}


def test_scene_lists():
    assert len(all_scenes()) == 120
    assert len(supported_scenes()) == 107
    assert {int(n[9:]) for n in all_scenes()} - {int(n[9:]) for n in supported_scenes()} \
        == UNSUPPORTED


def test_load_names_and_cache():
    scene = load_scene("FloorPlan1")
    assert isinstance(scene, Scene) and scene.name == "FloorPlan1" and scene.number == 1
    assert load_scene("floorplan1") is load_scene(1) is scene
    assert load_scene(1) is load_scene(1)
    assert scene.room_type == "kitchen"
    assert load_scene(201).room_type == "living_room"
    assert load_scene(301).room_type == "bedroom"
    assert load_scene(401).room_type == "bathroom"


def test_unknown_scene():
    for bad in ("FloorPlan99", 0, "Kitchen"):
        with pytest.raises(UnknownSceneError) as err:
            load_scene(bad)
        assert isinstance(err.value, NesyError)


@pytest.mark.parametrize("number", sorted(UNSUPPORTED))
def test_unsupported_scene_message(number):
    with pytest.raises(UnsupportedSceneError) as err:
        load_scene(number)
    msg = str(err.value)
    assert f"FloorPlan{number}" in msg and "receptacles" in msg and "107" in msg


def test_cell_helpers_round_trip():
    for cell in [(0, 0), (3, -7), (-12, 5), (20, 20)]:
        assert to_cell(*cell_center(cell)) == cell
    assert to_cell(0.26, -0.49) == (1, -2)
    assert cell_center((2, -3)) == (2 * GRID, -3 * GRID)


@pytest.mark.parametrize("name", supported_scenes())
def test_every_supported_scene(name):
    scene = load_scene(name)
    assert scene.recorded_reachable <= scene.navigable
    xmin, xmax, zmin, zmax = scene.bounds
    standing = [cell_center(c) for c in scene.recorded_reachable]
    # the grid is grown around the builder's boxes (the calibrated ones are drawn, not walked)
    built = [(tuple(o["position"]), tuple(o["size"]), o["type"]) for o in _raw()[name]["fixed_objects"].values()]
    blockers = [layout.clear_of(layout.footprint(pos, size), standing)
                for pos, size, kind in built if layout.blocks_floor(kind, pos, size)]
    for cell in scene.navigable - scene.recorded_reachable:
        x, z = cell_center(cell)
        assert xmin <= x <= xmax and zmin <= z <= zmax
        assert not any(layout.covers(r, x, z) for r in blockers), cell
    assert scene.fixed_objects and set(scene.object_types)
    for oid, obj in scene.fixed_objects.items():
        assert isinstance(obj, FixedObject) and obj.object_id == oid
        assert oid.split("|")[0] in (obj.object_type, "Sink", "Bathtub")
        assert all(s > 0 for s in obj.size)
    for switch, targets in scene.controls.items():
        kind = scene.fixed_objects[switch].object_type
        assert kind in ("StoveKnob", "Faucet", "LightSwitch")
        for t in targets:
            expected = {"StoveKnob": ("StoveBurner",), "Faucet": ("SinkBasin", "BathtubBasin")}
            assert scene.fixed_objects[t].object_type in expected[kind]


def test_controls_pair_knobs_one_to_one():
    scene = load_scene(1)
    knobs = {k: v for k, v in scene.controls.items() if k.startswith("StoveKnob")}
    assert len(knobs) == 4 and len({v for v in knobs.values()}) == 4
    faucets = [v for k, v in load_scene(1).controls.items() if k.startswith("Faucet")]
    assert all(len(v) == 1 for v in faucets)


def test_enclosed_holes_are_trusted():
    # FloorPlan1's kitchen island: the recorded cells enclose it; it stays blocked.
    scene = load_scene(1)
    assert to_cell(0.0, 0.0) not in scene.navigable


@pytest.mark.skipif(not (DATA / "floorplans.json.gz").exists(),
                    reason="shared data folder /work/shared/data is not available")
def test_rebuild_gives_committed_bytes(tmp_path):
    from simulator.scenes.build import build

    for path in build(DATA, tmp_path):
        assert path.read_bytes() == (PACKAGE_DATA / path.name).read_bytes(), path.name


def test_a_chair_recorded_at_its_seat_still_stands_on_the_floor():
    from simulator.scenes.layout import box_center

    assert box_center("Chair", (0.0, 0.56, 1.0), (0.5, 0.9, 0.5)) == pytest.approx((0.0, 0.45, 1.0))
    assert box_center("Chair", (0.0, 0.0, 1.0), (0.5, 0.9, 0.5)) == pytest.approx((0.0, 0.45, 1.0))
    chair = load_scene("FloorPlan11").fixed_objects["Chair|-02.42|+00.56|+00.41"]
    assert chair.position[1] - chair.size[1] / 2 == pytest.approx(0.0)

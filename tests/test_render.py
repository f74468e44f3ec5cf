"""Renderer: depth accuracy, instance masks and ids, hidden objects, camera conventions."""

from __future__ import annotations

import numpy as np
import pytest

from contracts.errors import NesyError
from simulator.render import CameraPose, Renderer, RoomGeometry, available
from simulator.render.palette import LOOKS
from simulator.render.synthetic import make_object as obj
from simulator.render.synthetic import open_room, synthetic_kitchen

requires_gl = pytest.mark.skipif(
    not available(),
    reason="no headless OpenGL (EGL) context: apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri",
)
pytestmark = requires_gl


@pytest.fixture(scope="module")
def renderer():
    r = Renderer(160, 160)
    yield r
    r.release()


@pytest.mark.parametrize("size", [(63, 100), (300, 901), (0, 0), (300.0, 300)])
def test_bad_sizes_are_refused(size):
    with pytest.raises(NesyError, match="from 64 to 900"):
        Renderer(*size)


def test_depth_of_a_box_face_straight_ahead(renderer):
    box = obj("Box", (0.0, 1.5, 3.5), (1.0, 1.0, 1.0))  # front face at z = 3.0
    f = renderer.render(open_room(), [box], CameraPose(0.0, 1.5, 1.0, 0.0, 0.0))
    mask = f.instance == 1
    assert mask[80, 80] and mask.sum() > 1000
    # linear depth along the view axis: constant across a fronto-parallel face
    assert np.abs(f.depth[mask] - 2.0).max() < 0.02
    assert f.depth.dtype == np.float32 and f.instance.dtype == np.int32 and f.rgb.dtype == np.uint8
    assert f.rgb.shape == (160, 160, 3) and f.depth.shape == f.instance.shape == (160, 160)


def test_depth_when_turned_and_on_the_floor(renderer):
    box = obj("Box", (4.0, 1.5, 2.0), (1.0, 1.0, 1.0))  # face at x = 3.5, camera at x = 1
    f = renderer.render(open_room(), [box], CameraPose(1.0, 1.5, 2.0, 90.0, 0.0))
    assert abs(f.depth[80, 80] - 2.5) < 0.02 and f.instance[80, 80] == 1
    # looking 30 degrees down from 1.5 m: the central ray meets the floor 3 m away
    f = renderer.render(open_room(), [], CameraPose(0.0, 1.5, 0.0, 0.0, 30.0))
    assert abs(float(f.depth[79:81, 79:81].mean()) - 3.0) < 0.02
    assert f.instance.max() == 0


def test_left_handed_conventions(renderer):
    apple = obj("Apple", (3.0, 0.5, 0.2), (0.3, 0.3, 0.3))  # at +x of the camera
    ahead = CameraPose(0.0, 1.5, 0.0, 0.0, 0.0)
    assert (renderer.render(open_room(), [apple], ahead).instance == 1).sum() == 0
    f = renderer.render(open_room(), [apple], CameraPose(0.0, 1.5, 0.0, 90.0, 0.0))
    rows, cols = np.nonzero(f.instance == 1)
    assert len(rows) > 0
    assert rows.mean() > 80  # below the camera height -> lower half of the image
    assert cols.mean() < 80  # z = +0.2 is to the left when facing +x
    # facing +z, +x is to the right
    g = renderer.render(open_room(), [obj("Apple", (0.5, 1.5, 3.0), (0.3, 0.3, 0.3))], ahead)
    assert np.nonzero(g.instance == 1)[1].mean() > 80


def test_looking_down_shows_the_floor_at_the_bottom_and_sky_above_walls(renderer):
    room = RoomGeometry(frozenset(), (-3.0, 3.0, -3.0, 3.0))
    down = renderer.render(room, [], CameraPose(0.0, 1.576, 0.0, 0.0, 60.0))
    assert (down.depth[-20:] > 0).all() and (down.depth[-20:] < 2.0).all()
    up = renderer.render(room, [], CameraPose(0.0, 1.576, 0.0, 0.0, -30.0))
    assert (up.depth[:5] == 0).all()  # no ceiling: nothing drawn above the walls
    assert (up.instance == 0).all()


def test_hidden_objects_never_appear(renderer):
    mug = obj("Mug", (0.0, 1.5, 1.0), (0.3, 0.3, 0.3), hidden=True)
    box = obj("Box", (0.0, 1.5, 3.0), (1.0, 1.0, 1.0))
    f = renderer.render(open_room(), [mug, box], CameraPose(0.0, 1.5, 0.0, 0.0, 0.0))
    assert 1 not in f.ids and 1 not in np.unique(f.instance)
    assert f.ids == {2: box.object_id} and f.object_at(0.5, 0.5) == box.object_id


@pytest.mark.parametrize(
    "states",
    [
        {},
        {"is_open": True, "is_toggled": True, "is_filled": True},
        {"is_dirty": True, "is_cooked": True, "is_sliced": True},
    ],
)
def test_every_type_is_visible_with_a_mask_and_a_real_id(renderer, states):
    types = sorted(LOOKS) + ["SomeUnknownType"]
    objects, cols = [], 12
    for n, t in enumerate(types):
        x, z = (n % cols - cols / 2) * 0.6 + 0.3, (n // cols - cols / 2) * 0.6 + 0.3
        objects.append(obj(t, (x, 0.15, z), (0.3, 0.3, 0.3), **states))
    r = Renderer(600, 600)
    try:
        f = r.render(open_room(), objects, CameraPose(0.0, 5.5, 0.0, 0.0, 90.0))  # straight down
    finally:
        r.release()
    visible = f.visible_ids()
    missing = [o.object_type for o in objects if o.object_id not in visible]
    assert not missing
    assert set(np.unique(f.instance)) - {0} <= set(f.ids)
    assert all(f.ids[k] == objects[k - 1].object_id for k in f.ids)


def test_kitchen_ids_map_to_real_objects_from_many_poses(renderer):
    room, objects = synthetic_kitchen(seed=3)
    by_id = {o.object_id: o for o in objects}
    seen: set[str] = set()
    for rot in (0, 90, 180, 270):
        for hor in (-30, 0, 30, 60):
            f = renderer.render(room, objects, CameraPose(2.5, 1.576, 1.5, rot, hor))
            for k in np.unique(f.instance):
                if k:
                    oid = f.ids[int(k)]
                    assert oid == objects[k - 1].object_id and not by_id[oid].hidden
                    seen.add(oid)
            assert f.mask(f.ids[max(f.ids)]).shape == f.instance.shape
    assert len(seen) > 60


def test_renders_are_deterministic(renderer):
    room, objects = synthetic_kitchen(seed=1)
    cam = CameraPose(3.0, 1.576, 1.25, 0.0, 30.0)
    a = renderer.render(room, objects, cam)
    renderer.render(room, objects[:10], CameraPose(1.0, 1.576, 1.0, 90.0, 0.0))
    b = renderer.render(room, objects, cam)
    other = Renderer(160, 160)
    c = other.render(room, objects, cam)
    other.release()
    for x in (b, c):
        assert np.array_equal(a.rgb, x.rgb) and np.array_equal(a.depth, x.depth)
        assert np.array_equal(a.instance, x.instance) and a.ids == x.ids


def test_states_change_the_look(renderer):
    cam = CameraPose(0.0, 1.2, 0.0, 0.0, 45.0)
    for t, state in (
        ("StoveBurner", "is_toggled"),
        ("Fridge", "is_open"),
        ("Mug", "is_dirty"),
        ("Bowl", "is_filled"),
        ("Potato", "is_cooked"),
        ("Apple", "is_sliced"),
    ):
        size = (0.8, 1.8, 0.8) if t == "Fridge" else (0.3, 0.2, 0.3)
        plain = obj(t, (0.0, size[1] / 2, 1.0), size)
        changed = obj(t, (0.0, size[1] / 2, 1.0), size, **{state: True})
        a = renderer.render(open_room(), [plain], cam).rgb.astype(int)
        b = renderer.render(open_room(), [changed], cam).rgb.astype(int)
        assert np.abs(a - b).sum(axis=2).astype(bool).sum() > 50, (t, state)

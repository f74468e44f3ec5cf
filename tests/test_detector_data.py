"""Detector data: the class list, COCO round trips, split hygiene and determinism of the
rendered sets (``perception.data_gen``, ``perception.coco``). Needs EGL, as the render tests."""

from __future__ import annotations

import json

import numpy as np
import pytest

from contracts.errors import NesyError
from contracts.perception import mask_box
from perception.classes import CLASSES, SLICED_PIECES
from perception.coco import (
    CocoFrames,
    InstanceMask,
    annotate,
    decode_mask,
    read_annotations,
    write_annotations,
)
from perception.data_gen import DataSpec, generate, plan_chunks
from simulator.episodes.splits import TEST_UNSEEN, VALID_UNSEEN, split_floor_plans
from simulator.scenes import load_scene, supported_scenes


def test_classes_are_the_floor_plans_types_and_sliced_pieces():
    types = set(SLICED_PIECES)
    for name in supported_scenes():
        types |= set(load_scene(name).object_types)
    assert CLASSES == tuple(sorted(types))


def test_coco_annotations_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    masks = []
    for k in range(5):
        mask = np.zeros((40, 50), bool)
        y, x = rng.integers(0, 30), rng.integers(0, 40)
        mask[y:y + rng.integers(1, 10), x:x + rng.integers(1, 10)] = True
        mask[rng.integers(0, 40), rng.integers(0, 50)] = True  # a stray pixel: not a box
        masks.append(InstanceMask(CLASSES[k * 20], mask))
    anns = annotate(7, masks, first_id=1)
    write_annotations(tmp_path, [{"id": 7, "file_name": "x.png", "width": 50, "height": 40}], anns, {"split": "x"})
    back = read_annotations(tmp_path)
    assert [c["name"] for c in back["categories"]] == list(CLASSES)
    for inst, ann in zip(masks, back["annotations"], strict=True):
        decoded = decode_mask(ann["segmentation"])
        assert np.array_equal(decoded, inst.mask)
        assert CLASSES[ann["category_id"] - 1] == inst.object_type
        x0, y0, x1, y1 = mask_box(decoded)
        assert ann["bbox"] == [x0, y0, x1 - x0, y1 - y0] and ann["area"] == int(decoded.sum())


def test_a_rendered_set_is_valid_coco_from_train_floor_plans_and_seeded(tmp_path):
    from pycocotools.coco import COCO

    spec = DataSpec("train", images=6, seed=3, frames_per_start=3)
    summary = generate(spec, tmp_path / "a", progress=False)
    assert summary["images"] == 6 and summary["annotations"] > 0
    data = read_annotations(tmp_path / "a")
    assert set(data["info"]["floor_plans"]) <= set(split_floor_plans("train"))
    assert not set(data["info"]["floor_plans"]) & set(VALID_UNSEEN + TEST_UNSEEN)
    coco = COCO(str(tmp_path / "a" / "annotations.json"))
    assert len(coco.getImgIds()) == 6
    frames = CocoFrames(tmp_path / "a")
    image, target = frames.item(0)
    assert image.shape == (3, 300, 300) and target["masks"].shape[1:] == (300, 300)
    for ann in data["annotations"]:
        mask = decode_mask(ann["segmentation"])
        assert mask.sum() == ann["area"] >= spec.min_pixels
    flipped_image, flipped = frames.item(0, flip=True)
    assert np.array_equal(flipped["masks"].numpy(), target["masks"].numpy()[:, :, ::-1])
    assert np.allclose(flipped["boxes"][:, [0, 2]].numpy(), 300 - target["boxes"][:, [2, 0]].numpy())
    generate(spec, tmp_path / "b", progress=False)
    again = json.loads((tmp_path / "b" / "annotations.json").read_text())
    assert again["annotations"] == data["annotations"] and again["images"] == data["images"]
    assert (tmp_path / "a" / "images" / "0000000.png").read_bytes() == (tmp_path / "b" / "images" / "0000000.png").read_bytes()


def test_validation_sets_use_valid_unseen_floor_plans_only():
    chunks = plan_chunks(DataSpec("valid_unseen", images=40, seed=0))
    assert {c.scene for c in chunks} <= set(VALID_UNSEEN)
    assert sum(c.frames for c in chunks) == 40
    with pytest.raises(NesyError, match="split must be one of"):
        plan_chunks(DataSpec("test_unseen", images=4))


def test_training_refuses_a_set_from_held_out_floor_plans(tmp_path):
    from perception.train import check_training_set

    generate(DataSpec("valid_unseen", images=2, seed=0), tmp_path, progress=False)
    with pytest.raises(NesyError, match="train floor plans only"):
        check_training_set(tmp_path)


def test_close_ups_face_a_pickupable_object_from_where_a_follower_picks_it_up():
    """``p_close_up=1``: every pose stands 0.5-1.25 m from a visible pickupable object, which
    lies within 20 degrees of the heading (well inside a 60-degree view); the types come up
    about equally, so small rare ones (knives) are not drowned by the many mugs and apples."""
    import random
    from collections import Counter

    from perception.data_gen import sample_pose
    from simulator.scenes import to_cell
    from simulator.spawn import random_start
    from simulator.start_state import build_world

    world = build_world(random_start("FloorPlan1", 0))
    rng, kinds = random.Random(0), Counter()
    for _ in range(60):
        pose = sample_pose(world, rng, p_close_up=1.0)
        x, z, rotation, horizon = pose
        assert to_cell(x, z) in world.scene.navigable and rotation in (0, 90, 180, 270) and -30 <= horizon <= 60
        seen = _faced(world, pose)
        assert seen
        kinds.update(seen)
    assert len(kinds) >= 0.6 * len({o.object_type for o in world.objects.values() if o.pickupable})


def test_close_ups_of_chosen_types_face_one_of_them_where_the_floor_plan_has_any():
    """``close_up_types`` (``--close-up-types``): in a kitchen every close-up faces a knife or
    a fork within 1.25 m; in a bathroom, which has neither, close-ups fall back to any type."""
    import random

    from perception.data_gen import sample_pose
    from simulator.spawn import random_start
    from simulator.start_state import build_world

    kitchen, bathroom = build_world(random_start("FloorPlan1", 0)), build_world(random_start("FloorPlan401", 0))
    rng = random.Random(0)
    for _ in range(30):
        assert _faced(kitchen, sample_pose(kitchen, rng, 1.0, ("Knife", "Fork"))) & {"Knife", "Fork"}
    assert all(_faced(bathroom, sample_pose(bathroom, rng, 1.0, ("Knife", "Fork"))) for _ in range(10))


def _faced(world, pose) -> set[str]:
    """The types of the pickupable objects 0.5-1.25 m from the pose within 20 degrees of its heading."""
    import math

    x, z, rotation, _ = pose
    facing = (math.sin(math.radians(rotation)), math.cos(math.radians(rotation)))
    return {o.object_type for o in world.objects.values()
            if o.pickupable and o.held_by is None and not world.is_hidden(o.object_id)
            and 0.5 <= math.dist((x, z), (o.position[0], o.position[2])) <= 1.25
            and (o.position[0] - x) * facing[0] + (o.position[2] - z) * facing[1]
            >= math.cos(math.radians(20)) * math.dist((x, z), (o.position[0], o.position[2]))}

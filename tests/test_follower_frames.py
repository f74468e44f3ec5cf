"""The Follower's own frames as a detector set (``agent.follower_frames``), and training
on several sets at once (``perception.coco.FrameSets``)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from agent.follower_frames import FollowerFrameSpec, chosen, generate_follower_frames
from contracts.errors import NesyError
from perception.classes import CLASSES
from perception.coco import CocoFrames, FrameSets, decode_mask, read_annotations
from perception.data_gen import floor_plans


@pytest.fixture(scope="module")
def follower_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("follower")
    spec = FollowerFrameSpec(2, every=2, max_steps=12)
    return spec, out, generate_follower_frames(spec, out, progress=False)


def test_episodes_are_spread_over_tatc_train_in_train_floor_plans():
    picked = chosen(FollowerFrameSpec(12))
    assert len({e.episode_id for e in picked}) == 12 and len({e.task_type for e in picked}) >= 6
    assert {e.floor_plan for e in picked} <= set(floor_plans("train"))
    with pytest.raises(NesyError, match="episode count must be"):
        chosen(FollowerFrameSpec(0))
    valid = chosen(FollowerFrameSpec(8, split="valid_unseen"))  # to measure on: valid_unseen's floor plans
    assert {e.floor_plan for e in valid} <= set(floor_plans("valid_unseen"))


def test_the_followers_frames_are_a_coco_set_of_exact_masks(follower_set):
    spec, out, summary = follower_set
    data = read_annotations(out)
    assert summary["episodes"] == 2 and summary["images"] == len(data["images"]) > 2
    assert data["info"]["split"] == "train" and set(data["info"]["floor_plans"]) <= set(floor_plans("train"))
    assert [im["id"] for im in data["images"]] == list(range(1, len(data["images"]) + 1))
    assert len({a["id"] for a in data["annotations"]}) == len(data["annotations"]) == summary["annotations"]
    frames = CocoFrames(out)
    steps = [int(im["file_name"].rsplit("_", 1)[1][:4]) for im in frames.images]
    assert all((s - 1) % spec.every == 0 for s in steps)  # every 2nd frame the Follower acted on
    for index in range(len(frames)):
        rgb = frames.rgb(index)
        for ann in frames.by_image[frames.images[index]["id"]]:
            mask = decode_mask(ann["segmentation"])
            assert mask.shape == rgb.shape[:2] and mask.sum() == ann["area"] >= spec.min_pixels
            assert CLASSES[ann["category_id"] - 1]
    kept = [frames.rgb(i).tobytes() for i in range(len(frames))]
    assert len(set(kept)) == len(kept)  # a frame seen again is not kept twice


def test_an_interrupted_set_resumes_from_its_parts(follower_set, tmp_path):
    spec, out, summary = follower_set
    part = json.loads(next((out / "parts").glob("*.json")).read_text())
    again = generate_follower_frames(spec, out, progress=False)  # every part there: nothing run again
    assert again == summary and part["images"]
    more = generate_follower_frames(replace(spec, episodes=3), out, progress=False)  # more episodes: one more run
    assert more["episodes"] == 3 and more["images"] >= summary["images"]
    with pytest.raises(NesyError, match="other settings"):
        generate_follower_frames(replace(spec, every=3), out, progress=False)


def test_several_sets_train_as_one(follower_set):
    _, out, _ = follower_set
    one = CocoFrames(out)
    both = FrameSets([one, one])
    assert len(both) == 2 * len(one)
    image, target = both.item(len(one) + 1)
    expected_image, expected = one.item(1)
    assert np.array_equal(image.numpy(), expected_image.numpy())
    assert np.array_equal(target["labels"].numpy(), expected["labels"].numpy())

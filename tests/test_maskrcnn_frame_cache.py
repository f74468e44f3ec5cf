"""``maskrcnn.detect`` runs the network only for a frame (and score floor) it has not seen
lately (a question, a refused Stop, a failed action, a turn undone show a frame again), and
what it reuses is what the network would have said."""

from __future__ import annotations

import numpy as np
from test_maskrcnn import reference_frame  # noqa: F401  (pytest fixture)

from contracts.geometry import CameraIntrinsics, Pose
from contracts.observation import FOLLOWER, ModuleContext, Observation
from perception.maskrcnn import MaskRCNNPerception

CONTEXT = ModuleContext(CameraIntrinsics(300, 300, 90.0, 0.9), True)


def observation(rgb: np.ndarray) -> Observation:
    return Observation(FOLLOWER, Pose(0.0, 0.0, 0.0, 0.0), False, None, True, "", [], rgb, None)


def test_the_same_frame_is_detected_once_and_a_changed_frame_or_floor_again():
    module = MaskRCNNPerception()
    module.reset(CONTEXT)
    calls = []
    predict = module.predict
    module.predict = lambda rgb, floor, masked: calls.append(floor) or predict(rgb, floor=floor, masked=masked)
    rgb = np.random.default_rng(0).integers(0, 256, (300, 300, 3), dtype=np.uint8)
    first = module.detect(observation(rgb))
    again = module.detect(observation(rgb.copy()))
    assert len(calls) == 1
    assert [(d.object_type, d.box, d.score) for d in again] == [(d.object_type, d.box, d.score) for d in first]
    rgb[0, 0] ^= 1  # one pixel changed: a new frame
    module.detect(observation(rgb))
    assert len(calls) == 2
    module.attend(frozenset({"Apple"}))  # a lower floor for an attended type: the network again
    module.detect(observation(rgb))
    assert len(calls) == 3 and calls[-1] < calls[0]
    module.attend(frozenset({"Apple", "Mug"}))  # the same floor, other boxes masked: the network again
    module.detect(observation(rgb))
    module.detect(observation(rgb))
    assert len(calls) == 4
    module.reset(CONTEXT)  # a new episode starts afresh
    module.detect(observation(rgb))
    assert len(calls) == 5


def frames(reference: np.ndarray) -> list[np.ndarray]:
    """The reference kitchen view and two other views of it (mirrored)."""
    return [reference, np.ascontiguousarray(reference[:, ::-1]), np.ascontiguousarray(reference[::-1])]


def test_a_frame_seen_a_few_frames_back_is_not_detected_again_and_gives_what_the_network_gives(reference_frame):  # noqa: F811
    module = MaskRCNNPerception()
    module.reset(CONTEXT)
    a, b, c = frames(reference_frame[0])
    calls = []
    predict = module.predict
    module.predict = lambda rgb, floor, masked: calls.append(floor) or predict(rgb, floor=floor, masked=masked)
    first = module.detect(observation(a))
    module.detect(observation(b))  # a turn ...
    module.detect(observation(c))
    again = module.detect(observation(a.copy()))  # ... undone: the first frame again
    assert len(calls) == 3 and module.frames.hits == 1
    fresh = MaskRCNNPerception(MaskRCNNPerception.Params(frame_cache=0))
    fresh.reset(CONTEXT)
    network = fresh.detect(observation(a))
    assert len(network) >= 3  # a real view: masks to compare
    for cached in (first, again):
        assert [(d.object_type, d.box, d.score) for d in cached] == [(d.object_type, d.box, d.score) for d in network]
        assert all(np.array_equal(x.mask, y.mask) for x, y in zip(cached, network, strict=True))


def test_the_least_recently_seen_frame_leaves_a_full_cache_first(reference_frame):  # noqa: F811
    module = MaskRCNNPerception(MaskRCNNPerception.Params(frame_cache=2))
    module.reset(CONTEXT)
    a, b, c = frames(reference_frame[0])
    calls = []
    predict = module.predict
    module.predict = lambda rgb, floor, masked: calls.append(floor) or predict(rgb, floor=floor, masked=masked)
    for rgb in (a, b, a, c):  # a seen again just before c: b is the one to go
        module.detect(observation(rgb))
    assert len(calls) == 3 and len(module.frames) == 2
    module.detect(observation(a))
    assert len(calls) == 3
    module.detect(observation(b))
    assert len(calls) == 4


def test_packed_masks_come_back_as_they_went_in():
    from perception.frame_cache import CachedFrame

    rng = np.random.default_rng(2)
    out = {"boxes": rng.random((3, 4)), "labels": np.array([1, 2, 3]), "scores": rng.random(3),
           "masks": rng.random((3, 17, 23)) > 0.5}
    back = CachedFrame.of(out).output()
    assert np.array_equal(back["masks"], out["masks"]) and back["masks"].dtype == bool
    empty = CachedFrame.of({"boxes": np.zeros((0, 4)), "labels": np.zeros(0, int), "scores": np.zeros(0),
                            "masks": np.zeros((0, 300, 300), bool)}).output()
    assert empty["masks"].shape == (0, 300, 300)

"""``maskrcnn.detect`` runs the network again only when the frame or the score floor changed
(a question, a refused Stop or a failed action leaves the view as it was), and what it
reuses is what the network would have said."""

from __future__ import annotations

import numpy as np

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
    module.predict = lambda rgb, floor: calls.append(floor) or predict(rgb, floor=floor)
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
    module.reset(CONTEXT)  # a new episode starts afresh
    module.detect(observation(rgb))
    assert len(calls) == 4

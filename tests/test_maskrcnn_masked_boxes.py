"""``maskrcnn.predict`` with a ``MaskedBoxes`` rule: only the boxes ``detect`` can keep get
masks, and those are the masks it gives without the rule."""

from __future__ import annotations

import numpy as np
from test_maskrcnn import reference_frame  # noqa: F401  (pytest fixture)

from perception.maskrcnn import MaskedBoxes, MaskRCNNPerception


def test_only_the_boxes_detect_can_keep_get_masks_and_they_are_the_full_ones(reference_frame):  # noqa: F811
    """``MaskedBoxes``: boxes over the score threshold, and focus types' boxes over the focus
    threshold, get the masks ``predict`` gives without the rule; the other boxes are kept
    (the outranking rules read them) with empty masks."""
    rgb, _ = reference_frame
    module = MaskRCNNPerception()
    floor = module.params.focus_threshold
    full = module.predict(rgb, floor=floor)
    low = full["scores"] < module.params.score_threshold
    assert low.sum() >= 2, "the reference frame has too few boxes between the two thresholds"
    focus_label = int(full["labels"][low][0])
    rule = MaskedBoxes(module.params.score_threshold, frozenset({focus_label}), floor)
    got = module.predict(rgb, floor=floor, masked=rule)
    wanted = ~low | (full["labels"] == focus_label)
    assert np.array_equal(got["labels"], full["labels"]) and np.allclose(got["boxes"], full["boxes"])
    assert np.abs(got["masks"][wanted] - full["masks"][wanted]).max() < 1e-4
    assert not got["masks"][~wanted].any() and (~wanted).any()

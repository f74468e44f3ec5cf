"""Mask R-CNN masks snapped to the frame's edges.

The mask head predicts a 28 x 28 mask per box from stride-8 features; pasted into a box of
200 x 150 pixels its border is a blurred band several pixels wide, so masks that find the
right object miss at the stricter IoUs of COCO's mAP@[.5:.95]. Our frames are rendered,
with crisp edges between objects: a guided filter (He, Sun and Tang, 2013; OpenCV's
``ximgproc``) with the frame's grey levels as guide carries each mask's probabilities up to
the nearest image edges before they are thresholded. The radius and the regulariser were
chosen on tuning frames of train floor plans (docs/perception.md); ``radius`` 0 leaves the
masks as pasted. No simulator imports here.
"""

from __future__ import annotations

import numpy as np


def snapped_masks(masks: np.ndarray, rgb: np.ndarray, radius: int, eps: float) -> np.ndarray:
    """``masks`` (N x H x W probabilities over the frame ``rgb``, H x W x 3 uint8), each
    filtered by a guided filter of ``radius`` pixels and regulariser ``eps`` (for grey levels
    in [0, 1]) guided by the frame's grey levels; unchanged when ``radius`` is 0. Each mask is
    filtered over its non-zero extent widened by ``4 * radius`` (the filter's output at a
    pixel reads the pixels within ``2 * radius``, and is 0 where they are all 0), which gives
    the whole frame's result at a fraction of the cost."""
    import cv2

    if radius <= 0 or not len(masks):
        return masks
    guide = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    snapped = np.zeros(masks.shape, np.float32)
    height, width = guide.shape
    for mask, out in zip(masks, snapped, strict=True):
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        if not len(rows):
            continue
        y0, y1 = max(rows[0] - 4 * radius, 0), min(rows[-1] + 4 * radius + 1, height)
        x0, x1 = max(cols[0] - 4 * radius, 0), min(cols[-1] + 4 * radius + 1, width)
        snap = cv2.ximgproc.createGuidedFilter(guide[y0:y1, x0:x1], radius, eps)
        out[y0:y1, x0:x1] = snap.filter(np.ascontiguousarray(mask[y0:y1, x0:x1], dtype=np.float32))
    return snapped

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
    in [0, 1]) guided by the frame's grey levels; unchanged when ``radius`` is 0."""
    import cv2

    if radius <= 0 or not len(masks):
        return masks
    guide = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    snap = cv2.ximgproc.createGuidedFilter(guide, radius, eps)
    return np.stack([snap.filter(np.ascontiguousarray(mask, dtype=np.float32)) for mask in masks])

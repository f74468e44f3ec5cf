"""What an interaction changed in the frame: did a pickup take the target, did a put land on it?

The camera does not move when the Follower picks up or puts down, so the frames before and
after differ only where something went or came (``changed``: colour or depth). A pickup whose
changed pixels lie mostly off the detections of the target's kind took a neighbour
(``took_another``: a click resolves to the
smallest thing near it, and a knife beside a far bread slice went into the microwave as the
toast, TATC valid_unseen 0217). A put whose new pixels lie mostly off the receptacle's
detection landed on another (``landed_off``: a glass bottle in front of the plate took seven
puts meant for the plate, which fell to the counter, TATC valid_unseen 0123); ``where_landed``
is the pixel to take it back by. Without frames (symbolic runs) nothing is doubted.
"""

from __future__ import annotations

import cv2
import numpy as np

from contracts.observation import Observation
from contracts.perception import Detection
from planner.clicking import CLICK_PATCH, same_kind

OWN_SHARE = 0.5  # of the pixels a pickup changed: fewer in the target's kind's masks and it took another thing
LANDED_SHARE = 0.3  # of the new pixels: fewer on the receptacle's (grown) mask and the put landed off it
COLOUR_CHANGE = 24  # of 255, in any channel
DEPTH_CHANGE = 0.01  # metres
MIN_COMPARED = 12  # pixels of a mask (or of new pixels) below which nothing is judged


def changed(before: Observation, after: Observation) -> np.ndarray | None:
    """H x W bool: pixels whose colour or depth changed (None without two frames alike)."""
    if before.rgb is None or after.rgb is None or before.rgb.shape != after.rgb.shape:
        return None
    out = (np.abs(before.rgb.astype(np.int16) - after.rgb.astype(np.int16)) > COLOUR_CHANGE).any(axis=-1)
    if before.depth is not None and after.depth is not None and before.depth.shape == out.shape:
        out |= np.abs(before.depth - after.depth) > DEPTH_CHANGE
    return out


def took_another(before: Observation, after: Observation, target: Detection, detections: list[Detection]) -> bool:
    """Did a pickup clicked in ``target``'s mask take a thing that showed elsewhere: fewer than
    ``OWN_SHARE`` of the pixels that changed lie in the masks of the target's kind? (A twin
    taken instead, the slice beside the one meant, is as good: TATC valid_unseen 0267; a slice
    taken from a row leaves the row's mask mostly as it was, but what changed lies in it.)"""
    diff = changed(before, after)
    if diff is None or diff.sum() < MIN_COMPARED:
        return False
    kin = np.logical_or.reduce([d.mask for d in detections if d is target or same_kind(d.object_type, target.object_type)]
                               + [target.mask])
    return float(kin[diff].mean()) < OWN_SHARE


def landed_off(before: Observation, after: Observation, receptacle: Detection) -> np.ndarray | None:
    """The new pixels of a put (H x W bool) when most of its foot (the lowest new pixel of
    each column: what stands on a plate rises above the plate's pixels) lies off
    ``receptacle``'s mask grown by ``CLICK_PATCH``; None when it landed on it or nothing can
    be told."""
    diff = changed(before, after)
    if diff is None or diff.sum() < MIN_COMPARED:
        return None
    radius = int(round(CLICK_PATCH * diff.shape[1]))
    grown = cv2.dilate(receptacle.mask.astype(np.uint8), np.ones((2 * radius + 1,) * 2, np.uint8)).astype(bool)
    cols = np.flatnonzero(diff.any(axis=0))
    rows = diff.shape[0] - 1 - np.argmax(diff[::-1, cols], axis=0)  # the lowest new pixel of each column
    return diff if float(grown[rows, cols].mean()) < LANDED_SHARE else None


def where_landed(new: np.ndarray) -> tuple[float, float]:
    """Relative (x, y) of the pixel deepest inside the largest blob of ``new`` pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(new.astype(np.uint8), connectivity=8)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) if count > 1 else 0
    blob = (labels == largest).astype(np.uint8)
    depth = cv2.distanceTransform(np.pad(blob, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    r, c = np.unravel_index(int(np.argmax(depth)), depth.shape)
    h, w = new.shape
    return (c + 0.5) / w, (r + 0.5) / h

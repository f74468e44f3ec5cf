"""What an interaction changed in the frame: did a pickup take the target, did a put land on it?

The camera does not move when the Follower picks up or puts down, so the frames before and
after differ only where something went or came (``contracts.observation.frame_changes``). A pickup whose
changed pixels lie mostly in a detection of another kind took that neighbour (``took_another``:
a click resolves to the smallest thing near it; a "knife" beside a tomato took the tomato, TATC
valid_unseen 0123). A put whose new pixels lie mostly off the receptacle's
detection landed on another (``landed_off``: a glass bottle in front of the plate took seven
puts meant for the plate, which fell to the counter, TATC valid_unseen 0123); ``where_landed``
is the pixel to take it back by. Without frames (symbolic runs) nothing is doubted.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from contracts.observation import Observation, frame_changes
from contracts.perception import Detection
from planner import knowledge
from planner.clicking import CLICK_PATCH, same_kind

OWN_SHARE = 0.5  # of the pixels a pickup changed: this many in a detection of another kind and it took that
MASK_SHARE = 0.5  # a receptacle's mask smaller than this share of a put's new pixels tells nothing
LANDED_SHARE = 0.3  # of the new pixels: fewer on the receptacle's (grown) mask and the put landed off it
MIN_COMPARED = 12  # pixels of a mask (or of new pixels) below which nothing is judged


@dataclass(frozen=True)
class ClickView:
    """What a pickup or put clicked in: the frame, the target's detection, all of the frame's,
    and the receptacle the target was believed in (where a thing taken instead goes back)."""

    before: Observation
    target: Detection
    detections: list[Detection]
    container: str | None


def took_another(before: Observation, after: Observation, target: Detection, detections: list[Detection]) -> bool:
    """Did a pickup clicked in ``target``'s mask take a thing of another kind: do most of the
    pixels that changed (``OWN_SHARE``) lie in one detection of another kind, more of them than
    in the masks of the target's kind grown by ``CLICK_PATCH``? (One that can be picked up: a
    counter's mask takes in what stands on it.) Nothing is doubted when no
    detection tells what went (a slice beside the one meant went, whose detection was a sliver
    of it: TATC valid_unseen 0123)."""
    diff = frame_changes(before, after)
    if diff is None or diff.sum() < MIN_COMPARED:
        return False
    kin = _grown(np.logical_or.reduce([d.mask for d in detections if _kin(d.object_type, target.object_type)]
                                      + [target.mask]))
    own = float(kin[diff].mean())
    other = max((float(d.mask[diff].mean()) for d in detections if not _kin(d.object_type, target.object_type)
                 and knowledge.affords(d.object_type, "pickupable")), default=0.0)
    return other >= OWN_SHARE and other > own


def landed_off(before: Observation, after: Observation, receptacle: Detection,
               over: np.ndarray | None = None) -> np.ndarray | None:
    """The new pixels of a put (H x W bool) when most of its foot (the lowest new pixel of
    each column: what stands on a plate rises above the plate's pixels) lies off
    ``receptacle``'s mask grown by ``CLICK_PATCH`` and off ``over`` (H x W bool: the pixels
    whose point lies over the receptacle's believed footprint, ``over_footprint``: a plate
    hidden but for a sliver by a lettuce on it showed none of the slice put beside the
    lettuce, taken back and put again 15 times, TATC valid_unseen 0241); None when it landed
    on it or nothing can be told (a receptacle's mask smaller than ``MASK_SHARE`` of the new
    pixels: a plate seen as a sliver behind a tomato, TATC valid_unseen 0123)."""
    diff = frame_changes(before, after)
    if diff is None or diff.sum() < MIN_COMPARED or receptacle.mask.sum() < MASK_SHARE * diff.sum():
        return None
    on = _grown(receptacle.mask)
    if over is not None:
        on |= over
    cols = np.flatnonzero(diff.any(axis=0))
    rows = diff.shape[0] - 1 - np.argmax(diff[::-1, cols], axis=0)  # the lowest new pixel of each column
    return diff if float(on[rows, cols].mean()) < LANDED_SHARE else None


def over_footprint(points: np.ndarray, position: tuple[float, float, float],
                   extent: tuple[float, float, float]) -> np.ndarray:
    """H x W bool: the pixels whose point (``depth_to_points``; NaN: none) lies over the
    horizontal footprint of a box (centre ``position``, size ``extent``) and no lower than
    its bottom."""
    half = np.array(extent) / 2
    with np.errstate(invalid="ignore"):
        return ((np.abs(points[..., 0] - position[0]) <= half[0]) & (np.abs(points[..., 2] - position[2]) <= half[2])
                & (points[..., 1] >= position[1] - half[1]))


def _kin(detected: str, meant: str) -> bool:
    """The same kind, or a whole and its pieces (a detector calls a slice "Bread" at times)."""
    return same_kind(detected, meant) or detected.removesuffix("Sliced") == meant.removesuffix("Sliced")


def _grown(mask: np.ndarray) -> np.ndarray:
    radius = int(round(CLICK_PATCH * mask.shape[1]))
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * radius + 1,) * 2, np.uint8)).astype(bool)


def where_landed(new: np.ndarray) -> tuple[float, float]:
    """Relative (x, y) of the pixel deepest inside the largest blob of ``new`` pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(new.astype(np.uint8), connectivity=8)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])) if count > 1 else 0
    blob = (labels == largest).astype(np.uint8)
    depth = cv2.distanceTransform(np.pad(blob, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    r, c = np.unravel_index(int(np.argmax(depth)), depth.shape)
    h, w = new.shape
    return (c + 0.5) / w, (r + 0.5) / h

"""Double-door cabinets: two Cabinet objects whose boxes nearly coincide are the two doors
of one cabinet, side by side.

AI2-THOR's floor plans record a double-door cabinet as two Cabinet objects whose pivots lie
a few centimetres apart near the cabinet's middle (68 such pairs in the supported floor
plans). The scene builder gives each the type's one box at its pivot, so the two boxes
coincide: the closed twin's door is drawn over the open one's, and what lies inside stays
hidden from every pose. In ALFRED's train trajectories, every one of the 87 objects that an
expert took out of such a pair after opening one of its doors lay on that door's side of the
pair's middle, as its pivot is (a median 0.25 m out: half a box's width). So each twin's
box moves out from the pair's middle along the cabinet's front by half its own width, on
the side of its pivot: the two boxes meet at the middle, one door each.

Pairs whose boxes were fitted apart already (``simulator.calibration``) no longer coincide
and are left alone.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

TWIN_TYPES = ("Cabinet",)
MIN_OVERLAP = 0.5  # on each axis, of the smaller box's extent: the boxes nearly coincide

Box = tuple[list[float], list[float]]  # centre, full size (x, y, z)


def _overlap(a: Box, b: Box, axis: int) -> float:
    (ca, sa), (cb, sb) = a, b
    lo = max(ca[axis] - sa[axis] / 2, cb[axis] - sb[axis] / 2)
    hi = min(ca[axis] + sa[axis] / 2, cb[axis] + sb[axis] / 2)
    return max(hi - lo, 0.0) / max(min(sa[axis], sb[axis]), 1e-6)


def _lateral_axis(box: Box, pose: Any) -> int:
    """The horizontal axis along the cabinet's front: across the direction from the cabinet
    to where the agent stands to open it, else along its wider side."""
    centre, size = box
    if pose is not None:
        dx, dz = pose[0] - centre[0], pose[1] - centre[2]
        if abs(dx) > 1e-6 or abs(dz) > 1e-6:
            return 2 if abs(dx) >= abs(dz) else 0
    return 0 if size[0] >= size[2] else 2


def twin_pairs(boxes: dict[str, Box], types: dict[str, str]) -> list[tuple[str, str]]:
    """Pairs of same-type twin-prone objects whose boxes overlap by ``MIN_OVERLAP`` on every
    axis; each object in at most one pair (the most overlapping first)."""
    candidates = []
    for a, b in combinations(sorted(boxes), 2):
        if types[a] != types[b] or types[a] not in TWIN_TYPES:
            continue
        overlap = min(_overlap(boxes[a], boxes[b], axis) for axis in range(3))
        if overlap >= MIN_OVERLAP:
            candidates.append((-overlap, a, b))
    used: set[str] = set()
    pairs = []
    for _, a, b in sorted(candidates):
        if a not in used and b not in used:
            used.update((a, b))
            pairs.append((a, b))
    return pairs


def spread_twins(boxes: dict[str, Box], types: dict[str, str], pivots: dict[str, tuple[float, float, float]],
                 poses: dict[str, Any]) -> dict[str, Box]:
    """The boxes with every twin pair moved apart (see the module docstring); other boxes
    unchanged. ``pivots``: AI2-THOR's recorded position of each object (its id's);
    ``poses``: its interaction pose (x, z, ...) or None."""
    out = dict(boxes)
    for a, b in twin_pairs(boxes, types):
        axis = _lateral_axis(boxes[a], poses.get(a))
        middle = (boxes[a][0][axis] + boxes[b][0][axis]) / 2
        # the side of each pivot along the front; equal pivots: by id, for determinism
        first = a if (pivots[a][axis], a) < (pivots[b][axis], b) else b
        beside = [box for k, box in boxes.items() if types[k] == types[a] and k not in (a, b)]
        for oid, side in ((first, -1.0), (b if first == a else a, 1.0)):
            width = _width(beside, boxes[oid], axis, middle, side)
            centre, size = list(boxes[oid][0]), list(boxes[oid][1])
            centre[axis], size[axis] = round(middle + side * width / 2, 4), round(width, 4)
            out[oid] = (centre, size)
    return out


def _width(beside: list[Box], box: Box, axis: int, middle: float, side: float) -> float:
    """How far the twin reaches out from the pair's middle along ``axis`` on ``side``: its
    own width, but at most half-way to the centre of any box ``beside`` it on that side
    (overlapping it on the other two axes): a twin does not grow into the next cabinet along
    the counter, whose true width the builder's one size per type does not know."""
    width = box[1][axis]
    for other in beside:
        gap = side * (other[0][axis] - middle)
        if gap > 0 and all(_overlap(box, other, k) > 0 for k in range(3) if k != axis):
            width = min(width, gap / 2)
    return width

"""The Belief drawn as an image, for looking at what the mapper built (one per step).

``draw_belief`` paints the grid (unknown dark grey, free light, obstacle black, explored
but unclassified mid grey), the class evidence (one colour per class, strongest class per
cell), the memory instances (a dot per instance, hollow when only hinted), the Follower (a
triangle pointing along its heading), and optionally the current target and a path
(odometry points). North (+z, the start heading) is up. Pure numpy + OpenCV.
"""

from __future__ import annotations

import colorsys
import zlib
from collections.abc import Sequence

import cv2
import numpy as np

from contracts.belief import Belief, Cell

UNKNOWN, FREE, OBSTACLE, EXPLORED = (40, 40, 40), (225, 225, 225), (0, 0, 0), (150, 150, 150)


def class_colour(object_type: str) -> tuple[int, int, int]:
    """A stable colour per object type (RGB)."""
    hue = (zlib.crc32(object_type.encode()) % 360) / 360
    r, g, b = colorsys.hsv_to_rgb(hue, 0.75, 0.95)
    return int(r * 255), int(g * 255), int(b * 255)


def draw_belief(belief: Belief, target: tuple[float, float] | None = None,
                path: Sequence[tuple[float, float]] = (), crop: bool = True, scale: int = 2) -> np.ndarray:
    """H x W x 3 uint8 RGB image of the Belief."""
    grid = belief.grid
    image = np.empty((*grid.shape, 3), dtype=np.uint8)
    image[:] = UNKNOWN
    image[grid.explored] = EXPLORED
    image[grid.occupancy == Cell.FREE] = FREE
    image[grid.occupancy == Cell.OBSTACLE] = OBSTACLE
    if grid.evidence is not None and len(grid.classes):
        strongest = grid.evidence.argmax(axis=0)
        present = grid.evidence.max(axis=0) > 0
        palette = np.array([class_colour(c) for c in grid.classes], dtype=np.uint8)
        image[present] = palette[strongest[present]]
    rows, cols = _window(belief, crop)
    image = np.ascontiguousarray(image[rows, cols][::-1])  # row 0 = lowest z: flip so +z is up
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)

    def pixel(x: float, z: float) -> tuple[int, int]:
        r, c = grid.cell_of(x, z)
        return int((c - cols.start + 0.5) * scale), int((rows.stop - 1 - r + 0.5) * scale)

    for instance in belief.memory.instances.values():
        filled = -1 if instance.times_seen > 0 else 1
        cv2.circle(image, pixel(instance.position[0], instance.position[2]), 2 * scale, class_colour(instance.object_type), filled)
    if len(path) > 1:
        cv2.polylines(image, [np.array([pixel(x, z) for x, z in path], dtype=np.int32)], False, (0, 160, 255), 1)
    if target is not None:
        cv2.drawMarker(image, pixel(*target), (255, 0, 0), cv2.MARKER_CROSS, 6 * scale, 2)
    _agent(image, pixel(belief.pose.x, belief.pose.z), belief.pose.heading, 3 * scale)
    return image


def _window(belief: Belief, crop: bool) -> tuple[slice, slice]:
    """The explored part of the grid (plus a margin), or all of it."""
    grid = belief.grid
    known = grid.explored | (grid.occupancy != Cell.UNKNOWN)
    if not crop or not known.any():
        return slice(0, grid.shape[0]), slice(0, grid.shape[1])
    r = np.flatnonzero(known.any(axis=1))
    c = np.flatnonzero(known.any(axis=0))
    margin = 10
    return (slice(max(r[0] - margin, 0), min(r[-1] + margin + 1, grid.shape[0])),
            slice(max(c[0] - margin, 0), min(c[-1] + margin + 1, grid.shape[1])))


def _agent(image: np.ndarray, centre: tuple[int, int], heading: float, size: int) -> None:
    a = np.radians(heading)
    forward = np.array([np.sin(a), -np.cos(a)])  # image y grows downwards
    side = np.array([-forward[1], forward[0]])
    c = np.array(centre, dtype=float)
    tip, left, right = c + forward * size, c - forward * size * 0.6 + side * size * 0.6, c - forward * size * 0.6 - side * size * 0.6
    cv2.fillPoly(image, [np.array([tip, left, right], dtype=np.int32)], (255, 0, 0))

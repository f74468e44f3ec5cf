"""The top-down map (OpenCV drawing, no GL): floor, navigable cells, walls, objects by type,
agent arrows and an optional highlighted object. For the Commander view, replays, reports.

Image orientation: +x to the right, +z up (a plan view); the room is fitted into a
``size`` x ``size`` square with a margin, keeping its aspect ratio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from contracts.errors import NesyError

from .palette import look_of
from .room import CELL
from .types import RenderObject, RoomGeometry

BACKGROUND = (38, 40, 46)
FLOOR = (196, 182, 160)
NAVIGABLE = (226, 218, 200)
WALL = (70, 70, 78)
HIGHLIGHT = (255, 0, 200)
AGENT_COLORS = ((30, 110, 235), (230, 60, 40), (40, 170, 70), (160, 60, 200))
_SHIFT = 4  # cv2 fixed-point bits


class _Map:
    def __init__(self, bounds: tuple[float, float, float, float], cells, size: int) -> None:
        xmin, xmax, zmin, zmax = bounds
        for i, j in cells:
            xmin, xmax = min(xmin, i * CELL - CELL / 2), max(xmax, i * CELL + CELL / 2)
            zmin, zmax = min(zmin, j * CELL - CELL / 2), max(zmax, j * CELL + CELL / 2)
        margin = 0.05 * size
        self.scale = (size - 2 * margin) / max(xmax - xmin, zmax - zmin, 1e-6)
        self.x0 = size / 2 - self.scale * (xmin + xmax) / 2
        self.z0 = size / 2 + self.scale * (zmin + zmax) / 2

    def px(self, x: float, z: float) -> tuple[int, int]:
        """Fixed-point pixel coordinates (for cv2 with ``shift``)."""
        f = 1 << _SHIFT
        return int(round((self.x0 + x * self.scale) * f)), int(
            round((self.z0 - z * self.scale) * f)
        )

    def rect(
        self, img, x0: float, z0: float, x1: float, z1: float, color, thickness: int = -1
    ) -> None:
        cv2.rectangle(img, self.px(x0, z1), self.px(x1, z0), color, thickness, cv2.LINE_AA, _SHIFT)


def _arrow(m: _Map, img: np.ndarray, x: float, z: float, rotation: float, color) -> None:
    r = math.radians(rotation)
    fx, fz = math.sin(r), math.cos(r)
    lx, lz = fz, -fx  # to the agent's right
    tip = (x + 0.28 * fx, z + 0.28 * fz)
    back_l = (x - 0.16 * fx - 0.15 * lx, z - 0.16 * fz - 0.15 * lz)
    back_r = (x - 0.16 * fx + 0.15 * lx, z - 0.16 * fz + 0.15 * lz)
    notch = (x - 0.06 * fx, z - 0.06 * fz)
    pts = np.array([m.px(*p) for p in (tip, back_r, notch, back_l)], dtype=np.int32)
    cv2.fillPoly(img, [pts], color, cv2.LINE_AA, _SHIFT)
    cv2.polylines(img, [pts], True, (255, 255, 255), 1, cv2.LINE_AA, _SHIFT)


def top_down(
    room: RoomGeometry,
    objects: Sequence[RenderObject],
    agents: Sequence[tuple[float, float, float]],
    highlight: str | None = None,
    size: int = 512,
) -> np.ndarray:
    """An RGB ``size`` x ``size`` uint8 plan of the room. ``agents`` are (x, z, rotation)
    (agent 0 blue, agent 1 red, ...); ``highlight`` is an objectId to outline."""
    if not isinstance(size, int) or not 64 <= size <= 4096:
        raise NesyError(f"top-down map size must be an integer from 64 to 4096, got {size!r}")
    img = np.empty((size, size, 3), dtype=np.uint8)
    img[:] = BACKGROUND
    m = _Map(room.bounds, room.navigable, size)
    xmin, xmax, zmin, zmax = room.bounds
    m.rect(img, xmin, zmin, xmax, zmax, FLOOR)
    half = CELL / 2
    for i, j in room.navigable:
        x, z = i * CELL, j * CELL
        m.rect(img, x - half, z - half, x + half, z + half, NAVIGABLE)
    wall_px = max(2, size // 120)
    m.rect(img, xmin, zmin, xmax, zmax, WALL, wall_px)
    visible = [o for o in objects if not o.hidden]
    visible.sort(key=lambda o: (o.center[1] + o.size[1] / 2, -o.size[0] * o.size[2]))
    target = None
    for o in visible:
        (cx, _, cz), (sx, _, sz) = o.center, o.size
        rgb = tuple(int(255 * c) for c in look_of(o.object_type).color)
        edge = tuple(int(0.55 * c) for c in rgb)
        m.rect(img, cx - sx / 2, cz - sz / 2, cx + sx / 2, cz + sz / 2, rgb)
        m.rect(img, cx - sx / 2, cz - sz / 2, cx + sx / 2, cz + sz / 2, edge, 1)
        if o.object_id == highlight:
            target = o
    if target is not None:
        (cx, _, cz), (sx, _, sz) = target.center, target.size
        pad = 0.04
        m.rect(
            img,
            cx - sx / 2 - pad,
            cz - sz / 2 - pad,
            cx + sx / 2 + pad,
            cz + sz / 2 + pad,
            HIGHLIGHT,
            max(2, size // 170),
        )
        radius = int((max(sx, sz) / 2 + 0.15) * m.scale * (1 << _SHIFT))
        cv2.circle(img, m.px(cx, cz), radius, HIGHLIGHT, 1, cv2.LINE_AA, _SHIFT)
    for n, (x, z, rotation) in enumerate(agents):
        _arrow(m, img, x, z, rotation, AGENT_COLORS[n % len(AGENT_COLORS)])
    return img

"""Camera geometry: poses, view frusta, distances to boxes, and screen projection.

Conventions follow AI2-THOR: y is up; rotation 0 faces +z and 90 faces +x (RotateRight
adds 90); a positive horizon looks down. All boxes are axis-aligned (centre, full size).
Functions take arrays of boxes so the simulator can test every object in one numpy call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

CAMERA_HEIGHT = 1.576  # metres: AI2-THOR's agent position y (0.901) + camera offset (0.675)
NEAR = 0.05

# the 8 corners of a unit box centred at the origin, as multiples of the half size
_CORNERS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at ``position`` looking along (rotation, horizon), square frame."""

    x: float
    y: float
    z: float
    rotation: float
    horizon: float
    field_of_view: float = 90.0

    @cached_property
    def position(self) -> np.ndarray:
        return np.array([self.x, self.y, self.z])

    @cached_property
    def basis(self) -> np.ndarray:
        """Rows: the (right, up, forward) unit vectors in world coordinates."""
        r, h = math.radians(self.rotation), math.radians(self.horizon)
        sr, cr, sh, ch = math.sin(r), math.cos(r), math.sin(h), math.cos(h)
        # up = forward x right, written out
        return np.array([[cr, 0.0, -sr], [sh * sr, ch, sh * cr], [sr * ch, -sh, cr * ch]])

    def axes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(right, up, forward) unit vectors in world coordinates."""
        b = self.basis
        return b[0], b[1], b[2]

    @property
    def tan_half_fov(self) -> float:
        return math.tan(math.radians(self.field_of_view) / 2)

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """World points (..., 3) -> camera coordinates (right, up, forward)."""
        return (points - self.position) @ self.basis.T


def box_distances(camera_position: np.ndarray, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Horizontal (x/z) distance from a point to each axis-aligned box (0 above/inside it).

    This is the simulator's reach: AI2-THOR's 1.5 m visibility distance, measured to the
    object rather than to its centre. Measured on ALFRED's expert interactions, a reach
    taken in 3-D from the camera would put 5% of them (low drawers, things on the floor)
    out of range; the horizontal one keeps all but a few in range (docs/simulator.md).
    """
    half = sizes[:, [0, 2]] / 2
    point = camera_position[[0, 2]]
    closest = np.clip(point, centers[:, [0, 2]] - half, centers[:, [0, 2]] + half)
    return np.linalg.norm(closest - point, axis=1)


def boxes_in_frustum(camera: Camera, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Conservative frustum test: False only if the whole box lies outside one frustum
    plane (the near plane or a side), tested as a box against each plane's normal."""
    if len(centers) == 0:
        return np.zeros(0, dtype=bool)
    right, up, forward = camera.basis
    t = camera.tan_half_fov
    normals = np.stack([right - t * forward, -right - t * forward, up - t * forward, -up - t * forward, -forward])
    offset = (centers - camera.position) @ normals.T  # (N, 5): > 0 is outside for the centre
    spread = np.abs(sizes) @ np.abs(normals).T / 2
    limit = np.array([0.0, 0.0, 0.0, 0.0, -NEAR])
    return ((offset - spread) <= limit).all(axis=1)


def project_boxes(camera: Camera, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Screen rectangles (x0, y0, x1, y1) of boxes in relative coordinates ([0, 1], y down).

    Corners behind the camera are clamped to the near plane, so a box that surrounds the
    camera covers the screen. Rectangles are not clipped to the screen.
    """
    if len(centers) == 0:
        return np.zeros((0, 4))
    corners = centers[:, None, :] + _CORNERS[None, :, :] * (sizes[:, None, :] / 2)
    cam = camera.to_camera(corners)
    cz = np.maximum(cam[..., 2], NEAR)
    t = camera.tan_half_fov
    sx = 0.5 + cam[..., 0] / (cz * t) / 2
    sy = 0.5 - cam[..., 1] / (cz * t) / 2
    return np.stack([sx.min(1), sy.min(1), sx.max(1), sy.max(1)], axis=1)


def heading_vector(rotation: float) -> tuple[float, float]:
    """Unit (dx, dz) of a rotation in degrees (0 -> +z, 90 -> +x)."""
    r = math.radians(rotation)
    return round(math.sin(r), 9), round(math.cos(r), 9)

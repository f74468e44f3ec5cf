"""AI2-THOR's object rotations (Unity Euler angles) as matrices in the renderer's axes."""

from __future__ import annotations

import math

import numpy as np


def euler_matrix(rx: float, ry: float, rz: float) -> np.ndarray:
    """Unity's rotation (degrees, applied z, then x, then y) as a 3 x 3 matrix on column
    vectors in our (= Unity's) axes: ry 90 turns +z to +x; rx positive tips +z down."""
    x, y, z = (math.radians(v) for v in (rx, ry, rz))
    cx, sx, cy, sy, cz, sz = math.cos(x), math.sin(x), math.cos(y), math.sin(y), math.cos(z), math.sin(z)
    ry_m = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rx_m = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    rz_m = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return ry_m @ rx_m @ rz_m

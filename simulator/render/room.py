"""Static room geometry as instanced box rows: floor, walls, navigable cells off the extent.

Owns how a ``RoomGeometry`` becomes geometry: one floor slab over the room extent (top at
y = 0), a floor tile for every navigable cell outside that extent, walls (2.8 m high,
0.1 m thick) just outside the four sides of the extent, and wall segments along the outer
edge of navigable cells that lie outside the extent. No ceiling. Instance id 0.
"""

from __future__ import annotations

import numpy as np

from .meshes import BOX
from .palette import FLOOR, WALL, digest, unit_noise
from .styles import ROW
from .types import RoomGeometry

CELL = 0.25
WALL_HEIGHT = 2.8
WALL_THICKNESS = 0.1
FLOOR_THICKNESS = 0.05
FLOOR_RGB = (0.66, 0.52, 0.38)
WALL_RGB = (0.86, 0.84, 0.80)


def _row(center, size, rgb, mat: int, seed: float) -> np.ndarray:
    row = np.zeros(ROW, dtype=np.float32)
    affine = np.zeros((3, 4))
    affine[:, :3] = np.diag(size)
    affine[:, 3] = center
    row[:12] = affine.ravel()
    row[12:15] = rgb
    row[15] = mat
    row[16] = seed
    return row


def _inside(bounds, x: float, z: float) -> bool:
    xmin, xmax, zmin, zmax = bounds
    return xmin <= x <= xmax and zmin <= z <= zmax


def room_rows(room: RoomGeometry) -> dict[int, np.ndarray]:
    """Primitive -> (n, 17) rows of the room's static geometry (boxes only)."""
    xmin, xmax, zmin, zmax = room.bounds
    key = f"{room.bounds}"
    seed = digest(key)[0] / 256.0
    a, b = unit_noise(key, 2)
    floor_rgb = tuple(c * (1.0 + 0.12 * a) for c in FLOOR_RGB)
    wall_rgb = tuple(min(c * (1.0 + 0.05 * b), 1.0) for c in WALL_RGB)
    rows = []
    ft, wt, wh = FLOOR_THICKNESS, WALL_THICKNESS, WALL_HEIGHT
    rows.append(
        _row(
            ((xmin + xmax) / 2, -ft / 2, (zmin + zmax) / 2),
            (xmax - xmin, ft, zmax - zmin),
            floor_rgb,
            FLOOR,
            seed,
        )
    )
    cx, cz, w, d = (xmin + xmax) / 2, (zmin + zmax) / 2, xmax - xmin + 2 * wt, zmax - zmin + 2 * wt
    rows.append(_row((cx, wh / 2, zmin - wt / 2), (w, wh, wt), wall_rgb, WALL, seed))
    rows.append(_row((cx, wh / 2, zmax + wt / 2), (w, wh, wt), wall_rgb, WALL, seed))
    rows.append(_row((xmin - wt / 2, wh / 2, cz), (wt, wh, d), wall_rgb, WALL, seed))
    rows.append(_row((xmax + wt / 2, wh / 2, cz), (wt, wh, d), wall_rgb, WALL, seed))
    half = CELL / 2
    for i, j in sorted(room.navigable):
        x, z = i * CELL, j * CELL
        if _inside(room.bounds, x, z):
            continue
        rows.append(_row((x, -ft / 2, z), (CELL, ft, CELL), floor_rgb, FLOOR, seed))
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            ni, nj = i + di, j + dj
            if (ni, nj) in room.navigable or _inside(room.bounds, ni * CELL, nj * CELL):
                continue
            c = (x + di * (half + wt / 2), wh / 2, z + dj * (half + wt / 2))
            s = (wt, wh, CELL) if di else (CELL, wh, wt)
            rows.append(_row(c, s, wall_rgb, WALL, seed))
    return {BOX: np.stack(rows)}

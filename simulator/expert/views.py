"""Where can an agent see an object from? All navigable poses, tested in one numpy pass.

Used by oracle experts, rule-based Commanders and SearchObject: a pose (cell, rotation,
horizon) sees an object when the object's box is within reach and in the view frustum,
exactly as ``World.visible_ids`` decides (the object must not be hidden in a closed
receptacle; that is checked separately, since no pose helps then).
"""

from __future__ import annotations

import math

import numpy as np

from simulator.geometry import CAMERA_HEIGHT, NEAR
from simulator.scenes import cell_center
from simulator.world import World

HORIZONS = (-30.0, -15.0, 0.0, 15.0, 30.0, 45.0, 60.0)
ROTATIONS = (0, 90, 180, 270)
_CORNERS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)

ViewPose = tuple[tuple[int, int], int, float]  # cell, rotation, horizon


def visible_poses(world: World, object_id: str, horizons: tuple[float, ...] = HORIZONS) -> list[ViewPose]:
    """Every (cell, rotation, horizon) on navigable floor from which the object is visible."""
    obj = world.objects[object_id]
    center, size = np.array(obj.position, dtype=float), np.array(obj.size, dtype=float)
    reach = world.interaction_distance
    half = size[[0, 2]] / 2
    cells = []
    for cell in world.scene.navigable:
        x, z = cell_center(cell)
        gap = np.maximum(np.abs(np.array([x, z]) - center[[0, 2]]) - half, 0.0)
        if math.hypot(gap[0], gap[1]) <= reach:
            cells.append(cell)
    if not cells:
        return []
    poses = [(c, r, h) for c in sorted(cells) for r in ROTATIONS for h in horizons]
    xz = np.array([cell_center(c) for c, _, _ in poses])
    rot = np.radians([r for _, r, _ in poses])
    hor = np.radians([h for _, _, h in poses])
    forward = np.stack([np.sin(rot) * np.cos(hor), -np.sin(hor), np.cos(rot) * np.cos(hor)], axis=1)
    right = np.stack([np.cos(rot), np.zeros_like(rot), -np.sin(rot)], axis=1)
    up = np.cross(forward, right)
    cameras = np.stack([xz[:, 0], np.full(len(poses), CAMERA_HEIGHT), xz[:, 1]], axis=1)
    corners = center + _CORNERS * (size / 2)  # (8, 3)
    d = corners[None, :, :] - cameras[:, None, :]  # (N, 8, 3)
    cx = np.einsum("nkc,nc->nk", d, right)
    cy = np.einsum("nkc,nc->nk", d, up)
    cz = np.einsum("nkc,nc->nk", d, forward)
    t = math.tan(math.radians(world.field_of_view) / 2)
    outside = (
        np.all(cz < NEAR, axis=1) | np.all(cx > cz * t, axis=1) | np.all(cx < -cz * t, axis=1)
        | np.all(cy > cz * t, axis=1) | np.all(cy < -cz * t, axis=1)
    )
    return [pose for pose, out in zip(poses, outside, strict=True) if not out]


def best_views(
    world: World, object_id: str, horizons: tuple[float, ...] | None = None
) -> dict[tuple[tuple[int, int], int], float]:
    """(cell, rotation) -> the horizon that sees the object closest to the screen centre."""
    obj = world.objects[object_id]
    best: dict[tuple[tuple[int, int], int], float] = {}
    for cell, rotation, horizon in visible_poses(world, object_id, horizons or HORIZONS):
        x, z = cell_center(cell)
        distance = math.hypot(obj.position[0] - x, obj.position[2] - z)
        ideal = math.degrees(math.atan2(CAMERA_HEIGHT - obj.position[1], max(distance, 0.1)))
        key = (cell, rotation)
        if key not in best or abs(horizon - ideal) < abs(best[key] - ideal):
            best[key] = horizon
    return best

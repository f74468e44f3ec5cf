"""Camera geometry in the Follower's own frame: odometry poses, intrinsics, back-projection.

Conventions follow AI2-THOR: y is up; a heading of 0 faces +z and 90 faces +x (turning
right adds 90); a positive horizon looks down. The **odometry frame** is the Follower's
start pose: its origin is where the Follower stood at the start of the episode (on the
floor), +z is the direction it faced, +x its right. A robot knows this frame from its
wheel odometry; it never learns the world's coordinates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Pose:
    """The Follower's pose in the odometry frame."""

    x: float  # metres to the right of the start pose
    z: float  # metres ahead of the start pose
    heading: float  # degrees clockwise (seen from above) from the start heading, in [0, 360)
    horizon: float  # camera pitch in degrees, positive looks down (AI2-THOR's cameraHorizon)


SECTORS = ("front", "right", "behind", "left")  # 90-degree sectors clockwise from the heading


def bearing(pose: Pose, position: Sequence[float]) -> float:
    """Degrees clockwise from the pose's heading to a point (x, y, z), in (-180, 180]."""
    angle = math.degrees(math.atan2(position[0] - pose.x, position[2] - pose.z)) - pose.heading
    angle = (angle + 180.0) % 360.0 - 180.0
    return 180.0 if angle == -180.0 else angle


def sector(pose: Pose, position: Sequence[float]) -> str:
    """Where a point is from the pose, as people say it: "front", "right", "behind", "left"."""
    return SECTORS[round(bearing(pose, position) / 90.0) % 4]


LANDMARK_AXIS = 0.3  # metres: a point closer than this to a landmark's axis is neither left nor right of it


def landmark_side(landmark: Sequence[float], front: Sequence[float], point: Sequence[float]) -> str | None:
    """Where a point (x, z) is from a landmark (x, z) seen by a viewer facing it along
    ``front`` (a horizontal direction, x and z), as people say it: "left", "right",
    "behind" (beyond it), or None when it is unclear (near the axis, or in front of it)."""
    norm = math.hypot(front[0], front[1]) or 1.0
    fx, fz = front[0] / norm, front[1] / norm
    rx, rz = fz, -fx  # AI2-THOR is left-handed, y up: facing +z, right is +x
    dx, dz = point[0] - landmark[0], point[1] - landmark[1]
    lateral, depth = dx * rx + dz * rz, dx * fx + dz * fz
    if abs(lateral) >= LANDMARK_AXIS and abs(lateral) >= abs(depth):
        return "right" if lateral > 0 else "left"
    if depth >= LANDMARK_AXIS and depth > abs(lateral):
        return "behind"
    return None


VERTICAL_GAP = 0.25  # metres between two middles' heights for "above" / "below"
OVER = 0.6  # metres across between the middles of a place and a landmark it is above or below


def vertical_side(landmark: Sequence[float], point: Sequence[float]) -> str | None:
    """"above" / "below" a landmark (x, y, z) for a point (x, y, z) whose middle is at least
    ``VERTICAL_GAP`` higher or lower; None otherwise."""
    rise = point[1] - landmark[1]
    return "above" if rise >= VERTICAL_GAP else "below" if rise <= -VERTICAL_GAP else None


LEVEL_SPLIT = 1.1  # metres: a place whose middle is higher is an "upper" one (wall cabinets), else "lower"
# (AI2-THOR's train kitchens: cabinet middles at 0.3-0.9 m under the counter, 1.3-2.3 m on the wall, 5 of 453 between)


def level(point: Sequence[float]) -> str:
    """"upper" / "lower" for a place whose middle (x, y, z) is above / below ``LEVEL_SPLIT``:
    "the upper cabinet", "the bottom drawer"."""
    return "upper" if point[1] > LEVEL_SPLIT else "lower"


def over_or_under(landmark: Sequence[float], point: Sequence[float]) -> str | None:
    """"above" / "below" for a point over or under a landmark (its middle within ``OVER``
    across, ``vertical_side`` up or down), as in "the cabinet above the microwave"."""
    if math.hypot(point[0] - landmark[0], point[2] - landmark[2]) > OVER:
        return None
    return vertical_side(landmark, point)


@dataclass(frozen=True)
class CameraIntrinsics:
    """The egocentric camera: frame size, vertical field of view and height above the floor."""

    width: int
    height: int
    field_of_view: float  # degrees, vertical (AI2-THOR's fieldOfView)
    camera_height: float  # metres above the floor

    @property
    def focal(self) -> float:
        """Focal length in pixels (square pixels)."""
        return (self.height / 2) / math.tan(math.radians(self.field_of_view) / 2)

    def pixel_rays(self) -> np.ndarray:
        """H x W x 3 camera-frame directions (right, up, forward) with forward = 1, through
        each pixel's centre."""
        cols = (np.arange(self.width) + 0.5 - self.width / 2) / self.focal
        rows = (self.height / 2 - (np.arange(self.height) + 0.5)) / self.focal
        right, up = np.meshgrid(cols, rows)
        return np.stack([right, up, np.ones_like(right)], axis=-1)


def relative_pose(start: tuple[float, float, float, float], now: tuple[float, float, float, float]) -> Pose:
    """The odometry pose of ``now`` relative to ``start`` (both (x, z, rotation, horizon) in
    any fixed world frame with AI2-THOR's conventions)."""
    sx, sz, srot, _ = start
    x, z, rot, horizon = now
    r = math.radians(srot)
    dx, dz = x - sx, z - sz
    right = dx * math.cos(r) - dz * math.sin(r)
    ahead = dx * math.sin(r) + dz * math.cos(r)
    return Pose(round(right, 6) + 0.0, round(ahead, 6) + 0.0, float((rot - srot) % 360), float(horizon))  # no -0.0


def world_to_odometry(points: np.ndarray, start: tuple[float, float, float, float]) -> np.ndarray:
    """World points (..., 3) -> odometry-frame points (x right, y up from the floor, z ahead)
    for a start pose (x, z, rotation, horizon); y is unchanged (the floor is y = 0)."""
    sx, sz, srot, _ = start
    r = math.radians(srot)
    p = np.asarray(points, dtype=float)
    dx, dz = p[..., 0] - sx, p[..., 2] - sz
    return np.stack([dx * math.cos(r) - dz * math.sin(r), p[..., 1], dx * math.sin(r) + dz * math.cos(r)], axis=-1)


def camera_axes(heading: float, horizon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(right, up, forward) unit vectors of a camera with this heading and horizon."""
    r, h = math.radians(heading), math.radians(horizon)
    forward = np.array([math.sin(r) * math.cos(h), -math.sin(h), math.cos(r) * math.cos(h)])
    right = np.array([math.cos(r), 0.0, -math.sin(r)])
    up = np.cross(forward, right)
    return right, up, forward


def project(point: tuple[float, float, float], pose: Pose, camera: CameraIntrinsics) -> tuple[float, float] | None:
    """Pixel (col, row) of an odometry point, None when it is behind the camera."""
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    d = np.array(point, dtype=float) - np.array([pose.x, camera.camera_height, pose.z])
    depth = float(d @ forward)
    if depth <= 1e-3:
        return None
    return (camera.width / 2 + float(d @ right) / depth * camera.focal,
            camera.height / 2 - float(d @ up) / depth * camera.focal)


def depth_to_points(depth: np.ndarray, pose: Pose, camera: CameraIntrinsics) -> np.ndarray:
    """Back-project a depth frame (H x W metres along the view axis, 0 = nothing) into
    odometry-frame points (H x W x 3; y up from the floor). Pixels without depth get NaN."""
    rays = camera.pixel_rays() * depth[..., None]
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    points = rays @ np.stack([right, up, forward])  # camera (r, u, f) -> odometry axes
    points += np.array([pose.x, camera.camera_height, pose.z])
    points[depth <= 0] = np.nan
    return points

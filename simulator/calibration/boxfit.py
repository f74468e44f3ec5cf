"""Fitting an object's 3-D box to the 2-D boxes AI2-THOR drew of it (the calibration's maths).

Model: an object is its renderer shape (``shape_points``: the vertices our renderer draws
for its type, in a unit box) scaled to full extents ``size`` (the object's own x, y, z),
shifted by ``offset`` (its box centre relative to AI2-THOR's pivot, in the object's frame)
and turned by its recorded rotation about the pivot. Seen from a recorded camera, its
projected points span a 2-D box; the fit makes those boxes match the recorded ones
(robust Gauss-Newton on the four edges, Huber weights, so that edges cut by an occluder
count little). Deterministic: no randomness, a fixed number of iterations.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from simulator.render.rotation import euler_matrix

FRAME = 300
HUBER = 3.0  # pixels
NEAR = 0.05


@lru_cache(maxsize=256)
def shape_points(object_type: str, is_open: bool = False) -> np.ndarray:
    """The points our renderer draws for a type, in its local frame, for a unit box
    centred at the origin (front towards +z): (N, 3) float64, roughly within [-0.5, 0.5]."""
    from simulator.render.meshes import primitive_meshes
    from simulator.render.styles import object_rows
    from simulator.render.types import RenderObject

    obj = RenderObject("shape", object_type, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), is_open=is_open,
                       extent=(1.0, 1.0, 1.0))
    meshes = primitive_meshes()
    points = []
    for prim, rows in object_rows(obj, (-100.0, 100.0, -1.0, 100.0)).items():
        vertices = np.unique(meshes[prim][:, :3].astype(np.float64), axis=0)
        for row in rows:
            affine = row[:12].astype(np.float64).reshape(3, 4)
            points.append(vertices @ affine[:, :3].T + affine[:, 3])
    pts = np.unique(np.round(np.concatenate(points), 4), axis=0)
    return _extremes(pts)


def _extremes(points: np.ndarray, directions: int = 64) -> np.ndarray:
    """A subset of points that keeps every silhouette box: the extreme points along many
    fixed directions (so projections stay cheap)."""
    golden = math.pi * (3 - math.sqrt(5))
    k = np.arange(directions)
    y = 1 - 2 * (k + 0.5) / directions
    r = np.sqrt(1 - y * y)
    dirs = np.stack([r * np.cos(golden * k), y, r * np.sin(golden * k)], axis=1)
    dirs = np.concatenate([dirs, np.eye(3), -np.eye(3)])
    keep = np.unique(np.argmax(points @ dirs.T, axis=0))
    return points[keep]


def camera_axes(rotation: np.ndarray, horizon: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(right, up, forward) per camera, arrays (N, 3) (AI2-THOR: horizon positive looks down)."""
    r, h = np.radians(rotation), np.radians(horizon)
    forward = np.stack([np.sin(r) * np.cos(h), -np.sin(h), np.cos(r) * np.cos(h)], axis=1)
    right = np.stack([np.cos(r), np.zeros_like(r), -np.sin(r)], axis=1)
    up = np.cross(forward, right)
    return right, up, forward


class Views:
    """The recorded observations of one object group, as arrays (N = observations)."""

    def __init__(self, cameras: np.ndarray, pivots: np.ndarray, rotations: np.ndarray,
                 boxes: np.ndarray, height: float, field_of_view: float) -> None:
        self.eye = np.stack([cameras[:, 0], np.full(len(cameras), height), cameras[:, 1]], axis=1)
        self.right, self.up, self.forward = camera_axes(cameras[:, 2], cameras[:, 3])
        self.pivots = pivots
        self.rot = np.stack([euler_matrix(*r) for r in rotations]) if len(rotations) else np.zeros((0, 3, 3))
        # recorded boxes as continuous pixel edges: [x1, y1, x2 + 1, y2 + 1]
        self.boxes = boxes.astype(np.float64) + np.array([0, 0, 1, 1])
        self.focal = FRAME / 2 / math.tan(math.radians(field_of_view) / 2)

    def project(self, shape: np.ndarray, size: np.ndarray, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Predicted boxes (N, 4), clipped to the frame, and a validity flag (all points in front).
        ``offset``: one (3,) for all views, or one per view (N, 3)."""
        if offset.ndim == 1:
            local = shape * size + offset  # (P, 3)
            world = self.pivots[:, None, :] + np.einsum("nij,pj->npi", self.rot, local)
        else:
            local = shape[None, :, :] * size + offset[:, None, :]  # (N, P, 3)
            world = self.pivots[:, None, :] + np.einsum("nij,npj->npi", self.rot, local)
        d = world - self.eye[:, None, :]
        x = np.einsum("npi,ni->np", d, self.right)
        y = np.einsum("npi,ni->np", d, self.up)
        z = np.einsum("npi,ni->np", d, self.forward)
        ok = np.all(z > NEAR, axis=1)
        z = np.maximum(z, NEAR)
        u = FRAME / 2 + self.focal * x / z
        v = FRAME / 2 - self.focal * y / z
        box = np.stack([u.min(1), v.min(1), u.max(1), v.max(1)], axis=1)
        return np.clip(box, 0.0, FRAME), ok


def fit_box(views: Views, shape: np.ndarray, size0: np.ndarray, offset0: np.ndarray,
            iterations: int = 25, prior: float = 0.0) -> tuple[np.ndarray, np.ndarray, float]:
    """Robust Gauss-Newton over (log size, offset); returns (size, offset, median edge error).

    ``prior`` pulls the offset towards ``offset0`` and the log size towards ``size0``
    (in pixels per metre / per unit log), for groups with few observations.
    """
    theta = np.concatenate([np.log(np.maximum(size0, 1e-3)), offset0]).astype(np.float64)

    def residuals(t: np.ndarray) -> np.ndarray:
        box, ok = views.project(shape, np.exp(t[:3]), t[3:])
        r = box - views.boxes
        r[~ok] = 0.0
        return r.ravel()

    theta, r = gauss_newton(residuals, theta, iterations, math.log(4.0), prior)
    return np.exp(theta[:3]), theta[3:], float(np.median(np.abs(r))) if len(r) else 0.0


def gauss_newton(residuals, theta: np.ndarray, iterations: int, max_log_size: float,
                 prior: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Robust (Huber) Levenberg-Marquardt on ``residuals(theta)`` whose first three entries
    are log sizes (clipped to [log 5 mm, ``max_log_size``]); ``prior`` pulls towards the
    start. Returns (theta, residuals)."""
    theta0 = theta.copy()
    lam = 1e-2
    n = len(theta)
    r = residuals(theta)
    for _ in range(iterations):
        w = np.where(np.abs(r) <= HUBER, 1.0, HUBER / np.maximum(np.abs(r), 1e-9))
        jac = np.empty((len(r), n))
        for j in range(n):
            t = theta.copy()
            t[j] += 1e-4
            jac[:, j] = (residuals(t) - r) / 1e-4
        a = jac.T @ (jac * w[:, None]) + lam * np.eye(n) + prior * np.eye(n)
        g = jac.T @ (w * r) + prior * (theta - theta0)
        candidate = theta - np.linalg.solve(a, g)
        candidate[:3] = np.clip(candidate[:3], math.log(0.005), max_log_size)
        r_new = residuals(candidate)
        if _huber(r_new) + prior * np.sum((candidate - theta0) ** 2) <= _huber(r) + prior * np.sum((theta - theta0) ** 2):
            theta, r, lam = candidate, r_new, max(lam / 3, 1e-6)
        else:
            lam *= 5
    return theta, r


def _huber(r: np.ndarray) -> float:
    a = np.abs(r)
    return float(np.sum(np.where(a <= HUBER, 0.5 * a * a, HUBER * (a - 0.5 * HUBER))))

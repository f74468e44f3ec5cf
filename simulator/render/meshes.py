"""Unit primitive meshes (box, cylinder, sphere, open-top tube) as interleaved position+normal arrays.

Every primitive is centred at the origin with extents [-0.5, 0.5] on each axis and
counter-clockwise outward-facing triangles (right-handed), so one affine transform per
instance (see ``styles``) places and sizes it. Owns geometry only; no GL.
"""

from __future__ import annotations

import numpy as np

BOX, CYLINDER, SPHERE, TUBE = 0, 1, 2, 3
PRIMITIVES = (BOX, CYLINDER, SPHERE, TUBE)
PRIMITIVE_NAMES = {BOX: "box", CYLINDER: "cylinder", SPHERE: "sphere", TUBE: "tube"}


def _tri(vertices: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    return np.array([np.concatenate([p, n]) for p, n in vertices], dtype="f4")


def box_mesh() -> np.ndarray:
    """36 vertices (12 triangles), flat normals."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            a, b = (axis + 1) % 3, (axis + 2) % 3
            if sign < 0:
                a, b = b, a
            corners = []
            for ua, ub in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
                p = np.zeros(3)
                p[axis] = 0.5 * sign
                p[a], p[b] = ua, ub
                corners.append(p)
            for i in (0, 1, 2, 0, 2, 3):
                out.append((corners[i], n))
    return _tri(out)


def cylinder_mesh(segments: int = 16) -> np.ndarray:
    """A capped cylinder along y, radius 0.5, height 1, smooth side normals."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    up, down = np.array([0.0, 1.0, 0.0]), np.array([0.0, -1.0, 0.0])
    for k in range(segments):
        a0, a1 = angles[k], angles[k + 1]
        d0 = np.array([np.sin(a0), 0.0, np.cos(a0)])
        d1 = np.array([np.sin(a1), 0.0, np.cos(a1)])
        b0, b1 = 0.5 * d0 - 0.5 * up, 0.5 * d1 - 0.5 * up
        t0, t1 = 0.5 * d0 + 0.5 * up, 0.5 * d1 + 0.5 * up
        out += [(b0, d0), (b1, d1), (t1, d1), (b0, d0), (t1, d1), (t0, d0)]
        out += [(0.5 * up, up), (t0, up), (t1, up)]
        out += [(-0.5 * up, down), (b1, down), (b0, down)]
    return _tri(out)


def sphere_mesh(stacks: int = 8, slices: int = 12) -> np.ndarray:
    """A UV sphere of radius 0.5, smooth normals."""

    def point(i: int, j: int) -> np.ndarray:
        phi = np.pi * i / stacks  # 0 at the top
        theta = 2.0 * np.pi * j / slices
        return np.array([np.sin(phi) * np.sin(theta), np.cos(phi), np.sin(phi) * np.cos(theta)])

    out: list[tuple[np.ndarray, np.ndarray]] = []
    for i in range(stacks):
        for j in range(slices):
            p00, p01 = point(i, j), point(i, j + 1)
            p10, p11 = point(i + 1, j), point(i + 1, j + 1)
            if i > 0:
                out += [(0.5 * p00, p00), (0.5 * p10, p10), (0.5 * p01, p01)]
            if i < stacks - 1:
                out += [(0.5 * p01, p01), (0.5 * p10, p10), (0.5 * p11, p11)]
    return _tri(out)


def tube_mesh(segments: int = 16, wall: float = 0.06, floor: float = 0.1) -> np.ndarray:
    """An open-top cup along y (radius 0.5, height 1): outer wall, rim, inner wall, bottom
    outside and inside. Containers use it so that what they hold stays visible."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    angles = np.linspace(0.0, 2.0 * np.pi, segments + 1)
    up, down = np.array([0.0, 1.0, 0.0]), np.array([0.0, -1.0, 0.0])
    ri, yb, yt, yf = 0.5 - wall, -0.5, 0.5, -0.5 + floor
    for k in range(segments):
        d0 = np.array([np.sin(angles[k]), 0.0, np.cos(angles[k])])
        d1 = np.array([np.sin(angles[k + 1]), 0.0, np.cos(angles[k + 1])])
        ob0, ob1 = 0.5 * d0 + yb * up, 0.5 * d1 + yb * up
        ot0, ot1 = 0.5 * d0 + yt * up, 0.5 * d1 + yt * up
        it0, it1 = ri * d0 + yt * up, ri * d1 + yt * up
        if0, if1 = ri * d0 + yf * up, ri * d1 + yf * up
        out += [(ob0, d0), (ob1, d1), (ot1, d1), (ob0, d0), (ot1, d1), (ot0, d0)]  # outer
        out += [(ot0, up), (ot1, up), (it1, up), (ot0, up), (it1, up), (it0, up)]  # rim
        out += [(if1, -d1), (if0, -d0), (it0, -d0), (if1, -d1), (it0, -d0), (it1, -d1)]
        out += [(yf * up, up), (if0, up), (if1, up)]  # inner bottom
        out += [(yb * up, down), (ob1, down), (ob0, down)]  # outer bottom
    return _tri(out)


def primitive_meshes() -> dict[int, np.ndarray]:
    """Interleaved (x, y, z, nx, ny, nz) float32 arrays, one per primitive."""
    return {
        BOX: box_mesh(),
        CYLINDER: cylinder_mesh(),
        SPHERE: sphere_mesh(),
        TUBE: tube_mesh(),
    }

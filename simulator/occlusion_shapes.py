"""Ray tests against the renderer's unit primitives, and sample points on them.

Owns the geometry of one part: every part the renderer draws is a unit primitive (box,
capped cylinder, sphere or open-top tube, extents [-0.5, 0.5], ``simulator.render.meshes``)
under an affine map. Rays are given in the part's local frame (origin ``o``, direction
``d``, parameter ``t``); ``entry`` returns where each ray first meets a front face (the
renderer culls back faces, so a ray starting inside a closed part does not see it), or
``inf``. Sample points are where ``simulator.occlusion`` aims its rays: just inside each
part's surface, more of them on larger parts.
"""

from __future__ import annotations

import itertools

import numpy as np

from simulator.render.meshes import BOX, CYLINDER, SPHERE, TUBE

TUBE_INNER = 0.44  # meshes.tube_mesh: radius 0.5 - wall 0.06
TUBE_FLOOR = -0.4  # meshes.tube_mesh: -0.5 + floor 0.1
INF = np.inf


def _slab(o: np.ndarray, d: np.ndarray, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """(t_in, t_out) of rays through lo <= x <= hi along one axis (arrays of rays)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (lo - o) / d
        t2 = (hi - o) / d
    t_in, t_out = np.minimum(t1, t2), np.maximum(t1, t2)
    parallel = d == 0
    if parallel.any():
        inside = (o >= lo) & (o <= hi)
        t_in = np.where(parallel, np.where(inside, -INF, INF), t_in)
        t_out = np.where(parallel, np.where(inside, INF, -INF), t_out)
    return t_in, t_out


def _disc(o: np.ndarray, d: np.ndarray, radius: float) -> tuple[np.ndarray, np.ndarray]:
    """(t_in, t_out) of rays through the infinite vertical cylinder x^2 + z^2 <= r^2."""
    ox, oz, dx, dz = o[:, 0], o[:, 2], d[:, 0], d[:, 2]
    a = dx * dx + dz * dz
    b = ox * dx + oz * dz
    c = ox * ox + oz * oz - radius * radius
    disc = b * b - a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        t_in, t_out = (-b - root) / a, (-b + root) / a
    vertical = a < 1e-12
    miss = (disc < 0) & ~vertical
    t_in = np.where(vertical, np.where(c <= 0, -INF, INF), np.where(miss, INF, t_in))
    t_out = np.where(vertical, np.where(c <= 0, INF, -INF), np.where(miss, -INF, t_out))
    return t_in, t_out


def _front(t_in: np.ndarray, t_out: np.ndarray) -> np.ndarray:
    """The entry of a convex solid seen from outside (``inf`` if missed or started inside)."""
    return np.where((t_in <= t_out) & (t_in > 0), t_in, INF)


def _box(o: np.ndarray, d: np.ndarray) -> np.ndarray:
    # a ray parallel to a slab gets (-inf, inf) inside it and an empty (inf, inf) or
    # (-inf, -inf) interval outside, which _front reads as a miss
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (-0.5 - o) / d
        t2 = (0.5 - o) / d
    return _front(np.minimum(t1, t2).max(axis=1), np.maximum(t1, t2).min(axis=1))


def _cylinder_interval(o: np.ndarray, d: np.ndarray, radius: float, lo: float) -> tuple[np.ndarray, np.ndarray]:
    r_in, r_out = _disc(o, d, radius)
    y_in, y_out = _slab(o[:, 1], d[:, 1], lo, 0.5)
    return np.maximum(r_in, y_in), np.minimum(r_out, y_out)


def _cylinder(o: np.ndarray, d: np.ndarray) -> np.ndarray:
    return _front(*_cylinder_interval(o, d, 0.5, -0.5))


def _sphere(o: np.ndarray, d: np.ndarray) -> np.ndarray:
    a = np.einsum("ij,ij->i", d, d)
    b = np.einsum("ij,ij->i", o, d)
    c = np.einsum("ij,ij->i", o, o) - 0.25
    disc = b * b - a * c
    with np.errstate(invalid="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
    t_in = np.where(disc >= 0, (-b - root) / np.maximum(a, 1e-12), INF)
    return np.where(t_in > 0, t_in, INF)


def _tube(o: np.ndarray, d: np.ndarray) -> np.ndarray:
    """An open-top cup: the solid cylinder, except that a ray entering through the opening
    (inside the inner radius at the top) travels on to the inner wall or the floor."""
    t = _cylinder(o, d)
    top = np.isfinite(t)
    if top.any():
        p = o + np.where(top, t, 0.0)[:, None] * d
        opening = top & (np.abs(p[:, 1] - 0.5) < 1e-6) & (p[:, 0] ** 2 + p[:, 2] ** 2 < TUBE_INNER**2)
        if opening.any():
            _, inner_out = _disc(o, d, TUBE_INNER)
            with np.errstate(divide="ignore", invalid="ignore"):
                floor = np.where(d[:, 1] < 0, (TUBE_FLOOR - o[:, 1]) / d[:, 1], INF)
            t = np.where(opening, np.minimum(inner_out, floor), t)
    return t


_TESTS = {BOX: _box, CYLINDER: _cylinder, SPHERE: _sphere, TUBE: _tube}


def entry(prim: np.ndarray, o: np.ndarray, d: np.ndarray, exact: bool = False) -> np.ndarray:
    """First front-face hit parameter of each ray (local frame) on its part's primitive.
    Unless ``exact``, cylinders and spheres are tested as their boxes (a few per cent of
    their silhouettes, at the corners; tubes stay open at the top)."""
    tube = prim == TUBE
    if not exact and not tube.any():
        return _box(o, d)
    out = np.full(len(prim), INF)
    for kind, test in _TESTS.items():
        if not exact and kind in (CYLINDER, SPHERE):
            continue
        mask = tube if kind == TUBE else prim == kind if exact else ~tube
        if mask.any():
            out[mask] = test(o[mask], d[mask])
    return out


# ---------------------------------------------------------------------------- sample points
def _levels(extent: float) -> tuple[float, ...]:
    if extent < 0.12:
        return (0.0,)
    if extent < 0.6:
        return (-0.4, 0.4)
    return (-0.42, 0.0, 0.42)


def local_points(prim: int, extents: tuple[float, float, float]) -> np.ndarray:
    """Sample points (local unit frame) just inside a part of these world extents."""
    ex, ey, ez = extents
    if prim == BOX:
        return np.array(list(itertools.product(_levels(ex), _levels(ey), _levels(ez))), dtype=float)
    if prim == SPHERE:
        corners = [(x, y, z) for x in (-0.26, 0.26) for y in (-0.26, 0.26) for z in (-0.26, 0.26)]
        return np.array(corners if max(extents) >= 0.12 else [(0.0, 0.0, 0.0)], dtype=float)
    radius = 0.47 if prim == TUBE else 0.38
    n = 4 if max(ex, ez) >= 0.12 else 1
    angles = np.arange(n) * (2 * np.pi / n) + np.pi / 4
    ring = [(radius * np.sin(a), radius * np.cos(a)) for a in angles] if n > 1 else [(0.0, 0.0)]
    ys = (-0.35, 0.35) if ey >= 0.12 else (0.0,)
    points = [(x, y, z) for y in ys for x, z in ring]
    if prim == TUBE:
        points.append((0.0, -0.45, 0.0))  # the inside floor, seen from above
    return np.array(points, dtype=float)

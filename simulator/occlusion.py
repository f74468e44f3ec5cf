"""Symbolic occlusion: which candidate objects a camera actually sees, without rendering.

Owns the sight test behind ``World.visible_ids``. The occluders are the renderer's own
shapes: every object is turned into the parts ``simulator.render`` draws for it (a
table's top and legs, a fridge's shell and swung door, a bowl's open tube...) plus the
room's walls, each a unit primitive under an affine map (``occlusion_shapes``). A
candidate is seen if at least one of its sample points (a few per part, just inside its
surface) projects into the frame and the ray from the camera towards it meets one of the
candidate's own parts before any other part (AI2-THOR's rule, with visibility points
and colliders replaced by the drawn shapes). Containers need no special case: an open
receptacle is drawn hollow, so what it holds is seen through its opening.

Parts are cached per drawn state of each object (``RenderObject``), so only the objects
that changed are rebuilt; rays are culled per part by screen rectangle and depth before
the exact test, which runs on numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simulator.geometry import NEAR, Camera, boxes_in_frustum, project_boxes
from simulator.occlusion_shapes import entry, local_points
from simulator.render.meshes import BOX
from simulator.render.room import room_rows
from simulator.render.styles import object_rows
from simulator.render.types import RenderObject, RoomGeometry

SCREEN_RAYS = True
FIRST_POINTS = 6  # points tried per candidate in the first (cheap) round
MAX_POINTS = 48  # at most this many sample points per object
SUNK = 0.03  # m: a sample point this close inside another part's surface is not hidden by it
_PART_CACHE: dict[tuple[RenderObject, tuple], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


@dataclass(frozen=True)
class Parts:
    """Every drawn part of a world (objects in ``ids`` order, then walls) as arrays."""

    owner: np.ndarray  # (P,) index of the object in ``ids``; -1 for walls
    prim: np.ndarray  # (P,) primitive kind
    inverse: np.ndarray  # (P, 3, 3) world -> local unit frame
    origin: np.ndarray  # (P, 3) the part's centre
    box_center: np.ndarray  # (P, 3) the part's world-aligned bounding box
    box_size: np.ndarray  # (P, 3)
    points: list[np.ndarray]  # per object: (Q_i, 3) world sample points, best first
    parent: np.ndarray  # (N,) index of each object's receptacle, -1 for none
    starts: np.ndarray  # (N + 1,) object i owns parts starts[i]:starts[i + 1]
    hull_center: np.ndarray  # (N, 3) per object: the box around its drawn parts
    hull_size: np.ndarray  # (N, 3) (zero for an object that is not drawn)
    eyes: dict = field(default_factory=dict)  # camera position -> (P, 3) it in each part's frame


def _order(points: np.ndarray) -> np.ndarray:
    """Points reordered so that any prefix is spread over the object (farthest-point order)."""
    if len(points) <= 2:
        return points
    chosen = [int(np.argmin(np.linalg.norm(points - points.mean(0), axis=1)))]
    gap = np.linalg.norm(points - points[chosen[0]], axis=1)
    for _ in range(min(len(points), MAX_POINTS) - 1):
        nxt = int(np.argmax(gap))
        if gap[nxt] <= 0:
            break
        chosen.append(nxt)
        gap = np.minimum(gap, np.linalg.norm(points - points[nxt], axis=1))
    return points[chosen]


_Geometry = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _rows_geometry(rows: dict[int, np.ndarray]) -> _Geometry:
    """(prim, inverse, origin, box size, sample points, hull (lo, hi)) of renderer rows."""
    prims, linear, origin, points = [], [], [], []
    for prim, array in rows.items():
        for row in array:
            affine = row[:12].astype(float).reshape(3, 4)
            prims.append(prim)
            linear.append(affine[:, :3])
            origin.append(affine[:, 3])
            extents = np.linalg.norm(affine[:, :3], axis=0)
            points.append(local_points(prim, tuple(extents)) @ affine[:, :3].T + affine[:, 3])
    if not prims:
        return np.zeros(0, int), np.zeros((0, 3, 3)), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((2, 3))
    lin, org = np.array(linear), np.array(origin)
    size = np.abs(lin).sum(axis=2)  # extents of the unit box's image
    hull = np.stack([(org - size / 2).min(0), (org + size / 2).max(0)])
    return np.array(prims), np.linalg.inv(lin), org, size, _order(np.concatenate(points)), hull


def object_parts(obj: RenderObject, bounds: tuple) -> _Geometry:
    """The drawn parts of one object (cached by its drawn state)."""
    key = (obj, bounds)
    found = _PART_CACHE.get(key)
    if found is None:
        if len(_PART_CACHE) > 50_000:
            _PART_CACHE.clear()
        found = _PART_CACHE[key] = _rows_geometry(object_rows(obj, bounds))
    return found


_WALLS: dict[RoomGeometry, _Geometry] = {}


def wall_parts(room: RoomGeometry) -> _Geometry:
    """The room's walls (standing boxes; the floor lies below every object)."""
    found = _WALLS.get(room)
    if found is None:
        rows = room_rows(room)[BOX]
        rows = rows[rows[:, 7] > 0.0]  # y of the centre
        if len(_WALLS) > 256:
            _WALLS.clear()
        found = _WALLS[room] = _rows_geometry({BOX: rows})
    return found


def build_parts(objects: Sequence[RenderObject], room: RoomGeometry, parent: np.ndarray) -> Parts:
    """Parts of all objects (hidden ones have none) and of the room's walls (``parent``:
    each object's receptacle as an index, -1 for none)."""
    geometry = [object_parts(obj, room.bounds) for obj in objects]
    walls = wall_parts(room)
    counts = np.array([len(g[0]) for g in geometry], dtype=int)
    owner = np.repeat(np.arange(len(objects) + 1), np.append(counts, len(walls[0]))) if len(objects) else np.zeros(len(walls[0]), int)
    owner[owner == len(objects)] = -1
    every = [*geometry, walls]
    hulls = np.array([g[5] for g in geometry]).reshape(-1, 2, 3)
    return Parts(
        owner=owner,
        prim=np.concatenate([g[0] for g in every]),
        inverse=np.concatenate([g[1] for g in every]),
        origin=np.concatenate([g[2] for g in every]),
        box_center=np.concatenate([g[2] for g in every]),
        box_size=np.concatenate([g[3] for g in every]),
        points=[g[4] for g in geometry],
        parent=np.asarray(parent, dtype=int),
        starts=np.concatenate([[0], np.cumsum(counts)]),
        hull_center=(hulls[:, 0] + hulls[:, 1]) / 2,
        hull_size=np.where(counts[:, None] > 0, hulls[:, 1] - hulls[:, 0], 0.0),
    )


@dataclass(frozen=True)
class _Occluders:
    """The parts that may be in the way from one camera, with their screen rectangles."""

    index: np.ndarray  # (M,) part indices
    owner: np.ndarray  # (M,)
    rect: np.ndarray  # (M, 4) screen rectangle (x0, y0, x1, y1)
    near: np.ndarray  # (M,) nearest camera depth of the part's box
    eye: np.ndarray  # (M, 3) the camera in each part's unit frame


def _occluders(camera: Camera, parts: Parts, drawn_in_view: np.ndarray) -> _Occluders:
    index = np.nonzero((parts.owner < 0) | np.append(drawn_in_view, False)[parts.owner])[0]
    center, size = parts.box_center[index], parts.box_size[index]
    depth = (center - camera.position) @ camera.basis[2] - np.abs(size) @ np.abs(camera.basis[2]) / 2
    key = (camera.x, camera.y, camera.z)
    eyes = parts.eyes.get(key)
    if eyes is None:  # the same for every rotation and horizon at this spot
        if len(parts.eyes) > 64:
            parts.eyes.clear()
        eyes = parts.eyes[key] = np.einsum("kij,kj->ki", parts.inverse, camera.position - parts.origin)
    eye = eyes[index]
    return _Occluders(index, parts.owner[index], project_boxes(camera, center, size), depth, eye)


def _first_hits(
    camera: Camera, parts: Parts, occ: _Occluders, rays: np.ndarray, ray_owner: np.ndarray, inside: bool
) -> np.ndarray:
    """The owners (object indices) of the rays whose first part met is one of their
    owner's. Rays aim at world points; with ``inside`` each point lies inside one of its
    owner's parts, so the ray is seen unless another part is met before the point. Exact
    tests run only where another part's screen rectangle covers the ray nearer than its
    point; parts are tested as boxes, except open-top tubes (a pot, a garbage can), which
    are seen into. What lies on or in the owner does not hide it, and nor does a part the
    point is sunk into by at most ``SUNK``. The owner's receptacle does hide it: its walls
    are drawn, and a ray through them misses what they hold (the receptacle's hollow
    inside is open to rays through its opening)."""
    cam = camera.to_camera(rays)
    depth = cam[:, 2]
    k = 0.5 / camera.tan_half_fov
    sx = (0.5 + k * cam[:, 0] / depth)[:, None]
    sy = (0.5 - k * cam[:, 1] / depth)[:, None]
    rect = occ.rect
    own = occ.owner[None, :] == ray_owner[:, None]
    parent = np.append(parts.parent, -1)  # the parent of -1 (a wall) is -1
    held = parent[occ.owner][None, :] == ray_owner[:, None]  # what lies on or in the owner
    cover = (
        (occ.near[None, :] < depth[:, None])
        & (rect[None, :, 0] <= sx) & (sx <= rect[None, :, 2])
        & (rect[None, :, 1] <= sy) & (sy <= rect[None, :, 3])
        & ~own & ~held
    )  # fmt: skip
    ray_i, col = np.nonzero(cover | own if not inside else cover)
    part_i = occ.index[col]
    d = np.einsum("kij,kj->ki", parts.inverse[part_i], rays[ray_i] - camera.position)
    hit = entry(parts.prim[part_i], occ.eye[col], d)
    hit[hit * depth[ray_i] < NEAR] = np.inf  # clipped by the near plane
    n = len(rays)
    t_other = np.full(n, np.inf)
    if inside:
        hit[_sunk_into(parts, part_i, occ.eye[col] + d)] = np.inf
        np.minimum.at(t_other, ray_i, hit)
        return np.unique(ray_owner[t_other >= 1.0])
    mine = own[ray_i, col]
    t_own = np.full(n, np.inf)
    np.minimum.at(t_own, ray_i[mine], hit[mine])
    np.minimum.at(t_other, ray_i[~mine], hit[~mine])
    slack = SUNK / np.linalg.norm(rays - camera.position, axis=1)  # SUNK in ray parameter units
    return np.unique(ray_owner[np.isfinite(t_own) & (t_own < t_other + slack)])


def _sunk_into(parts: Parts, part_i: np.ndarray, local: np.ndarray) -> np.ndarray:
    """Which points (each in its part's unit frame) lie inside that part's box no deeper
    than ``SUNK`` below its surface: a point of an object sunk a little into what it rests
    on or hangs against (a spoon in a drawer's floor, a poster in its wall), which the
    drawn surfaces do not hide."""
    scale = 1.0 / np.linalg.norm(parts.inverse[part_i], axis=2)  # the part's extents
    depth = ((0.5 - np.abs(local)) * scale).min(axis=1)
    return (depth >= 0.0) & (depth <= SUNK)


def _in_frame(camera: Camera, points: np.ndarray) -> np.ndarray:
    cam = camera.to_camera(points)
    lim = cam[:, 2] * camera.tan_half_fov
    return (cam[:, 2] > NEAR) & (np.abs(cam[:, 0]) < lim) & (np.abs(cam[:, 1]) < lim)


_GRID = np.array([(u, v) for u in (1 / 6, 1 / 2, 5 / 6) for v in (1 / 6, 1 / 2, 5 / 6)])


def _screen_rays(camera: Camera, parts: Parts, objects: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Points along rays through a 3 x 3 grid over the on-screen part of each of the
    objects' parts (finds the slivers that sample points miss, e.g. at the frame's edge)."""
    index = np.concatenate([np.arange(parts.starts[o], parts.starts[o + 1]) for o in objects])
    rect = np.clip(project_boxes(camera, parts.box_center[index], parts.box_size[index]), 0.0, 1.0)
    ok = (rect[:, 2] > rect[:, 0]) & (rect[:, 3] > rect[:, 1])
    index, rect = index[ok], rect[ok]
    sx = rect[:, None, 0] + (rect[:, None, 2] - rect[:, None, 0]) * _GRID[None, :, 0]
    sy = rect[:, None, 1] + (rect[:, None, 3] - rect[:, None, 1]) * _GRID[None, :, 1]
    t = camera.tan_half_fov
    right, up, forward = camera.axes()
    # each ray ends at the far side of its part, so that every part nearer than that is tested
    far = (parts.box_center[index] - camera.position) @ forward + np.abs(parts.box_size[index]) @ np.abs(forward) / 2
    local = np.stack([(2 * sx - 1) * t, (1 - 2 * sy) * t, np.ones_like(sx)], axis=-1) * far[:, None, None]
    points = camera.position + local.reshape(-1, 3) @ np.stack([right, up, forward])
    return points, np.repeat(parts.owner[index], len(_GRID))


def seen(camera: Camera, parts: Parts, candidates: Sequence[int], reach: np.ndarray) -> list[int]:
    """The objects among ``candidates`` (indices; within reach) that are drawn, in the
    frustum and not occluded. A first round tries each one's first ``FIRST_POINTS``
    sample points; those not yet seen then try all their points and rays through a grid
    over the on-screen part of each of their parts."""
    drawn_in_view = boxes_in_frustum(camera, parts.hull_center, parts.hull_size) & (parts.hull_size[:, 0] > 0)
    found: list[int] = []
    remaining = [int(c) for c in candidates if drawn_in_view[c]]
    if not remaining:
        return found
    occluders = _occluders(camera, parts, drawn_in_view)
    for final in (False, True):
        if not remaining:
            break
        limit = MAX_POINTS if final else FIRST_POINTS
        rays = [parts.points[c][:limit] for c in remaining]
        owners = np.repeat(remaining, [len(r) for r in rays])
        rays_all = np.concatenate(rays)
        keep = _in_frame(camera, rays_all)
        rays_all, owners = rays_all[keep], owners[keep]
        if final:
            hit = set(_first_hits(camera, parts, occluders, rays_all, owners, True).tolist()) if len(rays_all) else set()
            left = [c for c in remaining if c not in hit]
            if left and SCREEN_RAYS:  # the slivers sample points miss (at the frame's edges, between points)
                extra, extra_owner = _screen_rays(camera, parts, left)
                if len(extra):
                    hit |= set(_first_hits(camera, parts, occluders, extra, extra_owner, False).tolist())
        else:
            hit = set(_first_hits(camera, parts, occluders, rays_all, owners, True).tolist()) if len(rays_all) else set()
        found.extend(c for c in remaining if c in hit)
        remaining = [c for c in remaining if c not in hit]
    return sorted(found)

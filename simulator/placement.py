"""Where a put thing lands: the spot on a receptacle's top or inside it (fridge, microwave,
cabinet, drawer), chosen as AI2-THOR's PutObject does from the agent's pose, and moved to
a free spot when something already lies there; and how the put thing turns: to the
receptacle's rotation, as AI2-THOR's PutObject turns it (``put_landing``). A put into a sink
basin from where the train experts stood is moved by that basin's fitted put offset: where
AI2-THOR's put left their things (``simulator.calibration.putfit``).

The shapes of receptacle interiors (shelves, fronts, the renderer's inner floor) are
calibrated on ALFRED's train masks (docs/calibration.md); ``spawn`` uses the same spots so
that things spawned inside are where a put would leave them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.calibration.table import put_offset, rotation_matrix, seat_top
from simulator.objects import SimObject, encloses, slide_offset

if TYPE_CHECKING:  # pragma: no cover
    from simulator.geometry import Camera
    from simulator.scenes import FixedObject
    from simulator.world import World

INNER_FLOOR = 0.03  # an enclosing receptacle's floor above its box bottom (the renderer's shell)


def landing(world: World, recep: SimObject, item: SimObject, camera: Camera) -> tuple[float, float, float]:
    """``_landing``'s spot."""
    return _landing(world, recep, item, camera)[0]


def _landing(world: World, recep: SimObject, item: SimObject, camera: Camera) -> tuple[tuple[float, float, float], float]:
    """Where ``item`` (its centre) lands when put in ``recep`` by an agent with this camera,
    and how far something already there moved it off its first spot (``free_spot``'s cost):
    on an open surface where the agent looks, inside its footprint; in an enclosing
    receptacle (fridge, microwave, cabinet, drawer) at ``inside_spot``, on the calibrated
    shelf the agent's gaze meets nearest the footprint (the higher one on ties), else on its
    floor. Put from where the train experts put into it, the spot moves by the receptacle's
    fitted put offset (``table.put_offset``: sink basins). A spot another thing already
    takes gives way to the nearest free one (``free_spot``)."""
    (cx, cy, cz), (sx, sy, sz) = recep.position, recep.size
    _, _, forward = camera.axes()

    def gaze(surface: float) -> tuple[float, float]:
        if forward[1] < -1e-3:
            t = (surface - camera.y) / forward[1]
            return camera.x + t * forward[0], camera.z + t * forward[2]
        return cx, cz

    def off_footprint(surface: float) -> float:
        hx, hz = gaze(surface)
        return max(abs(hx - cx) - sx / 2, 0.0) + max(abs(hz - cz) - sz / 2, 0.0)

    enclosed = encloses(recep)
    if not enclosed:  # on its top, a sofa's or armchair's seat, a garbage can's bottom
        seat = seat_top(recep.object_type, cy - sy / 2, sy, recep.levels)
        surface = cy + sy / 2 if seat is None else seat
    elif recep.levels:
        surface = min(sorted(recep.levels, reverse=True), key=off_footprint)
    else:
        surface = cy - sy / 2 + INNER_FLOOR
    hx, hz = inside_spot(recep, camera, surface, item.size) if enclosed else gaze(surface)
    mx = max(sx / 2 - item.size[0] / 2, 0.0)
    mz = max(sz / 2 - item.size[2] / 2, 0.0)
    dx, _, dz = slide_offset(recep) if recep.is_open else (0.0, 0.0, 0.0)  # an open drawer is pulled out
    ox, oz = put_offset(world.scene.name, recep.object_id, (camera.x, camera.z))  # AI2-THOR's spawn point (fitted)
    x = float(np.clip(np.clip(hx, cx - mx, cx + mx) + ox, cx - mx, cx + mx)) + dx
    z = float(np.clip(np.clip(hz, cz - mz, cz + mz) + oz, cz - mz, cz + mz)) + dz
    y = surface + item.size[1] / 2
    occupied = [
        (world.objects[c].position, world.objects[c].size) for c in recep.children if c != item.object_id
    ]
    wall = INNER_FLOOR if enclosed else 0.0  # inside its walls (the spot itself may lie at the open front)
    ax, az = max(mx - wall, 0.0), max(mz - wall, 0.0)
    area = ((min(cx - ax + dx, x), max(cx + ax + dx, x)), (min(cz - az + dz, z), max(cz + az + dz, z)))
    back = _back(recep, camera) if enclosed else None
    first = (x, y, z)
    x, z = free_spot(first, item.size, area, occupied, back)
    return (round(x, 4), round(y, 4), round(z, 4)), float(_move_cost(first, np.array([(x, y, z)]), back)[0])


def put_landing(world: World, recep: SimObject, item: SimObject, camera: Camera) -> tuple[float, float, float]:
    """Turn ``item`` as AI2-THOR's PutObject does and return where it lands: upright, to the
    rotation of the receptacle's box, or where that does not fit at its spot, a quarter turn
    more if that lands nearer it (AI2-THOR tries the spots nearest the agent first, and at
    each the box's rotation, then 90-degree steps). An enclosure's box faces its open front
    (fixed objects carry no recorded rotation here: its yaw is the front's axis); any other
    receptacle's is its own recorded rotation. A slice put
    into FloorPlan10's microwave then shows its face to the agent in front, as AI2-THOR drew
    every slice taken out of a microwave (train masks: median box width 21 px for potato
    slices, ours 3 px before). Types without fitted own extents are drawn unturned and stay
    as they are."""
    if item.extent is None:
        return landing(world, recep, item, camera)
    if encloses(recep):
        axis, _ = _front(recep, camera)
        rotation = (0.0, 90.0 if axis == 0 else 0.0, 0.0)
    else:
        rotation = tuple(float(v) for v in recep.rotation)
    _turn(item, rotation)
    spot, moved = _landing(world, recep, item, camera)
    if moved > 0.0:  # a tomato at the microwave's front, the slice pushed behind it: turned, it fits beside
        _turn(item, (rotation[0], (rotation[1] + 90.0) % 360.0, rotation[2]))
        turned, moved_turned = _landing(world, recep, item, camera)
        if moved_turned < moved:
            return turned
        _turn(item, rotation)
    return spot


def _turn(item: SimObject, rotation: tuple[float, ...]) -> None:
    """Set a fitted object's rotation and its axis-aligned size with it."""
    item.rotation = tuple(rotation)  # type: ignore[assignment]
    extent = np.asarray(item.extent, dtype=float)
    item.size = tuple(round(float(v), 5) for v in np.abs(rotation_matrix(item.rotation)) @ extent)  # type: ignore[assignment]


CLEARANCE = 0.001  # metres two boxes may overlap by (positions are rounded to millimetres)
FREE_STEP = 0.02  # metres between the spots tried when the preferred one is taken
BACK_COST = 3.0  # a spot deeper inside an enclosure costs this much per metre (it hides what lies there)


def collides(position, size, placed: list[tuple]) -> bool:
    """Does the box (centre, size) interpenetrate one of ``placed`` (by more than ``CLEARANCE``
    on every axis)?"""
    return any(
        all(abs(position[k] - p[k]) < (size[k] + s[k]) / 2 - CLEARANCE for k in range(3)) for p, s in placed
    )


def free_spot(position, size, area, placed: list[tuple], back: tuple[int, float] | None = None) -> tuple[float, float]:
    """(x, z) for a box of ``size`` at ``position`` that interpenetrates nothing ``placed``,
    as AI2-THOR puts a thing on a free spot: ``position`` itself if free, else the free spot
    of a grid through it over ``area`` ((x0, x1), (z0, z1)) nearest it, a spot deeper inside an
    enclosure (``back``: the axis, 0 x or 2 z, and the sign towards the back) costing
    ``BACK_COST`` times more; ``position`` if every spot is taken."""
    x, y, z = position
    if not collides(position, size, placed):
        return x, z
    (x0, x1), (z0, z1) = area
    gx, gz = np.meshgrid(_steps(x, x0, x1), _steps(z, z0, z1))
    spots = np.stack([gx.ravel(), np.full(gx.size, y), gz.ravel()], axis=1)
    free = np.ones(len(spots), dtype=bool)
    for p, s in placed:
        overlap = np.abs(spots - np.asarray(p)) < (np.asarray(size) + np.asarray(s)) / 2 - CLEARANCE
        free &= ~overlap.all(axis=1)
    if not free.any():
        return x, z
    best = int(np.argmin(np.where(free, _move_cost(position, spots, back), np.inf)))
    return float(spots[best, 0]), float(spots[best, 2])


def _move_cost(position, spots: np.ndarray, back: tuple[int, float] | None) -> np.ndarray:
    """What moving a thing from ``position`` to each of ``spots`` (n x 3) costs: the distance
    across, plus ``BACK_COST`` per metre deeper inside an enclosure (``back``)."""
    cost = np.hypot(spots[:, 0] - position[0], spots[:, 2] - position[2])
    if back is not None:
        axis, sign = back
        cost = cost + BACK_COST * np.maximum(sign * (spots[:, axis] - position[axis]), 0.0)
    return cost


def _steps(at: float, lo: float, hi: float) -> np.ndarray:
    """``at`` plus whole multiples of ``FREE_STEP`` that lie in [lo, hi] (``at`` itself included)."""
    k = np.arange(np.ceil((lo - at) / FREE_STEP - 1e-9), np.floor((hi - at) / FREE_STEP + 1e-9) + 1)
    return np.union1d(at + k * FREE_STEP, [at])


def inside_spot(recep: SimObject | FixedObject, camera, surface: float, item_size,
                at: tuple[float, float] | None = None) -> tuple[float, float]:
    """(x, z) where a thing lands in an enclosing receptacle, on the shelf at ``surface``,
    with the agent's eye at ``camera`` (x, y, z): AI2-THOR puts it on a free spot, not where
    the agent looks. The front is the side the receptacle opens to (``front``), else the
    side towards the agent. Fitted on train masks (docs/calibration.md): across the front where
    the point ``at`` (x, z) is (None: in line with the agent, as AI2-THOR takes the spawn
    point nearest the agent), as far as the object fits inside the walls; in depth at the centre, or nearer
    the open front just enough that the agent sees it: below the eye, that the shelf above
    (or the receptacle's top) does not hide its top (the expert saw what it took out again
    from where it put it in); above the eye (a wall cabinet, a microwave over the stove),
    at the front."""
    (cx, _, cz), (sx, _, sz) = recep.position, recep.size
    height = item_size[1]
    axis, sign = _front(recep, camera)
    half = (sx if axis == 0 else sz) / 2
    # the shelf above, else the receptacle's own top, hides what lies deep inside
    above = [level - 0.01 for level in recep.levels if level > surface + 0.02]
    ceiling = min(above, default=recep.position[1] + recep.size[1] / 2 - INNER_FLOOR)
    depth, top = 0.0, surface + height  # depth: from the centre towards the front, metres
    eye = camera.x if axis == 0 else camera.z
    run = abs(eye - ((cx if axis == 0 else cz) + sign * half))  # from the eye to the front plane
    if camera.y > ceiling > top:
        # the ray eye -> top passes the front plane below the ceiling if the top lies
        # within run * (ceiling - top) / (eye height - ceiling) of the front, inside
        reach = run * (ceiling - top) / (camera.y - ceiling)
        depth = max(0.0, min(half, half - reach))
    elif surface > camera.y:
        # from below, the shelf's front edge hides all but what lies at the front (a slice
        # placed just far enough forward for the putting pose was hidden from every pose
        # the agent could pick it up from): as far forward as it fits
        depth = max(half - (item_size[0] if axis == 0 else item_size[2]) / 2 - INNER_FLOOR, 0.0)
    # across the front: as far as the object fits inside the walls
    ax, az = (camera.x, camera.z) if at is None else at
    if axis == 0:
        room = max(sz / 2 - item_size[2] / 2 - INNER_FLOOR, 0.0)
        return cx + sign * depth, float(np.clip(az, cz - room, cz + room))
    room = max(sx / 2 - item_size[0] / 2 - INNER_FLOOR, 0.0)
    return float(np.clip(ax, cx - room, cx + room)), cz + sign * depth


def _front(recep: SimObject | FixedObject, camera) -> tuple[int, float]:
    """The axis (0: x, 2: z) and sign of an enclosure's open front: the side it opens to
    (``front``), even when the agent reaches in from beside it; else the side towards the agent."""
    front = getattr(recep, "front", None)
    if front is not None:
        return (0, float(front[0])) if front[0] else (2, float(front[1]))
    (cx, _, cz), (sx, _, sz) = recep.position, recep.size
    dx, dz = camera.x - cx, camera.z - cz
    axis = 0 if abs(dx) * sz >= abs(dz) * sx else 2
    return axis, 1.0 if (dx if axis == 0 else dz) >= 0 else -1.0


def _back(recep: SimObject, camera) -> tuple[int, float]:
    axis, sign = _front(recep, camera)
    return axis, -sign

"""Resolving an action's target: by objectId, or by a relative screen point (TEACh clicks).

An objectId is matched exactly, or to the object of the same type whose id coordinates
differ by at most 1.5 cm per axis (AI2-THOR's ids were rounded from positions that the
physics engine later nudged by millimetres; ALFRED's expert actions use those ids).
A screen point (x right, y down, relative in [0, 1]) is resolved, when rendering is on,
through the instance buffer as TEACh does: of the objects drawn in a small patch around
the point that afford the action and are within reach, the one under the point itself,
else the one with most pixels in the patch. Without rendering it casts a ray through the
point against the boxes of the visible objects that afford the action and picks the
smallest box hit (the apple in the bowl, the basin in the counter). The target
must be visible: in the view frustum, within the interaction distance, not inside a
closed receptacle, not held.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

import numpy as np

from simulator.geometry import box_distances, project_boxes
from simulator.objects import SimObject
from simulator.world import World

if TYPE_CHECKING:  # pragma: no cover
    from simulator.render.types import Frames

ID_TOLERANCE = 0.015
# types the floor-plan data lacks and the scene builder synthesizes (docs/scenes.md): an id
# naming one resolves to the nearest instance within this distance of its coordinates
SYNTHESIZED = {"Faucet": 1.0}
CLICK_PATCH = 0.02  # half-size of the patch around a click, relative to the frame
POUR_TARGETS = ("HousePlant", "SinkBasin", "BathtubBasin")

# worlds whose agents' views are rendered: world -> provider(world, agent index) -> Frames
# (a provider must not hold its world, or the weak entry would keep the world alive)
FrameProvider = Callable[[World, int], "Frames"]
_FRAMES: WeakKeyDictionary[World, FrameProvider] = WeakKeyDictionary()


def attach_frames(world: World, provider: FrameProvider | None) -> None:
    """Resolve clicks in ``world`` through the instance buffer of ``provider(world, agent)``
    (the Simulator attaches its renderer when ``render: egl``); None detaches."""
    if provider is None:
        _FRAMES.pop(world, None)
    else:
        _FRAMES[world] = provider


def attached_frames(world: World) -> FrameProvider | None:
    """The provider ``attach_frames`` gave ``world`` (None: clicks resolve by rays)."""
    return _FRAMES.get(world)


@dataclass(frozen=True)
class Target:
    """The object an action applies to, with the viewpoint it was chosen from."""

    obj: SimObject | None

    @classmethod
    def none(cls) -> Target:
        return cls(None)


def affords(obj: SimObject, affordance: str | None) -> bool:
    if affordance is None:
        return True
    if affordance == "pourable":
        return obj.fillable or obj.object_type in POUR_TARGETS
    return bool(getattr(obj, affordance))


def lookup(world: World, object_id: str) -> SimObject | None:
    """The object with this id (exactly, or within AI2-THOR's rounding tolerance)."""
    if object_id in world.objects:
        return world.objects[object_id]
    parts = object_id.split("|")
    if len(parts) < 4:
        return None
    try:
        coords = np.array([float(p) for p in parts[1:4]])
    except ValueError:
        return None
    suffix = parts[4:]
    if parts[0] in SYNTHESIZED:
        same = [o for o in world.objects.values() if o.object_type == parts[0]]
        nearest = min(same, key=lambda o: (float(np.linalg.norm(np.subtract(o.position, coords))), o.object_id), default=None)
        if nearest is not None and np.linalg.norm(np.subtract(nearest.position, coords)) <= SYNTHESIZED[parts[0]]:
            return nearest
        return None
    for oid, obj in world.objects.items():
        other = oid.split("|")
        if other[0] != parts[0] or other[4:] != suffix or len(other) < 4:
            continue
        try:
            if np.all(np.abs(np.array([float(p) for p in other[1:4]]) - coords) <= ID_TOLERANCE + 1e-9):
                return obj
        except ValueError:
            continue
    return None


def resolve_target(world: World, agent_index: int, spec, args: dict) -> tuple[Target, str | None]:
    """Find the action's target and check it is visible; (Target, None) or (none, error)."""
    object_id = args.get("receptacleObjectId") if spec.op == "put" else None
    object_id = object_id or args.get("objectId")
    if object_id:
        obj = lookup(world, str(object_id))
        if obj is None:
            return Target.none(), f"Object {object_id} does not exist in this scene"
        if obj.object_id not in world.visible_ids(agent_index):
            return Target.none(), f"{obj.object_id} is not visible (out of view, out of reach or inside something closed)"
        return Target(obj), None
    if "x" in args and "y" in args:
        try:
            x, y = float(args["x"]), float(args["y"])
        except (TypeError, ValueError):
            return Target.none(), f"Click position must be two numbers in [0, 1], got {args['x']!r}, {args['y']!r}"
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            return Target.none(), f"Click position ({x:g}, {y:g}) is outside the frame [0, 1] x [0, 1]"
        provider = attached_frames(world)
        if provider is not None:
            obj = rendered_object_at(world, agent_index, x, y, spec.affordance, provider(world, agent_index))
        else:
            obj = object_at(world, agent_index, x, y, spec.affordance)
        if obj is None:
            return Target.none(), f"No object that can be acted on ({spec.affordance}) at ({x:.2f}, {y:.2f})"
        return Target(obj), None
    return Target.none(), "This action needs a target: objectId=... or a screen point x=..., y=..."


def _ray_hits(camera, x: float, y: float, centers: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Distance along the ray through relative pixel (x, y) to each box (inf if missed)."""
    right, up, forward = camera.axes()
    t = camera.tan_half_fov
    direction = forward + (2 * x - 1) * t * right - (2 * y - 1) * t * up
    origin = camera.position
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / direction
        t1 = (centers - sizes / 2 - origin) * inv
        t2 = (centers + sizes / 2 - origin) * inv
    near = np.nanmax(np.minimum(t1, t2), axis=1)
    far = np.nanmin(np.maximum(t1, t2), axis=1)
    hit = (far >= np.maximum(near, 0.0))
    return np.where(hit, np.maximum(near, 0.0), np.inf)


def object_at(world: World, agent_index: int, x: float, y: float, affordance: str | None) -> SimObject | None:
    """The visible object that affords ``affordance`` under the relative point (x, y).

    Symbolic click resolution: a ray through the point (and, if it hits nothing, through
    the corners of a small patch around it) is cast against the boxes of the visible
    objects that afford the action; of the boxes it hits, the smallest wins (the apple in
    the bowl, the basin in the counter), then the nearest. Boxes do not occlude each other
    here; with rendering on, the instance buffer decides instead.
    """
    visible = [world.objects[i] for i in world.visible_ids(agent_index)]
    candidates = [o for o in visible if affords(o, affordance)]
    if not candidates:
        return None
    camera = world.agents[agent_index].camera(world.field_of_view)
    centers = np.array([o.position for o in candidates], dtype=float)
    sizes = np.array([o.size for o in candidates], dtype=float)
    points = [(x, y)] + [(x + dx, y + dy) for dx in (-CLICK_PATCH, CLICK_PATCH) for dy in (-CLICK_PATCH, CLICK_PATCH)]
    for px, py in points:
        distances = _ray_hits(camera, px, py, centers, sizes)
        if np.isfinite(distances).any():
            break
    else:
        return None
    hits = np.nonzero(np.isfinite(distances))[0]
    volumes = np.prod(sizes, axis=1)
    best = min(hits, key=lambda i: (round(float(volumes[i]), 6), float(distances[i]), candidates[i].object_id))
    return candidates[best]


def rendered_object_at(
    world: World, agent_index: int, x: float, y: float, affordance: str | None, frames: Frames
) -> SimObject | None:
    """The object under the relative point (x, y) by the instance buffer (TEACh's way):
    among objects drawn in the patch of half-size ``CLICK_PATCH`` around the point that
    afford ``affordance``, are within the interaction distance and are not held, the one
    under the point itself, else the one with most pixels in the patch."""
    instance = frames.instance
    h, w = instance.shape
    col, row = min(max(int(x * w), 0), w - 1), min(max(int(y * h), 0), h - 1)
    rx, ry = max(1, round(CLICK_PATCH * w)), max(1, round(CLICK_PATCH * h))
    patch = instance[max(row - ry, 0): row + ry + 1, max(col - rx, 0): col + rx + 1]
    counts = np.bincount(patch.ravel())
    candidates: list[tuple[int, SimObject]] = []
    for k in np.nonzero(counts)[0]:
        obj = world.objects.get(frames.ids.get(int(k), ""))
        if obj is not None and obj.held_by is None and affords(obj, affordance):
            candidates.append((int(k), obj))
    if not candidates:
        return None
    camera = world.agents[agent_index].camera(world.field_of_view)
    centers = np.array([o.position for _, o in candidates], dtype=float)
    sizes = np.array([o.size for _, o in candidates], dtype=float)
    reach = box_distances(camera.position, centers, sizes) <= world.interaction_distance
    candidates = [c for c, ok in zip(candidates, reach, strict=True) if ok and not world.is_hidden(c[1].object_id)]
    if not candidates:
        return None
    centre = int(instance[row, col])
    for k, obj in candidates:
        if k == centre:
            return obj
    return max(candidates, key=lambda c: (counts[c[0]], c[1].object_id))[1]


def click_for(world: World, agent_index: int, object_id: str, affordance: str | None) -> tuple[float, float] | None:
    """A relative screen point that selects ``object_id`` for an action (None if none does).

    Without rendering: tries the centre of the object's on-screen box, then a grid over it,
    and keeps the first point that ``object_at`` maps back to the object. With rendering:
    tries pixels of the object's mask, innermost first, through ``rendered_object_at``.
    Points have two decimals, as a click is spoken ("Pickup Mug at 0.57 0.25").
    """
    provider = _FRAMES.get(world)
    if provider is not None:
        return _rendered_click_for(world, agent_index, object_id, affordance, provider(world, agent_index))
    obj = world.objects[object_id]
    camera = world.agents[agent_index].camera(world.field_of_view)
    x0, y0, x1, y1 = project_boxes(camera, np.array([obj.position]), np.array([obj.size]))[0]
    x0, x1 = max(x0, 0.0), min(x1, 1.0)
    y0, y1 = max(y0, 0.0), min(y1, 1.0)
    if x0 > x1 or y0 > y1:
        return None
    fractions = (0.5, 0.35, 0.65, 0.2, 0.8, 0.05, 0.95)
    for fy in fractions:
        for fx in fractions:
            x, y = round(x0 + fx * (x1 - x0), 2), round(y0 + fy * (y1 - y0), 2)
            hit = object_at(world, agent_index, x, y, affordance)
            if hit is not None and hit.object_id == object_id:
                return (x, y)
    return None


def _rendered_click_for(
    world: World, agent_index: int, object_id: str, affordance: str | None, frames: Frames
) -> tuple[float, float] | None:
    mask = frames.mask(object_id)
    if not mask.any():
        return None
    h, w = mask.shape
    rows, cols = np.nonzero(mask)
    # innermost pixels first: far from the mask's edge (distance to the nearest outside pixel)
    import cv2

    inside = cv2.distanceTransform(np.pad(mask, 1).astype(np.uint8), cv2.DIST_L2, 3)[1:-1, 1:-1]
    order = np.argsort(-inside[rows, cols], kind="stable")[:12]
    for i in order:
        x, y = round((cols[i] + 0.5) / w, 2), round((rows[i] + 0.5) / h, 2)
        hit = rendered_object_at(world, agent_index, x, y, affordance, frames)
        if hit is not None and hit.object_id == object_id:
            return (x, y)
    return None

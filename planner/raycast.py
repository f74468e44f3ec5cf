"""Which pixels of a target's mask select the believed instance, by casting rays against
the believed boxes of the instances in memory.

A click selects the object under it that affords the action, and of several, the smallest
(the apple in the bowl, the slice on the plate, the drawer rather than the counter around
it). A detection's mask alone cannot tell where a neighbour's box overlaps the target's
(box masks of stacked shelves and drawers overlap on screen), but the Belief knows every
instance's 3-D position and extent: a pixel is a good click when its ray meets the
target's box and no box of a smaller instance that affords the action and is within reach
(not inside something closed, not held). Of the good pixels, the one deepest inside them
(farthest from a bad pixel) is chosen, so that small errors of pose or extent do not tip
the click onto a neighbour.
"""

from __future__ import annotations

import cv2
import numpy as np

from contracts.belief import Belief, Cell, ObjectInstance
from contracts.geometry import CameraIntrinsics, Pose, camera_axes
from planner import knowledge
from planner.clicking import clear_clicks

INTERACTION_DISTANCE = 1.5  # metres (AI2-THOR's reach, horizontal to the box as the simulator measures it)
STRIDE = 2  # pixels: rays are cast on a grid this coarse


def _box(instance: ObjectInstance) -> tuple[np.ndarray, np.ndarray]:
    centre, half = np.array(instance.position, float), np.array(instance.extent, float) / 2
    return centre - half, centre + half


def _reach(low: np.ndarray, high: np.ndarray, eye: np.ndarray) -> float:
    """Horizontal distance from the camera to a box (the simulator's reach: low drawers and
    things on the floor count as near when the Follower stands next to them)."""
    return float(np.linalg.norm(np.maximum(np.maximum(low - eye, eye - high), 0.0)[[0, 2]]))


def _hits(origin: np.ndarray, rays: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """P x N distances along each ray to each box (inf where the ray misses it)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / rays[:, None, :]
        t1 = (low[None] - origin) * inv
        t2 = (high[None] - origin) * inv
    near = np.nanmax(np.minimum(t1, t2), axis=2)
    far = np.nanmin(np.maximum(t1, t2), axis=2)
    return np.where(far >= np.maximum(near, 0.0), np.maximum(near, 0.0), np.inf)


def _enclosed(instance: ObjectInstance, belief: Belief) -> bool:
    """Inside a closed container (at any depth), as far as the Belief knows."""
    instances, seen = belief.memory.instances, set()
    parent = instances.get(instance.container or "")
    while parent is not None and parent.key not in seen:
        if knowledge.has(parent.object_type, "openable") and not parent.states.get("is_open", False):
            return True
        seen.add(parent.key)
        parent = instances.get(parent.container or "")
    return False


def competitors(target: ObjectInstance, belief: Belief, origin: np.ndarray,
                affordance: str | None) -> list[ObjectInstance]:
    """Instances a click meant for ``target`` could select instead: within reach, not held,
    not shut in, affording the action."""
    out = []
    for inst in belief.memory.instances.values():
        if inst.key == target.key or inst.key == belief.memory.held:
            continue
        if not knowledge.affords(inst.object_type, affordance):
            continue
        low, high = _box(inst)
        if _reach(low, high, origin) > INTERACTION_DISTANCE:
            continue
        if not _enclosed(inst, belief):
            out.append(inst)
    return out


def good_pixels(target: ObjectInstance, mask: np.ndarray, belief: Belief, camera: CameraIntrinsics,
                affordance: str | None, pose: Pose | None = None) -> np.ndarray:
    """H x W bool: pixels of ``mask`` (on the ``STRIDE`` grid) whose click from ``pose``
    (default: the Belief's) would select ``target``."""
    pose = pose or belief.pose
    h, w = mask.shape
    origin = np.array([pose.x, camera.camera_height, pose.z])
    good = np.zeros_like(mask, dtype=bool)
    grid = np.zeros_like(mask, dtype=bool)
    grid[STRIDE // 2::STRIDE, STRIDE // 2::STRIDE] = True
    rows, cols = np.nonzero(mask & grid)
    if rows.size == 0:  # a mask of a few pixels between the grid's
        rows, cols = np.nonzero(mask)
    if rows.size == 0:
        return good
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    rays = (forward[None] + ((cols + 0.5 - w / 2) / camera.focal)[:, None] * right[None]
            - ((rows + 0.5 - h / 2) / camera.focal)[:, None] * up[None])
    low, high = _box(target)
    mine = _hits(origin, rays, low[None], high[None])[:, 0]
    if not np.isfinite(mine).any():  # a box too small for any ray of its own mask (a slice seen
        # end-on, a few pixels): the mask is the evidence of where it is, at the box's distance
        mine = np.full(len(rows), float(np.linalg.norm(np.array(target.position) - origin)))
    ok = np.isfinite(mine)
    others = competitors(target, belief, origin, affordance)
    if others and ok.any():
        boxes = [_box(o) for o in others]
        dist = _hits(origin, rays, np.array([b[0] for b in boxes]), np.array([b[1] for b in boxes]))
        volume = np.array([round(float(np.prod(o.extent)), 6) for o in others])
        own = round(float(np.prod(target.extent)), 6)
        smaller, tied = volume < own, volume == own
        # a box as small and as near (two plates stacked on one shelf) may take the click too
        blocked = (np.isfinite(dist) & smaller[None]).any(axis=1) | \
                  ((dist <= mine[:, None] + 1e-3) & tied[None]).any(axis=1)
        ok &= ~blocked
    good[rows[ok], cols[ok]] = True
    return good


def ray_click(target: ObjectInstance, mask: np.ndarray, belief: Belief, camera: CameraIntrinsics,
              affordance: str | None, avoid: tuple[tuple[float, float], ...] = ()) -> tuple[float, float] | None:
    """Relative (x, y) of the good pixel deepest inside the good region (None: no pixel
    of the mask selects the target, as far as the Belief tells)."""
    good = good_pixels(target, mask, belief, camera, affordance)
    h, w = good.shape
    clear_clicks(good, avoid)
    if not good.any():
        return None
    # grow the grid samples into blocks so the distance transform sees a solid region
    solid = cv2.dilate(good.astype(np.uint8), np.ones((STRIDE, STRIDE), np.uint8))
    depth = cv2.distanceTransform(np.pad(solid, 1), cv2.DIST_L2, 3)[1:-1, 1:-1] * good
    r, c = np.unravel_index(int(np.argmax(depth)), depth.shape)
    return (c + 0.5) / w, (r + 0.5) / h


MOVES = {"Backward": (0.0, -1.0), "Pan Left": (-1.0, 0.0), "Pan Right": (1.0, 0.0), "Forward": (0.0, 1.0)}
STEP = 0.25  # metres per move (AI2-THOR's grid)


def box_on_screen(target: ObjectInstance, pose: Pose, camera: CameraIntrinsics) -> np.ndarray:
    """H x W bool: the screen rectangle of the target's believed box seen from ``pose``
    (where rays may meet it; the rays decide)."""
    low, high = _box(target)
    corners = np.array([[x, y, z] for x in (low[0], high[0]) for y in (low[1], high[1]) for z in (low[2], high[2])])
    right, up, forward = camera_axes(pose.heading, pose.horizon)
    d = corners - np.array([pose.x, camera.camera_height, pose.z])
    depth = d @ forward
    mask = np.zeros((camera.height, camera.width), dtype=bool)
    if (depth <= 1e-3).any():  # partly behind the camera (a long counter alongside): any pixel may meet it
        mask[:] = True
        return mask
    cols = camera.width / 2 + (d @ right) / depth * camera.focal
    rows = camera.height / 2 - (d @ up) / depth * camera.focal
    c0, c1 = int(max(np.floor(cols.min()), 0)), int(min(np.ceil(cols.max()), camera.width))
    r0, r1 = int(max(np.floor(rows.min()), 0)), int(min(np.ceil(rows.max()), camera.height))
    if c0 < c1 and r0 < r1:
        mask[r0:r1, c0:c1] = True
    return mask


def _moved(pose: Pose, dx: float, dz: float) -> Pose:
    h = np.radians(pose.heading)
    ahead, side = np.array([np.sin(h), np.cos(h)]), np.array([np.cos(h), -np.sin(h)])
    x, z = np.array([pose.x, pose.z]) + STEP * (dx * side + dz * ahead)
    return Pose(float(x), float(z), pose.heading, pose.horizon)


def landing(target: ObjectInstance, item: ObjectInstance, pose: Pose, camera: CameraIntrinsics) -> np.ndarray:
    """(x, z) where a held ``item`` put on the surface ``target`` lands when put from
    ``pose``: where the view's centre meets the surface, inside its footprint."""
    low, high = _box(target)
    _, _, forward = camera_axes(pose.heading, pose.horizon)
    eye = np.array([pose.x, camera.camera_height, pose.z])
    centre = (low + high) / 2
    spot = eye + (high[1] - eye[1]) / forward[1] * forward if forward[1] < -1e-3 else centre
    margin = np.maximum((high - low) / 2 - np.array(item.extent) / 2, 0.0)
    return np.clip(spot[[0, 2]], (centre - margin)[[0, 2]], (centre + margin)[[0, 2]])


def crowded(target: ObjectInstance, belief: Belief, pose: Pose, camera: CameraIntrinsics) -> bool:
    """Would the held object land (mostly) on something of about its size already on the
    surface ``target`` (the two could not be told apart by a click)?"""
    item = belief.memory.instances.get(belief.memory.held or "")
    if item is None:
        return False
    x, z = landing(target, item, pose, camera)
    size = float(np.prod(item.extent))
    for other in belief.memory.instances.values():
        if other.container != target.key or other.key == item.key:
            continue
        if not 0.5 * size <= float(np.prod(other.extent)) <= 2.0 * size:
            continue  # a click tells a much smaller or larger neighbour apart: only near-twins matter
        reach = (np.array(other.extent)[[0, 2]] + np.array(item.extent)[[0, 2]]) / 2 * 0.8
        if abs(other.position[0] - x) < reach[0] and abs(other.position[2] - z) < reach[1]:
            return True
    return False


def free_spot(target: ObjectInstance, belief: Belief, camera: CameraIntrinsics) -> tuple[str, float] | None:
    """When the held object would land on something already on the surface ``target`` (two
    plates put down from one spot end up stacked, and a click then takes the upper one):
    the look (up or down: the spot nears or recedes) or one-step move onto a free cell
    after which it lands clear of them and the target still takes a click, with the
    horizontal distance to the target there (None: stay)."""
    if not crowded(target, belief, belief.pose, camera):
        return None
    low, high = _box(target)
    pose = belief.pose
    looks = {"Look Down": Pose(pose.x, pose.z, pose.heading, pose.horizon + 30.0),
             "Look Up": Pose(pose.x, pose.z, pose.heading, pose.horizon - 30.0)}
    candidates = [(name, pose_) for name, pose_ in looks.items() if -30.0 <= pose_.horizon <= 60.0]
    candidates += [(name, _moved(pose, dx, dz)) for name, (dx, dz) in MOVES.items()]
    for name, moved in candidates:
        stepped = (moved.x, moved.z) != (pose.x, pose.z)
        if (stepped and belief.grid.state_at(moved.x, moved.z) != Cell.FREE) or crowded(target, belief, moved, camera):
            continue
        eye = np.array([moved.x, camera.camera_height, moved.z])
        if _reach(low, high, eye) > INTERACTION_DISTANCE - 0.1:
            continue
        if good_pixels(target, box_on_screen(target, moved, camera), belief, camera, "receptacle", moved).any():
            flat = np.maximum(np.maximum(low[[0, 2]] - (moved.x, moved.z), (moved.x, moved.z) - high[[0, 2]]), 0.0)
            return name, float(np.hypot(*flat))
    return None


def clean_pixels(target: ObjectInstance, belief: Belief, camera: CameraIntrinsics, affordance: str | None) -> int:
    """How many pixels (on the ``STRIDE`` grid) of the target's believed box on screen would
    select it from where the Follower stands."""
    return int(good_pixels(target, box_on_screen(target, belief.pose, camera), belief, camera, affordance).sum())


def better_view(target: ObjectInstance, belief: Belief, camera: CameraIntrinsics,
                affordance: str | None, than: int = 0) -> tuple[str, float] | None:
    """The one-step move (Backward, Pan Left/Right, Forward) onto a free cell, within reach,
    from which most pixels would select the target, and more than ``than`` (when no pixel
    does from here: 0), with the horizontal distance to the target's box there (None: no
    move helps)."""
    pose = belief.pose
    h = np.radians(pose.heading)
    ahead, side = np.array([np.sin(h), np.cos(h)]), np.array([np.cos(h), -np.sin(h)])
    low, high = _box(target)
    best: tuple[int, str, float] | None = None
    for name, (dx, dz) in MOVES.items():
        x, z = np.array([pose.x, pose.z]) + STEP * (dx * side + dz * ahead)
        if belief.grid.state_at(float(x), float(z)) != Cell.FREE:
            continue
        eye = np.array([x, camera.camera_height, z])
        if _reach(low, high, eye) > INTERACTION_DISTANCE - 0.1:
            continue
        moved = Pose(float(x), float(z), pose.heading, pose.horizon)
        count = int(good_pixels(target, box_on_screen(target, moved, camera), belief, camera, affordance, moved).sum())
        if count > than and (best is None or count > best[0]):
            flat = np.maximum(np.maximum(low[[0, 2]] - (x, z), (x, z) - high[[0, 2]]), 0.0)
            best = (count, name, float(np.hypot(*flat)))
    return None if best is None else (best[1], best[2])

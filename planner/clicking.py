"""Where to click: the detection that is the believed instance, and a pixel inside its mask.

The instance's centre is projected into the current frame (odometry pose, camera
intrinsics); of the detections of its type, the one whose mask holds that pixel (else the
nearest to it) is the target. With the frame's depth, a seen instance's detection is first
the one whose surface (the median of its mask's points) lies in or nearest its believed
box (``SAME_BOX``): cabinets and drawers stand in rows and columns, and a centre believed a
few centimetres off projects onto the door beside it (valid_seen 0100: the upper cabinet
next to the one the pot was in was opened, and the hint trail moved on as if it had been
looked into). An instance the Follower saw where it believes it is not a
detection far from the screen rectangle of its believed box (``NEAR_MARGIN``): the raw
slice on the counter in view is not the cooked one in the microwave beside it; nor is what
it put or sliced into a receptacle it saw a detection far from the receptacle's. The click
is the mask pixel nearest the mask's centroid that is the target's own as far as possible
(a click resolves to the smallest thing under it, so the spoon on the counter would take a
click meant for the counter).
"""

from __future__ import annotations

import cv2
import numpy as np

from contracts.belief import Belief, ObjectInstance
from contracts.geometry import CameraIntrinsics, Pose, depth_to_points, project
from contracts.perception import Detection, mask_box
from planner import knowledge

BELIEVED_MARGIN = 0.05  # metres around a believed box whose surfaces a stand-in detection keeps
CLICK_PATCH = 0.02  # of the frame's width: a click takes what affords the action within this of its point (TEACh)
NEAR_MARGIN = 0.1  # of the frame's width: how far from its believed box's screen rectangle a seen instance's detection may be
SAME_BOX = 0.1  # metres: detections whose surfaces lie this much farther from the believed box than the nearest are not it
# metres above the counter a faucet's pixels stand (FloorPlan10's box faucet: 9 cm above the
# counter at its middle; a click on the counter behind it found nothing, TATC valid_unseen 0193)
STANDING = 0.03
HEIGHT_BIN = 0.01  # metres: the surface heights counted for the most common one
UNDER_VESSEL = 0.2  # metres (horizontal) from a vessel's middle within which a burner's pixel is the one under it
BELOW_RIM = 0.03  # metres below a basin's rim from which its pixels are its inside
RIM_RING = 3  # pixels: the band along a mask's edge (inside the frame) whose heights give the rim
MIN_INSIDE = 12  # pixels of a basin's inside that make a click target of their own


def same_kind(detected: str, believed: str) -> bool:
    return detected == believed or knowledge.ALIASES.get(detected) == believed


def find_target(instance: ObjectInstance, detections: list[Detection], pose: Pose,
                camera: CameraIntrinsics, claimed_by: tuple[ObjectInstance, ...] = (),
                depth: np.ndarray | None = None, container: ObjectInstance | None = None) -> Detection | None:
    """The detection that is ``instance`` (None when none of its type is in view). For an
    instance believed but never seen (an inferred slice), the detections that are other
    instances in ``claimed_by`` are not it, unless nothing else is in view: the toasted
    slice put back on the plate is not the raw one believed beside it. An inferred
    instance in a seen ``container`` (what the Follower put or sliced there) is no
    detection far from the container's screen rectangle: the apple put into the fridge is
    not the one on the counter in view (ALFRED dev 075758 cooled one apple and took the
    other to the table). ``depth``: the frame's depth, to tell detections apart by where
    their surfaces lie (``nearest_surfaces``). A piece seen where it is believed and in view
    only as its whole (a face-on slice: ``mapping.placements.Placements.seen_as``) is that detection."""
    mine = [d for d in detections if same_kind(d.object_type, instance.object_type)]
    whole = knowledge.whole_of(instance.object_type)
    if not mine and whole != instance.object_type and seen_there(instance):
        mine = [d for d in detections if d.object_type == whole]
    if instance.states.get("inferred") and claimed_by:
        taken = {id(find_target(other, mine, pose, camera)) for other in claimed_by}
        mine = [d for d in mine if id(d) not in taken] or mine
    seen = seen_there(instance)
    if seen:
        mine = _near_rect(mine, screen_rect(instance, pose, camera), camera)
    elif container is not None and seen_there(container):
        mine = _near_rect(mine, screen_rect(container, pose, camera), camera)
    if not mine:
        return None
    if depth is not None and len(mine) > 1 and seen:
        mine = nearest_surfaces(instance, mine, depth_to_points(depth, pose, camera))
    pixel = project(instance.position, pose, camera)
    if pixel is None or len(mine) == 1:
        return mine[0] if pixel is not None or len(mine) == 1 else None
    col, row = pixel

    def miss(d: Detection) -> float:
        r, c = int(row), int(col)
        if 0 <= r < d.mask.shape[0] and 0 <= c < d.mask.shape[1] and d.mask[r, c]:
            return -1.0 / max(d.pixels, 1)  # holds the pixel: the smallest such mask first
        x0, y0, x1, y1 = d.box
        return float(np.hypot(max(x0 - col, 0, col - x1), max(y0 - row, 0, row - y1)))

    return min(mine, key=miss)


def seen_there(instance: ObjectInstance) -> bool:
    """Was the instance detected where it is believed (not only believed there: ``inferred``)?"""
    return instance.times_seen > 0 and not instance.states.get("inferred")


def _near_rect(detections: list[Detection], rect: tuple[float, float, float, float] | None,
               camera: CameraIntrinsics) -> list[Detection]:
    """The detections whose boxes come within ``NEAR_MARGIN`` of a screen rectangle (all of
    them without one: a corner behind the camera)."""
    if rect is None:
        return detections
    margin = NEAR_MARGIN * camera.width
    return [d for d in detections if d.box[0] <= rect[2] + margin and d.box[2] >= rect[0] - margin
            and d.box[1] <= rect[3] + margin and d.box[3] >= rect[1] - margin]


def nearest_surfaces(instance: ObjectInstance, detections: list[Detection], points: np.ndarray) -> list[Detection]:
    """The detections whose surface (the median of their mask's finite points) lies in
    ``instance``'s believed box or within ``SAME_BOX`` of the nearest of them."""
    centre, half = np.asarray(instance.position), np.asarray(instance.extent) / 2
    gaps = []
    for d in detections:
        hits = points[d.mask]
        hits = hits[np.isfinite(hits[:, 0])]
        surface = np.median(hits, axis=0) if len(hits) else None
        gaps.append(np.inf if surface is None else float(np.linalg.norm(np.maximum(np.abs(surface - centre) - half, 0.0))))
    best = min(gaps)
    if not np.isfinite(best):
        return detections
    return [d for d, gap in zip(detections, gaps, strict=True) if gap <= best + SAME_BOX]


def handled_twins(instance: ObjectInstance, belief: Belief) -> tuple[ObjectInstance, ...]:
    """The other instances of ``instance``'s type that the Follower has worked on and seen
    where it left them: each is a detection ``instance`` is not."""
    return tuple(other for other in belief.memory.of_type(instance.object_type)
                 if other.key != instance.key and other.states.get("handled") and seen_there(other))


def click_point(target: Detection, detections: list[Detection], avoid: tuple[tuple[float, float], ...] = (),
                prefer: tuple[float, float] | None = None, affordance: str | None = None) -> tuple[float, float]:
    """Relative (x, y) of a pixel of ``target``'s mask, as much its own as possible: not
    covered by any other detection, else by none of another type, else by none smaller
    (a click resolves to the smallest thing under it, so the counter's click must miss the
    spoon on it and the slice's the plate under it), and not one of the points in ``avoid``
    (clicks that failed). ``prefer`` (the projected centre of the believed instance: a ray
    through it meets the object) if it is such a pixel, else the one nearest the centroid.
    Only detections that afford the action (``affordance``: "pickupable", ...) compete."""
    h, w = target.mask.shape
    others = [d for d in detections if d is not target
              and knowledge.affords(d.object_type, affordance)]
    layers = (others, [d for d in others if d.object_type != target.object_type],
              [d for d in others if d.pixels < target.pixels])
    free = target.mask
    for layer in layers:
        candidate = target.mask.copy()
        for other in layer:
            candidate &= ~other.mask
        clear_clicks(candidate, avoid)
        if candidate.any():
            free = candidate
            break
    if prefer is not None:
        c, r = int(prefer[0]), int(prefer[1])
        if 0 <= r < h and 0 <= c < w and free[r, c]:
            return prefer[0] / w, prefer[1] / h  # exactly: a thin slice is a pixel or two wide
    rows, cols = np.nonzero(free)
    k = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
    return (cols[k] + 0.5) / w, (rows[k] + 0.5) / h


def clear_clicks(mask: np.ndarray, avoid: tuple[tuple[float, float], ...]) -> None:
    """Clear, in place, the pixels of ``mask`` within 2 of each relative point in ``avoid``
    (clicks that failed)."""
    h, w = mask.shape
    for x, y in avoid:
        r, c = int(y * h), int(x * w)
        mask[max(r - 2, 0):r + 3, max(c - 2, 0):c + 3] = False


def under_vessel(burners: list[Detection], vessel: Detection, points: np.ndarray,
                 avoid: tuple[tuple[float, float], ...] = ()) -> tuple[float, float] | None:
    """Relative (x, y) of the burner pixel whose 3-D point (``points``: the frame's, in the
    odometry frame) lies horizontally nearest the middle of the ``vessel``'s (the median of its
    mask's points), within ``UNDER_VESSEL``; None when no burner shows there. The burner under
    a pot shows as a rim around its base: a click at the middle of the stove's burners, which
    the map holds as one, lit the one beside it (TATC 0096: three times, the pot stayed cold)."""
    h, w = vessel.mask.shape
    finite = np.isfinite(points[..., 0])
    mine = np.logical_or.reduce([b.mask for b in burners] or [np.zeros((h, w), dtype=bool)]) & ~vessel.mask & finite
    clear_clicks(mine, avoid)
    held = points[vessel.mask & finite]
    if not mine.any() or len(held) == 0:
        return None
    middle = np.median(held, axis=0)
    rows, cols = np.nonzero(mine)
    away = np.hypot(points[rows, cols, 0] - middle[0], points[rows, cols, 2] - middle[2])
    k = int(np.argmin(away))
    return ((cols[k] + 0.5) / w, (rows[k] + 0.5) / h) if away[k] <= UNDER_VESSEL else None


def uncovered(stand_in: Detection, detections: list[Detection], affordance: str | None) -> Detection | None:
    """A believed instance's stand-in detection less the pixels of detected things of other
    types that afford the action, and those within ``CLICK_PATCH`` of them: a click there
    acts on them (the lettuce seen on top of a tomato believed under it takes the Slice
    meant for the tomato). None if nothing is left. Not for puts: a counter's mask takes in
    the plate on it that the detector missed, and a click there puts onto the plate."""
    if affordance == "receptacle":
        return stand_in
    mask = stand_in.mask.copy()
    radius = int(round(CLICK_PATCH * mask.shape[1]))
    kernel = np.ones((2 * radius + 1, 2 * radius + 1), np.uint8)
    for other in detections:
        if not same_kind(other.object_type, stand_in.object_type) and knowledge.affords(other.object_type, affordance):
            mask &= ~cv2.dilate(other.mask.astype(np.uint8), kernel).astype(bool)
    if not mask.any():
        return None
    rows, cols = np.nonzero(mask)
    box = (int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1)
    return Detection(stand_in.object_type, stand_in.score, box, mask)


def screen_rect(instance: ObjectInstance, pose: Pose, camera: CameraIntrinsics) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) pixels, unclipped: the screen rectangle of the instance's believed
    box; None when a corner is behind the camera."""
    (x, y, z), (ex, ey, ez) = instance.position, instance.extent
    corners = [project((x + dx * ex / 2, y + dy * ey / 2, z + dz * ez / 2), pose, camera)
               for dx in (-1, 1) for dy in (-1, 1) for dz in (-1, 1)]
    if any(c is None for c in corners):
        return None
    cols, rows = [c[0] for c in corners], [c[1] for c in corners]
    return min(cols), min(rows), max(cols), max(rows)


def believed_detection(instance: ObjectInstance, pose: Pose, camera: CameraIntrinsics,
                       depth: np.ndarray | None = None, standing: bool = False,
                       detections: list[Detection] = ()) -> Detection | None:
    """A stand-in detection for an instance believed but not seen (``states["inferred"]``:
    a faucet behind its basin): the frame's pixels inside the projection of its believed
    box, and with a depth frame only those whose surface lies in the box (grown by
    ``BELIEVED_MARGIN``: the tap, not the wall behind it or the counter below) when any
    does; with ``standing`` (a fixture mounted on a counter), of those only the ones
    ``STANDING`` above the box's most common surface height, the counter, when any are,
    and not in the mask of a ``detections`` entry of another type (the potato, egg and mug
    standing beside the sink took 10 of the 19 failed clicks of TATC valid_unseen 0049).
    None when a corner is behind the camera or the box is out of the frame."""
    rect = screen_rect(instance, pose, camera)
    if rect is None:
        return None
    c0, c1 = (int(np.clip(v, 0, camera.width)) for v in (rect[0], rect[2]))
    r0, r1 = (int(np.clip(v, 0, camera.height)) for v in (rect[1], rect[3]))
    if c1 <= c0 or r1 <= r0:
        return None
    mask = np.zeros((camera.height, camera.width), dtype=bool)
    mask[r0:r1, c0:c1] = True
    if depth is not None and depth.shape == mask.shape:
        points = depth_to_points(depth, pose, camera)
        half = np.asarray(instance.extent) / 2 + BELIEVED_MARGIN
        with np.errstate(invalid="ignore"):
            inside = np.all(np.abs(points - np.asarray(instance.position)) <= half, axis=-1)
        if (mask & inside).any():
            mask &= inside
            if standing:
                heights = points[mask][:, 1]
                bins = np.round((heights - heights.min()) / HEIGHT_BIN).astype(int)
                counter = heights.min() + np.bincount(bins).argmax() * HEIGHT_BIN  # the most common height
                above = mask & (points[..., 1] > counter + STANDING)
                for other in detections:
                    if not same_kind(other.object_type, instance.object_type):
                        above &= ~other.mask
                if above.any():
                    mask = above
            rows, cols = np.nonzero(mask)
            c0, r0, c1, r1 = int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1
    return Detection(instance.object_type, float(np.clip(instance.confidence, 0.0, 1.0)), (c0, r0, c1, r1), mask)


def basin_inside(target: Detection, points: np.ndarray) -> Detection:
    """The part of a basin's detection that lies below its rim, for a put: a click on the
    rim or on the counter beside it puts onto the counter, one on the faucet over it is
    refused. A "Sink" detection standing in for the basin takes in the rim and the counter
    around it, a basin's the faucet: 16 of 77 puts meant for a sink landed on the counter
    and 5 were refused on the faucet (`nesy clicks` on 42 TATC valid_unseen episodes; Boil
    Potato 0098 put its pot beside the sink three times and searched for it). The rim is the
    median height of the mask's edge (``RIM_RING`` pixels inside it, not where the frame
    cuts it); the inside is what lies ``BELOW_RIM`` under it. ``points``: the frame's, in
    the odometry frame (y up; NaN without depth). The detection as it is when its inside
    does not show (``MIN_INSIDE``)."""
    mask = target.mask
    heights = points[..., 1]
    core = cv2.erode(mask.astype(np.uint8), np.ones((2 * RIM_RING + 1,) * 2, np.uint8), borderType=cv2.BORDER_REPLICATE)
    ring = heights[mask & ~core.astype(bool) & np.isfinite(heights)]
    if ring.size == 0:
        return target
    with np.errstate(invalid="ignore"):
        inside = mask & (heights < float(np.median(ring)) - BELOW_RIM)
    if int(inside.sum()) < MIN_INSIDE:
        return target
    return Detection(target.object_type, target.score, mask_box(inside), inside)

"""Fitting the fixed objects (counters, tables, cabinets, appliances...) to AI2-THOR's masks.

Fixed objects are the same in every trajectory of a floor plan (their AI2-THOR objectIds
are per floor plan), so each instance is fitted on its own: its axis-aligned box (full
extents and the offset of its centre from AI2-THOR's pivot, the position in its objectId)
to the recorded 2-D boxes of every view of it, with the maths of ``boxfit`` (robust
Gauss-Newton, our renderer's shape for the type). Openable objects are fitted on their
closed views only (an open door's silhouette is a different shape). The start is the
scene builder's box (one size per type), and a weak prior pulls towards it along
directions no view constrains (a counter always cut by the frame's edge).

Surfaces (counters, tables, shelves...) then get their tops from what rests on them
(``simulator.calibration.supports``).

An extent the views cannot see (a cabinet's depth when a counter hides its top) collapses
in the fit; it gets the builder's extent back behind the face that was seen.

Faucets are not fitted one by one (``TYPE_RULE_ONLY``: the builder places them by the rule
``faucets`` fits to all of them). Instances with fewer than ``MIN_INSTANCE_VIEWS`` closed views, and fits that move a box
by more than ``MAX_SHIFT`` or grow it beyond ``MAX_GROWTH`` times (views that do not pin
it down), keep the builder's box. Last, since a box fit knows nothing of occluders, each
instance keeps the fitted box, the fitted box with the builder's heights or the builder's
box, whichever is most often the first box hit by the rays through AI2-THOR's recorded
interaction points (``choose_boxes``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from simulator.calibration.boxfit import Views, fit_box, shape_points

MIN_INSTANCE_VIEWS = 5
PRIOR = 20.0  # pull towards the builder's box (pixels^2 per unit of log size or metre of offset)
MAX_GROWTH = 2.5  # a fit growing an extent beyond this many times the builder's is rejected
MAX_SHIFT = 0.5  # metres: so is one moving the box centre further than this
COLLAPSE = 0.5  # a fitted extent below this share of the builder's was not seen (see _restore_collapsed)
# synthesized by the builder from a rule fitted to all of them (``faucets``); each one's views come
# from about one pose, so a box fitted to them alone slides along the rays (behind walls)
TYPE_RULE_ONLY = frozenset({"Faucet"})


def builder_boxes(floor_plan: str) -> dict[str, dict[str, Any]]:
    """The scene builder's fixed objects of a floor plan (before calibration):
    objectId -> {'type', 'position' (box centre), 'size'}."""
    from simulator.scenes import _canonical, _raw

    return _raw()[_canonical(floor_plan)].get("fixed_objects") or {}  # none in unsupported floor plans


def _views(group: list[dict], height: float, fov: float) -> Views:
    return Views(
        np.array([o["camera"] for o in group], dtype=float), np.array([o["pivot"] for o in group], dtype=float),
        np.zeros((len(group), 3)), np.array([o["bbox"] for o in group], dtype=float), height, fov,
    )


def fixed_views(observations: list[dict], closed_only: bool = True) -> dict[tuple[str, str], list[dict]]:
    """(floor plan, objectId) -> the views of that fixed object (openable ones closed)."""
    from simulator.object_types import type_info

    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for o in observations:
        if not o["fixed"] or o["pixels"] <= 0:
            continue
        if closed_only and o["is_open"] and type_info(o["object_type"]).openable:
            continue
        groups[(o["floor_plan"], o["target_id"])].append(o)
    return groups


def fit_fixed(observations: list[dict], fov: float, height: float) -> dict[str, dict[str, dict]]:
    """floor plan -> objectId -> {'size', 'offset' (centre minus pivot, world axes), 'views', 'error_px'}."""
    groups = fixed_views(observations)
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for (plan, oid), group in sorted(groups.items()):
        built = builder_boxes(plan).get(oid)
        if built is None or len(group) < MIN_INSTANCE_VIEWS or built["type"] in TYPE_RULE_ONLY:
            continue
        pivot = np.array(group[0]["pivot"], dtype=float)
        size0 = np.array(built["size"], dtype=float)
        offset0 = np.array(built["position"], dtype=float) - pivot
        size, offset, err = fit_box(_views(group, height, fov), shape_points(built["type"]), size0, offset0,
                                    prior=PRIOR)
        eye = np.median([[o["camera"][0], height, o["camera"][1]] for o in group], axis=0)
        size, offset = _restore_collapsed(size, offset, size0, pivot, eye)
        if np.any(size > MAX_GROWTH * size0) or np.linalg.norm(offset - offset0) > MAX_SHIFT:
            continue  # the views do not pin this box down (all from one spot, or a replay gone astray)
        out[plan][oid] = {"size": [round(float(v), 4) for v in size],
                          "offset": [round(float(v), 4) for v in offset],
                          "views": len(group), "error_px": round(err, 2)}
    return dict(out)


def _restore_collapsed(size: np.ndarray, offset: np.ndarray, size0: np.ndarray, pivot: np.ndarray,
                       eye: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An extent fitted below ``COLLAPSE`` of the builder's is one no view saw (a cabinet
    under a counter shows only its front: the counter hides its top): give it back the
    builder's extent behind the face the cameras see, which stays where it was fitted."""
    size, offset = size.copy(), offset.copy()
    centre = pivot + offset
    for axis in range(3):
        if size[axis] >= COLLAPSE * size0[axis]:
            continue
        side = 1.0 if eye[axis] >= centre[axis] else -1.0  # the face towards the cameras
        face = centre[axis] + side * size[axis] / 2
        size[axis] = size0[axis]
        offset[axis] = face - side * size0[axis] / 2 - pivot[axis]
    return size, offset


def _rays(group: list[dict], height: float, fov: float, pixels: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(origins, unit directions) of the rays through each view's recorded interaction point
    (or through ``pixels``, one (x, y) per view)."""
    from simulator.calibration.boxfit import FRAME, camera_axes

    cams = np.array([o["camera"] for o in group], dtype=float)
    right, up, forward = camera_axes(cams[:, 2], cams[:, 3])
    focal = FRAME / 2 / np.tan(np.radians(fov) / 2)
    pts = (np.array([o["point"] for o in group], dtype=float) if pixels is None else pixels) + 0.5
    d = forward + right * ((pts[:, :1] - FRAME / 2) / focal) - up * ((pts[:, 1:] - FRAME / 2) / focal)
    origins = np.stack([cams[:, 0], np.full(len(cams), height), cams[:, 1]], axis=1)
    return origins, d / np.linalg.norm(d, axis=1, keepdims=True)


def _entry_distance(origins: np.ndarray, dirs: np.ndarray, centre: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Distance along each ray to where it enters the box (inf where it misses)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (centre - size / 2 - origins) / dirs
        t2 = (centre + size / 2 - origins) / dirs
    near = np.nanmax(np.minimum(t1, t2), axis=1)
    far = np.nanmin(np.maximum(t1, t2), axis=1)
    return np.where((far >= np.maximum(near, 0.0)), np.maximum(near, 0.0), np.inf)


def _inside(point: np.ndarray, centre: np.ndarray, size: np.ndarray) -> bool:
    return bool(np.all(np.abs(point - centre) <= size / 2 + 1e-6))


def first_hit_rate(group: list[dict], box: tuple[np.ndarray, np.ndarray],
                   others: list[tuple[np.ndarray, np.ndarray]], height: float, fov: float) -> float:
    """Share of the views whose recorded interaction point's ray enters ``box`` before any
    other fixed box (boxes that hold the target's centre, or whose centre it holds, do not
    count as occluders: a basin's sink, a shelf's unit)."""
    origins, dirs = _rays(group, height, fov)
    hit = _entry_distance(origins, dirs, *box)
    nearest = np.full(len(group), np.inf)
    for centre, size in others:
        if _inside(box[0], centre, size) or _inside(centre, *box):
            continue
        nearest = np.minimum(nearest, _entry_distance(origins, dirs, centre, size))
    return float(np.mean(np.isfinite(hit) & (hit <= nearest + 1e-6)))


def stolen_views(box: tuple[np.ndarray, np.ndarray], oid: str, rays: dict[str, tuple[np.ndarray, np.ndarray]],
                 boxes: dict[str, tuple[np.ndarray, np.ndarray]], built: dict[str, dict]) -> int:
    """How many views of *other* fixed targets have their interaction point's ray enter
    ``box`` (standing for ``oid``) before their own box: a box that hides what AI2-THOR's
    experts clicked through (a microwave fitted a metre deep over a sink hid the basin)."""
    stolen = 0
    for k, (origins, dirs) in rays.items():
        if k == oid or k not in boxes or _cut_open_for(built, oid, k):
            continue
        centre, size = boxes[k]
        if _inside(box[0], centre, size) or _inside(centre, *box):
            continue
        own = _entry_distance(origins, dirs, centre, size)
        stolen += int(np.sum(np.isfinite(own) & (_entry_distance(origins, dirs, *box) < own - 1e-6)))
    return stolen


def _cut_open_for(built: dict[str, dict], other: str, oid: str) -> bool:
    """Is ``other`` a counter or sink that the renderer cuts open where basin ``oid`` is set
    in it (``simulator.render.world_view.basin_holes``)? Then it does not hide the basin."""
    from simulator.render.fixtures import footprint, overlap
    from simulator.render.world_view import BASINS, CUT_BY_BASINS

    if built[oid]["type"] not in BASINS or built[other]["type"] not in CUT_BY_BASINS:
        return False
    basin, around = (footprint(built[k]["position"], built[k]["size"]) for k in (oid, other))
    return overlap(basin, around) is not None


def choose_boxes(fixed: dict[str, dict[str, dict]], groups: dict[tuple[str, str], list[dict]],
                 height: float, fov: float) -> dict[str, int]:
    """Keep each fitted box only where it does not do worse than the builder's (or than the
    fitted one with the builder's heights) at being the first thing hit by the rays through
    AI2-THOR's interaction points, less the views of other targets whose rays it would
    intercept (``stolen_views``): a box fit knows nothing of occluders (a basin fitted below
    the counter's top is hidden by it) nor of what it hides. Returns how many kept each choice."""
    kept = {"fitted": 0, "fitted_xz": 0, "builder": 0}
    for plan, entries in sorted(fixed.items()):
        built = builder_boxes(plan)
        rays = {k: _rays(g, height, fov) for (p, k), g in groups.items() if p == plan and k in built}
        pivots = {oid: np.array([float(v) for v in oid.split("|")[1:4]]) for oid in built}
        boxes = {oid: (np.array(b["position"], dtype=float), np.array(b["size"], dtype=float))
                 for oid, b in built.items()}
        for oid, e in entries.items():
            boxes[oid] = (pivots[oid] + np.array(e["offset"]), np.array(e["size"]))
        for oid, e in sorted(entries.items()):
            group = groups[(plan, oid)]
            others = [b for k, b in boxes.items() if k != oid and not _cut_open_for(built, k, oid)]
            fitted = boxes[oid]
            b_centre, b_size = np.array(built[oid]["position"], dtype=float), np.array(built[oid]["size"], dtype=float)
            xz = (np.array([fitted[0][0], b_centre[1], fitted[0][2]]), np.array([fitted[1][0], b_size[1], fitted[1][2]]))
            options = [("fitted", fitted), ("fitted_xz", xz), ("builder", (b_centre, b_size))]
            rates = [first_hit_rate(group, box, others, height, fov) for _, box in options]
            scores = [rate - stolen_views(box, oid, rays, boxes, built) / len(group)
                      for rate, (_, box) in zip(rates, options, strict=True)]
            # ties: the first (the fitted box); no ray hitting any: nothing to go by, the builder's
            best = int(np.argmax(scores)) if max(rates) > 0 else len(options) - 1
            name, (centre, size) = options[best]
            e["choice"], e["first_hit"] = name, round(rates[best], 3)
            e["offset"] = [round(float(v), 4) for v in centre - pivots[oid]]
            e["size"] = [round(float(v), 4) for v in size]
            boxes[oid] = (centre, size)
            kept[name] += 1
    return kept

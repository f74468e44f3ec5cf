"""Sink basins from where AI2-THOR's masks of them meet the rim.

A basin is seen from above, into its opening: a box fit to its 2-D boxes cannot tell a
shallow basin at the rim from a deeper one further back and lower (the views all look down
at it from the front), and it often lands below the counter, where nothing shows it. But
the edges of a basin's mask are its rim, and the rim lies in the horizontal plane of the
basin's pivot (the height in its AI2-THOR objectId). So for every recorded view, the rays
through the near corners and the near and far edge middles of the mask's box are cut with
that plane (the views look along a grid axis, as the rim's edges run); the
view's opening is the footprint of the cuts, the basin's the median over its views. The
box hangs the builder's depth below the rim, or down to where the recorded things in it
rest if that is deeper (``deepen_basins``). The counter and the sink it is set in are
drawn cut open over it (``simulator.render.world_view.basin_holes``).

A bathtub's pivot says nothing about its height (recorded from -0.72 to 0.67 m), and the
builder's rule (the pivot at its bottom) floated most tubs, with their floors, over the
things AI2-THOR shows lying in them. A tub and its basin are moved up or down whole so that
their floors lie where those things rest (``fit_tubs``); tubs in floor plans without data
get the type's median floor height (``type_floors``).
"""

from __future__ import annotations

import numpy as np

from simulator.calibration.fixedfit import (
    MAX_SHIFT,
    MIN_INSTANCE_VIEWS,
    _rays,
    builder_boxes,
    fixed_views,
)
from simulator.calibration.observations import id_position
from simulator.calibration.supports import (
    LEVEL_QUANTILE,
    _boxes,
    _entry,
    held_out_median,
    seat_level,
    within,
)

BASIN_TYPES = frozenset({"SinkBasin"})
PEDESTAL = 0.3  # metres: a basin whose pivot is this low is a pedestal sink's (its pivot is the foot)
SPAN = (0.15, 1.2)  # metres: an opening narrower or wider than this is a view gone astray
MAX_DEPTH = 0.4  # metres below the rim that things in a basin may rest
TUB_FLOOR = 0.02  # metres: the drawn floor of a tub and of its basin (simulator.render.fixtures)
MIN_TUB_POINTS = 3


def _edge_pixels(bbox) -> np.ndarray:
    """The mask box's near corners (the near rim's ends: in perspective the near rim is the
    widest) and the middles of its near and far edges (the near and far rims)."""
    x0, y0, x1, y1 = bbox
    xm = (x0 + x1) / 2
    return np.array([[x0, y1], [x1, y1], [xm, y0], [xm, y1]], dtype=float)


def rim_footprint(group: list[dict], height: float, fov: float, rim: float) -> tuple[float, float, float, float] | None:
    """Median over views of the (x0, x1, z0, z1) footprint where the rays through each
    view's mask box meet the plane y = ``rim``; None if no view looks down at it."""
    if rim >= height:
        return None
    spans = []
    for view in group:
        pixels = _edge_pixels(view["bbox"])
        origins, dirs = _rays([view] * len(pixels), height, fov, pixels)
        if np.any(dirs[:, 1] > -1e-3):
            continue
        cut = origins + dirs * ((rim - origins[:, 1]) / dirs[:, 1])[:, None]
        spans.append((cut[:, 0].min(), cut[:, 0].max(), cut[:, 2].min(), cut[:, 2].max()))
    if not spans:
        return None
    return tuple(float(v) for v in np.median(np.array(spans), axis=0))  # type: ignore[return-value]


def pedestal_rim(groups: dict, height: float, fov: float) -> float | None:
    """The rim height of pedestal sinks' basins (pivot on the floor, so the rim is not in the
    pivot's plane): per view, the height at which the ray through the centre of the mask's
    box passes nearest above the pivot (a basin is centred over its pedestal); the median
    over the views of every such basin, pooled. None without views."""
    heights = []
    for (_, oid), group in sorted(groups.items()):
        if oid.split("|")[-1] not in BASIN_TYPES or id_position(oid)[1] >= PEDESTAL:
            continue
        boxes = np.array([view["bbox"] for view in group], dtype=float)
        centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2], axis=1)
        origins, dirs = _rays(group, height, fov, centres)
        pivot = np.array(id_position(oid))
        flat = dirs[:, [0, 2]]
        t = ((pivot[[0, 2]] - origins[:, [0, 2]]) * flat).sum(axis=1) / np.maximum((flat * flat).sum(axis=1), 1e-9)
        heights.extend(float(h) for h in origins[:, 1] + t * dirs[:, 1] if PEDESTAL < h < height)
    return round(float(np.median(heights)), 3) if heights else None


def fit_basins(observations: list[dict], fixed: dict[str, dict[str, dict]], height: float, fov: float) -> int:
    """Give every basin seen in at least ``MIN_INSTANCE_VIEWS`` views its box from the rim
    (replacing a box fit); a pedestal sink's basin has its rim at ``pedestal_rim``, not in
    its pivot's plane. Returns how many."""
    count = 0
    groups = fixed_views(observations)
    pedestal = pedestal_rim(groups, height, fov)
    for (plan, oid), group in sorted(groups.items()):
        built = builder_boxes(plan).get(oid)
        if built is None or built["type"] not in BASIN_TYPES or len(group) < MIN_INSTANCE_VIEWS:
            continue
        pivot = np.array(id_position(oid))
        rim = float(pivot[1]) if pivot[1] >= PEDESTAL or pedestal is None else pedestal
        footprint = rim_footprint(group, height, fov, rim)
        if footprint is None:
            continue
        x0, x1, z0, z1 = footprint
        depth = float(built["size"][1])
        centre = np.array([(x0 + x1) / 2, rim - depth / 2, (z0 + z1) / 2])
        size = np.array([x1 - x0, depth, z1 - z0])
        shift = centre - np.array(built["position"], dtype=float)
        shift = np.linalg.norm(shift if rim == pivot[1] else shift[[0, 2]])  # a pedestal's builder box is on the floor
        if not (SPAN[0] <= size[0] <= SPAN[1] and SPAN[0] <= size[2] <= SPAN[1]) or shift > MAX_SHIFT:
            continue
        fixed.setdefault(plan, {})[oid] = {"choice": "rim", "views": len(group),
                                           "offset": [round(float(v), 4) for v in centre - pivot],
                                           "size": [round(float(v), 4) for v in size]}
        count += 1
    return count


def deepen_basins(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> int:
    """A rim-fitted basin hangs down to where the recorded things in it rest (the low end of
    the resting bottoms over its footprint, within ``MAX_DEPTH`` below the rim), if that is
    deeper than the builder's depth. Returns how many were deepened."""
    count = 0
    for plan, entries in sorted(fixed.items()):
        points = np.array(bottoms.get(plan, []), dtype=float).reshape(-1, 3)
        for oid, entry in sorted(entries.items()):
            if entry.get("choice") != "rim" or not len(points):
                continue
            pivot = np.array(id_position(oid))
            centre, size = pivot + np.array(entry["offset"]), np.array(entry["size"])
            rim = float(pivot[1]) if pivot[1] >= PEDESTAL else float(centre[1] + size[1] / 2)  # a pedestal's: fitted
            over = within(points, centre, size, axes=(0, 2))
            ys = points[over & (points[:, 1] < rim) & (points[:, 1] >= rim - MAX_DEPTH), 1]
            if len(ys) == 0:
                continue
            floor = float(np.percentile(ys, LEVEL_QUANTILE)) - 0.01
            if rim - floor > size[1]:
                entry["size"][1] = round(rim - floor, 4)
                entry["offset"][1] = round((rim + floor) / 2 - rim, 4)
                count += 1
    return count


def fit_tubs(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> int:
    """Move every bathtub and bathtub basin with things recorded in it (over the basin's
    footprint, or the tub's if it has no basin) up or down whole, so that its drawn floor
    lies where they rest (``seat_level``: the lowest band holding a good share of them, as
    soap and candles on the rim lie above); a tub and its basin move together. Returns how
    many."""
    count = 0
    for plan in sorted(bottoms):
        points = np.array(bottoms[plan], dtype=float).reshape(-1, 3)
        entries = fixed.setdefault(plan, {})
        boxes = _boxes(plan, entries)
        for oid, (kind, centre, size) in sorted(boxes.items()):
            if kind != "Bathtub":
                continue
            basin = boxes.get(f"{oid}|BathtubBasin")
            over_c, over_s = (basin[1], basin[2]) if basin is not None else (centre, size)
            ys = points[within(points, over_c, over_s, axes=(0, 2)), 1]
            if len(ys) < MIN_TUB_POINTS:
                continue
            floor = seat_level(ys)
            for part in (oid, f"{oid}|BathtubBasin"):
                if part not in boxes:
                    continue
                _, c, sz = boxes[part]
                entry = _entry(entries, part, c, sz)
                entry["offset"][1] = round(floor - TUB_FLOOR + float(sz[1]) / 2 - id_position(part)[1], 4)
                entry["floor"] = round(floor, 4)
                count += 1
    return count


def type_floors(fixed: dict[str, dict[str, dict]]) -> dict[str, dict[str, float]]:
    """{'Bathtub': {'floor' (the median height, metres, of the fitted tubs' floors),
    'instances', 'error', 'builder_error'}} for the tubs and basins fitted on nothing (one
    floor for both, which move together): kept if that median predicts a held-out tub's
    floor better (leave one out, median absolute error) than the builder's box does."""
    from simulator.calibration import fixedfit

    floors: list[float] = []
    builder_errors: list[float] = []
    for plan, entries in sorted(fixed.items()):
        built = fixedfit.builder_boxes(plan)
        for oid, entry in sorted(entries.items()):
            b = built.get(oid)
            if b is None or b["type"] != "Bathtub" or "floor" not in entry:
                continue
            floors.append(entry["floor"])
            builder_errors.append(b["position"][1] - b["size"][1] / 2 + TUB_FLOOR - entry["floor"])
    fit = held_out_median("floor", floors, builder_errors)
    return {} if fit is None else {"Bathtub": fit}

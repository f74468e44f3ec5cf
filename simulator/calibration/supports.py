"""Support surfaces: the heights at which AI2-THOR's objects rest on each fixed instance.

Every ALFRED start state records the pose of every movable object; with the movables'
fitted boxes that gives, per floor plan, thousands of (x, bottom, z) points where real
objects rest (``resting_bottoms``). A surface (counter, table, shelf, desk...) is drawn
with its top where the objects over it rest (``fit_supports``), for every instance of the
floor plan, fitted or not: the scene builder's one-size-per-type boxes put the top of a
side table, a dining table or a shelf well above the things standing on it, which then
are drawn inside it (hidden) although AI2-THOR shows them.

The resting bottoms over an instance's footprint, between just above its bottom and a
little above its top (``BAND_ABOVE``), fall into bands (runs with gaps under
``LEVEL_GAP``); its support level is the highest band holding at least ``TOP_SHARE`` of
the largest one (a TV stand's or a side table's lower shelf does not become its top), at
the band's low end (``LEVEL_QUANTILE``). A few bathroom counters are recorded with their
pivot on the floor (``FLOOR_PIVOT``): their tops are looked for anywhere below the eye.
Objects inside an enclosing receptacle (a dresser's drawers, a fridge) or in a sink basin
are left out. A thin slab (a shelf, at most ``THIN`` tall) is moved whole, and may move
down by up to ``BAND_ABOVE``.

Floor plans without data (the held-out ones) get, for the surface types where it
generalizes, the type's median top height (``type_tops``): kept only where its
leave-one-instance-out error is below that of the scene builder's top.

Inside a fridge or a cabinet the resting bottoms fall into a few bands: its shelves
(``fit_levels``). They are kept per instance as ``levels`` (absolute heights): the
renderer draws the shelves there, and the simulator puts things on the shelf the agent
looks at instead of on the floor of the receptacle, where AI2-THOR never puts them and
where the receptacle's own walls hide them.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from simulator.calibration.observations import id_position
from simulator.geometry import CAMERA_HEIGHT  # AI2-THOR's eye: a counter's top lies below it

SURFACES = frozenset({
    "CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand",
    "Shelf", "Cart", "Ottoman", "Stool", "Footstool",
})
ENCLOSURES = frozenset({"Drawer", "Cabinet", "Fridge", "Microwave", "Safe", "Sink", "SinkBasin", "Toaster"})
LEVEL_QUANTILE = 10  # percent of a band: the surface is under (nearly) all of its bottoms
TOP_SHARE = 0.25  # a band this large relative to the largest can be the top surface
THIN = 0.1  # metres: a surface this thin is a slab, moved whole
BAND_ABOVE = 0.15  # metres above the drawn top that objects may rest (the box is too low)
MIN_ABOVE_BOTTOM = 0.02  # metres: points nearer the box's bottom are on the floor under it
FLOOR_PIVOT = 0.1  # metres: a counter pivoted this low was recorded at the floor (4 bathroom ones)
MIN_POINTS = 2
SHELVED = frozenset({"Fridge", "Cabinet", "Microwave"})  # a microwave's one "shelf" is its plate
LEVEL_GAP = 0.03  # metres: resting bottoms closer than this (in sorted order) are one band
MIN_LEVEL_SHARE = 0.1  # a shelf holds at least this share of the instance's resting bottoms...
MIN_LEVEL_POINTS = 3  # ...and at least this many
TOP_CLEARANCE = 0.1  # metres: a band this near the top (or above it) rests on the receptacle, not in it
SEATED = ("ArmChair", "GarbageCan", "Sofa")  # things rest at the type's fitted fraction of the box height
SEATS = frozenset({"ArmChair", "Sofa"})  # ... or, where recorded, at the instance's own seat (``levels``)


def resting_bottoms(trajectories: Any, types: dict, assets: dict) -> dict[str, list[tuple[float, float, float]]]:
    """floor plan -> (x, bottom y, z) of every recorded movable object in its start states,
    with the movables' fitted boxes (``types``, ``assets`` as ``fit_movables`` returns them):
    the pivot moved by the turned offset, half the turned height below."""
    from simulator.calibration.table import rotation_matrix

    out: dict[str, set[tuple[float, float, float]]] = defaultdict(set)
    for trajectory in trajectories:
        for pose in trajectory.object_poses:
            entry = assets.get(pose["objectName"]) or types.get(pose["objectName"].split("_")[0])
            if entry is None:
                continue
            p, r = pose["position"], pose.get("rotation") or {}
            rot = rotation_matrix((float(r.get("x", 0.0)), float(r.get("y", 0.0)), float(r.get("z", 0.0))))
            centre = np.array([p["x"], p["y"], p["z"]], dtype=float) + rot @ np.array(entry["offset"])
            height = float(np.abs(rot[1]) @ np.array(entry["size"]))
            out[trajectory.floor_plan].add((round(float(centre[0]), 3), round(float(centre[1]) - height / 2, 3),
                                            round(float(centre[2]), 3)))
    return {k: sorted(v) for k, v in out.items()}


def bands(bottoms: np.ndarray) -> list[np.ndarray]:
    """Sorted resting bottoms split into runs whose neighbours are under ``LEVEL_GAP`` apart."""
    ys = np.sort(np.asarray(bottoms, dtype=float))
    return np.split(ys, np.flatnonzero(np.diff(ys) > LEVEL_GAP) + 1) if len(ys) else []


def support_level(bottoms: np.ndarray) -> float:
    """The height of the top surface under a set of resting bottoms: the highest band
    holding at least ``TOP_SHARE`` of the largest one, at its low end."""
    runs = bands(bottoms)
    need = max(MIN_POINTS, TOP_SHARE * max(len(r) for r in runs))
    top = ([r for r in runs if len(r) >= need] or [max(runs, key=len)])[-1]
    return float(np.percentile(top, LEVEL_QUANTILE))


def seat_level(bottoms: np.ndarray) -> float:
    """The height of a seat under a set of resting bottoms: the lowest band holding at least
    ``TOP_SHARE`` of the largest one (a few things lie on the arms or the back, above the
    cushion), at its low end."""
    runs = bands(bottoms)
    need = max(MIN_POINTS, TOP_SHARE * max(len(r) for r in runs))
    return float(np.percentile(([r for r in runs if len(r) >= need] or [max(runs, key=len)])[0], LEVEL_QUANTILE))


def _boxes(plan: str, fixed: dict[str, dict]) -> dict[str, tuple[str, np.ndarray, np.ndarray]]:
    """objectId -> (type, centre, full size) of every fixed object: the fitted box where
    there is one, else the builder's."""
    from simulator.calibration.fixedfit import builder_boxes

    out = {}
    for oid, b in builder_boxes(plan).items():
        entry = fixed.get(oid)
        if entry is None:
            centre, size = np.array(b["position"], dtype=float), np.array(b["size"], dtype=float)
        else:
            centre, size = np.array(id_position(oid)) + np.array(entry["offset"]), np.array(entry["size"], dtype=float)
        out[oid] = (b["type"], centre, size)
    return out


def within(points: np.ndarray, centre: np.ndarray, size: np.ndarray, axes=(0, 1, 2), margin: float = 0.0) -> np.ndarray:
    """Which of the (N, 3) ``points`` lie in the box (along ``axes``, grown by ``margin``)."""
    inside = np.ones(len(points), dtype=bool)
    for a in axes:
        inside &= np.abs(points[:, a] - centre[a]) <= size[a] / 2 + margin
    return inside


def _enclosure_masks(points: np.ndarray, boxes: dict) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """(objectId of every enclosure (drawer, cabinet, fridge, basin...) -> which points lie
    in it, how many enclosures each point lies in)."""
    masks = {oid: within(points, centre, size, margin=0.02)
             for oid, (kind, centre, size) in boxes.items() if kind in ENCLOSURES}
    return masks, np.sum([np.zeros(len(points), dtype=int), *masks.values()], axis=0)


def _entry(entries: dict[str, dict], oid: str, centre: np.ndarray, size: np.ndarray) -> dict:
    """The instance's calibration entry, made from its current box (``choice`` 'builder')
    if it has none yet."""
    if oid not in entries:
        entries[oid] = {"choice": "builder", "offset": [round(float(v), 4) for v in centre - np.array(id_position(oid))],
                        "size": [round(float(v), 4) for v in size]}
    return entries[oid]


def fit_supports(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> int:
    """Move the top of every surface instance of every floor plan (fitted or not; an
    unfitted one gets an entry with the builder's box, ``choice`` 'builder') to its support
    level; the bottom stays. Returns how many tops moved."""
    moved = 0
    for plan in sorted(bottoms):
        points = np.array(bottoms[plan], dtype=float).reshape(-1, 3)
        entries = fixed.setdefault(plan, {})
        boxes = _boxes(plan, entries)
        free = points[_enclosure_masks(points, boxes)[1] == 0]
        for oid, (kind, centre, size) in sorted(boxes.items()):
            if kind not in SURFACES:
                continue
            top, bottom = centre[1] + size[1] / 2, centre[1] - size[1] / 2
            slab = size[1] <= THIN
            pivot_y = id_position(oid)[1]
            low, high = (top - BAND_ABOVE if slab else bottom + MIN_ABOVE_BOTTOM), top + BAND_ABOVE
            if kind == "CounterTop" and pivot_y <= FLOOR_PIVOT:  # its top: anywhere below the eye
                low, high = MIN_ABOVE_BOTTOM, CAMERA_HEIGHT
            over = free[within(free, centre, size, axes=(0, 2))]
            ys = over[:, 1][(over[:, 1] >= low) & (over[:, 1] <= high)]
            if len(ys) < MIN_POINTS:
                continue
            level = support_level(ys)
            if abs(level - top) < 1e-3:
                continue
            entry = _entry(entries, oid, centre, size)
            if slab:  # the whole slab moves
                entry["offset"][1] = round(float(centre[1]) + level - top - pivot_y, 4)
            else:  # the bottom stays
                entry["size"][1] = round(level - bottom, 4)
                entry["offset"][1] = round((level + bottom) / 2 - pivot_y, 4)
            entry["support_shift"] = round(level - top, 4)
            moved += 1
    return moved


def shelf_levels(bottoms: np.ndarray) -> list[float]:
    """The shelves under a set of resting bottoms inside one receptacle: runs of sorted
    bottoms with gaps under ``LEVEL_GAP``, each holding enough of them, at the low end
    (``LEVEL_QUANTILE``) of the run."""
    runs = bands(bottoms)
    need = max(MIN_LEVEL_POINTS, MIN_LEVEL_SHARE * sum(len(r) for r in runs))
    return [round(float(np.percentile(r, LEVEL_QUANTILE)), 3) for r in runs if len(r) >= need]


def fit_levels(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> int:
    """Give every fridge and cabinet instance with things recorded inside it its shelf
    ``levels`` (an unfitted one gets an entry with the builder's box). Things inside another
    enclosure (the sink basin above a cabinet, a drawer in it) do not count. Returns how many."""
    count = 0
    for plan in sorted(bottoms):
        points = np.array(bottoms[plan], dtype=float).reshape(-1, 3)
        entries = fixed.setdefault(plan, {})
        boxes = _boxes(plan, entries)
        masks, enclosures = _enclosure_masks(points, boxes)
        for oid, (kind, centre, size) in sorted(boxes.items()):
            if kind not in SHELVED:
                continue
            top, bottom = centre[1] + size[1] / 2, centre[1] - size[1] / 2
            elsewhere = enclosures - masks[oid] > 0  # in an enclosure other than this one
            inside = points[~elsewhere & within(points, centre, size, axes=(0, 2))]
            ys = inside[:, 1][(inside[:, 1] >= bottom - MIN_ABOVE_BOTTOM) & (inside[:, 1] <= top - TOP_CLEARANCE)]
            levels = shelf_levels(ys)
            if not levels:
                continue
            _entry(entries, oid, centre, size)["levels"] = levels
            count += 1
    return count


def held_out_median(name: str, fitted, builder_errors) -> dict[str, float] | None:
    """{``name``: the median of the ``fitted`` values, 'instances', 'error' (leave one out:
    the median absolute error of the others' median), 'builder_error' (the median of the
    scene builder's ``builder_errors``)} if there are at least 5 and the median predicts a
    held-out instance better than the builder does, else None."""
    v = np.asarray(fitted, dtype=float)
    if len(v) < 5:
        return None
    loo = np.median([abs(v[i] - np.median(np.delete(v, i))) for i in range(len(v))])
    builder = np.median(np.abs(np.asarray(builder_errors, dtype=float)))
    if loo >= builder:
        return None
    return {name: round(float(np.median(v)), 4), "instances": len(v),
            "error": round(float(loo), 4), "builder_error": round(float(builder), 4)}


WALL_BOTTOM = 1.0  # metres: an enclosure whose box starts above a counter top hangs on the wall


def level_group(object_type: str, bottom: float) -> str:
    """The group whose type-level shelf an instance without recorded contents gets: its type,
    and for wall-hung ones (a wall cabinet, a microwave over the stove) ' (wall)'."""
    return f"{object_type} (wall)" if bottom >= WALL_BOTTOM else object_type


def type_levels(fixed: dict[str, dict[str, dict]]) -> dict[str, dict[str, float]]:
    """Level group (``level_group``) -> {'above_bottom' (the median height, metres, of the
    lowest shelf above the scene builder's box bottom), 'instances', 'error',
    'builder_error'} for fridges, cabinets and microwaves with no recorded contents (all of
    them in floor plans without data): kept for the groups where that median predicts a
    held-out instance's lowest shelf better (leave one out, median absolute error) than the
    box's bottom does. In a wall cabinet things rest 7 cm above the builder's bottom, in a
    microwave 9 cm (on its plate), in a fridge on a shelf well above its floor."""
    from simulator.calibration.fixedfit import builder_boxes

    lowest: dict[str, list[float]] = defaultdict(list)
    for plan, entries in sorted(fixed.items()):
        built = builder_boxes(plan)
        for oid, entry in sorted(entries.items()):
            if not entry.get("levels") or oid not in built or built[oid]["type"] not in SHELVED:
                continue
            b = built[oid]
            bottom = b["position"][1] - b["size"][1] / 2
            lowest[level_group(b["type"], bottom)].append(min(entry["levels"]) - bottom)
    fits = {group: held_out_median("above_bottom", v, v) for group, v in sorted(lowest.items())}
    return {group: fit for group, fit in fits.items() if fit is not None}


def type_tops(fixed: dict[str, dict[str, dict]]) -> dict[str, dict[str, float]]:
    """Surface type -> {'top' (median height of its fitted tops, metres), 'instances',
    'error', 'builder_error'} for the types whose median predicts a held-out instance's top
    better (leave one out, median absolute error) than the scene builder's box does."""
    from simulator.calibration.fixedfit import builder_boxes

    tops: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for plan, entries in sorted(fixed.items()):
        built = builder_boxes(plan)
        for oid, entry in sorted(entries.items()):
            if "support_shift" not in entry or oid not in built:
                continue
            y = id_position(oid)[1]
            b = built[oid]
            tops[b["type"]].append((y + entry["offset"][1] + entry["size"][1] / 2, b["position"][1] + b["size"][1] / 2))
    fits = {kind: held_out_median("top", [t for t, _ in pairs], [t - b for t, b in pairs])
            for kind, pairs in sorted(tops.items())}
    return {kind: fit for kind, fit in fits.items() if fit is not None}


def _seat_bottoms(points: np.ndarray, centre: np.ndarray, size: np.ndarray) -> np.ndarray:
    """The resting bottoms over a seated instance's footprint, between just above its bottom
    and its top."""
    top, bottom = centre[1] + size[1] / 2, centre[1] - size[1] / 2
    over = points[within(points, centre, size, axes=(0, 2))]
    return over[:, 1][(over[:, 1] >= bottom + MIN_ABOVE_BOTTOM) & (over[:, 1] <= top)]


def fit_seats(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> int:
    """Give every sofa and armchair instance with things recorded on it its seat
    (``seat_level``, absolute metres) as its one ``levels`` entry: seats differ by asset
    from 0.14 to 0.77 of the box height, so the type's median hid the things resting on half
    of them. Returns how many."""
    count = 0
    for plan in sorted(bottoms):
        points = np.array(bottoms[plan], dtype=float).reshape(-1, 3)
        entries = fixed.setdefault(plan, {})
        for oid, (kind, centre, size) in sorted(_boxes(plan, entries).items()):
            ys = _seat_bottoms(points, centre, size) if kind in SEATS else ()
            if len(ys) >= MIN_POINTS:
                _entry(entries, oid, centre, size)["levels"] = [round(seat_level(ys), 3)]
                count += 1
    return count


def seat_heights(fixed: dict[str, dict[str, dict]], bottoms: dict[str, list]) -> dict[str, dict[str, float]]:
    """Seated type (sofa, armchair; a garbage can, whose "seat" is the bottom that what is
    thrown in rests on) -> {'seat': fraction of the box height, from its bottom, where
    AI2-THOR's things rest on the seat; 'instances'}: per instance, the seat level
    (``seat_level``) of the resting bottoms over its footprint between just above its
    bottom and its top, as a fraction of its height; the type's median over its instances,
    for the instances without recorded things (every one in a floor plan without data).
    A type-level rule: the box's top is the back's (the can's rim), the seat lies below it."""
    fractions: dict[str, list[float]] = defaultdict(list)
    for plan in sorted(bottoms):
        points = np.array(bottoms[plan], dtype=float).reshape(-1, 3)
        for _oid, (kind, centre, size) in sorted(_boxes(plan, fixed.get(plan, {})).items()):
            ys = _seat_bottoms(points, centre, size) if kind in SEATED else ()
            if len(ys) >= MIN_POINTS:
                fractions[kind].append((seat_level(ys) - (centre[1] - size[1] / 2)) / size[1])
    return {kind: {"seat": round(float(np.median(v)), 4), "instances": len(v)}
            for kind, v in sorted(fractions.items()) if len(v) >= 5}

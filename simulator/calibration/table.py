"""The fitted calibration at run time: the camera and each movable object's box from its pivot.

Reads ``simulator/data/calibration.json`` (written by ``python -m simulator.calibration.fit``;
docs/calibration.md) and ``simulator/data/put_offsets.json`` (``simulator.calibration.putfit``).
``placed_box`` turns a recorded pose (AI2-THOR's pivot and rotation) into the simulator's
geometry: the box centre, the axis-aligned extents the symbolic world uses, and the
object's own extents that the renderer draws turned by the rotation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

Vec3 = tuple[float, float, float]


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    path = resources.files("simulator") / "data" / "calibration.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


_PUT_OFFSETS = {"on": True}
PUT_POSE = 0.1  # metres from the fitted put position within which a put offset holds


@lru_cache(maxsize=1)
def _put_offsets() -> dict[str, Any]:
    path = resources.files("simulator") / "data" / "put_offsets.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8")).get("floor_plans", {})


def put_offset(floor_plan: str, object_id: str, agent: tuple[float, float]) -> tuple[float, float]:
    """(x, z) metres added to where a put into this fixed receptacle by an agent standing at
    ``agent`` (x, z) lands: how far AI2-THOR's spawn point lay from our rule's landing when
    the train experts put from there (``simulator.calibration.putfit``); (0, 0) from
    elsewhere, where none was fitted, or while ``put_offsets_off``."""
    entry = _put_offsets().get(floor_plan, {}).get(object_id) if _PUT_OFFSETS["on"] else None
    if entry is None or max(abs(agent[0] - entry["pose"][0]), abs(agent[1] - entry["pose"][1])) > PUT_POSE:
        return (0.0, 0.0)
    return (float(entry["offset"][0]), float(entry["offset"][1]))


@contextmanager
def put_offsets_off() -> Iterator[None]:
    """Puts land by the rule alone inside this block (fitting the offsets measures the rule)."""
    _PUT_OFFSETS["on"] = False
    try:
        yield
    finally:
        _PUT_OFFSETS["on"] = True


def field_of_view() -> float:
    """AI2-THOR's (ALFRED's) camera field of view, degrees (fitted: 60)."""
    return float(_table().get("camera", {}).get("field_of_view", 60.0))


def object_box(object_type: str, asset: str | None = None) -> tuple[Vec3, Vec3] | None:
    """(full extents, centre offset from the pivot) in the object's frame, for an asset
    (ALFRED's objectName) fitted on its own, else for its type; None if not fitted."""
    table = _table()
    entry = table.get("assets", {}).get(asset) if asset else None
    entry = entry or table.get("types", {}).get(object_type)
    if entry is None:
        return None
    return tuple(entry["size"]), tuple(entry["offset"])  # type: ignore[return-value]


def fixed_box(floor_plan: str, object_id: str) -> tuple[Vec3, Vec3] | None:
    """(box centre, full axis-aligned extents) of a fixed object fitted on its own (its
    pivot is the position in its objectId), or None if it was not fitted."""
    entry = _table().get("fixed", {}).get(floor_plan, {}).get(object_id)
    if entry is None:
        return None
    pivot = [float(v) for v in object_id.split("|")[1:4]]
    centre = tuple(round(p + o, 5) for p, o in zip(pivot, entry["offset"], strict=True))
    return centre, tuple(float(v) for v in entry["size"])  # type: ignore[return-value]


def type_top(object_type: str) -> float | None:
    """The top height (metres) of a surface type's instances where AI2-THOR's objects rest,
    for instances fitted on nothing (``simulator.calibration.supports.type_tops``)."""
    entry = _table().get("surface_tops", {}).get(object_type)
    return None if entry is None else float(entry["top"])


def type_floor(object_type: str) -> float | None:
    """Where things rest in a bathtub (or its basin) fitted on nothing: the type's median
    floor height, metres (``simulator.calibration.basins.type_floors``); None: not fitted."""
    entry = _table().get("tub_floors", {}).get("Bathtub") if object_type in ("Bathtub", "BathtubBasin") else None
    return None if entry is None else float(entry["floor"])


def type_levels(object_type: str, bottom: float) -> tuple[float, ...]:
    """The shelf (absolute height, metres) of a fridge, cabinet or microwave with no recorded
    contents whose box's bottom is at ``bottom``: its level group's fitted height above the
    bottom (``simulator.calibration.supports.type_levels``); () if the group has none."""
    from simulator.calibration.supports import level_group

    entry = _table().get("type_levels", {}).get(level_group(object_type, bottom))
    return () if entry is None else (round(bottom + float(entry["above_bottom"]), 4),)


def seat_fraction(object_type: str) -> float | None:
    """Where things rest on a sofa's or armchair's seat (in a garbage can: on its bottom),
    as a fraction of its box height from the bottom (``simulator.calibration.supports.
    seat_heights``); None: not fitted."""
    entry = _table().get("seats", {}).get(object_type)
    return None if entry is None else float(entry["seat"])


def seat_top(object_type: str, bottom: float, height: float, levels: tuple[float, ...] = ()) -> float | None:
    """The height (metres) where things rest on a sofa's or armchair's seat (in a garbage
    can: on its bottom) whose box starts at ``bottom``: the instance's own seat where things
    were recorded on it (its one ``levels`` entry, ``supports.fit_seats``), else the type's
    fraction of the box ``height``; None: not a seated type, or not fitted."""
    from simulator.calibration.supports import SEATS

    if levels and object_type in SEATS:
        return float(levels[0])
    fraction = seat_fraction(object_type)
    return None if fraction is None else bottom + fraction * height


def fixed_levels(floor_plan: str, object_id: str) -> tuple[float, ...]:
    """The shelf heights (absolute, metres) of a fridge or cabinet where AI2-THOR's objects
    rest inside it (``simulator.calibration.supports``); () if none were recorded."""
    entry = _table().get("fixed", {}).get(floor_plan, {}).get(object_id) or {}
    return tuple(float(v) for v in entry.get("levels", ()))


def slice_layout(piece_type: str) -> tuple[Vec3, Vec3, Vec3] | None:
    """(full extents, first piece's centre offset, step between pieces) of a piece type in
    the whole object's frame, relative to its pivot (``simulator.calibration.slicefit``);
    None if not fitted."""
    entry = _table().get("slices", {}).get(piece_type)
    if entry is None:
        return None
    return tuple(entry["size"]), tuple(entry["start"]), tuple(entry["step"])  # type: ignore[return-value]


@lru_cache(maxsize=4096)
def rotation_matrix(rotation: Vec3) -> np.ndarray:
    from simulator.render.rotation import euler_matrix

    m = euler_matrix(*rotation)
    m.setflags(write=False)
    return m


def placed_box(object_type: str, pivot: Vec3, rotation: Vec3 = (0.0, 0.0, 0.0), asset: str | None = None,
               default_size: Vec3 | None = None, at_pivot: bool = True) -> tuple[Vec3, Vec3, Vec3 | None]:
    """(box centre, axis-aligned extents, own extents or None) of an object at a pose.

    ``at_pivot``: the position is AI2-THOR's pivot (a recorded pose), so the fitted offset
    moves it to the box centre; otherwise (a spawned object) it already is the centre.
    Without a fitted box the position is the centre and ``default_size`` the extents (the
    object is drawn unturned: own extents None)."""
    fitted = object_box(object_type, asset)
    if fitted is None:
        size = default_size if default_size is not None else (0.15, 0.15, 0.15)
        return tuple(float(v) for v in pivot), tuple(float(v) for v in size), None  # type: ignore[return-value]
    extent, offset = fitted
    r = rotation_matrix(tuple(float(v) for v in rotation))
    center = np.asarray(pivot, dtype=float) + (r @ np.asarray(offset, dtype=float) if at_pivot else 0.0)
    aabb = np.abs(r) @ np.asarray(extent, dtype=float)
    return (
        tuple(round(float(v), 5) for v in center),  # type: ignore[return-value]
        tuple(round(float(v), 5) for v in aabb),  # type: ignore[return-value]
        tuple(float(v) for v in extent),  # type: ignore[return-value]
    )

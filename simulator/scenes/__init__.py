"""The AI2-THOR iTHOR floor plans as the simulator sees them (package data, loader, grid).

Owns loading ``simulator/data/scenes.json.gz`` (built by ``python -m simulator.scenes.build
DATA_DIR``; see docs/scenes.md) into frozen ``Scene`` records: fixed objects (receptacles and
static objects at their recorded positions; boxes fitted to AI2-THOR's masks where seen,
docs/calibration.md), the navigable 0.25 m grid, the room extent, which switch controls
what, and recorded interaction poses.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from contracts.errors import NesyError

GRID = 0.25

Cell = tuple[int, int]
Pose = tuple[float, float, int, int]  # x, z, rotation, horizon


def to_cell(x: float, z: float) -> Cell:
    """The grid cell containing the point (x, z) (metres)."""
    return (round(x / GRID), round(z / GRID))


def cell_center(cell: Cell) -> tuple[float, float]:
    """The (x, z) centre of a grid cell, metres."""
    return (cell[0] * GRID, cell[1] * GRID)


@dataclass(frozen=True)
class FixedObject:
    """A receptacle or static (non-pickupable) object that stays in place."""

    object_id: str
    object_type: str
    position: tuple[float, float, float]  # centre, metres, y up
    size: tuple[float, float, float]  # full axis-aligned extents (x, y, z), metres
    interaction_pose: Pose | None
    receptacle: bool
    levels: tuple[float, ...] = ()  # shelf heights inside a fridge or cabinet (calibrated), metres

    @property
    def front(self) -> tuple[int, int] | None:
        """The axis direction (x, z) an openable object (fridge, microwave, cabinet, drawer)
        faces: towards where the agent stands to open it (its interaction pose), the axis
        nearest that direction; None without a pose or for other types (the renderer then
        turns it away from the nearest room wall, which for 15% of the microwaves opened in
        ALFRED's train subset is not the side the agent opens it from)."""
        from simulator.object_types import type_info

        if self.interaction_pose is None or not type_info(self.object_type).openable:
            return None
        dx, dz = self.interaction_pose[0] - self.position[0], self.interaction_pose[1] - self.position[2]
        if abs(dx) < 1e-6 and abs(dz) < 1e-6:
            return None
        return (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dz) else (0, 1 if dz > 0 else -1)


@dataclass(frozen=True)
class Scene:
    """One iTHOR floor plan's static facts."""

    name: str
    number: int
    room_type: str
    fixed_objects: dict[str, FixedObject]
    object_types: tuple[str, ...]
    navigable: frozenset[Cell]
    recorded_reachable: frozenset[Cell]
    bounds: tuple[float, float, float, float]  # xmin, xmax, zmin, zmax
    controls: dict[str, tuple[str, ...]]
    openable_poses: dict[str, Pose]


class UnknownSceneError(NesyError):
    """A scene name or number that is not one of the 120 iTHOR floor plans."""


class UnsupportedSceneError(NesyError):
    """A floor plan whose receptacles and static objects are not in the data."""


@lru_cache(maxsize=1)
def _raw() -> dict[str, dict[str, Any]]:
    path = resources.files("simulator") / "data" / "scenes.json.gz"
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))["scenes"]


def _number(name: str) -> int:
    return int(name[len("FloorPlan"):])


def all_scenes() -> list[str]:
    """The 120 iTHOR floor plans, in numeric order."""
    return sorted(_raw(), key=_number)


def supported_scenes() -> list[str]:
    """The floor plans the simulator can load (those with receptacles and static objects)."""
    return [n for n in all_scenes() if _raw()[n]["supported"]]


def _canonical(name: str | int) -> str:
    if isinstance(name, int) and not isinstance(name, bool):
        key = f"FloorPlan{name}"
    else:
        m = re.fullmatch(r"\s*(?:floorplan)?\s*(\d+)\s*", str(name), flags=re.IGNORECASE)
        key = f"FloorPlan{int(m.group(1))}" if m else str(name)
    if key not in _raw():
        raise UnknownSceneError(
            f"unknown scene {name!r}: expected an iTHOR floor plan name or number "
            "(FloorPlan1-30 kitchens, 201-230 living rooms, 301-330 bedrooms, "
            "401-430 bathrooms), e.g. 'FloorPlan1' or 1"
        )
    return key


def _with_type_top(built: dict) -> tuple[list[float], list[float]]:
    """The builder's box of an instance fitted on nothing, with its top moved to its type's
    calibrated top height where there is one (its bottom stays), or, for a bathtub, moved
    whole so that its floor lies at its type's calibrated floor height."""
    from simulator.calibration.basins import TUB_FLOOR
    from simulator.calibration.table import type_floor, type_top

    (x, y, z), (sx, sy, sz) = built["position"], built["size"]
    floor = type_floor(built["type"])
    if floor is not None:
        return [x, floor - TUB_FLOOR + sy / 2, z], [sx, sy, sz]
    top = type_top(built["type"])
    bottom = y - sy / 2
    if top is None or top <= bottom + 0.05:
        return built["position"], built["size"]
    return [x, (top + bottom) / 2, z], [sx, top - bottom, sz]


def _pose(v: list | None) -> Pose | None:
    return None if v is None else (float(v[0]), float(v[1]), int(v[2]), int(v[3]))


def _cells(raw: list[list[int]]) -> frozenset[Cell]:
    return frozenset((int(i), int(j)) for i, j in raw)


def load_scene(name: str | int) -> Scene:
    """Load a floor plan by name ('FloorPlan1', 'floorplan1') or number (1); cached, so
    every spelling of a name gives the same Scene object."""
    return _load(_canonical(name))


@lru_cache(maxsize=128)
def _load(key: str) -> Scene:
    raw = _raw()[key]
    if not raw["supported"]:
        raise UnsupportedSceneError(
            f"{key} is not supported: the floor-plan data has no receptacles or static "
            "objects for it (only its reachable cells, object types and openable poses were "
            f"recorded); {len(supported_scenes())} of the {len(all_scenes())} floor plans are "
            "supported (see simulator.scenes.supported_scenes())"
        )
    from simulator.calibration.table import fixed_box, fixed_levels, type_levels
    from simulator.scenes.twins import spread_twins

    objects = raw["fixed_objects"]
    # the box fitted to AI2-THOR's masks (docs/calibration.md), else the builder's, with the
    # two doors of a double-door cabinet side by side; the navigable grid stays the one
    # built from the builder's footprints
    boxes = spread_twins(
        {oid: tuple(map(list, fixed_box(key, oid) or _with_type_top(o))) for oid, o in objects.items()},
        {oid: o["type"] for oid, o in objects.items()},
        {oid: tuple(float(v) for v in oid.split("|")[1:4]) for oid in objects},
        {oid: o["interaction_pose"] for oid, o in objects.items()},
    )
    fixed = {}
    for oid, o in objects.items():
        position, size = boxes[oid]
        fixed[oid] = FixedObject(
            object_id=oid, object_type=o["type"],
            position=(float(position[0]), float(position[1]), float(position[2])),
            size=(float(size[0]), float(size[1]), float(size[2])),
            interaction_pose=_pose(o["interaction_pose"]), receptacle=bool(o["receptacle"]),
            levels=fixed_levels(key, oid) or type_levels(o["type"], position[1] - size[1] / 2),
        )
    b = raw["bounds"]
    return Scene(
        name=key, number=int(raw["number"]), room_type=raw["room_type"],
        fixed_objects=fixed, object_types=tuple(raw["object_types"]),
        navigable=_cells(raw["navigable"]), recorded_reachable=_cells(raw["reachable"]),
        bounds=(float(b[0]), float(b[1]), float(b[2]), float(b[3])),
        controls={k: tuple(v) for k, v in raw["controls"].items()},
        openable_poses={k: _pose(v) for k, v in raw["openable_poses"].items()},
    )

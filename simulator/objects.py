"""Simulated objects: their AI2-THOR properties and state, and their metadata form.

A ``SimObject`` is one AI2-THOR object instance: fixed (receptacles and static objects
of the floor plan) or movable (pickupables and moveables placed by a start state). Its
boolean properties come from the AI2-THOR type table (``simulator.object_types``); its
state fields follow AI2-THOR's metadata names, plus the derived states that TEACh's task
definitions test (``simbotIsCooked`` ...), which change only through the rules in
``simulator.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.object_types import type_info

ROOM_TEMP, HOT, COLD = "RoomTemp", "Hot", "Cold"


def format_object_id(object_type: str, position: tuple[float, float, float]) -> str:
    """AI2-THOR's objectId of an object spawned at ``position``: ``Type|+x.xx|+y.yy|+z.zz``."""
    return "|".join([object_type, *(_coord(v) for v in position)])


def _coord(value: float) -> str:
    # C#'s "+00.00;-00.00;00.00": a value that rounds to zero has no sign
    rounded = round(value, 2)
    text = f"{abs(rounded):05.2f}"
    if rounded == 0:
        return text
    return ("-" if rounded < 0 else "+") + text


# Openable receptacles whose contents stay reachable when closed (a lid, a cover, a screen)
OPEN_TOP = ("Toilet", "Laptop", "Book", "Kettle")


def encloses_type(object_type: str) -> bool:
    """Does closing an object of this type hide and lock away what is in it (fridge, drawer...)?"""
    info = type_info(object_type)
    return info.openable and info.receptacle and object_type not in OPEN_TOP


def encloses(obj: SimObject) -> bool:
    return encloses_type(obj.object_type)


DRAWER_SLIDE = 0.6  # of its depth: how far an open drawer is pulled out towards its front


def slide_offset(obj: SimObject) -> tuple[float, float, float]:
    """How far (x, y, z) an open drawer is pulled out, and with it what lies in it, as in
    AI2-THOR (the renderer draws the drawer there); zero for everything else."""
    if obj.object_type != "Drawer" or obj.front is None:
        return (0.0, 0.0, 0.0)
    fx, fz = obj.front
    out = DRAWER_SLIDE * (obj.size[0] if fx else obj.size[2])
    return (fx * out, 0.0, fz * out)


@dataclass
class SimObject:
    """One object instance with its AI2-THOR properties and mutable state."""

    object_id: str
    object_type: str
    position: tuple[float, float, float]
    size: tuple[float, float, float]
    fixed: bool = False
    # placement: exactly one of parent (a receptacle's id), held_by (an agent index) or the floor
    parent: str | None = None
    held_by: int | None = None
    children: list[str] = field(default_factory=list)
    # AI2-THOR's recorded rotation (Euler x, y, z, degrees) and the object's own full extents
    # (calibrated, in its frame; ``size`` is then their axis-aligned hull); None: unturned box
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    extent: tuple[float, float, float] | None = None
    levels: tuple[float, ...] = ()  # shelf heights inside a fridge or cabinet (calibrated), metres
    front: tuple[int, int] | None = None  # the axis direction a fixed object faces; None: away from the nearest wall
    # AI2-THOR state
    is_open: bool = False
    is_toggled: bool = False
    is_sliced: bool = False
    is_cooked: bool = False
    is_dirty: bool = False
    is_filled: bool = False
    liquid: str | None = None
    is_broken: bool = False
    temperature: str = ROOM_TEMP
    # TEACh's derived states (set by rules, read by TEACh task definitions)
    simbot_is_cooked: bool = False
    simbot_is_boiled: bool = False
    simbot_is_filled_with_coffee: bool = False
    simbot_is_filled_with_water: bool = False
    simbot_picked_up: bool = False
    simbot_last_parent_receptacle: str | None = None

    def __post_init__(self) -> None:
        info = type_info(self.object_type)
        self.pickupable = info.pickupable
        self.receptacle = info.receptacle
        self.openable = info.openable
        self.toggleable = info.toggleable
        self.sliceable = info.sliceable
        self.cookable = info.cookable
        self.dirtyable = info.dirtyable
        self.fillable = info.fillable
        self.breakable = info.breakable
        self.moveable = info.moveable

    @property
    def on_floor(self) -> bool:
        return self.parent is None and self.held_by is None

    def state_tuple(self) -> tuple:
        """Everything that identifies this object's state (for ``state_hash``)."""
        return (
            self.object_id, self.object_type, tuple(round(v, 3) for v in self.position),
            self.parent, self.held_by, tuple(self.children), self.is_open, self.is_toggled,
            self.is_sliced, self.is_cooked, self.is_dirty, self.is_filled, self.liquid,
            self.is_broken, self.temperature, self.simbot_is_cooked, self.simbot_is_boiled,
            self.simbot_is_filled_with_coffee, self.simbot_is_filled_with_water,
            self.simbot_picked_up, self.simbot_last_parent_receptacle,
        )

    def metadata(self, visible: bool, distance: float) -> dict[str, Any]:
        """The AI2-THOR metadata entry of this object."""
        x, y, z = self.position
        return {
            "objectId": self.object_id,
            "objectType": self.object_type,
            "name": self.object_id,
            "position": {"x": x, "y": y, "z": z},
            "axisAlignedBoundingBox": {"size": dict(zip("xyz", self.size, strict=True))},
            "visible": visible,
            "distance": distance,
            "parentReceptacles": [self.parent] if self.parent else None,
            "receptacleObjectIds": list(self.children) if self.receptacle else None,
            "pickupable": self.pickupable,
            "receptacle": self.receptacle,
            "openable": self.openable,
            "toggleable": self.toggleable,
            "sliceable": self.sliceable,
            "cookable": self.cookable,
            "dirtyable": self.dirtyable,
            "canFillWithLiquid": self.fillable,
            "breakable": self.breakable,
            "moveable": self.moveable,
            "isOpen": self.is_open,
            "isToggled": self.is_toggled,
            "isSliced": self.is_sliced,
            "isCooked": self.is_cooked,
            "isDirty": self.is_dirty,
            "isFilledWithLiquid": self.is_filled,
            "fillLiquid": self.liquid,
            "isBroken": self.is_broken,
            "isPickedUp": self.held_by is not None,
            "ObjectTemperature": self.temperature,
            "simbotIsCooked": self.simbot_is_cooked,
            "simbotIsBoiled": self.simbot_is_boiled,
            "simbotIsFilledWithCoffee": self.simbot_is_filled_with_coffee,
            "simbotIsFilledWithWater": self.simbot_is_filled_with_water,
            "simbotPickedUp": self.simbot_picked_up,
            "simbotLastParentReceptacle": self.simbot_last_parent_receptacle,
        }

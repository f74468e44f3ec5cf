"""The renderer's seam: the data types the simulator passes in and the frames it gets back.

Owns only plain data (no GL). Conventions (AI2-THOR's): metres, y up; rotation 0 faces +z,
90 faces +x; horizon positive looks down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RenderObject:
    """One object as the renderer sees it: type, axis-aligned box and visible state."""

    object_id: str  # AI2-THOR objectId, e.g. 'Mug|+00.10|+00.95|-01.20'
    object_type: str  # AI2-THOR type, e.g. 'Mug', 'Fridge', 'StoveBurner', 'AppleSliced'
    center: tuple[float, float, float]  # metres, y up
    size: tuple[float, float, float]  # full axis-aligned extents x, y, z
    is_open: bool = False
    is_toggled: bool = False
    is_dirty: bool = False
    is_filled: bool = False
    is_cooked: bool = False
    is_sliced: bool = False
    hidden: bool = False  # inside a closed receptacle or held: not drawn
    liquid: str | None = None  # 'water', 'coffee', 'wine' when filled; None: the type's usual
    # AI2-THOR's rotation (Euler x, y, z, degrees) and the object's own full extents in its
    # frame (calibrated); None: an unturned box of ``size`` facing away from the nearest wall
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    extent: tuple[float, float, float] | None = None
    levels: tuple[float, ...] = ()  # shelf heights (absolute y) inside a fridge or cabinet; (): the type's own
    # world (x0, x1, z0, z1) rectangles cut out of a counter's or sink's top: the basins set in it
    holes: tuple[tuple[float, float, float, float], ...] = ()
    # world rectangles cut out of a counter's body below its top: the cabinets and drawers
    # under it (drawn themselves, hollow), so that what lies in them shows when they open
    body_holes: tuple[tuple[float, float, float, float], ...] = ()
    # the axis direction (x, z) a fixed object faces (towards where the agent uses it);
    # None: away from the nearest room wall
    front: tuple[int, int] | None = None


@dataclass(frozen=True)
class CameraPose:
    """The egocentric camera (AI2-THOR convention)."""

    x: float
    y: float  # camera height, ~1.576 m in AI2-THOR (agent y 0.901 + 0.675)
    z: float
    rotation: float  # degrees about y; 0 faces +z, 90 faces +x
    horizon: float  # degrees; positive looks DOWN, range [-30, 60]
    field_of_view: float = 90.0  # vertical = horizontal for square frames (ALFRED's AI2-THOR: 60)


@dataclass
class Frames:
    """The three buffers of one render pass.

    ``depth`` is 0.0 where nothing was drawn (open sky above the walls: there is no
    ceiling). ``instance`` is 0 for floor, walls and background and ``k`` for
    ``objects[k - 1]`` of the ``render`` call; ``ids`` maps every drawn (non-hidden)
    object's ``k`` to its objectId.
    """

    rgb: np.ndarray  # H x W x 3 uint8
    depth: np.ndarray  # H x W float32, metres along the view axis; 0 where nothing
    instance: np.ndarray  # H x W int32
    ids: dict[int, str]

    def visible_ids(self, min_pixels: int = 1) -> dict[str, int]:
        """objectId -> pixel count for every object with at least ``min_pixels`` pixels."""
        counts = np.bincount(self.instance.ravel())
        return {
            self.ids[k]: int(n)
            for k, n in enumerate(counts)
            if k > 0 and n >= min_pixels and k in self.ids
        }

    def object_at(self, x: float, y: float) -> str | None:
        """The objectId under a TEACh-style click; ``x``, ``y`` relative in [0, 1]
        (x to the right, y down), or None for floor/walls/nothing."""
        h, w = self.instance.shape
        col = min(max(int(x * w), 0), w - 1)
        row = min(max(int(y * h), 0), h - 1)
        return self.ids.get(int(self.instance[row, col]))

    def mask(self, object_id: str) -> np.ndarray:
        """Boolean H x W mask of one object (all False if it is not in view)."""
        for k, oid in self.ids.items():
            if oid == object_id:
                return self.instance == k
        return np.zeros(self.instance.shape, dtype=bool)


@dataclass(frozen=True)
class RoomGeometry:
    """What the renderer needs of the static scene."""

    navigable: frozenset[tuple[int, int]]  # 0.25 m cells (x = i*0.25, z = j*0.25)
    bounds: tuple[float, float, float, float]  # xmin, xmax, zmin, zmax of the room extent
